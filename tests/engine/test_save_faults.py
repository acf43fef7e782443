"""Fault injection: kill -9, Ctrl-C and a full disk at every step of a folder save.

After each fault the folder must load as exactly one model, the old one or the
new one, with no file of the other beside it and no temp or staging file left
once it has been opened again. The saves are the real ones: ``subword train``'s
(``core.cli._save_outputs``: BPE writes tokenizer.json + vocab.json + merges.txt,
WordPiece tokenizer.json + vocab.txt, so each save also removes the other's
files) and the project folder's.

- every step: a forked child makes one save and kills itself (SIGKILL) or
  interrupts itself (SIGINT) just before its k-th file-system call, for every k;
- a real loop: a subprocess saves the two models in turn, and is killed at
  random moments (a few in CI, many under ``-m slow``);
- a full disk: a small tmpfs (as root, where mounting is allowed), else the
  same ``OSError(ENOSPC)`` injected into the write.
"""

from __future__ import annotations

import errno
import io
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core import atomic
from core.atomic import MODEL_FILES
from core.cli import _save_outputs
from core.errors import SaveError
from core.events import drain
from core.formats.detect import open_tokenizer
from core.formats.project import TrainingRecord, save_project
from core.options import TrainOptions
from core.training import train_from_counts

ROOT = Path(__file__).resolve().parents[2]
HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "철수는": 3, "먹고": 2}
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and POSIX signals")


@pytest.fixture(scope="module")
def models():
    """Two models whose files differ in name and content: BPE and WordPiece."""
    bpe = drain(train_from_counts(HUG, TrainOptions("bpe", vocab_size=30)))
    wordpiece = drain(train_from_counts(HUG, TrainOptions("wordpiece", vocab_size=40)))
    assert bpe.get_vocab() != wordpiece.get_vocab()
    return {"bpe": bpe, "wordpiece": wordpiece}


FILES = {
    "bpe": {"tokenizer.json", "vocab.json", "merges.txt"},
    "wordpiece": {"tokenizer.json", "vocab.txt"},
}


def save_cli(tok, folder: Path) -> None:
    _save_outputs(tok, folder, io.StringIO())


def save_as_project(tok, folder: Path) -> None:
    save_project(tok, folder, TrainingRecord(corpus=["hug.txt"]))


SAVERS = {"cli": save_cli, "project": save_as_project}


def assert_one_model(folder: Path, models, saver: str) -> str:
    """The folder opens as exactly one of ``models``, holding that model's files and no other's."""
    loaded = open_tokenizer(folder)  # finishes or undoes a killed save first
    vocab = loaded.tokenizer.get_vocab()
    which = [name for name, tok in models.items() if tok.get_vocab() == vocab]
    assert len(which) == 1, f"{folder} holds neither model: {sorted(vocab)[:10]}"
    name = which[0]
    present = {p.name for p in folder.iterdir()}
    expected = {"tokenizer.json", "training.json"} if saver == "project" else FILES[name]
    assert present & set(MODEL_FILES) == expected, (name, present)
    assert not [p for p in present if p.startswith(".")], f"leftovers in {folder}: {present}"
    # every file of the set, read on its own, is the same model
    tokenizer_json = open_tokenizer(folder / "tokenizer.json").tokenizer.get_vocab()
    assert tokenizer_json == vocab
    if saver == "cli" and name == "bpe":
        assert (
            open_tokenizer(folder / "vocab.json").tokenizer.model.get_vocab()
            == models["bpe"].model.get_vocab()
        )
    elif saver == "cli":
        assert set(open_tokenizer(folder / "vocab.txt").tokenizer.get_vocab()) == set(vocab)
    return name


# -- every step, by fork --------------------------------------------------------------------

STEPPED = ("replace", "fsync", "unlink", "rename", "mkdir", "rmdir", "open")


