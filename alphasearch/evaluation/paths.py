"""Paths that come from a user or from a file stay inside the directory they belong to."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ..errors import OutsideDirectoryError


def inside(root: Path | str, name: str | os.PathLike[str], *, what: str = "file") -> Path:
    """``root / name`` resolved (symbolic links and ``..`` followed); :class:`OutsideDirectoryError`
    unless it lies inside ``root``. ``name`` may be relative (usual) or absolute (then it must
    still point inside ``root``)."""
    text = os.fspath(name)
    if not text.strip() or "\x00" in text:
        raise OutsideDirectoryError(f"The {what} name {_show(text)} is not a path inside {_show(root)}.")
    base = Path(root).expanduser().resolve()
    target = (base / text).resolve()
    if target != base and base not in target.parents:
        raise OutsideDirectoryError(f"The {what} {_show(text)} is outside {_show(base)}, where {what}s are read "
                                    "from; it was not opened.")
    return target


def inside_any(roots: Sequence[Path | str], path: str | os.PathLike[str], *, what: str = "directory") -> Path:
    """``path`` resolved, if it lies inside (or is) one of ``roots``; else :class:`OutsideDirectoryError`."""
    for root in roots:
        try:
            return inside(root, path, what=what)
        except OutsideDirectoryError:
            continue
    raise OutsideDirectoryError(f"The {what} {_show(os.fspath(path))} is not inside "
                                f"{' or '.join(_show(Path(r).expanduser()) for r in roots)}; it was not opened.")


def _show(value: object) -> str:
    text = str(value).replace("\n", " ")
    return repr(text if len(text) <= 120 else text[:119] + "…")
