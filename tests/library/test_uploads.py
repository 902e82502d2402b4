"""Uploads stay bounded (issue 31): the Single PDF uploads kept for a reload are forgotten least recently used
first beyond ``Settings.max_uploads_mb`` (before, every upload was kept, with no quota)."""
from __future__ import annotations

import os
import time

from alphasearch.config import Settings
from alphasearch.library.uploads import UploadStore
from alphasearch.pipeline import Engine


def blob(i: int, mb: float = 0.4) -> bytes:
    return b"%PDF-1.7\n%" + bytes([i]) * int(mb * 2**20)


def test_uploads_beyond_the_quota_forget_the_least_recently_used(data_dir):
    store = UploadStore(data_dir, max_mb=1)
    first, second = store.put(blob(0)), store.put(blob(1))  # 0.8 MB: both kept
    os.utime(store.dir / f"{second}.pdf", (time.time() - 100, time.time() - 100))
    os.utime(store.dir / f"{first}.pdf", (time.time() - 200, time.time() - 200))
    assert store.get(first)  # asked about again (a reload): now the most recently used of the two
    third = store.put(blob(2))  # 1.2 MB: the least recently used goes
    assert {p.stem for p in store.dir.glob("*.pdf")} == {first, third}
    assert sum(p.stat().st_size for p in store.dir.glob("*.pdf")) <= 2**20
    big = store.put(blob(4, mb=1.5))  # larger than the quota alone: kept (the one just asked about), others gone
    assert {p.stem for p in store.dir.glob("*.pdf")} == {big}
    assert UploadStore(data_dir, max_mb=0).put(blob(5)) and len(list(store.dir.glob("*.pdf"))) == 2  # 0: no limit


def test_the_engine_applies_the_setting(data_dir):
    engine = Engine(Settings(data_dir=data_dir, engine="offline", max_uploads_mb=3))
    assert engine.uploads.max_bytes == 3 * 2**20
    assert Settings.from_env({"ALPHASEARCH_MAX_UPLOADS_MB": "10"}).max_uploads_mb == 10
