"""The search stage: Monte Carlo Tree Search over a section tree (:mod:`.mcts`, pure), the judges that
score sections (:mod:`.scorers`; the model judge beside them), the page reader that expands a leaf into
its pages (:mod:`.reading`), query expansion and the baseline searches. Hands a
:class:`alphasearch.models.SearchTrace` and page scores to the answer stage.
"""
