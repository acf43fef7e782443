"""Count one large file with every core: worker processes over byte ranges cut at line ends.

``core.corpus.count_words`` calls :func:`count_file_parallel` for a file of at
least ``PARALLEL_MIN_BYTES`` when more than one CPU is available. The file is
cut into one byte range per worker, each cut just after a ``\\n`` byte; every
worker runs the very same ``_count_file`` loop as the single-process path on
its range (same normalizer and pre-tokenizer, built from the same
``TrainOptions``, so a morpheme pre-tokenizer parallelises like any other),
and the parent adds their counts up. Ranges start at line starts, so

    count_words(big, opts, workers=1).words == count_words(big, opts).words

and so are the character counts, the line count, the invalid-byte count and
the preview. A UTF-8 byte order mark belongs to the first range only.

Why a ``\\n`` byte is a safe cut: in UTF-8 and in the double-byte encodings
allowed here (CP949/EUC-KR, Shift-JIS, EUC-JP, Big5) the byte 0x0A is never
part of a multi-byte character, and their decoders end an invalid sequence
before it, so each range decodes exactly as it does inside the whole file.
UTF-16/32 and other encodings are counted in one process.

Why ``subprocess`` and not ``multiprocessing``: the explorer counts inside a
daemonic child process, and daemonic processes may not start ``multiprocessing``
children. A worker also exits by itself when its parent disappears (the
explorer kills a job that does not answer a cancel within a second).

Cancelling: closing the generator (the caller stops iterating) kills the workers.

Leaves out: dynamic load balancing (ranges are equal in bytes, which on real
text is equal enough) and the one documented approximation of the
single-process path (a stretch of about a megabyte without whitespace is cut
at a block end, see ``core.counting._safe_cut``): block ends fall elsewhere in a
range, so such a pre-token may be cut at another place.
"""

from __future__ import annotations

import codecs
import os
import sys
from pathlib import Path
from typing import cast

from core.counting import count_range
from core.errors import CorpusError, SubwordError
from core.events import Progress

# Smaller files count in one process: workers cost ~0.3 s each to start, and their counts
# must be pickled and added up (~1.5 s of CPU for 80 MB of Korean reviews).
PARALLEL_MIN_BYTES = 32 << 20
MIN_RANGE_BYTES = 1 << 20  # never cut a range smaller than this
_POLL_S = 0.1

# Codecs (by codecs.lookup name) in which a 0x0A byte is always a line end, never part of a character.
LINE_SAFE_ENCODINGS = frozenset(
    {"utf-8", "ascii", "latin-1", "cp949", "euc_kr", "shift_jis", "cp932", "euc_jp", "big5", "cp1252"}
)

_ROOT = str(Path(__file__).resolve().parents[1])


def available_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def can_split(encoding: str) -> bool:
    """Can a file in ``encoding`` be cut at ``\\n`` bytes? ``can_split("cp949") -> True``."""
    try:
        return codecs.lookup(encoding).name in LINE_SAFE_ENCODINGS
    except LookupError:
        return False


