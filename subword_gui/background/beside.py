"""Work on a helper thread of the GUI process without freezing the window.

    >>> import gc, sys
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.tokens.token_view import segment_line
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> threshold, interval = gc.get_threshold()[0], sys.getswitchinterval()
    >>> with collector_paused(), gui_first():        # on the helper thread
    ...     line = segment_line(hug_bpe, "hugs " * 20_000)
    ...     gc.get_threshold()[0], sys.getswitchinterval()
    (0, 0.001)
    >>> (gc.get_threshold()[0], sys.getswitchinterval()) == (threshold, interval)   # as before
    True

A helper thread shares the GUI thread's interpreter lock. Two things made the window
freeze while one worked, each measured with ``benchmarks/bench_gui_responsiveness.py
--sample``:

1. The garbage collector: a helper making hundreds of thousands of objects triggers
   full collections, and each holds the lock over every object of the process
   (200-600 ms with a trained model and a 100,000-character word loaded).
   ``collector_paused`` keeps it off for the block; a caller whose objects are long-lived
   then calls ``gc.freeze()`` so the first collection after the block does not scan them.
2. The lock's switch interval: the GUI thread waits up to that long for the lock at each
   call into Python (a paint, a slot). ``gui_first`` makes it 1 ms while the block runs
   instead of Python's 5.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading

GUI_SWITCH_INTERVAL_S = 0.001

_lock = threading.Lock()
_helpers = 0  # blocks under gui_first now running
_interval_before = 0.0


_gc_lock = threading.Lock()
_pauses = 0  # collector_paused blocks now running, in any thread
_threshold_before = 0


@contextlib.contextmanager
def collector_paused():
    """No automatic garbage collection inside the block, in any thread, until the last such
    block of any thread ends.

    subtle: each block used to save ``gc.isenabled()``, call ``gc.disable()`` and put it back
    after; the window's thread and a helper doing that at once switched the collector back on
    under each other's pause (and the engine's ``encode_batch`` does the same), so the pause
    failed exactly when two of them overlapped. The blocks are counted instead, and they pause
    it through its first threshold (0: no automatic collection), which no ``gc.enable()`` of
    someone else's undoes.
    """
    global _pauses, _threshold_before
    with _gc_lock:
        if _pauses == 0:
            _threshold_before = gc.get_threshold()[0]
            gc.set_threshold(0)
        _pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _pauses -= 1
            if _pauses == 0:
                gc.set_threshold(_threshold_before)


@contextlib.contextmanager
def gui_first():
    """While the block runs, the interpreter lock changes hands every millisecond (the
    interval set before comes back once the last such block ends)."""
    global _helpers, _interval_before
    with _lock:
        if _helpers == 0:
            _interval_before = sys.getswitchinterval()
            sys.setswitchinterval(min(_interval_before, GUI_SWITCH_INTERVAL_S))
        _helpers += 1
    try:
        yield
    finally:
        with _lock:
            _helpers -= 1
            if _helpers == 0:
                sys.setswitchinterval(_interval_before)


def run_beside(func, *args, name: str = "helper") -> threading.Thread:
    """Run ``func(*args)`` on a daemon thread, collector paused and lock shared 1 ms at a time;
    what it made is frozen out of the collector's sight afterwards (long-lived tables)."""

    def work():
        with collector_paused(), gui_first():
            func(*args)
            gc.freeze()

    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return thread
