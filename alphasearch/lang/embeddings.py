"""Static word embeddings (wordllama, its weights shipped in its wheel): one L2-normalised row per text.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

# --- static embeddings (wordllama, weights shipped in its wheel) --------------------------
_embed_lock = threading.Lock()


@lru_cache(maxsize=1)
def _wordllama():
    import wordllama
    from wordllama import WordLlama

    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


def embed(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised embeddings, one row per text (float32)."""
    with _embed_lock:
        vecs = np.asarray(_wordllama().embed(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs / np.maximum(norms, 1e-9)
