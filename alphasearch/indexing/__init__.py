"""The offline indexer's parts, one idea per module (:mod:`alphasearch.indexer` wires them):

- :mod:`.summaries` — term counts per page, added up the tree; extractive summaries.
"""
