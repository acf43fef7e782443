"""Saving never loses or mixes files: one file is swapped in whole, a folder's set of files too.

    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "vocab.txt", "a\\nb\\n")   # vocab.txt is the old file or the whole new one
    >>> with save_folder(folder / "out", replaces=MODEL_FILES) as stage:
    ...     write_atomic(stage / "vocab.json", "{}")
    ...     write_atomic(stage / "merges.txt", "#version: 0.2\\n")
    >>> sorted(p.name for p in (folder / "out").iterdir())   # out/ held the old set until the block ended
    ['merges.txt', 'vocab.json']
    >>> shutil.rmtree(folder)

**One file** (``write_atomic``): written to a temp file beside the target
(``.NAME.PID.RANDOM.tmp``), flushed and fsynced, then renamed over the target,
and the folder fsynced. A reader sees the old file or the new one, never part.

**A set of files** (``save_folder``), e.g. ``tokenizer.json`` + ``vocab.json`` +
``merges.txt``, where a reader must never see files of two models side by side:

1. *Lock*: the saver holds an exclusive ``flock`` on the folder for the whole
   save, so two saves into one folder take turns, and a reader can tell a live
   save from a dead one (the kernel drops the lock when its process dies).
2. *Stage*: every new file is written into a staging folder *inside* the target
   (``.subword-save.PID.RANDOM/``: same filesystem, so renames are atomic; no
   write permission on the parent needed; works on a mount point), each fsynced.
3. *Commit*: a journal (``.subword-save.PID.RANDOM/COMMIT``: the names to
   install, and the earlier model's files to remove) is written atomically and
   fsynced. This rename is the one instant the save happens: before it, the
   folder holds the complete old set; after it, the new set is decided.
4. *Install*: each staged file is renamed over its target, files of the earlier
   model that the new one does not write (``replaces`` minus what was written,
   e.g. ``vocab.json`` when WordPiece is saved where BPE was) are removed, the
   folder is fsynced, the staging folder removed. SIGINT/SIGTERM are held back
   during steps 3-4, so Ctrl-C cannot stop a save half-way through installing.

**Recovery** (``recover_folder``), run at the start of every save and by every
loader (``core.formats.detect.open_tokenizer``) before it reads a folder: with the
folder lock free (no live save), a staging folder with a journal is installed
(finishing a save killed during step 4: it is idempotent), one without a journal
is deleted (a save killed before its commit: the old set is untouched), and so
are temp files of dead writers. With the lock held, a reader waits for a
committed save to finish installing (microseconds) and otherwise reads the old
set, which an uncommitted save has not touched. A journal is as untrusted as the
folder: recovery installs and removes only plain names of model files of this
folder, staged as regular files, and never follows a link; any other staging entry
is left alone with one line (``recover_folder`` returns them, a loader warns).

So at any instant of a ``kill -9``, Ctrl-C or full disk, every loader of this
engine sees the complete old set or the complete new set. A program that reads
the files directly (`tokenizers`, ``transformers``) sees a mix only inside step 4
(a few renames) or after a ``kill -9`` exactly there, until the next ``subword``
command or explorer opens or saves the folder.

Permissions: new files get ``0666 & ~umask``, as ``touch`` or ``open(..., "w")``
would (a temp file's private 0600 must not survive the rename); folders are
created with ``mkdir``, which applies the umask.

Failures name the file: an ``OSError`` (full disk, quota, permission, I/O error)
becomes a :class:`WriteError` (a :class:`~core.errors.SaveError`) naming the
target file, never a temp file, and a failed folder save says that the folder
still holds its earlier files. A target that is a FIFO, device or socket is
refused, not replaced.

Leaves out: Windows (no ``flock``: saves still stage and commit, but recovery
does not clean other processes' leftovers), and NFS without ``flock`` support
(the lock is skipped).
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import json
import os
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import overload

from core.errors import SaveError
from core.paths import special_kind

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

# Files a model save may write into a folder. A folder save removes those of them
# the new model does not write, so an earlier model's files never look current.
MODEL_FILES = (
    "tokenizer.json",
    "vocab.json",
    "merges.txt",
    "vocab.txt",
    "training.json",
    "source.model",
    "source.tiktoken",
    "tokenizer.model",
    "ranks.tiktoken",
    "codes",
    # a Hugging Face model folder's settings (core.formats.hf_config): an old model's chat
    # template or special tokens must not stay beside a new vocabulary
    "tokenizer_config.json",
    "special_tokens_map.json",
    "chat_template.jinja",
)

STAGING_PREFIX = ".subword-save."
JOURNAL = "COMMIT"
# What a journal may name besides MODEL_FILES: a project's run logs and its copy of a source
# file (core.formats.project), and save_gpt2's prefixed pair. Recovery refuses any other name:
# a journal is read from a folder someone may have given the user (see _journal_problem).
JOURNAL_NAMES = (*MODEL_FILES, "merges.jsonl", "unigram-rounds.jsonl")
JOURNAL_GLOBS = ("source-*", "*-vocab.json", "*-merges.txt")
JOURNAL_MAX_BYTES = 1 << 20  # ours hold a dozen names
STALE_TEMP_SECONDS = 3600  # an unlocked temp file this old is stale even if its pid was reused

_umask_lock = threading.Lock()


# -- modes ----------------------------------------------------------------------------------


def current_umask() -> int:
    """The process's umask, read without changing it where the system allows.

    subtle: ``os.umask`` can only be read by setting it, which would briefly apply
    umask 0 to files other threads create; Linux shows it in /proc instead.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new file gets under the current umask (0644 under umask 022).

    >>> file_mode() == 0o666 & ~current_umask()
    True
    """
    return 0o666 & ~current_umask()


# -- one file -------------------------------------------------------------------------------


class WriteError(SaveError):
    """A file that could not be written: ``cannot write PATH: REASON``, never a temp file's name."""

    def __init__(self, path: Path, reason: str):
        self.path, self.reason = Path(path), reason
        super().__init__(f"cannot write {path}: {reason}")


