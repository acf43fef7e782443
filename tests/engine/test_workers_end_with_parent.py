"""Every worker process is gone within 2 s of its parent's death, even a ``kill -9`` (``core.lifeline``).

Each test starts a parent process that starts two busy workers of one kind (encoding,
counting, the explorer's jobs, morpheme analysers), kills the parent with SIGKILL and
watches ``/proc``: before, encoding workers and the explorer's jobs lived on for good
(their parent 1), and counting workers and analysers until their current work ended.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GRACE_S = 2.0

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, ppid)`` of a process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[1] == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")  # a zombie has ended: it only waits to be reaped


def _kill_parent_and_watch(
    program: str, workers: int = 2, start_s: float = 60.0, busy: Path | None = None
) -> None:
    """``busy``: a folder where each worker leaves a file once at work; killed only then."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    parent = subprocess.Popen([sys.executable, "-c", program], env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + start_s
        children: list[int] = []
        while time.monotonic() < deadline:
            children = [pid for pid in _children(parent.pid) if _alive(pid)]
            at_work = busy is None or len(os.listdir(busy)) >= workers
            if (len(children) >= workers and at_work) or parent.poll() is not None:
                break
            time.sleep(0.05)
        assert parent.poll() is None, "the parent ended before its workers started"
        assert len(children) >= workers, f"only {len(children)} worker(s) started"
        time.sleep(0.5)  # let them get busy (a worker's own start-up is done)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < GRACE_S and any(_alive(pid) for pid in children):
            time.sleep(0.05)
        left = [pid for pid in children if _alive(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    for pid in left:  # do not leave them behind ourselves
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent by more than {GRACE_S} s"


def test_encoding_workers_end_with_their_parent():
    _kill_parent_and_watch(
        "import time, multiprocessing, core.encode_parallel as ep\n"
        "ep._encode_range = lambda job: time.sleep(600)  # busy: never back at the pipe\n"
        "jobs = [('x', 0, 1)] * 4\n"
        "context = multiprocessing.get_context(ep.start_method())\n"
        "for text in ep._in_order(context, 2, (None,), jobs): pass\n"
    )


def test_counting_workers_end_with_their_parent(tmp_path):
    fifo = tmp_path / "never-written"
    os.mkfifo(fifo)  # a worker opening it waits for a writer that never comes
    _kill_parent_and_watch(
        "import core.corpus_parallel as par\n"
        "from pathlib import Path\n"
        "from core.corpus import _Counter\n"
        "par.split_at_line_ends = lambda path, size, parts: [(0, 10), (10, 20)]\n"
        f"for _ in par.count_file_parallel(Path({str(fifo)!r}), _Counter(None), 'utf-8', 0, 20, 2): pass\n"
    )


def test_the_explorers_jobs_end_with_the_window():
    _kill_parent_and_watch(
        "import time\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from subword_gui.background.workers import Job\n"
        "app = QCoreApplication([])\n"
        "jobs = [Job(time.sleep, 600) for _ in range(2)]\n"
        "for job in jobs: job.start()\n"
        "time.sleep(600)\n"
    )


def test_morpheme_analysers_end_with_their_parent():
    """Killed while loading: Kiwi holds the interpreter lock for seconds, so only the kernel's
    signal can end the analyser in time."""
    _kill_parent_and_watch(
        "import time\n"
        "from core.morphemes import _Apart\n"
        "analysers = [_Apart('ko'), _Apart('ja')]\n"
        "time.sleep(600)\n"
    )


def test_dask_local_cluster_workers_end_with_their_parent(tmp_path):
    """A local Dask cluster's workers, busy in C code that holds the interpreter lock (as a
    long regex or analyser call does): before, Dask's own watch thread never ran and they
    lived on after a ``kill -9`` of the process that started them."""
    pytest.importorskip("distributed")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat\n" * 50, encoding="utf-8")
    busy = tmp_path / "busy"
    busy.mkdir()
    _kill_parent_and_watch(
        "import os\n"
        "import core.cluster_count as cc\n"
        "def count_range(*args):\n"
        f"    open(os.path.join({str(busy)!r}, str(os.getpid())), 'w').close()\n"
        "    sum(range(10**13))  # a C loop holding the interpreter lock\n"
        "cc.count_range = count_range\n"
        f"for _ in cc.count_words_on_cluster([{str(corpus)!r}], None, range_bytes=100): pass\n",
        start_s=120.0,
        busy=busy,
    )
