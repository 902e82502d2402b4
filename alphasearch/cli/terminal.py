"""What the command line prints is text, never terminal control: a model's reply or a PDF's text
could carry escape sequences (``ESC ] 0 ; … BEL`` retitles the window, ``ESC [ 2 J`` clears the
screen, a carriage return overwrites a line). :class:`Printable` wraps standard output and drops
C0 controls except tab and newline, DEL and the C1 controls (``0x9b`` is an 8-bit CSI)."""
from __future__ import annotations

import io
from typing import TextIO

CONTROLS = {c: None for c in (*range(32), 0x7F, *range(0x80, 0xA0)) if c not in (9, 10)}


def printable(text: str) -> str:
    return text.translate(CONTROLS)


class Printable(io.TextIOBase):
    """A text stream that writes to ``stream`` what :func:`printable` keeps."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")
