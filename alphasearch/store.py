"""The document library's old module: it moved to the package :mod:`alphasearch.library` (one idea
per module); this module only re-exports it so existing imports keep working."""
from __future__ import annotations

import os  # noqa: F401  (tests patch store.os: the os module itself)

from .library import *  # noqa: F401,F403
from .library import __all__  # noqa: F401
from .library.documents import default_build as _default_build  # noqa: F401
