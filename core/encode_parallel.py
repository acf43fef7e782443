"""Encode a large file to ids with every core: worker processes over byte ranges cut at line ends.

``subword encode --ids --input FILE`` calls :func:`encode_file_ids` when more than one
process is asked for (or, by default, for a file of at least ``PARALLEL_MIN_BYTES``
when more than one CPU is available). The file is cut into ranges of about
``RANGE_BYTES``, each cut just after a ``\\n`` byte (``core.corpus_parallel.
split_at_line_ends``, the cut parallel counting uses); every worker reads its range
exactly as the single-process path reads the whole file (UTF-8, a byte order mark
only at the very start, universal line ends, ``Tokenizer.encode_batch_ids`` in
batches), and the parent writes the ranges' lines in file order. So

    subword encode --ids --workers 2 --input F  ==  subword encode --ids --workers 1 --input F

byte for byte (tested on ``\\r\\n``, lone ``\\r``, a BOM, empty lines and lines longer
than a range).

Why a ``\\n`` byte is a safe cut: in UTF-8 the byte 0x0A is never part of a
multi-byte character, and a ``\\r\\n`` pair is never split (the cut falls after
the ``\\n``), so each range reads as the same lines it holds inside the whole file.

Workers are forked where the system can (Linux): they inherit the loaded tokenizer,
its caches and its compiled kernels, so starting one costs milliseconds. Elsewhere (or
from a process running threads) the tokenizer is pickled to each worker once.

Cancelling: an interrupt (Ctrl+C) or an error in any range stops every worker; what
was written so far is a prefix of the full output, line for line.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from core.corpus_parallel import MIN_RANGE_BYTES, available_cpus, split_at_line_ends
from core.errors import CorpusError
from core.events import Progress
from core.lifeline import exit_with_parent, started_from_main_thread
from core.limits import MAX_LINE_CHARS, bounded_lines, line_too_long

# Below this a file is encoded in one process (forked workers start fast, but a small
# file is done before they would pay off).
PARALLEL_MIN_BYTES = 4 << 20
RANGE_BYTES = 1 << 20  # a worker's unit of work (and of the progress bar)
BATCH_LINES = 1000  # lines per encode_batch_ids call, as in the single-process path

_tokenizer = None  # the worker's tokenizer (inherited when forked, else unpickled once)


def default_workers(size: int) -> int:
    """Processes for a file of ``size`` bytes when the user did not say: one per CPU for a
    large file, else 1. ``default_workers(100) -> 1``."""
    return available_cpus() if size >= PARALLEL_MIN_BYTES else 1


def ids_lines(tokenizer, lines: Iterator[str]) -> Iterator[str]:
    """Each line's ids as ``"1 2 3\\n"``, encoded ``BATCH_LINES`` lines at a time; ``lines`` are
    read as a text file yields them (a trailing ``\\n`` is dropped)."""
    batch: list[str] = []
    for line in lines:
        batch.append(line.removesuffix("\n"))
        if len(batch) == BATCH_LINES:
            yield "".join(" ".join(map(str, ids)) + "\n" for ids in tokenizer.encode_batch_ids(batch))
            batch = []
    if batch:
        yield "".join(" ".join(map(str, ids)) + "\n" for ids in tokenizer.encode_batch_ids(batch))


def encode_file_ids(
    tokenizer,
    path: str | Path,
    write: Callable[[str], object],
    workers: int,
    on_progress: Callable[[Progress], None] | None = None,
) -> None:
    """Write the ids of every line of ``path`` (one line of space-separated ids per line) with
    ``workers`` processes, in file order; ``on_progress`` gets ``Progress("encode", bytes
    done, total)`` after each range.

    >>> import sys, tempfile
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> tokenizer = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=9)))
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = Path(folder.name, "corpus.txt").write_text("hug pug\\npug\\n")
    >>> encode_file_ids(tokenizer, Path(folder.name, "corpus.txt"), sys.stdout.write, 2)
    6 7
    7
    """
    path = Path(path)
    size = path.stat().st_size
    if size == 0:
        return
    ranges = split_at_line_ends(path, size, -(-size // RANGE_BYTES))
    start, stop = max(ranges, key=lambda r: r[1] - r[0])
    # a range runs past its planned end to the end of a line: this far past, that line holds more
    # than MAX_LINE_CHARS characters (four bytes at most each), which the worker must not read
    if stop - start > 2 * max(RANGE_BYTES, MIN_RANGE_BYTES) + 4 * MAX_LINE_CHARS:
        raise line_too_long(str(path), f"a line in bytes {start:,}–{stop:,}", MAX_LINE_CHARS)
    method = start_method()
    fork = method == "fork"
    global _tokenizer
    # forked workers inherit the tokenizer; spawned ones unpickle their own copy
    _tokenizer = tokenizer if fork else None
    initargs: tuple[bytes | None] = (None if fork else pickle.dumps(tokenizer),)
    context = multiprocessing.get_context(method)
    done = 0
    try:
        # workers may stand elsewhere (an absolute path), and a spawned one imports its own bound
        jobs = [(os.path.abspath(path), start, stop, MAX_LINE_CHARS) for start, stop in ranges]
        for (start, stop), text in zip(ranges, _in_order(context, max(1, workers), initargs, jobs)):
            write(text)
            done += stop - start
            if on_progress is not None:
                on_progress(Progress("encode", done, size))
    finally:
        if fork:
            _tokenizer = None


def _in_order(context, workers: int, initargs: tuple, jobs: list) -> Iterator[str]:
    """``_encode_range`` of each job, in order, from ``workers`` processes.

    subtle: each worker has a pipe of its own, never a queue shared with the others: a
    ``multiprocessing.Pool`` stopped at once (an error in one range, Ctrl+C) could leave a
    worker killed while it held the shared results queue's lock, and the pool's own
    threads then waited for that lock forever (seen in the test suite: a hung run). Here
    stopping is killing processes, and nothing waits on them but ``join``.
    """
    from multiprocessing.connection import wait

    ahead = 2 * workers  # ranges done or under way past the one written next (bounds memory)
    started: list = []
    try:
        for _ in range(min(workers, len(jobs))):
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_work, args=(theirs, os.getpid(), started_from_main_thread(), *initargs), daemon=True
            )
            process.start()
            theirs.close()
            started.append((process, ours))
        idle = [conn for _, conn in started]
        busy: dict = {}  # a worker's pipe -> the job it is doing
        done: dict[int, object] = {}  # a range's text, or the error it met
        sent = written = 0
        failed = len(jobs)  # the first range known to have failed (none yet)
        while written < len(jobs):
            while idle and sent < failed and sent < written + ahead:
                conn = idle.pop()
                conn.send(jobs[sent])
                busy[conn] = sent
                sent += 1
            for conn in wait(list(busy)):
                try:
                    ok, value = conn.recv()  # type: ignore[union-attr,call-arg]  # our pipes only
                except EOFError:
                    raise CorpusError("an encoding worker process ended unexpectedly") from None
                job = busy.pop(conn)
                done[job] = value
                if not ok:  # raised in its turn, so the error named is the file's first
                    failed = min(failed, job)
                idle.append(conn)
            while written in done:
                value = done.pop(written)
                if isinstance(value, BaseException):
                    raise value
                yield value  # type: ignore[misc]  # the range's text
                written += 1
    finally:
        for process, conn in started:
            if process.is_alive():
                process.terminate()  # at once on an interrupt or an error: ranges under way stop too
            conn.close()
        for process, _ in started:
            process.join()


def _work(conn, parent: int, by_signal: bool, pickled: bytes | None) -> None:
    """A worker: encode each range sent until the pipe closes; an error goes back as a value.
    It ends with its parent, however the parent died (``core.lifeline``)."""
    import signal

    exit_with_parent(parent, by_signal)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle: it stops us
    _start_worker(pickled)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        reply: tuple[bool, object]
        try:
            reply = (True, _encode_range(job))
        except Exception as error:  # noqa: BLE001  # any error reaches the parent, which raises it
            reply = (False, error)
        try:
            conn.send(reply)
        except (TypeError, AttributeError, pickle.PicklingError):  # an error that cannot be pickled
            conn.send((False, CorpusError(f"encoding a range failed: {reply[1]!r}")))


def start_method() -> str:
    """How to start workers: by forking where the system can and this process runs no other
    thread (a fork copies any lock another thread holds, locked forever), else by spawning."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _start_worker(pickled: bytes | None) -> None:
    global _tokenizer
    if pickled is not None:  # spawned: this process has its own copy of the tokenizer
        _tokenizer = pickle.loads(pickled)


def _encode_range(job: tuple[str, int, int, int]) -> str:
    """One range's ids lines, read as the single-process path reads the whole file."""
    path, start, stop, limit = job
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(stop - start)
    # a byte order mark belongs to the file's first range only; elsewhere it is text
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig" if start == 0 else "utf-8")
    try:
        return "".join(
            ids_lines(_tokenizer, bounded_lines(text, path, f"a line in bytes {start:,}–{stop:,}", limit))
        )
    except UnicodeDecodeError:
        raise CorpusError(f"{path} is not UTF-8 text (in bytes {start:,}–{stop:,})") from None
