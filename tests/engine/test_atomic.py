"""One file and a folder's set of files are replaced whole, with the user's umask, naming the file on failure."""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

from core import atomic
from core.atomic import (
    JOURNAL,
    STAGING_PREFIX,
    check_writable_folder,
    file_mode,
    recover_folder,
    remove_stale_temps,
    save_folder,
    write_atomic,
)
from core.errors import SaveError


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_written_files_follow_the_umask(tmp_path, umask_027):
    write_atomic(tmp_path / "a.txt", "x")
    assert mode(tmp_path / "a.txt") == 0o640 == file_mode()
    with save_folder(tmp_path / "m") as stage:
        write_atomic(stage / "vocab.txt", "a\n")
    assert mode(tmp_path / "m" / "vocab.txt") == 0o640
    assert mode(tmp_path / "m") == 0o750  # a folder the save created: mkdir under the umask


def test_a_shared_umask_makes_files_readable_by_others(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.txt") == 0o644


def test_a_stale_temp_of_a_dead_writer_is_removed_by_the_next_write(tmp_path):
    dead_pid = 2**22 + 12345  # above pid_max's default: no such process
    stale = tmp_path / f".tok.json.{dead_pid}.abc123.tmp"
    stale.write_text("half")
    live = tmp_path / f".tok.json.{os.getpid()}.def456.tmp"  # ours, and young: kept
    live.write_text("busy")
    other = tmp_path / ".notes.tmp"  # not a name we make: never touched
    other.write_text("mine")
    write_atomic(tmp_path / "tok.json", "{}")
    assert not stale.exists() and live.exists() and other.exists()
    assert remove_stale_temps(tmp_path) == []


def test_folder_save_replaces_the_set_and_removes_the_earlier_models_files(tmp_path):
    folder = tmp_path / "m"
    with save_folder(folder) as stage:
        write_atomic(stage / "vocab.json", "{}")
        write_atomic(stage / "merges.txt", "#version: 0.2\n")
        write_atomic(stage / "tokenizer.json", '{"bpe": 1}')
    (folder / "README.md").write_text("the user's own notes")
    with save_folder(folder) as stage:
        write_atomic(stage / "vocab.txt", "[UNK]\n")
        write_atomic(stage / "tokenizer.json", '{"wordpiece": 1}')
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "tokenizer.json", "vocab.txt"]
    assert json.loads((folder / "tokenizer.json").read_text()) == {"wordpiece": 1}


@pytest.mark.parametrize("failure", ["oserror", "interrupt", "bug"])
def test_a_failed_folder_save_changes_nothing(tmp_path, failure):
    folder = tmp_path / "m"
    with save_folder(folder) as stage:
        write_atomic(stage / "tokenizer.json", "old")
        write_atomic(stage / "vocab.txt", "old")
    before = {p.name: p.read_text() for p in folder.iterdir()}
    raised = {"oserror": SaveError, "interrupt": KeyboardInterrupt, "bug": ZeroDivisionError}[failure]
    with pytest.raises(raised):
        with save_folder(folder) as stage:
            write_atomic(stage / "tokenizer.json", "new")
            if failure == "oserror":
                raise OSError(errno.ENOSPC, "No space left on device", str(stage / "vocab.json"))
            if failure == "interrupt":
                raise KeyboardInterrupt
            1 / 0  # noqa: B018
    assert {p.name: p.read_text() for p in folder.iterdir()} == before


def test_a_full_disk_names_the_file_and_says_what_was_kept(tmp_path, monkeypatch):
    folder = tmp_path / "m"
    with save_folder(folder) as stage:
        write_atomic(stage / "tokenizer.json", "old")
    real_fsync = os.fsync

    def full(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp") and "vocab.json" in os.readlink(
            f"/proc/self/fd/{fd}"
        ):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(SaveError) as e:
        with save_folder(folder) as stage:
            write_atomic(stage / "tokenizer.json", "new")
            write_atomic(stage / "vocab.json", "{}")
    assert (
        str(e.value)
        == f"cannot write {folder / 'vocab.json'}: No space left on device ({folder} still holds its earlier files)"
    )
    assert sorted(p.name for p in folder.iterdir()) == ["tokenizer.json"]
    assert (folder / "tokenizer.json").read_text() == "old"


