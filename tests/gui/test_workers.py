"""Worker processes are collected when their job ends: no zombie stays until the app quits."""

from __future__ import annotations

import os

import pytest

from core.corpus import count_words
from subword_gui.background import workers

WAIT_MS = 30_000


def _state(pid: int) -> str | None:
    """The process's state letter ("Z" for a zombie), or None once it has been collected."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("end", ["finished", "cancelled"])
def test_a_worker_is_collected_when_its_job_ends(qtbot, tmp_path, monkeypatch, end):
    # subtle: with no grace period the worker is usually still exiting when the job ends,
    # which is when a worker that is only terminated, never waited for, stays a zombie
    monkeypatch.setattr(workers, "KILL_AFTER_MS", 0)
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug pug pun\n" * 2000, encoding="utf-8")
    job = workers.Job(count_words, [str(corpus)])
    with qtbot.waitSignal(job.ended, timeout=WAIT_MS):
        job.start(stepping=end == "cancelled")
        pid = job._proc.pid
        if end == "cancelled":
            job.cancel()
    qtbot.waitUntil(lambda: _state(pid) is None, timeout=5000)


def test_the_messages_waiting_in_one_tick_reach_the_receivers_as_one_batch(qtbot, monkeypatch):
    # one ``events`` call per tick: the merge log inserts once, the progress bar and plot
    # update once, however many messages the child sent since the last tick
    import pickle

    from core.events import Progress

    job = workers.Job(count_words, [])
    got, results = [], []
    job.events.connect(got.append)
    job.finished.connect(results.append)
    batches = [[Progress("count", i, 9), Progress("count", i + 1, 9)] for i in (0, 2, 4)]
    for batch in batches:
        job._inbox.append(pickle.dumps(("events", workers.pack_events(batch))))
    job._inbox.append(pickle.dumps(("result", "done")))
    job._proc = object()  # as if started (nothing is reaped: the result comes last)
    monkeypatch.setattr(
        workers, "_reap", lambda proc, waited_ms=0: None
    )  # (a reap poll due from another test may fire)
    job._drain()
    assert got == [[e for batch in batches for e in batch]]
    assert results == ["done"]


def test_a_big_message_travels_in_slices_and_comes_back_whole():
    import pickle

    words = {f"w{i}": i for i in range(workers.SLICE_MIN_ITEMS * 2 + 7)}
    merges = [(f"a{i}", f"b{i}") for i in range(workers.SLICE_MIN_ITEMS + 1)]
    small = list(range(workers.SLICE_MIN_ITEMS - 1))  # shorter: stays in the message
    shared = {"merges": merges, "again": merges, "words": words, "small": small}
    raws = workers.sliced_messages(("result", shared))
    # each slice holds at most SLICE_ITEMS items, so none costs the window's thread long
    slices = [pickle.loads(raw) for raw in raws[:-1]]
    assert all(kind == "slice" and len(items) <= workers.SLICE_ITEMS for kind, (_n, _d, items) in slices)
    assert len(slices) == -(-len(words) // workers.SLICE_ITEMS) + -(-len(merges) // workers.SLICE_ITEMS)
    collector = workers.SliceCollector()
    taken = [collector.take(raw) for raw in raws]
    assert taken[:-1] == [None] * len(slices)
    kind, got = taken[-1]
    assert kind == "result" and got == shared
    assert list(got["words"]) == list(words)  # in the same order
    assert got["again"] is got["merges"]  # one table named twice is one table again
    assert not collector.collecting
    # a message without a long table is one message, as before
    (raw,) = workers.sliced_messages(("result", small))
    assert pickle.loads(raw) == ("result", small)


def test_a_trained_model_reaches_its_receivers_in_a_tick_of_its_own(qtbot, monkeypatch):
    # the events before it first, then (after the event loop had a turn) the model alone:
    # the merge log's last rows and the model's landing never add up in one turn
    from core.events import Progress
    from subword_gui.background.jobs import Trained

    job = workers.Job(count_words, [])
    got = []
    job.events.connect(got.append)
    job._proc = object()
    monkeypatch.setattr(
        workers, "_reap", lambda proc, waited_ms=0: None
    )  # (a reap poll due from another test may fire)
    before = [Progress("count", 1, 9)]
    trained = Trained({"table": list(range(workers.SLICE_MIN_ITEMS * 3))}, ["a line"], "held-out lines")
    job._inbox.append(workers.sliced_messages(("events", workers.pack_events(before)))[0])
    job._inbox.extend(workers.sliced_messages(("events", workers.pack_events([trained]))))
    job._drain()
    assert got == [before]
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    assert got[1] == [trained]


def test_overlapping_collector_pauses_of_two_threads_end_with_the_last():
    # each pause used to restore what it had seen: the first to end switched the collector on
    # under the other's pause (and a plain gc.disable()/enable() pair, as the engine's batch
    # encoder has, did the same)
    import gc
    import threading

    from subword_gui.background.beside import collector_paused

    before = gc.get_threshold()
    inside, leave = threading.Event(), threading.Event()

    def helper():
        with collector_paused():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=helper)
    with collector_paused():
        thread.start()
        assert inside.wait(5)
        gc.disable()
        gc.enable()  # someone else's pause ends: the collector must stay paused
    assert gc.get_threshold()[0] == 0  # the helper's pause still holds
    leave.set()
    thread.join(5)
    assert gc.get_threshold() == before and gc.isenabled()


def _turns_between(qtbot, schedule) -> int:
    """How many event-loop turns pass between a slot run from a timer and the slot it schedules
    with ``schedule(parent, slot)`` (a zero-interval timer counts the turns, as the benchmark's)."""
    from PySide6.QtCore import QObject, QTimer

    parent, log = QObject(), []
    meter = QTimer(parent)
    meter.setInterval(0)
    meter.timeout.connect(lambda: log.append("turn"))

    def first():
        log.append("first")
        schedule(parent, lambda: log.append("second"))

    meter.start()
    QTimer.singleShot(5, first)  # from a timer's slot, as the 50 ms drain runs
    qtbot.waitUntil(lambda: "second" in log, timeout=5000)
    meter.stop()
    return log[log.index("first") : log.index("second")].count("turn")


def test_next_turn_runs_its_slot_after_the_event_loop_had_a_turn(qtbot):
    # a drain that unpickled the trained model, the landing it scheduled "for the next turn" and
    # the repaint they caused made one 40-70 ms gap while the landing came in the same turn
    assert _turns_between(qtbot, workers.next_turn) >= 1


def test_a_zero_single_shot_from_a_timer_runs_in_the_same_turn(qtbot):
    # why next_turn exists: if Qt changes this, QTimer.singleShot(0, ...) would do as well
    from PySide6.QtCore import QTimer

    assert _turns_between(qtbot, lambda parent, slot: QTimer.singleShot(0, slot)) == 0


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no process priorities here")
def test_a_worker_is_niced_by_its_parent_never_made_less_nice():
    import subprocess
    import sys

    ours = os.getpriority(os.PRIO_PROCESS, 0)
    if ours + workers.CHILD_NICENESS > 19:
        pytest.skip("the tests run too nice already")
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == ours
        workers._lower_priority(child.pid)
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == ours + workers.CHILD_NICENESS
        os.setpriority(os.PRIO_PROCESS, child.pid, ours + workers.CHILD_NICENESS + 1)
        workers._lower_priority(child.pid)  # already nicer: left as it is
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == ours + workers.CHILD_NICENESS + 1
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities here")
def test_a_started_job_runs_at_the_background_niceness_from_its_start(qtbot, tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug pug pun\n" * 10, encoding="utf-8")
    job = workers.Job(count_words, [str(corpus)])
    with qtbot.waitSignal(job.ended, timeout=WAIT_MS):
        job.start(stepping=True)
        # read at once: the child has not reached its own _lower_priority yet, most likely
        wanted = min(os.getpriority(os.PRIO_PROCESS, 0) + workers.CHILD_NICENESS, 19)
        assert os.getpriority(os.PRIO_PROCESS, job._proc.pid) >= wanted
        job.cancel()


@pytest.mark.skipif(os.name != "posix" or not os.path.isdir("/proc/self"), reason="dlopen, /proc")
def test_llvm_preloaded_beside_the_window_is_the_library_llvmlite_then_uses():
    # in a fresh interpreter: the preload maps llvmlite's own library, and llvmlite, loading
    # after it, works (it takes another reference to the same library, its initialisers run once)
    import subprocess
    import sys

    script = (
        "from subword_gui.background.preload import preload_llvm, llvmlite_library\n"
        "import os\n"
        "path = llvmlite_library()\n"
        "assert path is not None\n"
        "assert preload_llvm()\n"
        "maps = open('/proc/self/maps').read()\n"
        "assert os.path.realpath(path) in maps, 'not mapped'\n"
        "from llvmlite import binding\n"
        "assert binding.llvm_version_info >= (10,)\n"
        "assert maps.count(os.path.realpath(path)) == open('/proc/self/maps').read().count(os.path.realpath(path))\n"
        "print('ok')\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_flush_timer_leaves_a_drain_due_next_turn_alone(qtbot, monkeypatch):
    # both fired in one turn: two drains of up to 12 ms each in one event-loop gap
    job = workers.Job(count_words, [])
    job._proc = object()
    monkeypatch.setattr(
        workers, "_reap", lambda proc, waited_ms=0: None
    )  # (a reap poll due from another test may fire)
    drains = []
    monkeypatch.setattr(job, "_drain", lambda: drains.append(1))
    job._again = True  # a drain is due in the next turn
    job._on_flush_timer()
    assert drains == []
    job._again = False
    job._on_flush_timer()
    assert drains == [1]
