"""Rank the pages a search read: page evidence blended with the value of the searched sections around
each page (1-based pages), and the section a page belongs to.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..models import DocumentIndex, SearchTrace, Section


def rank_pages(doc: DocumentIndex, trace: SearchTrace | None, page_scores: np.ndarray, *, k: int = 10) -> list[int]:
    """1-based pages best first: each page's own evidence (``page_scores``, index 0 =
    page 1, in [0, 1]) blended with the Q of the deepest searched section that
    contains it (so pages under an unexplored child keep their parent's value);
    at least ``k`` pages where the document has them."""
    n = doc.page_count
    section_q = np.zeros(n, dtype=np.float32)
    if trace is not None:
        stack = [trace.root]
        while stack:  # pre-order: deeper visited nodes overwrite their ancestors
            node = stack.pop()
            if not node.visits:
                continue
            a, b = node.section.pages
            section_q[max(0, a - 1):b] = node.q
            stack.extend(reversed(node.children))
    top = float(section_q.max()) if n else 0.0
    if top > 0:
        section_q = section_q / top
    combined = 0.8 * page_scores + 0.2 * section_q
    order = np.lexsort((np.arange(n), -combined))
    return [int(i) + 1 for i in order[:max(k, 5)]]


def section_of(root: Section, page: int) -> Section:
    """The deepest section whose range contains ``page``."""
    node = root
    while True:
        nxt = next((c for c in node.children if c.pages[0] <= page <= c.pages[1]), None)
        if nxt is None:
            return node
        node = nxt


def expanded_pages(question: str, scores, per_query: int = 2, more: Sequence[str] = (),
                   used: Callable[[str], int] | None = None) -> list[int]:
    """The best ``per_query`` pages (1-based) for each sub-query of :func:`alphasearch.read.items.sub_queries`
    (``used``: how many pages hold a phrase, see :func:`alphasearch.read.items.phrase_use`) and each of ``more``
    (e.g. :func:`expansion.neighbour_queries`); ``scores(text)`` gives one score per page (index 0 = page 1)."""
    from ..read.items import sub_queries

    out: list[int] = []
    for q in [*sub_queries(question, used=used), *more]:
        s = np.asarray(scores(q))
        for i in np.argsort(-s, kind="stable")[:per_query]:
            if s[i] > 0 and int(i) + 1 not in out:
                out.append(int(i) + 1)
    return out
