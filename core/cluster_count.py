"""Count a corpus too big for one machine as a Dask job; train on the counts here.

    counts = drain(count_words_on_cluster(["/data/part-*.txt"], options, scheduler="tcp://head:8786"))
    write_word_counts(counts.words, "counts.tsv", options)   # then: subword train counts.tsv --counts

The corpus files are cut into byte ranges at line ends (about ``RANGE_BYTES``
each; see ``core.corpus_parallel``); each range is one task running exactly
the counting loop of ``core.corpus.count_words`` with the same ``TrainOptions``
(normalizer and pre-tokenizer), so the counts are identical to counting on one
machine. The partial counts are added up on the workers, two by two in file
order, and only the final counts travel to this machine.

What a cluster needs: every worker can read the paths (a shared filesystem) and
has this package installed (``pip install subword-explorer[cluster]``); this
machine reads the first megabyte of each file too, to detect its encoding.
Without ``scheduler``, a local cluster of processes on the loopback interface
is started (and stopped) here: the same job on one machine.

Dask is optional: it is imported only here, and a missing install is one clear
error naming the package.

Leaves out: files only the workers can see, compressed inputs, and object
stores (s3://); a UTF-16/32 file is one task (it cannot be cut at bytes).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Generator
from pathlib import Path

from core.corpus import _as_paths, _check_encoding
from core.corpus_parallel import add_range_counts, can_split, split_at_line_ends
from core.counting import BLOCK_BYTES, PREVIEW_LINES, CorpusCounts, _check_head, _Counter, count_range
from core.errors import ConfigError, CorpusError
from core.events import Progress, Warning_

RANGE_BYTES = 64 << 20  # one task per this many bytes of a file
# A scheduler address as Dask writes one: [protocol://]host[:port], host a name or an IP
# address ([...] for IPv6). Anything else is refused at once: Dask itself tried to reach
# 'not a url' for 60 s and ended in a TimeoutError traceback.
_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:[A-Za-z0-9][A-Za-z0-9.\-_]*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
)


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ConfigError(
            "counting on a cluster needs Dask: pip install 'dask[distributed]' "
            "(or pip install 'subword-explorer[cluster]')"
        ) from None
    return distributed


def _range_stats(result: tuple) -> tuple[int, int, bool]:
    """(replaced bytes, bytes read, had text) of one ``count_range`` result: small, for this machine."""
    return result[4], result[5], result[6]


def _add_two(first: tuple, second: tuple) -> tuple:
    """``count_range`` results of consecutive ranges, added up (new dicts: dask inputs stay untouched)."""
    words = dict(first[0])
    for w, n in second[0].items():
        words[w] = words.get(w, 0) + n
    chars = dict(first[1])
    for c, n in second[1].items():
        chars[c] = chars.get(c, 0) + n
    preview = (first[3] + second[3])[:PREVIEW_LINES]
    stats = (first[4] + second[4], first[5] + second[5], first[6] or second[6])
    return (words, chars, first[2] + second[2], preview) + stats


_PARENT_ENV = "SUBWORD_DASK_PARENT"


def dask_setup(worker) -> None:
    """Run by each local cluster worker as it starts (Dask's ``preload``): end with our process.

    Dask's own watch is a thread that needs the interpreter lock, so a worker inside long C
    code outlived a ``kill -9`` of its parent. ``core.lifeline`` asks the kernel too: the
    thread that started the worker (Dask's process-watch thread) lives as long as the
    worker does, so the signal only comes when the parent dies. The parent's pid comes in
    the environment: a worker still starting when its parent died has another parent already.
    """
    from core.lifeline import exit_with_parent

    parent = os.environ.get(_PARENT_ENV)
    if parent is not None and parent.isdigit():
        exit_with_parent(int(parent), by_signal=True)


def count_words_on_cluster(
    paths, options=None, encoding: str = "auto", scheduler: str | None = None, range_bytes: int = RANGE_BYTES
) -> Generator[Progress | Warning_, None, CorpusCounts]:
    """``core.corpus.count_words`` as a Dask job: same events, same result.

    ``scheduler``: a Dask scheduler address (``tcp://host:8786``), or None for a
    local cluster. Closing the generator cancels the job.
    """
    if scheduler is not None and not _ADDRESS.fullmatch(scheduler):
        raise ConfigError(
            f"{scheduler!r} is not a Dask scheduler address (tcp://host:8786, host:8786, or 'local')"
        )
    files = _as_paths(paths)
    encoding = _check_encoding(encoding)
    if range_bytes < 1:
        raise ConfigError("the range size must be at least one byte")
    distributed = _distributed()

    # Plan on this machine: each file's encoding (and the binary-file checks), then its ranges.
    tasks: list[tuple[int, int, int, str]] = []  # (file index, start, stop, encoding)
    encodings: list[str] = []
    for i, path in enumerate(files):
        try:
            with open(path, "rb") as f:
                head = f.read(BLOCK_BYTES)
        except OSError as e:
            raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
        enc = _check_head(path, head, encoding, len(head) < BLOCK_BYTES)
        encodings.append(enc)
        size = path.stat().st_size
        ranges = split_at_line_ends(path, size, -(-size // range_bytes)) if can_split(enc) else [(0, size)]
        tasks.extend((i, start, stop, enc) for start, stop in ranges)
    total = sum(p.stat().st_size for p in files)
    yield Progress("count", 0, total)

    cluster = None
    if scheduler is None:
        from core.corpus_parallel import available_cpus

        cluster = distributed.LocalCluster(
            n_workers=available_cpus(),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            silence_logs=logging.CRITICAL,  # the job's own progress bar and errors say what matters
            dashboard_address=None,
            preload=[__name__],  # each worker runs dask_setup above first
            env={_PARENT_ENV: str(os.getpid())},
        )
        address = cluster.scheduler_address
    else:
        address = scheduler
    try:
        client = distributed.Client(address, set_as_default=False)
    except (OSError, TimeoutError) as e:
        if cluster is not None:
            cluster.close()
        raise CorpusError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    futures = []
    try:
        futures = client.map(
            count_range,
            [os.path.abspath(files[i]) for i, *_ in tasks],  # workers stand elsewhere
            [start for _, start, _, _ in tasks],
            [stop for *_, stop, _ in tasks],
            [enc for *_, enc in tasks],
            [options] * len(tasks),
            pure=False,
        )
        stats = client.map(_range_stats, futures, pure=False)
        where = {f.key: t for f, t in zip(stats, tasks)}
        per_file = [[0, 0, False] for _ in files]
        done = 0
        for future in distributed.as_completed(stats, loop=client.loop):
            i, start, stop, _ = where[future.key]
            replaced, n_bytes, had_text = future.result()
            per_file[i][0] += replaced
            per_file[i][1] += n_bytes
            per_file[i][2] = per_file[i][2] or had_text
            done += stop - start
            yield Progress("count", done, total)
        layer = futures
        while len(layer) > 1:  # add up two by two, in file order, on the workers
            pairs = [client.submit(_add_two, a, b, pure=False) for a, b in zip(layer[::2], layer[1::2])]
            layer = pairs + ([layer[-1]] if len(layer) % 2 else [])
            futures.extend(pairs)
        merged = layer[0].result() if layer else ({}, {}, 0, [], 0, 0, False)
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()

    counter = _Counter(options)
    add_range_counts(counter, [merged])
    used: list[str] = []
    empty = 0
    for path, enc, (replaced, n_bytes, had_text) in zip(files, encodings, per_file):
        if enc not in used:
            used.append(enc)
        if replaced:
            yield Warning_(
                f"{path}: {replaced:,} invalid byte(s) replaced with U+FFFD (read as {enc}; "
                f"if the file is in another encoding, choose it)"
            )
        if not had_text:
            if len(files) == 1:
                raise CorpusError(f"{path} is empty" + (" (only whitespace)" if n_bytes else ""))
            empty += 1
            yield Warning_(f"{path} is empty: skipped")
    if empty == len(files):
        raise CorpusError(f"all {len(files)} corpus files are empty")
    return counter.result(
        replaced_bytes=sum(r for r, _, _ in per_file),
        encoding=", ".join(used),
        paths=[Path(p) for p in files],
        bytes_read=sum(b for _, b, _ in per_file),
    )
