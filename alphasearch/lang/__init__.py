"""Words and their meaning, below every stage: tokenizing and stemming (:mod:`.text`) and the domain
knowledge of ``alphasearch/data/`` loaded as patterns (:mod:`.domain`).
"""