def split_at_line_ends(path: Path, size: int, parts: int) -> list[tuple[int, int]]:
    """Byte ranges covering ``[0, size)``, about ``size / parts`` each, every cut just after a ``\\n``.

    A file of ``"ab\\ncd\\nef\\n"`` cut in 2 gives ``[(0, 6), (6, 9)]``: the cut
    planned at byte 4 moves to just after the next line end.
    """
    parts = max(1, min(parts, size // MIN_RANGE_BYTES or 1))
    cuts = [0]
    with open(path, "rb") as f:
        for k in range(1, parts):
            planned = max(size * k // parts, cuts[-1])
            f.seek(planned)
            pos = planned
            while True:
                chunk = f.read(1 << 16)
                if not chunk:
                    pos = size
                    break
                nl = chunk.find(b"\n")
                if nl >= 0:
                    pos += nl + 1
                    break
                pos += len(chunk)
            if cuts[-1] < pos < size:
                cuts.append(pos)
    cuts.append(size)
    return list(zip(cuts[:-1], cuts[1:]))


def count_file_parallel(path: Path, counter, encoding: str, done_before: int, total: int, workers: int):
    """Like ``core.counting._count_file`` (same yields and return value), with ``workers`` processes.

    ``encoding`` must be a concrete codec (detected by the caller) for which
    :func:`can_split` holds.
    """
    # Here, not at the top: counting a small file imports this module for its thresholds only.
    import pickle
    import subprocess
    from multiprocessing.connection import Connection, wait

    from core.lifeline import started_from_main_thread

    size = path.stat().st_size
    ranges = split_at_line_ends(path, size, workers)
    # subtle: workers start in the engine's folder (a `core` folder where the user stands must not
    # shadow the engine), so a relative path would name another file there: `subword count
    # README.md` counted the project's own README. They get the absolute path.
    where = os.path.abspath(path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")])))
    procs: list[subprocess.Popen] = []
    conns: dict[Connection, int] = {}
    try:
        for i, (start, stop) in enumerate(ranges):
            proc = subprocess.Popen(
                [sys.executable, "-c", "from core.corpus_parallel import _worker_main; _worker_main()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                cwd=_ROOT,
            )
            procs.append(proc)
            assert proc.stdin is not None and proc.stdout is not None  # both are pipes
            task = (where, start, stop, encoding, counter.options, os.getpid(), started_from_main_thread())
            proc.stdin.write(pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL))
            proc.stdin.close()
            conns[Connection(os.dup(proc.stdout.fileno()), writable=False)] = i
        yield Progress("count", done_before, total)
        done = [0] * len(ranges)
        results: list = [None] * len(ranges)
        reported = -1
        while conns:
            for ready in wait(list(conns), timeout=_POLL_S):
                conn = cast(Connection, ready)
                i = conns[conn]
                try:
                    kind, value = conn.recv()
                except EOFError:
                    raise CorpusError(
                        f"{path}: a counting process ended unexpectedly (out of memory?)"
                    ) from None
                if kind == "progress":
                    done[i] = value
                elif kind == "result":
                    results[i] = value
                    done[i] = ranges[i][1] - ranges[i][0]
                    conn.close()
                    del conns[conn]
                else:  # "error": the worker's one-line message, naming the file as the user did
                    raise CorpusError(value.replace(where, str(path)))
            now = sum(done)
            if now != reported and conns:
                reported = now
                yield Progress("count", done_before + now, total)
    finally:
        for conn in conns:
            conn.close()
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()

    replaced, bytes_read, had_text = add_range_counts(counter, results)
    return encoding, replaced, bytes_read, had_text


def add_range_counts(counter, results) -> tuple[int, int, bool]:
    """Add ``count_range`` results (in file order) to ``counter``; (replaced bytes, bytes read, had text)."""
    replaced = bytes_read = 0
    had_text = False
    for words, chars, lines, preview, n_replaced, n_bytes, text in results:
        counter.merge(words, chars, lines, preview)
        replaced += n_replaced
        bytes_read += n_bytes
        had_text = had_text or text
    return replaced, bytes_read, had_text


class _ParentGone(Exception):
    pass


def _worker_main() -> None:
    """A worker process: read a task on stdin, send progress and the counts on stdout."""
    import pickle
    from multiprocessing.connection import Connection

    from core.lifeline import exit_with_parent

    out = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # subtle: a stray print must not corrupt the message stream
    path, start, stop, encoding, options, parent, by_signal = pickle.loads(sys.stdin.buffer.read())
    exit_with_parent(parent, by_signal)  # gone within a second of the parent, even a killed one

    def report(done: int) -> None:
        if os.getppid() != parent:  # the parent is gone: nobody wants the result
            raise _ParentGone
        out.send(("progress", done))

    try:
        out.send(("result", count_range(path, start, stop, encoding, options, report)))
    except _ParentGone:
        pass
    except SubwordError as e:
        out.send(("error", str(e)))
    except MemoryError:
        out.send(("error", f"{path}: out of memory while counting"))
    except Exception as e:  # pragma: no cover - a bug: say which, in one line
        out.send(("error", f"{path}: counting failed in a worker: {type(e).__name__}: {e}"))
    finally:
        out.close()