def test_a_failed_save_into_a_new_folder_leaves_no_folder(tmp_path):
    with pytest.raises(ZeroDivisionError):
        with save_folder(tmp_path / "new" / "m") as stage:
            write_atomic(stage / "tokenizer.json", "x")
            1 / 0  # noqa: B018
    assert not (tmp_path / "new" / "m").exists()


def _leave_staging(folder, committed: bool, files: dict[str, str], remove=()) -> None:
    """What a save killed before (or just after) its commit leaves behind."""
    stage = folder / f"{STAGING_PREFIX}999999.x"
    stage.mkdir()
    for name, text in files.items():
        (stage / name).write_text(text)
    if committed:
        (stage / JOURNAL).write_text(json.dumps({"install": sorted(files), "remove": list(remove)}))


def test_recovery_drops_an_uncommitted_save_and_finishes_a_committed_one(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "tokenizer.json").write_text("old")
    (folder / "vocab.json").write_text("old")
    (folder / "merges.txt").write_text("old")
    _leave_staging(folder, committed=False, files={"tokenizer.json": "half"})
    recover_folder(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["merges.txt", "tokenizer.json", "vocab.json"]
    assert (folder / "tokenizer.json").read_text() == "old"
    # killed during install: tokenizer.json already moved, vocab.txt not yet, merges/vocab.json to remove
    (folder / "tokenizer.json").write_text("new")
    _leave_staging(folder, committed=True, files={"vocab.txt": "new"}, remove=["vocab.json", "merges.txt"])
    recover_folder(folder)
    assert {p.name: p.read_text() for p in folder.iterdir()} == {"tokenizer.json": "new", "vocab.txt": "new"}


def test_the_output_folder_is_checked_before_any_work(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(SaveError, match="not a directory"):
        check_writable_folder(tmp_path / "file")
    with pytest.raises(SaveError, match="not a directory"):
        check_writable_folder(tmp_path / "file" / "sub")
    check_writable_folder(tmp_path / "new" / "deeper")
    assert not (tmp_path / "new").exists()  # the check leaves nothing behind
    with pytest.raises(SaveError, match="not enough space"):
        check_writable_folder(tmp_path, needed_bytes=1 << 62)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_folder_is_said_before_any_work(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(SaveError, match="Permission denied"):
            check_writable_folder(ro)
    finally:
        ro.chmod(0o755)


def test_an_unwritable_place_is_named_without_errno_or_temp_names():
    # the audit's case: saving over /proc/version showed "[Errno 13] ... /proc/.version.x.tmp"
    with pytest.raises(atomic.WriteError) as e:
        write_atomic(atomic.Path("/proc/version"), "x")
    message = str(e.value)
    assert (
        message.startswith("cannot write /proc/version: ")
        and "Errno" not in message
        and ".tmp" not in message
    )


def test_a_device_or_fifo_is_never_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, atomic.Path("/dev/null")):
        with pytest.raises(atomic.WriteError, match="not a regular file"):
            write_atomic(target, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_read_only_filesystem_is_said_before_any_work(tmp_path):
    # the probe really writes, so what plain permission bits do not show (a read-only
    # mount, even for root) is caught too
    import subprocess

    mount = tmp_path / "ro"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        with pytest.raises(SaveError, match="Read-only file system"):
            check_writable_folder(mount / "model")
        with pytest.raises(SaveError, match=f"cannot write into {mount}: Read-only file system"):
            check_writable_folder(mount)
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def _tree(root) -> dict[str, str]:
    """Every path under ``root`` with what it is: a file's text, a link's target, or a folder."""
    tree = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                tree[path] = "-> " + os.readlink(path)
            elif os.path.isdir(path):
                tree[path] = "folder"
            else:
                with open(path, encoding="utf-8", errors="replace") as f:
                    tree[path] = f.read()
    return tree


def test_a_hostile_journal_or_linked_staging_folder_touches_nothing_outside_the_folder(tmp_path):
    """A model folder someone gave the user: its leftover journal names files elsewhere, and a
    staging entry is a link to another folder with a journal. Opening it changes no file at all
    (before, both outside files were deleted and the linked folder's file was moved in)."""
    from core.formats.detect import open_tokenizer

    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "important.txt").write_text("keep me")
    (tmp_path / "elsewhere").mkdir()
    absolute = tmp_path / "elsewhere" / "absolute.txt"
    absolute.write_text("keep me too")
    other = tmp_path / "other"
    other.mkdir()
    (other / "vocab.txt").write_text("[UNK]\nother\n")
    (other / JOURNAL).write_text(json.dumps({"install": ["vocab.txt"], "remove": []}))
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "vocab.txt").write_text("[UNK]\nthe\ncat\n")
    stage = folder / f"{STAGING_PREFIX}999999.x"
    stage.mkdir()
    (stage / JOURNAL).write_text(
        json.dumps({"install": [], "remove": ["../victim/important.txt", str(absolute)]})
    )
    (folder / f"{STAGING_PREFIX}999998.y").symlink_to(other, target_is_directory=True)
    before = _tree(tmp_path)

    loaded = open_tokenizer(folder)

    assert _tree(tmp_path) == before
    assert loaded.tokenizer.encode("the cat").tokens == ["the", "cat"]
    said = "\n".join(loaded.warnings)
    assert "'../victim/important.txt', which is not a model file of this folder" in said
    assert f"{STAGING_PREFIX}999998.y: a link, not a save of this engine; left alone" in said
    assert all("\n" not in w for w in loaded.warnings)


@pytest.mark.parametrize(
    "journal",
    [
        {"install": ["vocab.txt"], "remove": ["/etc/passwd"]},
        {"install": ["../vocab.txt"], "remove": []},
        {"install": ["vocab.txt\0"], "remove": []},
        {"install": ["vocab.txt"], "remove": ["notes.txt"]},  # not a file a save writes
        {"install": "vocab.txt", "remove": []},
        [1, 2],
    ],
)
def test_recovery_accepts_only_plain_names_of_model_files(tmp_path, journal):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    stage = folder / f"{STAGING_PREFIX}999999.x"
    stage.mkdir()
    (stage / "vocab.txt").write_text("new")
    (stage / JOURNAL).write_text(json.dumps(journal))
    before = _tree(tmp_path)
    (refused,) = recover_folder(folder)
    assert refused.startswith(f"{stage}: an interrupted save left alone: ")
    assert _tree(tmp_path) == before


def test_a_staged_link_is_never_installed(tmp_path):
    (tmp_path / "secret").write_text("outside")
    folder = tmp_path / "m"
    folder.mkdir()
    stage = folder / f"{STAGING_PREFIX}999999.x"
    stage.mkdir()
    (stage / "vocab.txt").symlink_to(tmp_path / "secret")
    (stage / JOURNAL).write_text(json.dumps({"install": ["vocab.txt"], "remove": []}))
    before = _tree(tmp_path)
    (refused,) = recover_folder(folder)
    assert "the staged 'vocab.txt' is not a regular file" in refused
    assert _tree(tmp_path) == before


def test_a_save_refuses_a_name_recovery_would_refuse(tmp_path):
    with pytest.raises(SaveError, match="not a model file name"):
        with save_folder(tmp_path / "m") as stage:
            (stage / "notes.txt").write_text("x")
    assert not (tmp_path / "m").exists()