def write_temp_beside(path: Path, data: str | bytes) -> str:
    """Write ``data`` (text as UTF-8, no newline translation) to a synced temp file next to ``path``.

    The temp file already has the final mode; the caller renames it into place.
    Failures are a :class:`WriteError` naming ``path`` (as ``/proc/version``, not
    ``/proc/.version.123.x7f.tmp``).
    """
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise _naming(e, path) from None
    try:
        _lock(fd, blocking=True)  # held until closed: a live writer's temp is never "stale"
        os.fchmod(fd, file_mode())
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as e:
        _remove(tmp)
        if isinstance(e, OSError):
            raise _naming(e, path) from None
        raise
    return tmp


def write_atomic(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` in one step; on any failure the old file is untouched.

    A ``path`` that is a FIFO, device, socket or folder is refused, never replaced
    (saving to ``/dev/null`` as root must not swap the device for a file).
    """
    path = Path(path)
    kind = special_kind(path)
    if kind is not None:
        raise WriteError(path, f"it is {kind}, not a regular file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _naming(e, path) from None
    remove_stale_temps(path.parent, path.name)
    tmp = write_temp_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException as e:
        _remove(tmp)
        if isinstance(e, OSError):
            raise _naming(e, path) from None
        raise
    _fsync_folder(path.parent)


def remove_stale_temps(folder: Path, name: str | None = None) -> list[Path]:
    """Delete temp files that killed writers left in ``folder`` (of ``name`` only, if given).

    A temp file is stale when no process holds its lock and its writer is gone (or it
    is older than an hour). Returns what was removed.
    """
    removed: list[Path] = []
    pattern = f".{name}.*.tmp" if name else ".*.tmp"
    try:
        candidates = list(Path(folder).glob(pattern))
    except OSError:
        return removed
    for tmp in candidates:
        if _is_stale_temp(tmp):
            _remove(str(tmp))
            removed.append(tmp)
    return removed


def _is_stale_temp(tmp: Path) -> bool:
    parts = tmp.name.rsplit(".", 3)  # ".NAME", "PID", "RANDOM", "tmp"
    if len(parts) != 4 or not parts[1].isdigit():
        return False  # not one of ours
    try:
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        if not _lock(fd, blocking=False):
            return False  # a live writer holds it
        age = time.time() - os.fstat(fd).st_mtime
        return not _alive(int(parts[1])) or age > STALE_TEMP_SECONDS
    finally:
        os.close(fd)


# -- a set of files -------------------------------------------------------------------------


@contextlib.contextmanager
def save_folder(folder: Path, replaces: Iterable[str] = MODEL_FILES) -> Iterator[Path]:
    """Write a set of files into ``folder`` all-or-nothing; yields the staging folder to write them into.

    Files written into the staging folder (top level only) replace their namesakes
    in ``folder`` together when the block ends without an exception; names in
    ``replaces`` that the block did not write are removed from ``folder``; other
    files in ``folder`` are left alone. On an exception nothing in ``folder``
    changes (a folder created for this save is removed again) and the exception
    propagates, an ``OSError`` as a :class:`SaveError` naming the file.
    """
    folder, replaces = Path(folder), tuple(replaces)
    if folder.exists() and not folder.is_dir():
        raise SaveError(f"cannot save to {folder}: it exists and is not a directory")
    created = _make_folder(folder)
    lock_fd = _open_folder_lock(folder)
    stage = None
    committed = False
    try:
        _recover_locked(folder)
        with _signals_held():  # a Ctrl-C between mkdtemp and the assignment would lose the folder
            try:
                stage = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}.", dir=folder))
            except OSError as e:
                raise WriteError(folder, e.strerror or str(e)) from None
        try:
            yield stage
        except (OSError, WriteError) as e:
            raise _staged_error(e, stage, folder, created) from None
        written = sorted(p.name for p in stage.iterdir() if p.name != JOURNAL and not p.name.endswith(".tmp"))
        for name in (*written, *replaces):
            if not _journal_name_ok(name):  # recovery would refuse the journal: say so before the commit
                raise SaveError(f"cannot save {name!r} into {folder}: not a model file name (core.atomic)")
        with _signals_held():
            try:
                _commit(stage, written, [n for n in replaces if n not in written and _exists(folder / n)])
            except OSError as e:
                raise _staged_error(e, stage, folder, created) from None
            committed = True
            try:
                _install(folder, stage)
            except OSError as e:
                # subtle: past the commit the new set is decided; the staging folder and its
                # journal stay, and the next save or load of this folder finishes installing
                raise SaveError(
                    f"{folder}: the new files were saved but not all installed ({e.strerror or e}); "
                    "opening or saving this folder again finishes the job"
                ) from None
    except BaseException:
        if stage is not None and not committed:
            with _signals_held():
                shutil.rmtree(stage, ignore_errors=True)
        if created and not committed:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only if still empty
        raise
    finally:
        os.close(lock_fd)


def recover_folder(folder: Path) -> list[str]:
    """Finish or undo what killed saves left in ``folder`` (see the module docstring).

    Never blocks on an uncommitted live save; waits for a committed one to finish.
    Returns one line for each staging entry left alone because this engine did not
    write it (a link, a journal naming anything but a model file of this folder):
    recovery never touches a file outside ``folder``.
    """
    folder = Path(folder)
    try:
        entries = [
            p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX) or p.name.endswith(".tmp")
        ]
    except OSError:
        return []
    if not entries:
        return []  # the common case costs one listing
    try:
        lock_fd = _open_folder_lock(folder, blocking=False)
    except (OSError, SaveError):
        return []
    if lock_fd is None:  # a live save: wait for it only if it has committed
        if any(_is_stage(p) and _exists(p / JOURNAL) for p in entries):
            lock_fd = _open_folder_lock(folder)
        else:
            return []
    try:
        return _recover_locked(folder)
    except OSError as e:
        raise SaveError(
            f"{folder}: a save was interrupted while installing its files and cannot be finished "
            f"({e.strerror or e}); run the save again as a user who can write there"
        ) from None
    finally:
        os.close(lock_fd)


def check_writable_folder(folder: Path, needed_bytes: int = 0) -> None:
    """SaveError now, before long work, if ``folder`` cannot be created or written, or is nearly full.

    The check is a real one: a staging folder is created and removed (in the
    nearest existing parent if ``folder`` does not exist yet), so read-only
    mounts, ACLs and quotas are caught as well as plain permissions.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise SaveError(f"cannot save to {folder}: it exists and is not a directory")
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise SaveError(f"cannot create {folder}: {existing} is not a directory")
    try:
        probe = tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}.", dir=existing)
        os.rmdir(probe)
    except OSError as e:
        what = "write into" if existing == folder else f"create {folder} in"
        raise SaveError(f"cannot {what} {existing}: {e.strerror or e}") from None
    if needed_bytes:
        try:
            st = os.statvfs(existing)
        except (OSError, AttributeError):
            return
        free = st.f_bavail * st.f_frsize
        if free < needed_bytes:
            raise SaveError(
                f"not enough space to save into {folder}: {free:,} bytes free, about {needed_bytes:,} needed"
            )


# -- the steps ----------------------------------------------------------------------------


def _commit(stage: Path, install: list[str], remove: list[str]) -> None:
    """Step 3: the journal's rename is the instant the save happens."""
    for name in install:
        _fsync_path(stage / name)
    _fsync_folder(stage)
    journal = json.dumps({"install": install, "remove": remove}) + "\n"
    tmp = stage / f".{JOURNAL}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, journal.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, stage / JOURNAL)
    _fsync_folder(stage)


def _install(folder: Path, stage: Path) -> str | None:
    """Step 4, idempotent: a rerun after a kill part-way finishes the job.

    Returns why the journal was refused (nothing is then changed), else None.
    """
    journal = _read_journal(stage)
    if isinstance(journal, str):
        return journal
    install, remove = journal
    for name in install:
        if _exists(stage / name):
            os.replace(stage / name, folder / name)
    for name in remove:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(folder / name)
    _fsync_folder(folder)
    shutil.rmtree(stage, ignore_errors=True)
    return None


def _read_journal(stage: Path) -> tuple[list[str], list[str]] | str:
    """``(install, remove)`` of a staging folder's journal, or why it is refused.

    subtle: recovery runs on every load, so a journal is as untrusted as the folder
    someone gave the user. It may name only model files of this folder (plain names:
    no ``/``, ``..``, NUL or absolute path), each staged one a regular file: joined
    onto the folder unchecked, ``../victim`` or ``/home/x`` would delete or replace a
    file elsewhere, and a staged link would install a file from elsewhere.
    """
    path = stage / JOURNAL
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        return f"its journal cannot be read ({e.strerror or e}; a link is never followed)"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "its journal is not a regular file"
        data = os.read(fd, JOURNAL_MAX_BYTES + 1)
    except OSError as e:
        return f"its journal cannot be read ({e.strerror or e})"
    finally:
        os.close(fd)
    if len(data) > JOURNAL_MAX_BYTES:
        return f"its journal is larger than {JOURNAL_MAX_BYTES:,} bytes"
    try:
        journal = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return "its journal is not valid JSON"
    if not isinstance(journal, dict):
        return "its journal is not a JSON object"
    install, remove = journal.get("install"), journal.get("remove")
    if not (_names(install) and _names(remove)):
        return 'its journal\'s "install" and "remove" are not lists of names'
    assert isinstance(install, list) and isinstance(remove, list)
    for name in (*install, *remove):
        if not _journal_name_ok(name):
            return f"its journal names {name!r}, which is not a model file of this folder"
    for name in install:
        try:
            mode = os.lstat(stage / name).st_mode
        except FileNotFoundError:
            continue  # installed before a kill
        except OSError as e:
            return f"{name!r} cannot be read ({e.strerror or e})"
        if not stat.S_ISREG(mode):
            return f"the staged {name!r} is not a regular file (a link is never installed)"
    return install, remove


def _names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(n, str) for n in value)


def _journal_name_ok(name: str) -> bool:
    """True for a plain name of a file a save writes.

    >>> [_journal_name_ok(n) for n in ("vocab.json", "source-tekken.json", "../x", "/etc/x", "notes.txt")]
    [True, True, False, False, False]
    """
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        return False
    return name in JOURNAL_NAMES or any(fnmatch.fnmatchcase(name, glob) for glob in JOURNAL_GLOBS)


def _is_stage(path: Path) -> bool:
    """A staging folder of ours: a real folder with our prefix, never a link to one elsewhere."""
    try:
        return path.name.startswith(STAGING_PREFIX) and stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _recover_locked(folder: Path) -> list[str]:
    """With the folder lock held: install committed staging folders (oldest first), drop the rest.

    Returns one line per staging entry left alone (see :func:`_read_journal`).
    """
    refused: list[str] = []
    candidates = [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]
    for p in candidates:
        if p.is_symlink():
            refused.append(f"{p}: a link, not a save of this engine; left alone")
    stages = sorted((p for p in candidates if _is_stage(p)), key=lambda p: _mtime(p / JOURNAL))
    for stage in stages:
        if _exists(stage / JOURNAL):
            problem = _install(folder, stage)
            if problem:
                refused.append(f"{stage}: an interrupted save left alone: {problem}")
        else:
            shutil.rmtree(stage, ignore_errors=True)
    remove_stale_temps(folder)
    return refused


# -- helpers ----------------------------------------------------------------------------------


def _make_folder(folder: Path) -> bool:
    """Create ``folder`` (and parents) if missing; True if this call created it."""
    if folder.is_dir():
        return False
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        if not folder.is_dir():
            raise SaveError(f"cannot save to {folder}: it exists and is not a directory") from None
        return False
    except OSError as e:
        raise SaveError(f"cannot create {folder}: {e.strerror or e}") from None
    return True


@overload
def _open_folder_lock(folder: Path) -> int: ...
@overload
def _open_folder_lock(folder: Path, blocking: bool) -> int | None: ...
def _open_folder_lock(folder: Path, blocking: bool = True) -> int | None:
    """An fd of ``folder`` holding its exclusive lock (None if not blocking and taken)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise SaveError(f"cannot open {folder}: {e.strerror or e}") from None
    if not _lock(fd, blocking):
        os.close(fd)
        return None
    return fd


def _lock(fd: int, blocking: bool) -> bool:
    """Take an exclusive flock; False if ``blocking`` is off and another process holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return False
        return True  # a filesystem without flock (some NFS): go on unlocked
    return True


@contextlib.contextmanager
def _signals_held():
    """SIGINT and SIGTERM wait until the block ends (main thread, where Python handles them)."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _staged_error(e: OSError | WriteError, stage: Path, folder: Path, created: bool) -> SaveError:
    """The error of a write into the staging folder, naming the file the user asked for."""
    if isinstance(e, WriteError):
        filename, reason = str(e.path), e.reason
    else:
        filename, reason = e.filename, e.strerror or str(e)
    name = Path(filename).name if filename and str(filename).startswith(str(stage)) else None
    if name and name.startswith(".") and name.endswith(".tmp"):
        name = name[1:].rsplit(".", 3)[0]  # a temp file: name its target
    target = folder / name if name else folder
    kept = "nothing was written" if created else f"{folder} still holds its earlier files"
    return SaveError(f"cannot write {target}: {reason} ({kept})")


def _naming(e: OSError, path: Path) -> WriteError:
    """``e`` as a WriteError naming ``path`` (a temp file's name means nothing to a user)."""
    return WriteError(path, e.strerror or str(e))


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems cannot sync a directory; the rename is still atomic
    finally:
        os.close(fd)


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
