"""A worker process ends when its parent dies, however the parent died (even ``kill -9``). The first
thing a worker does (not a doctest: it would tie the process that runs it to its parent)::

    exit_with_parent(parent_pid, by_signal=started_from_main_thread)

A parent killed with SIGKILL runs no clean-up, so nothing it could do would stop its
workers: each worker must notice by itself. Two ways, both taken:

- on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment
  its parent goes, even while the worker is inside C code holding the interpreter lock
  (a morpheme analyser loading its model, a compiled kernel);
- everywhere, a watchdog thread that checks every :data:`POLL_S` whether the parent is
  still the one that started it (a dead parent's children are given to another process),
  and ends this process if not.

subtle: the kernel's "parent" in ``PR_SET_PDEATHSIG`` is the *thread* that started the
worker. A worker started from a helper thread would be killed when that thread ends, with
its parent alive, so the signal is asked for only when the parent says it started the
worker from its main thread (``by_signal``); the watchdog covers the other cases.

Leaves out: a worker whose parent is alive but stuck (that is the parent's to handle).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

POLL_S = 0.25  # well inside the 2 s a worker may outlive its parent
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def started_from_main_thread() -> bool:
    """Whether a worker started now may ask the kernel to kill it with its parent (see above)."""
    return threading.current_thread() is threading.main_thread()


def exit_with_parent(parent: int, by_signal: bool = False) -> None:
    """End this process (at once, no clean-up) when process ``parent`` dies; call it first thing.

    ``by_signal``: the parent started this process from its main thread, so the kernel may
    kill it with the parent (Linux).
    """
    if by_signal and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl here: the watchdog still runs
            pass
    if os.getppid() != parent:  # it died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="exit with parent", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_S)
        if os.getppid() != parent:
            os._exit(1)
