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
    monkeypatch.setattr(workers, "_reap", lambda proc: None)
    job._drain()
    assert got == [[e for batch in batches for e in batch]]
    assert results == ["done"]
