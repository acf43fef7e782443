"""Saving never corrupts an existing file: write beside it, then swap it in.

    >>> write_atomic(Path("vocab.txt"), "a\\nb\\n")   # vocab.txt is the old file or the whole new one

``write_temp_beside`` is the first half on its own, for formats that must have
several files complete before any of them replaces its target (GPT-2's pair).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_temp_beside(path: Path, data: str | bytes) -> str:
    """Write ``data`` (text as UTF-8, no newline translation) to a synced temp file next to ``path``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def write_atomic(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` in one step; on any failure the old file is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = write_temp_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
