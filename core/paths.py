"""What a path must be before we open it: a regular file, said in one line if not.

Opening a FIFO for reading blocks until a writer appears (forever, for a named
pipe nobody writes to); reading a character device such as ``/dev/zero`` never
ends; a socket cannot be opened at all. So every corpus and model path is
checked with ``stat`` (which never blocks) before it is opened.

    >>> special_kind(Path("/dev/null"))
    'a character device'

Leaves out: files that change kind between the check and the open (a race only
another program can cause; the open then fails or blocks as it would anyway).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from core.errors import SubwordError

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a directory"),
)


def special_kind(path: Path) -> str | None:
    """What ``path`` is if it exists and is not a regular file ("a named pipe (FIFO)", ...), else None.

    Symbolic links are followed: a link to a regular file is a regular file.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing or unreadable: the caller's own check says so
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "not a regular file"


def require_regular_file(
    path: Path, error: type[SubwordError], what: str = "a file", allow_folder: bool = False
) -> None:
    """Raise ``error`` naming ``path`` unless it is a regular file (or a folder, with ``allow_folder``).

    A missing path passes: saying so is the caller's concern.

    ``require_regular_file(Path("/dev/zero"), CorpusError, "a text file")`` raises
    ``CorpusError("/dev/zero is a character device, not a text file")``.
    """
    kind = special_kind(path)
    if kind is not None and not (allow_folder and kind == "a directory"):
        raise error(f"{path} is {kind}, not {what}")
