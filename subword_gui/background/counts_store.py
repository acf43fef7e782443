"""Word counts kept on disk between launches, keyed on the file and on what made the counts.

    >>> import tempfile
    >>> from core.corpus import count_lines
    >>> folder = Path(tempfile.mkdtemp()); (folder / "reviews.txt").write_text("hug pug hug", encoding="utf-8")
    11
    >>> counts = count_lines(["hug pug hug"])
    >>> key = counts_key(file_identity(folder / "reviews.txt"), "utf-8", "corpus", None)
    >>> has_counts(folder, key)
    False
    >>> save_counts(folder, key, counts); load_counts(folder, key) == counts
    True

A file is known by its resolved path, size, modification time (ns) and a fingerprint
of its first and last mebibyte (cheap for 100 MB, and it tells a file rewritten in place
with the same size and time); the key adds the encoding, what the counts are of (the
Corpus panel's words, or a training pipeline's pre-tokens) and :data:`FORMAT_VERSION`.
Each entry is one pickle, ``<sha256 of the key>.counts``, holding ``(version, key, value)``;
it is written atomically (``core.atomic.write_atomic``) and the folder is kept under
``max_bytes`` by dropping the least recently used entries.

A missing, stale or damaged entry reads as ``None`` (the caller counts again and saves over
it), never as an error: a cache may not stop a count. A failed save is silently skipped.

Leaves out: sharing between users (the folder is the user's own cache) and locking (two
explorers writing one key write the same counts; the rename keeps either one whole).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path

FORMAT_VERSION = 1
# All entries together, the least recently used dropped first (a 100 MB corpus keeps 8-10 MB a pipeline).
MAX_BYTES = 1 << 30
FINGERPRINT_BYTES = 1 << 20
SUFFIX = ".counts"

#: What reading an entry can raise: a torn or foreign file, a class that moved since it was
#: written (ImportError, AttributeError), a folder that is not one.
_UNREADABLE = (
    OSError,
    ImportError,
    AttributeError,
    EOFError,
    pickle.UnpicklingError,
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    MemoryError,
)


def file_identity(path: str | os.PathLike) -> tuple:
    """``(resolved path, size, mtime_ns, fingerprint)`` of a file; the fingerprint hashes the size
    and the first and last mebibyte, so a file rewritten in place is told apart even when its
    size and time are kept. Anything but a regular file raises OSError before it is opened
    (opening a FIFO blocks until someone writes to it)."""
    p = Path(path).resolve()
    st = p.stat()
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{p} is not a regular file")
    digest = hashlib.sha256(str(st.st_size).encode())
    with open(p, "rb") as f:
        digest.update(f.read(FINGERPRINT_BYTES))
        if st.st_size > FINGERPRINT_BYTES:
            f.seek(max(FINGERPRINT_BYTES, st.st_size - FINGERPRINT_BYTES))
            digest.update(f.read(FINGERPRINT_BYTES))
    return (str(p), st.st_size, st.st_mtime_ns, digest.hexdigest())


def counts_key(identity: tuple, encoding: str, kind: str, pipeline) -> tuple:
    """The key of one entry: the file, its (concrete) encoding, what was counted, how."""
    return (FORMAT_VERSION, identity, encoding, kind, pipeline)


def entry_path(folder: str | os.PathLike, key: tuple) -> Path:
    return Path(folder) / (hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:40] + SUFFIX)


def has_counts(folder: str | os.PathLike | None, key: tuple) -> bool:
    return folder is not None and entry_path(folder, key).is_file()


def load_counts(folder: str | os.PathLike | None, key: tuple):
    """The value saved under ``key``, or ``None`` (none, stale or damaged: a damaged one is removed)."""
    if folder is None:
        return None
    path = entry_path(folder, key)
    if not path.is_file():
        return None
    try:
        with open(path, "rb") as f:
            version, stored_key, value = pickle.load(f)
    except _UNREADABLE:
        _remove(path)
        return None
    if version != FORMAT_VERSION or stored_key != key:
        return None
    try:
        os.utime(path)  # recently used: dropped last
    except OSError:
        pass
    return value


def save_counts(folder: str | os.PathLike | None, key: tuple, value, max_bytes: int = MAX_BYTES) -> None:
    """Keep ``value`` under ``key`` (atomically), then drop the oldest entries above ``max_bytes``."""
    if folder is None:
        return
    from core.atomic import write_atomic
    from core.errors import SubwordError

    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps((FORMAT_VERSION, key, value), protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > max_bytes:
            return
        write_atomic(entry_path(folder, key), data)
    except (OSError, SubwordError, MemoryError):
        return  # a cache that cannot be written costs the next launch a count, nothing more
    trim(folder, max_bytes)


def trim(folder: str | os.PathLike, max_bytes: int = MAX_BYTES) -> list[Path]:
    """Remove the least recently used entries until the rest fit in ``max_bytes``; the removed."""
    entries = []
    try:
        for p in Path(folder).iterdir():
            if p.name.endswith(SUFFIX):
                st = p.stat()
                entries.append((st.st_mtime_ns, st.st_size, p))
    except OSError:
        return []
    entries.sort(reverse=True)  # newest first
    total = 0
    removed = []
    for _, size, p in entries:
        total += size
        if total > max_bytes:
            _remove(p)
            removed.append(p)
    return removed


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
