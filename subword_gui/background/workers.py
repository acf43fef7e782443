"""Run an engine generator off the GUI thread and deliver its events in coalesced batches.

    >>> from PySide6.QtCore import QEventLoop
    >>> from core.options import TrainOptions
    >>> from subword_gui.background.jobs import train_job
    >>> source = ("lines", ["hug hug pug pun bun hugs"])
    >>> job = Job(train_job, source, TrainOptions("bpe", vocab_size=13), None)
    >>> events, results = [], []
    >>> _ = job.events.connect(events.extend), job.finished.connect(results.append)
    >>> loop = QEventLoop(); _ = job.ended.connect(loop.quit)
    >>> job.start()          # or job.start(stepping=True) then job.step() per click
    >>> loop.exec()          # the window's own event loop does this wait (here about half a second)
    0
    >>> [e.new_token for e in events if type(e).__name__ == "MergeEvent"]
    ['ug', 'hug', 'un', 'bun', 'pug']
    >>> [(p.vocab_size, p.tokens_per_word) for p in results[0].points][-2:]   # the curve: tokens per word by size
    [(12, 1.5), (13, 1.3333333333333333)]

Why a child process and not a QThread: a trainer is pure-Python CPU work. In
a thread it holds the interpreter lock, and every Python callback of the GUI
thread (each ``data()`` call of a table being painted) then waits up to the
switch interval for it: painting stutters for hundreds of milliseconds. In a
child process the GUI keeps its interpreter to itself.

How it flows:
1. ``start()`` spawns a process running ``func(*args)`` (a generator from
   ``subword_gui.background.jobs``, so everything is picklable).
2. The child sends events in batches at most every ``CHILD_FLUSH_S`` and checks
   for control messages (cancel, step, run) between batches.
3. A reader thread receives the raw messages (blocking reads release the
   interpreter lock); a ``FLUSH_MS`` QTimer on the GUI thread unpickles what has
   arrived (within a time budget) and emits ``events(list)`` once per tick; then
   ``finished(result)``, ``failed(message)`` or ``cancelled()``, exactly one of them, once.

Stepping (for teaching): the child stops after each MergeEvent / UnigramRound
and waits for ``step()``; ``run()`` lets it go to the end. Cancel stops it at the
next ``yield`` (or kills it if it does not answer within a second); nothing
already loaded in the window is touched.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import io
import multiprocessing as mp
import os
import pickle
import sys
import threading
import time
import traceback

from PySide6.QtCore import QObject, QTimer, Signal

from core.lifeline import exit_with_parent, started_from_main_thread
from subword_gui.background.beside import collector_paused

FLUSH_MS = 50
CHILD_FLUSH_S = 0.04
CHILD_MAX_BATCH = 5000
DRAIN_BUDGET_S = 0.012  # never spend longer than this per tick unpickling batches (the turn also paints)
KILL_AFTER_MS = 1000
FREEZE_BYTES = 256 * 1024  # messages this big carry long-lived data (see Job._drain)
CHILD_NICENESS = 5

BIG_EVENTS = ("Chunk", "Trained")  # events that carry much data: sent, and handled, on their own
SLICE_MIN_ITEMS = 10_000  # in a big message, a list or dict this long travels in slices ...
SLICE_ITEMS = 4_000  # ... of this many items (about a millisecond each to unpickle)
_CTX = mp.get_context("spawn")  # subtle: fork would copy the GUI's threads and Qt state


def _is_step_event(event) -> bool:
    name = type(event).__name__
    return name in ("MergeEvent", "UnigramRound")


_FIELDS: dict[type, tuple[str, ...]] = {}


def pack_events(events: list) -> list:
    """Events as ``(class, field values)`` for the pipe: unpickling a frozen slotted
    dataclass calls ``dataclasses.fields`` per object (~0.1 ms each, so 500 merge events
    held the GUI thread 50 ms); rebuilding them with ``cls(*values)`` costs microseconds.
    The engine's own events are named tuples now (``core.records``), which pickle as fast
    and pass as they are; any slotted dataclass event still goes this way.

    >>> from core.events import Progress
    >>> unpack_events(pack_events([Progress("count", 1, 2)])) == [Progress("count", 1, 2)]  # core.events
    True
    """
    out = []
    for event in events:
        cls = type(event)
        names = _FIELDS.get(cls)
        if names is None:
            names = ()
            if dataclasses.is_dataclass(event) and "__slots__" in cls.__dict__:
                fields = dataclasses.fields(event)
                if all(f.init for f in fields):
                    names = tuple(f.name for f in fields)
            _FIELDS[cls] = names
        out.append((cls, tuple(getattr(event, n) for n in names)) if names else (None, event))
    return out


def unpack_events(packed: list) -> list:
    """The inverse of :func:`pack_events`."""
    return [cls(*values) if cls is not None else values for cls, values in packed]


class _SlicingPickler(pickle.Pickler):
    """Pickles a message with each list or dict of ``SLICE_MIN_ITEMS`` items or more left out,
    named by a number (pickle's persistent ids); ``big`` holds them in that order."""

    def __init__(self, file):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.big: list = []
        self._named: dict[int, int] = {}  # id(container) -> its number (a container shared stays shared)

    def persistent_id(self, obj):
        kind = type(obj)
        if (kind is list or kind is dict) and len(obj) >= SLICE_MIN_ITEMS:
            number = self._named.get(id(obj))
            if number is None:
                number = self._named[id(obj)] = len(self.big)
                self.big.append(obj)
            return number
        return None


def sliced_messages(message) -> list[bytes]:
    """``message`` pickled as several small messages: first its long lists and dicts in slices
    (``("slice", number, is_dict, items)``), then the message itself, naming them by number.
    :class:`SliceCollector` puts them back together.

    subtle: the trained 32 k-token BPE model is five such tables; unpickled in one piece it held
    the window's thread 33-50 ms. In slices the drain spreads them over event-loop turns.

    >>> collector = SliceCollector()
    >>> [collector.take(raw) for raw in sliced_messages(("result", list(range(25_000))))][-1][1][-1]
    24999
    """
    buffer = io.BytesIO()
    pickler = _SlicingPickler(buffer)
    pickler.dump(message)
    out = []
    for number, container in enumerate(pickler.big):
        is_dict = type(container) is dict
        items = list(container.items()) if is_dict else container
        for i in range(0, len(items), SLICE_ITEMS):
            out.append(
                pickle.dumps(
                    ("slice", (number, is_dict, items[i : i + SLICE_ITEMS])), pickle.HIGHEST_PROTOCOL
                )
            )
    out.append(buffer.getvalue())
    return out


class _SliceUnpickler(pickle.Unpickler):
    def __init__(self, raw: bytes, parts: dict):
        super().__init__(io.BytesIO(raw))
        self._parts = parts

    def persistent_load(self, number):
        return self._parts[number]


class SliceCollector:
    """The receiving end of :func:`sliced_messages`: ``take(raw)`` returns None for a slice
    (kept until its message comes), the unpickled message otherwise."""

    def __init__(self):
        self._parts: dict[int, object] = {}

    @property
    def collecting(self) -> bool:
        return bool(self._parts)

    def take(self, raw: bytes):
        message = _SliceUnpickler(raw, self._parts).load() if self._parts else pickle.loads(raw)
        if type(message) is tuple and len(message) == 2 and message[0] == "slice":
            number, is_dict, items = message[1]
            part = self._parts.get(number)
            if part is None:
                part = self._parts[number] = {} if is_dict else []
            if is_dict:
                part.update(items)
            else:
                part.extend(items)
            return None
        self._parts = {}
        return message


def _send(conn, message, sliced: bool = False) -> None:
    if not sliced:
        conn.send(message)
        return
    for raw in sliced_messages(message):
        conn.send_bytes(raw)


def _lower_priority(pid: int | None = None) -> None:
    """Give our child ``pid`` (for None: this process, a child) ``CHILD_NICENESS`` more than its
    parent's niceness, unless it already has that much.

    subtle: the parent sets it as soon as the child exists: a spawned child spends its first
    ~0.5 s of CPU starting an interpreter and importing the job's modules, and at the
    window's niceness that start-up took the window's core while a corpus began to load
    (the window's thread waited 18-36 ms in the run queue, /proc schedstat, 2026-11-24).
    """
    try:
        child, parent = (0, os.getppid()) if pid is None else (pid, 0)
        wanted = min(os.getpriority(os.PRIO_PROCESS, parent) + CHILD_NICENESS, 19)
        if os.getpriority(os.PRIO_PROCESS, child) < wanted:
            os.setpriority(os.PRIO_PROCESS, child, wanted)
    except (AttributeError, OSError):  # no such call here (Windows), or the process is gone
        pass


def _child_main(
    conn, func, args, stepping: bool, parent: int, by_signal: bool
) -> None:  # pragma: no cover - runs in the child
    """The child's loop: run the generator, batch its events, obey control messages; it ends
    with the window, however the window died (``core.lifeline``)."""
    exit_with_parent(parent, by_signal)
    batch: list = []
    last = time.monotonic()
    # Background work: when the machine is busy, the window gets the CPU first (the parent
    # has usually set this already; a child started some other way sets it here).
    _lower_priority(None)

    def control(block: bool) -> str | None:
        nonlocal stepping
        while block or conn.poll():
            msg = conn.recv()
            if msg == "cancel":
                return "cancel"
            if msg == "run":
                stepping = False
                return "run"
            if msg == "step":
                return "step"
        return None

    try:
        gen = func(*args)
        while True:
            try:
                event = next(gen)
            except StopIteration as stop:
                if batch:
                    conn.send(("events", pack_events(batch)))
                _send(conn, ("result", stop.value), sliced=True)
                return
            now = time.monotonic()
            step_now = stepping and _is_step_event(event)
            heavy = type(event).__name__ in BIG_EVENTS  # big: one per message, sent at once
            if heavy and batch:
                conn.send(("events", pack_events(batch)))  # the events before it, on their own
                batch = []
            batch.append(event)
            if step_now or heavy or now - last >= CHILD_FLUSH_S or len(batch) >= CHILD_MAX_BATCH:
                _send(conn, ("events", pack_events(batch)), sliced=heavy)
                batch = []
                last = now
                if control(block=step_now) == "cancel":
                    gen.close()
                    conn.send(("cancelled", None))
                    return
    except Exception as exc:  # noqa: BLE001 - reported to the GUI, never a crash
        from core.errors import SubwordError

        if isinstance(exc, SubwordError):
            message = str(exc)
        else:
            traceback.print_exc(file=sys.stderr)
            message = f"internal error: {type(exc).__name__}: {exc}"
        try:
            conn.send(("error", message))
        except Exception:  # noqa: BLE001
            pass
    finally:
        try:
            conn.close()
        except Exception:  # noqa: BLE001
            pass


def next_turn(parent: QObject, slot) -> QTimer:
    """Call ``slot`` once, in the event loop's next turn, never in the current one.

        >>> from PySide6.QtCore import QObject
        >>> from PySide6.QtWidgets import QApplication
        >>> panel, landed = QObject(), []
        >>> _ = next_turn(panel, lambda: landed.append("model"))   # e.g. the panel's land
        >>> landed                         # not in this turn ...
        []
        >>> QApplication.processEvents(); landed   # ... in the next one
        ['model']

    subtle: ``QTimer.singleShot(0, slot)`` is a queued call in Qt 6, and a queued call made from
    a timer's slot or from another queued call runs in the *same* turn: the drain that unpickled
    the trained model, the landing it scheduled "for later" and the paint they caused made one
    event-loop gap of 40-70 ms (``benchmarks/bench_gui_responsiveness.py``, 2026-11-24). A
    zero-interval QTimer object is activated in the timer phase of the next turn.
    """
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    timer.timeout.connect(timer.deleteLater)
    timer.start()
    return timer


REAP_POLL_MS = 100


def _reap(proc, waited_ms: int = 0) -> None:
    """Collect a finished worker's exit status from the event loop, so it never lingers as a zombie.

    subtle: a child that has exited stays in the process table (``<defunct>``) until
    its parent waits for it; ``is_alive()`` does that wait (without blocking) once the
    child is gone. So poll until it is gone: terminate it after ``KILL_AFTER_MS``,
    kill it a second later if it still has not exited.
    """
    if not proc.is_alive():
        return  # exited, and is_alive() has collected it
    if waited_ms >= KILL_AFTER_MS + 1000:
        proc.kill()
    elif waited_ms >= KILL_AFTER_MS:
        proc.terminate()
    QTimer.singleShot(REAP_POLL_MS, lambda: _reap(proc, waited_ms + REAP_POLL_MS))


class Job(QObject):
    """One engine generator running in a child process (see the module docstring)."""

    events = Signal(list)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    ended = Signal()  # after any of the three above

    def __init__(self, func, *args, parent: QObject | None = None):
        super().__init__(parent)
        self._func = func
        self._args = args
        self._proc = None
        self._conn = None
        self._done = False
        self._inbox: collections.deque = collections.deque()  # raw messages; None = the pipe closed
        self._slices = SliceCollector()
        self._held: list | None = None  # a big event unpickled last tick, delivered in a tick of its own
        self._again = False
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_MS)
        self._timer.timeout.connect(self._on_flush_timer)

    # -- control ------------------------------------------------------------------
    def start(self, stepping: bool = False) -> None:
        parent_conn, child_conn = _CTX.Pipe()
        self._conn = parent_conn
        self._proc = _CTX.Process(
            target=_child_main,
            args=(child_conn, self._func, self._args, stepping, os.getpid(), started_from_main_thread()),
            daemon=True,
        )
        self._proc.start()
        _lower_priority(self._proc.pid)
        child_conn.close()
        threading.Thread(target=self._read, args=(parent_conn, self._inbox), daemon=True).start()
        self._timer.start()

    @staticmethod
    def _read(conn, inbox) -> None:
        """Reader thread: move whole messages from the pipe to the inbox, unparsed."""
        try:
            while True:
                inbox.append(conn.recv_bytes())
        except (EOFError, OSError):
            inbox.append(None)

    @property
    def running(self) -> bool:
        return self._proc is not None and not self._done

    def step(self) -> None:
        self._send("step")

    def run(self) -> None:
        """Leave step mode: run to the end."""
        self._send("run")

    def cancel(self) -> None:
        if self._done or self._proc is None:
            return
        self._send("cancel")
        self._finish("cancelled", None)
        _reap(self._proc)

    def kill(self) -> None:
        """Stop at once, emitting nothing (the window is closing)."""
        self._done = True
        self._timer.stop()
        if self._proc is not None and self._proc.is_alive():
            self._proc.terminate()
            self._proc.join(0.5)

    def _send(self, msg: str) -> None:
        if self._conn is not None and not self._done:
            try:
                self._conn.send(msg)
            except (OSError, EOFError, BrokenPipeError):
                pass

    # -- the GUI side ------------------------------------------------------------
    def _drain(self) -> None:
        """Unpickle and deliver what has arrived, one message at a time, for at most
        ``DRAIN_BUDGET_S``; if more is waiting, come back right after the event loop had a turn."""
        self._again = False
        if self._done:
            return
        inbox = self._inbox
        held, self._held = self._held, None
        if held is not None:
            self._emit(held)
            self._come_back()
            return
        deadline = time.monotonic() + DRAIN_BUDGET_S
        # subtle: the events of every message taken this tick go out in one ``events`` call,
        # so the receivers (a table insert, a progress bar, a plot) update once per tick
        arrived: list = []
        while inbox and not self._done:
            raw = inbox.popleft()
            if raw is None:
                self._emit(arrived)
                self._finish(
                    "error", f"the worker process stopped unexpectedly (exit code {self._proc.exitcode})"
                )
                return
            # subtle: a collection triggered inside a big unpickle (the trained model)
            # would scan every object it just made; they are collected later instead
            with collector_paused():
                sliced = self._slices.collecting
                message = self._slices.take(raw)
                if message is not None and message[0] == "events":
                    message = ("events", unpack_events(message[1]))
                if len(raw) >= FREEZE_BYTES or sliced or message is None:
                    # a trained model (or a slice of it) or a slice of counts: long-lived,
                    # acyclic data; moved out of the collector's sight (as MainWindow does at
                    # start-up) so no later collection rescans its hundreds of thousands of objects
                    gc.freeze()
            if message is None:  # a slice of a big message: the message itself follows
                if time.monotonic() >= deadline:
                    break
                continue
            kind, payload = message
            if kind == "events":
                if any(type(e).__name__ in BIG_EVENTS for e in payload[-1:]):
                    # a trained model: its receivers get a tick of their own, and so does
                    # its unpickling when it came whole
                    self._held = payload
                    break
                arrived.extend(payload)
            else:
                self._emit(arrived)
                self._finish(kind, payload)
                return
            if time.monotonic() >= deadline:
                break
        self._emit(arrived)
        self._come_back()

    def _on_flush_timer(self) -> None:
        # subtle: a drain already due in the next turn (``_come_back``) and this timer fire in
        # the same turn: two drains, 13 + 6 ms, in one event-loop gap (per-turn profile)
        if not self._again:
            self._drain()

    def _come_back(self) -> None:
        """Drain again right after the event loop had a turn, if anything is waiting."""
        if (self._inbox or self._held is not None) and not self._done and not self._again:
            self._again = True
            next_turn(self, self._drain)

    def _emit(self, events: list) -> None:
        if events and not self._done:
            self.events.emit(events)

    def _finish(self, kind: str, payload) -> None:
        if self._done:
            return
        self._done = True
        self._timer.stop()
        if kind == "result":
            self.finished.emit(payload)
        elif kind == "cancelled":
            # Emitted from the event loop so a caller's cancel() returns first.
            QTimer.singleShot(0, self.cancelled.emit)
        else:
            self.failed.emit(str(payload))
        if kind == "cancelled":
            QTimer.singleShot(0, self.ended.emit)
        else:
            self.ended.emit()
        if kind != "cancelled" and self._proc is not None:
            _reap(self._proc)  # it exits on its own; collected without waiting here
