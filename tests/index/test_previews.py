"""Previews shared fairly (issue 31): while one visitor's three slow-to-draw pages are previewed, another
visitor's ordinary page is drawn in about the time it takes alone (one worker for everyone: 33.5 s instead of
0.04 s), and a page that failed is not drawn again."""
from __future__ import annotations

import threading
import time

import pytest

import pdf_factory
from alphasearch import errors
from alphasearch.index import isolation, previews


def ordinary(i: int = 0) -> bytes:
    return pdf_factory.make_pdf([[f"An ordinary page {i} about revenue."]])


def test_a_visitors_slow_pages_hold_one_worker_and_fail_once(monkeypatch):
    monkeypatch.setattr(isolation, "PREVIEW_SECONDS", 4.0)
    monkeypatch.setattr(previews, "_failed", type(previews._failed)())
    warm = [threading.Thread(target=previews.preview, args=(ordinary(i), 1), kwargs={"owner": f"warm{i}"})
            for i in range(2)]  # both workers started
    for t in warm:
        t.start()
    for t in warm:
        t.join()
    start = time.perf_counter()
    assert previews.preview(ordinary(9), 1, owner="B").startswith(b"\x89PNG")
    alone = time.perf_counter() - start

    slow = [pdf_factory.tiny_tiles_pdf(text=b"Tiles %d." % i) for i in range(3)]
    failures: list[BaseException] = []

    def a_previews(data: bytes) -> None:
        try:
            previews.preview(data, 1, owner="A")
        except errors.PDFError as exc:
            failures.append(exc)

    threads = [threading.Thread(target=a_previews, args=(d,)) for d in slow]
    for t in threads:
        t.start()
    time.sleep(0.5)
    start = time.perf_counter()
    assert previews.preview(ordinary(10), 1, owner="B").startswith(b"\x89PNG")
    shared = time.perf_counter() - start
    print(f"B's ordinary page: {alone:.2f} s alone, {shared:.2f} s beside A's three slow pages")
    assert shared < alone + 2.0
    for t in threads:
        t.join(60)
    assert len(failures) == 3 and all("took longer than 4 s" in str(e) for e in failures)
    start = time.perf_counter()
    with pytest.raises(errors.UnsafePDFError) as again:
        previews.preview(slow[0], 1, ("a highlight",), owner="C")
    assert time.perf_counter() - start < 0.5 and str(again.value) == str(failures[0])
