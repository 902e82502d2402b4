"""Progress on stderr for long CLI commands: a tqdm bar on a terminal, plain lines otherwise.

Piped or logged (stderr not a terminal) a carriage-return bar would write hundreds of
overwritten lines into the log; there the progress is one line per message change
(at most one per ``step`` of the fraction), e.g. ``[ 40%] indexed report.pdf``.
"""
from __future__ import annotations

import sys
from typing import TextIO


class CliProgress:
    """A ``progress(message, fraction)`` callback (fraction in [0, 1]); ``close()`` when done."""

    def __init__(self, *, stream: TextIO | None = None, enabled: bool = True, step: float = 0.1):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.step = step
        self._bar = None
        self._last: tuple[str, float] | None = None
        if enabled and self.stream.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=100, file=self.stream, bar_format="{l_bar}{bar}| {desc}", leave=True)

    def __call__(self, message: str, fraction: float) -> None:
        if not self.enabled:
            return
        fraction = max(0.0, min(1.0, float(fraction)))
        if self._bar is not None:
            self._bar.set_description_str(message[:70], refresh=False)
            self._bar.update(round(fraction * 100) - self._bar.n)
            return
        last = self._last
        if last is not None and last[0] == message and fraction - last[1] < self.step and fraction < 1.0:
            return
        self._last = (message, fraction)
        print(f"[{fraction:4.0%}] {message}", file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