def _run_child(save, tok, folder: Path, kill_at: int, sig: int) -> tuple[int, int]:
    """Fork; the child saves ``tok`` and sends itself ``sig`` before its ``kill_at``-th step.

    Returns (how the child ended, the number of steps it took if it finished).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            steps = [0]

            def counting(real):
                def step(*args, **kwargs):
                    steps[0] += 1
                    if steps[0] == kill_at:
                        os.kill(os.getpid(), sig)
                    return real(*args, **kwargs)

                return step

            for name in STEPPED:
                setattr(os, name, counting(getattr(os, name)))
            try:
                save(tok, folder)
            except KeyboardInterrupt:
                code = 130
            os.write(write_end, str(steps[0]).encode())
        except BaseException:  # noqa: BLE001 - report, never unwind into the parent's pytest
            code = 99
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as r:
        steps = r.read()
    _, status = os.waitpid(pid, 0)
    return status, int(steps or 0)


@pytest.mark.parametrize(
    "saver, stride",
    [("cli", 1), ("project", 3), pytest.param("project", 1, marks=pytest.mark.slow)],
    ids=["cli", "project-every-3rd", "project"],
)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_a_fault_at_every_step_of_a_save_leaves_one_model(tmp_path, models, saver, stride, sig):
    save = SAVERS[saver]
    folder = tmp_path / "model"
    save(models["bpe"], folder)
    # how many steps a whole save takes (WordPiece over BPE, and back)
    _, total = _run_child(save, models["wordpiece"], folder, 0, sig)
    assert total > 10 and assert_one_model(folder, models, saver) == "wordpiece"
    seen = set()
    for k in [*range(1, total + 1, stride), total, total + 1]:
        # always the same save (WordPiece over BPE), so step k is the same instant each time
        save(models["bpe"], folder)
        new = "wordpiece"
        status, _ = _run_child(save, models[new], folder, k, sig)
        if sig == signal.SIGKILL and k <= total:
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (k, status)
        else:
            # Ctrl-C: the save stops cleanly (130) or, held back during install, ends first
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) in (0, 130), (k, status)
            leftovers = [p.name for p in folder.iterdir() if p.name.startswith(".")]
            assert not leftovers, (k, leftovers)  # an interrupted save cleans up after itself
        seen.add(assert_one_model(folder, models, saver) == new)
    assert seen == {True, False}  # some faults kept the old model, some came after the commit


# -- a real save loop, killed at random moments --------------------------------------------

LOOP = """
import faulthandler, pickle, signal, sys
from pathlib import Path
faulthandler.register(signal.SIGUSR1)  # where it is, if it outlives its signal (see _outlive)
# as a terminal's Ctrl-C finds it: a test run started in the background (nohup, `&`) ignores
# SIGINT, and children inherit that, so the loop never ended (seen in a CI rehearsal)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {root!r})
from tests_save_loop_helpers import save
models = pickle.load(open({models!r}, "rb"))
folder = Path({folder!r})
print("ready", flush=True)
n = 0
while True:
    save(models["wordpiece" if n % 2 == 0 else "bpe"], folder)
    n += 1
"""


def _loop(tmp_path, models, rounds: int, seed: int) -> set[str]:
    folder = tmp_path / "model"
    save_cli(models["bpe"], folder)
    with open(tmp_path / "models.pickle", "wb") as f:
        pickle.dump(models, f)
    (tmp_path / "tests_save_loop_helpers.py").write_text(
        "import io\nfrom core.cli import _save_outputs\n"
        "def save(tok, folder):\n    _save_outputs(tok, folder, io.StringIO())\n"
    )
    script = LOOP.format(root=str(tmp_path), models=str(tmp_path / "models.pickle"), folder=str(folder))
    rng = random.Random(seed)
    seen = set()
    for _ in range(rounds):
        child = subprocess.Popen(
            [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert child.stdout.readline().strip() == b"ready", child.stderr.read()
        time.sleep(rng.uniform(0.0, 0.25))
        sent = rng.choice([signal.SIGKILL, signal.SIGINT])
        child.send_signal(sent)
        _outlive(child, sent)
        seen.add(assert_one_model(folder, models, "cli"))
    return seen


def _outlive(child: subprocess.Popen, sent: signal.Signals) -> None:
    """Wait for a signalled child; one still alive after 60 s fails with its signal state
    (``/proc``: pending, blocked, ignored, caught) and its stack."""
    try:
        child.wait(timeout=60)
        return
    except subprocess.TimeoutExpired:  # say where it hangs, then fail
        status = Path(f"/proc/{child.pid}/status").read_text().splitlines()
        state = [line for line in status if line.split(":")[0] in _PROC_FIELDS]
        child.send_signal(signal.SIGUSR1)
        time.sleep(1)
        child.kill()
        stack = child.communicate()[1].decode()[-4000:]
        pytest.fail(f"the save loop outlived {sent!r} by 60 s; {state}:\n{stack}")


_PROC_FIELDS = ("State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")


def test_a_save_loop_killed_at_random_moments_leaves_one_model(tmp_path, models):
    _loop(tmp_path, models, rounds=4, seed=15)


@pytest.mark.slow
def test_a_save_loop_killed_at_many_random_moments_leaves_one_model(tmp_path, models):
    assert _loop(tmp_path, models, rounds=40, seed=1515) == {"bpe", "wordpiece"}


# -- a full disk ------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs if this machine lets us mount one, else None."""
    mount = tmp_path / "disk"
    mount.mkdir()
    ok = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True
        ).returncode
        == 0
    )
    yield mount if ok else None
    if ok:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_a_full_disk_keeps_the_old_model_and_names_the_file(small_disk, tmp_path, models, monkeypatch):
    big = drain(
        train_from_counts(
            {f"w{i}x{i * 7}": 1 + i % 5 for i in range(3000)}, TrainOptions("bpe", vocab_size=4000)
        )
    )
    if small_disk is not None:
        folder = small_disk / "model"
        save_cli(models["wordpiece"], folder)
    else:  # no tmpfs here: the same failure, injected where the kernel would report it
        folder = tmp_path / "model"
        save_cli(models["wordpiece"], folder)
        real_write = atomic.os.fsync
        calls = [0]

        def full(fd):
            calls[0] += 1
            if calls[0] == 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(fd)

        monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(
        SaveError,
        match=r"cannot write .*model/\S+: No space left on device \(.* still holds its earlier files\)",
    ):
        save_cli(big, folder)
    monkeypatch.undo()
    assert assert_one_model(folder, models, "cli") == "wordpiece"
