"""A small cache of what is worked out once per document (its vocabulary, its flat ranker, the words it prints),
shared by the threads that answer questions: the most recently used ``size`` entries, by a key the caller names
(a document's id, with whatever else tells its versions apart). Two threads missing the same key both build it;
the one that finishes last is kept."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value kept for ``key``, else ``build()``'s, kept."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = build()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value
