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
import pickle
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from core.corpus_parallel import available_cpus, split_at_line_ends
from core.errors import CorpusError
from core.events import Progress

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

    >>> encode_file_ids(tokenizer, "corpus.txt", sys.stdout.write, 2)  # doctest: +SKIP
    """
    path = Path(path)
    size = path.stat().st_size
    if size == 0:
        return
    ranges = split_at_line_ends(path, size, -(-size // RANGE_BYTES))
    method = start_method()
    fork = method == "fork"
    global _tokenizer
    # forked workers inherit the tokenizer; spawned ones unpickle their own copy
    _tokenizer = tokenizer if fork else None
    initargs: tuple[bytes | None] = (None if fork else pickle.dumps(tokenizer),)
    context = multiprocessing.get_context(method)
    done = 0
    pool = context.Pool(max(1, workers), initializer=_start_worker, initargs=initargs)
    try:
        jobs = [(str(path), start, stop) for start, stop in ranges]
        for (start, stop), text in zip(ranges, pool.imap(_encode_range, jobs)):
            write(text)
            done += stop - start
            if on_progress is not None:
                on_progress(Progress("encode", done, size))
        pool.close()
    finally:
        pool.terminate()  # at once on an interrupt or an error: the ranges under way stop too
        pool.join()
        if fork:
            _tokenizer = None


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


def _encode_range(job: tuple[str, int, int]) -> str:
    """One range's ids lines, read as the single-process path reads the whole file."""
    path, start, stop = job
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(stop - start)
    # a byte order mark belongs to the file's first range only; elsewhere it is text
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig" if start == 0 else "utf-8")
    try:
        return "".join(ids_lines(_tokenizer, iter(text)))
    except UnicodeDecodeError:
        raise CorpusError(f"{path} is not UTF-8 text (in bytes {start:,}–{stop:,})") from None
