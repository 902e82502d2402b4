"""The offline indexer's parts, one idea per module (:mod:`alphasearch.index.indexer` wires them):

- :mod:`.headings` — headings a reader sees: numbering patterns (``data/headings.json``), size, weight;
  running headers, column headers and contents pages left out;
- :mod:`.lines` — what a line's words make of it: a title, or a run-in head, a lead-in, a step, a table's row;
- :mod:`.filing` — a 10-K's statements printed after its last Item, under a node at Item level for Item 8;
- :mod:`.title` — the document's title when its metadata title is empty or an identifier;
- :mod:`.summaries` — term counts per page, added up the tree; extractive summaries of prose.
"""
