"""The explorer's long jobs, as engine-style generators: Qt-free, so a worker process can run them.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> events = []; curve = drain(train_job(("lines", ["hug pug", "hug"]), TrainOptions("bpe", vocab_size=8)), events.append)
    >>> [e for e in events if isinstance(e, Trained)][0].tokenizer.encode("hug").tokens
    ['hug']

Each job yields the engine's events (Progress, MergeEvent, UnigramRound,
TrainingStopped, Warning_) and returns a small result object. They run in a
child process (see ``subword_gui.background.workers``) so a CPU-bound trainer never holds
the GUI thread's interpreter lock; everything they take and return is picklable.

A corpus source is one of:
- ``("file", path, encoding)``: a text file; every ``HELD_OUT_EVERY``-th line is
  kept out of the training counts and used for the tokens-per-word curve;
- ``("counts_file", path)``: a word-count file (``word<TAB>count`` per line);
- ``("lines", [line, ...])``: in-memory lines (the textbook examples).

Counts of a text file are kept between launches (``counts_store``, given a folder):
the Corpus panel's words, and each training pipeline's pre-tokens. Training takes its counts
from there, else from the Corpus panel's words when its pipeline only cuts those words
(:func:`cuts_words_only`), and counts the file (with every core) only when it must.

Leaves out: anything that draws; the engine's own counting (``core.corpus``) is
what the corpus panel shows, this module only re-counts under a training pipeline.
"""

from __future__ import annotations

import os
import pickle
from array import array
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import SubwordError
from core.events import Progress
from core.options import TrainOptions, counting_pipeline, pre_tokenize_counts
from core.tokenizer import Tokenizer
from core.training import train_from_counts
from subword_gui.background import counts_store

HELD_OUT_EVERY = 20  # one line in twenty (5 %) is held out of training
HELD_OUT_MAX_LINES = 1500  # enough for a stable ratio, cheap to encode ~10 times
PROGRESS_EVERY_LINES = 5000
CHUNK_ITEMS = 5_000  # a large result travels in slices of this many items


@dataclass(frozen=True, slots=True)
class Chunk:
    """A slice of a large result, sent ahead of it so the GUI unpickles it in small pieces.

    subtle: unpickling half a million words at once holds the GUI thread for a few
    hundred milliseconds; in slices of 5 k each costs a few milliseconds, and the
    worker's pipe reader spreads them over event-loop iterations.
    """

    name: str
    items: object  # a list of items, or an array("i")


def send_in_chunks(name: str, seq: list):
    for i in range(0, len(seq), CHUNK_ITEMS):
        yield Chunk(name, seq[i : i + CHUNK_ITEMS])


@dataclass
class CorpusResult:
    """What the corpus panel receives: the engine's counts plus two precomputed row orders
    (so sorting the word table by count or by word costs nothing on the GUI thread)."""

    counts: object  # core.counting.CorpusCounts
    words: list[str] = field(default_factory=list)
    frequencies: list[int] = field(default_factory=list)
    order_by_count: list[int] = field(default_factory=list)  # most frequent first, then by word
    order_by_word: list[int] = field(default_factory=list)  # by code point
    chunked: bool = False  # the four lists and counts.words came ahead as Chunk events

    def receive(self, chunks: dict) -> None:
        """Put back what came as Chunk events (see ``_sent_in_chunks``): ``chunks["pairs"]`` is
        the word dict the receiver grew slice by slice, ``chunks["words"]`` and
        ``chunks["frequencies"]`` (optional) its keys and values in order, the orders are lists."""
        if not self.chunked:
            return
        words = chunks.get("pairs", {})
        self.counts.words = words
        # the receiver may have built the two columns slice by slice already (in the dict's order)
        self.words = chunks.get("words") or list(words)
        self.frequencies = chunks.get("frequencies") or list(words.values())
        self.order_by_count = chunks.get("by_count", [])
        self.order_by_word = chunks.get("by_word", [])
        self.chunked = False


@dataclass(frozen=True)
class Trained:
    """Event: training finished; the held-out curve is measured next, in the same worker."""

    tokenizer: Tokenizer
    held_out: list[str]  # lines the curve is measured on
    held_out_kind: str  # "held-out lines" | "training lines" | "frequent words"


@dataclass(frozen=True)
class CountsFrom:
    """Event: where a job's counts came from: ``"kept"`` (the counts folder, no count),
    ``"corpus"`` (the Corpus panel's words, cut under the pipeline) or ``"counted"``."""

    origin: str


@dataclass(frozen=True)
class TrainingAlphabet:
    """Event, before the trainer's: the characters of the words it trains on, ``starts`` those
    that begin a word and ``inner`` those inside one. A stepped run's preview starts from these,
    as the trainer does; the corpus's own characters include the held-out lines', which the
    trainer never sees (the slider read "852 tokens so far" beside the merge log's vocab 844)."""

    starts: frozenset[str]
    inner: frozenset[str]


@dataclass
class CurveResult:
    points: list  # [CurvePoint]
    n_lines: int
    kind: str


@dataclass
class CurvePoint:
    vocab_size: int
    tokens_per_word: float
    chars_per_token: float
    unk_rate: float


# -- corpus -----------------------------------------------------------------------


def _with_orders(counts) -> CorpusResult:
    words = list(counts.words)
    freqs = [counts.words[w] for w in words]
    by_word = sorted(range(len(words)), key=words.__getitem__)
    rank = [0] * len(words)
    for r, i in enumerate(by_word):
        rank[i] = r
    by_count = sorted(range(len(words)), key=lambda i: (-freqs[i], rank[i]))
    return CorpusResult(counts, words, freqs, by_count, by_word)


def count_corpus_job(
    path: str, encoding: str = "auto", store_dir: str | None = None
) -> Generator[object, None, CorpusResult]:
    """Count a text file with the engine (progress in bytes), then sort its words twice.

    With ``store_dir``: counts kept there for this very file are taken instead, and new ones kept."""
    from core.corpus import count_words
    from core.counting import CorpusCounts

    key = _file_key(path, encoding, "corpus", None) if store_dir else None
    counts = counts_store.load_counts(store_dir, key) if key else None
    if isinstance(counts, CorpusCounts) and isinstance(counts.words, dict):
        yield CountsFrom("kept")
    else:
        counts = yield from count_words([path], None, encoding=encoding)
        yield CountsFrom("counted")
        if key:
            counts_store.save_counts(store_dir, key, counts)
    yield Progress("sort", 0, 1)
    return (yield from _sent_in_chunks(_with_orders(counts)))


def _sent_in_chunks(result: CorpusResult):
    """Yield the result's big lists as Chunk events and return it without them."""
    yield from send_in_chunks("pairs", list(zip(result.words, result.frequencies)))
    # Row orders as compact int arrays: they unpickle as one memory copy.
    yield Chunk("by_count", array("i", result.order_by_count))
    yield Chunk("by_word", array("i", result.order_by_word))
    result.counts.words = {}
    return CorpusResult(result.counts, chunked=True)


def load_counts_job(path: str) -> Generator[object, None, CorpusResult]:
    """Read a ``word<TAB>count`` file as a corpus."""
    from core.corpus import load_word_counts_as_corpus

    yield Progress("read", 0, 1)
    counts = load_word_counts_as_corpus(path)
    if hasattr(counts, "send"):  # a generator in some engine versions
        counts = yield from counts
    yield Progress("sort", 0, 1)
    return (yield from _sent_in_chunks(_with_orders(counts)))


def counts_from_lines_job(lines: list[str], name: str = "example") -> Generator[object, None, CorpusResult]:
    from core.corpus import count_lines

    counts = count_lines(lines)
    if hasattr(counts, "send"):
        counts = yield from counts
    return _with_orders(counts)


# -- training ---------------------------------------------------------------------


def _count_lines_under(lines, options: TrainOptions, out: Counter) -> None:
    """Add the pre-tokens of ``lines`` under the options' pipeline to ``out`` (the engine counts)."""
    from core.corpus import count_lines

    out.update(count_lines(lines, options).words)


def _python_encoding(encoding: str | None, path: str | None = None) -> str:
    """The codec to read ``path`` with: ``"auto"`` detects it from the file's first block
    exactly as ``core.corpus.count_words`` does (UTF-16 BOM, else UTF-8 or CP949), so
    training reads the same text the Corpus panel shows.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "reviews-cp949.txt")
    >>> with open(path, "wb") as f:
    ...     _ = f.write("정말 재미있었어요\\n".encode("cp949"))
    >>> _python_encoding("auto", path), _python_encoding(None)   # (utf-8-sig: a BOM is dropped)
    ('cp949', 'utf-8-sig')
    """
    enc = (encoding or "utf-8").lower()
    if enc == "auto" and path is not None:
        from core.counting import BLOCK_BYTES, detect_encoding

        with open(path, "rb") as f:
            sample = f.read(BLOCK_BYTES)
        enc = detect_encoding(sample, final=len(sample) < BLOCK_BYTES)
    return "utf-8-sig" if enc in ("utf-8", "utf8", "auto", "utf-8-sig") else enc


def count_file_for_training(path: str, encoding: str | None, options: TrainOptions):
    """Count the pre-tokens of a file's lines under ``options``, holding every 20th line out.

    Returns ``(counts, held_out_lines)``; yields Progress("count", bytes, total).
    """
    if _worth_processes(path, options):
        return (yield from _count_file_in_processes(path, encoding, options))
    total = max(os.path.getsize(path), 1)
    counts: Counter = Counter()
    held_out: list[str] = []
    batch: list[str] = []
    done = 0
    with open(path, encoding=_python_encoding(encoding, path), errors="replace", newline=None) as f:
        for n, line in enumerate(f):
            done += len(line)  # characters, close enough to bytes for a progress bar
            line = line.rstrip("\n")
            if n % HELD_OUT_EVERY == HELD_OUT_EVERY - 1:
                if len(held_out) < HELD_OUT_MAX_LINES and line.strip():
                    held_out.append(line)
                continue
            batch.append(line)
            if len(batch) >= PROGRESS_EVERY_LINES:
                _count_lines_under(batch, options, counts)
                batch.clear()
                yield Progress("count", min(done, total), total)
    _count_lines_under(batch, options, counts)
    yield Progress("count", total, total)
    return dict(counts), held_out


def _worth_processes(path: str, options: TrainOptions) -> bool:
    """A file large enough for ``core.corpus``'s worker processes under this pipeline (a slow
    morpheme analyser says so with ``parallel_min_bytes``), and more than one CPU."""
    from core.corpus_parallel import PARALLEL_MIN_BYTES, available_cpus
    from core.options import build_pre_tokenizer

    min_bytes = getattr(build_pre_tokenizer(options), "parallel_min_bytes", PARALLEL_MIN_BYTES)
    return available_cpus() > 1 and os.path.getsize(path) >= min_bytes


def _count_file_in_processes(path: str, encoding: str | None, options: TrainOptions):
    """What :func:`count_file_for_training` returns, counted on every core: all lines in
    worker processes (``core.corpus.count_words``), then every 20th line's pre-tokens taken
    back out. Each line is counted on its own, so the difference is exactly the training
    lines' counts; the held-out lines are analysed twice (5 % more work, for both cores)."""
    from core.corpus import count_lines, count_words

    everything = yield from count_words(path, options, encoding=encoding or "auto", characters=False)
    total = max(os.path.getsize(path), 1)
    counts = Counter(everything.words)
    held_out: list[str] = []
    skipped: list[str] = []
    with open(path, encoding=_python_encoding(encoding, path), errors="replace", newline=None) as f:
        for n, line in enumerate(f):
            if n % HELD_OUT_EVERY == HELD_OUT_EVERY - 1:
                line = line.rstrip("\n")
                skipped.append(line)
                if len(held_out) < HELD_OUT_MAX_LINES and line.strip():
                    held_out.append(line)
    for i in range(0, len(skipped), 500):  # a cancellation point every 500 lines
        counts.subtract(count_lines(skipped[i : i + 500], options).words)
        yield Progress("count", total, total)
    return {w: n for w, n in counts.items() if n > 0}, held_out


def _count_source(source: tuple, options: TrainOptions):
    """``(pre-token counts, held-out lines, their kind)`` of a corpus source under ``options``."""
    kind = source[0]
    if kind == "file":
        counts, held_out = yield from count_file_for_training(source[1], source[2], options)
        return counts, held_out, "held-out lines"
    if kind == "counts_file":
        from core.corpus import read_word_counts

        yield Progress("count", 0, 1)
        raw = read_word_counts(source[1])
        # Word counts have no lines: measure on the most frequent words, one per line.
        top = sorted(raw.items(), key=lambda kv: -kv[1])[:HELD_OUT_MAX_LINES]
        return pre_tokenize_counts(raw, options), [w for w, _ in top], "frequent words"
    if kind == "lines":
        counter: Counter = Counter()
        _count_lines_under(source[1], options, counter)
        return dict(counter), list(source[1]), "training lines"
    raise ValueError(f"unknown corpus source {kind!r}")


#: What loading a cache can raise: a class that moved since it was written (ImportError,
#: AttributeError), a torn or foreign file (the rest).
_STALE_CACHE = (OSError, ImportError, AttributeError, EOFError, pickle.UnpicklingError, ValueError, TypeError)


def _load_cache(path: str | None):
    """The ``(counts, held-out lines, their kind)`` an earlier run saved at ``path``, or ``None``
    (no cache, or a stale one: the job then counts again and saves over it).

    subtle: a pickle names the modules and classes of what it holds; one written before a class
    moved or was renamed no longer loads (ModuleNotFoundError, AttributeError...), and a torn or
    foreign file can raise nearly anything. None of that may stop a training.
    """
    if path and os.path.isfile(path):
        try:
            with open(path, "rb") as f:
                cached = pickle.load(f)
        except _STALE_CACHE:
            return None
        if isinstance(cached, tuple) and len(cached) == 3 and isinstance(cached[0], dict):
            return cached
    return None


def _save_cache(path: str | None, value) -> None:
    if not path:
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


# -- counts kept between launches --------------------------------------------------------


def _concrete_encoding(path: str, encoding: str | None) -> str:
    """The codec ``count_words`` reads ``path`` with (detected for ``"auto"``), by its codecs name."""
    import codecs

    from core.counting import BLOCK_BYTES, _check_head

    enc = encoding or "auto"
    if enc == "auto":
        with open(path, "rb") as f:
            head = f.read(BLOCK_BYTES)
        enc = _check_head(Path(path), head, enc, len(head) < BLOCK_BYTES)
    return codecs.lookup(enc).name


def _file_key(path: str, encoding: str | None, kind: str, pipeline) -> tuple | None:
    """The counts-store key of ``path``'s counts of ``kind``, or None when the file cannot be read
    (the count that follows says why, in its own words)."""
    keys = _file_keys(path, encoding, [(kind, pipeline)])
    return keys[0] if keys else None


def _file_keys(path: str, encoding: str | None, kinds: list[tuple]) -> list[tuple]:
    """:func:`_file_key` for each ``(kind, pipeline)``, the file read once; [] if it cannot be."""
    try:
        identity = counts_store.file_identity(path)
        concrete = _concrete_encoding(path, encoding)
    except (OSError, LookupError, SubwordError):
        return []
    return [counts_store.counts_key(identity, concrete, kind, pipeline) for kind, pipeline in kinds]


def _training_pipeline(options: TrainOptions) -> tuple:
    """What decides a training's counts of a file: the pipeline and which lines are held out."""
    pipeline = counting_pipeline(options)
    return (pipeline["normalizer"], pipeline["pre_tokenizer"], HELD_OUT_EVERY, HELD_OUT_MAX_LINES)


def cuts_words_only(options: TrainOptions) -> bool:
    """Are the options' pre-tokens of a line the pieces of its white-space-separated words, each
    cut on its own? Then they follow from the Corpus panel's word counts, without reading the
    text again. True without a normalizer (one may make a space: NFKC turns "¨" into " ̈") for
    the pre-tokenizers whose pieces never hold or span white space (``core.counting`` counts
    them a block at a time for the same reason)."""
    from core.options import build_pre_tokenizer
    from core.pre_tokenizers import BertPreTokenizer, Whitespace, WhitespaceSplit

    if counting_pipeline(options)["normalizer"]:
        return False
    return type(build_pre_tokenizer(options)) in (Whitespace, WhitespaceSplit, BertPreTokenizer)


def counts_known(source: tuple | None, options: TrainOptions, store_dir: str | None) -> bool:
    """Will training on ``source`` find its counts made (kept, or the Corpus panel's) and not count?
    (On the GUI thread: it reads the file's first and last mebibyte, a few milliseconds.)"""
    if not store_dir or source is None or source[0] != "file":
        return False
    keys = _file_keys(source[1], source[2], [("training", _training_pipeline(options)), ("corpus", None)])
    if not keys:
        return False
    training, corpus = keys
    return counts_store.has_counts(store_dir, training) or (
        cuts_words_only(options) and counts_store.has_counts(store_dir, corpus)
    )


def training_counts_from_words(words: dict[str, int], path: str, encoding: str | None, options: TrainOptions):
    """What :func:`count_file_for_training` returns, from the word counts of all of ``path``'s
    lines (the Corpus panel's): the held-out lines' words taken back out, then each word cut under
    ``options`` (see :func:`cuts_words_only`). Reads the file once for the held-out lines (in C,
    19 lines in 20 skipped); yields Progress("read", bytes, total)."""
    from itertools import islice

    from core.options import build_pre_tokenizer

    total = max(os.path.getsize(path), 1)
    held_words: Counter = Counter()
    held_out: list[str] = []
    block = 50 * HELD_OUT_EVERY * 100  # lines per read (a multiple of HELD_OUT_EVERY)
    with open(path, encoding=_python_encoding(encoding, path), errors="replace", newline=None) as f:
        while True:
            lines = list(islice(f, block))
            for line in lines[HELD_OUT_EVERY - 1 :: HELD_OUT_EVERY]:
                line = line.rstrip("\n")
                held_words.update(line.split())
                if len(held_out) < HELD_OUT_MAX_LINES and line.strip():
                    held_out.append(line)
            yield Progress("read", min(f.buffer.tell(), total), total)
            if len(lines) < block:
                break
    kept = {w: n - held_words.get(w, 0) for w, n in words.items()}
    split = build_pre_tokenizer(options).split_words
    counts: dict[str, int] = {}
    get = counts.get
    for i, (word, n) in enumerate(kept.items()):
        if n <= 0:
            continue
        if word.isascii() and word.isalnum():  # one piece under all three (see cuts_words_only)
            counts[word] = get(word, 0) + n
        else:
            for piece in split(word):
                counts[piece] = get(piece, 0) + n
        if i % 100_000 == 99_999:
            yield Progress("read", total, total)  # a cancellation point
    return counts, held_out


def _has_unit_separators(chars: dict[str, int]) -> bool:
    """``str.split()`` cuts at U+001C..U+001F; the pre-tokenizers do not (see ``core.pre_tokenizers``)."""
    return any(c in chars for c in "\x1c\x1d\x1e\x1f")


def _file_counts(source: tuple, options: TrainOptions, store_dir: str):
    """``(counts, held-out lines, their kind)`` of a text file under ``options``: kept from an
    earlier run, else cut from the Corpus panel's kept words, else counted; kept for the next."""
    from core.counting import CorpusCounts

    path, encoding = source[1], source[2]
    key = _file_key(path, encoding, "training", _training_pipeline(options))
    kept = counts_store.load_counts(store_dir, key) if key else None
    if isinstance(kept, tuple) and len(kept) == 3 and isinstance(kept[0], dict):
        yield CountsFrom("kept")
        return kept
    corpus_key = _file_key(path, encoding, "corpus", None) if cuts_words_only(options) else None
    corpus = counts_store.load_counts(store_dir, corpus_key) if corpus_key else None
    if (
        isinstance(corpus, CorpusCounts)
        and isinstance(corpus.words, dict)
        and not _has_unit_separators(corpus.chars)
    ):
        counts, held_out = yield from training_counts_from_words(corpus.words, path, encoding, options)
        origin = "corpus"
    else:
        counts, held_out = yield from count_file_for_training(path, encoding, options)
        origin = "counted"
    value = (counts, held_out, "held-out lines")
    if key:
        counts_store.save_counts(store_dir, key, value)
    yield CountsFrom(origin)
    return value


def train_job(
    source: tuple,
    options: TrainOptions,
    cache_path: str | None = None,
    curve: bool = True,
    store_dir: str | None = None,
) -> Generator[object, None, CurveResult]:
    """Count the source under the options' pipeline, train, then measure the held-out curve.

    1. counts: a text file's from ``store_dir`` (see :func:`_file_counts`); other sources' from
       ``cache_path`` if an earlier run with the same corpus and pipeline left them there;
       else counted now (and saved there for the next run);
    2. train: the engine's events pass through; a ``Trained`` event carries the tokenizer;
    3. curve: tokens per word and characters per token at ~10 vocab sizes, returned.
    subtle: everything big stays in this worker; the GUI receives only events, the
    tokenizer and the curve, so no large pickle ever holds its thread.
    """
    if source[0] == "file" and store_dir:
        cached = yield from _file_counts(source, options, store_dir)
    else:
        cached = _load_cache(cache_path)
        if cached is None:
            cached = yield from _count_source(source, options)
            _save_cache(cache_path, cached)
    counts, held_out, held_kind = cached
    yield TrainingAlphabet(frozenset(w[0] for w in counts if w), frozenset("".join(w[1:] for w in counts)))
    tokenizer = yield from train_from_counts(counts, options)
    yield Trained(tokenizer, held_out, held_kind)
    if not curve or not held_out or not can_truncate(tokenizer):
        return CurveResult([], len(held_out), held_kind)
    sizes = curve_sizes(min_vocab_size(tokenizer), tokenizer.model.vocab_size)
    points = yield from curve_job(tokenizer, held_out, sizes)
    return CurveResult(points, len(held_out), held_kind)


# -- the vocab-size slider and the held-out curve ---------------------------------------


def can_truncate(tokenizer: Tokenizer | None) -> bool:
    return tokenizer is not None and tokenizer.model.can_truncate()


def min_vocab_size(tokenizer: Tokenizer) -> int:
    """The smallest size the model can be cut to (its alphabet plus special tokens)."""
    m = tokenizer.model
    return int(m.min_vocab_size or m.vocab_size)


def truncate_tokenizer(full: Tokenizer, vocab_size: int) -> Tokenizer:
    """The same pipeline with the model cut to ``vocab_size`` tokens.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> tok = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11)))
    >>> truncate_tokenizer(tok, 9).model.vocab_size, truncate_tokenizer(tok, 9).model.merge_list()
    (9, [('u', 'g')])
    >>> truncate_tokenizer(tok, 11) is tok
    True
    """
    if vocab_size >= full.model.vocab_size:
        return full
    model = full.model.truncated(vocab_size)
    # subtle: an added token whose id lies beyond the cut would point nowhere; one outside the
    # model (CLIP's <|endoftext|>) points at no model token and stays
    added = [
        t
        for t in full.added_tokens
        if model.id_to_token(t.id) is not None
        or t.id < vocab_size
        or full.model.token_to_id(t.content) is None
    ]
    return Tokenizer(
        model,
        normalizer=full.normalizer,
        pre_tokenizer=full.pre_tokenizer,
        decoder=full.decoder,
        added_tokens=added,
        post_processor=full.post_processor,
        extra=full.extra,
    )


def curve_sizes(low: int, high: int, n: int = 10) -> list[int]:
    """About ``n`` vocab sizes from ``low`` to ``high``, spaced evenly on a log scale.

    >>> curve_sizes(100, 1000, 3)
    [100, 316, 1000]
    """
    if high <= low:
        return [high]
    import math

    a, b = math.log(max(low, 1)), math.log(high)
    sizes = sorted({int(round(math.exp(a + (b - a) * i / (n - 1)))) for i in range(n)})
    sizes[0], sizes[-1] = low, high
    return sorted(set(sizes))


def curve_job(
    full: Tokenizer, lines: list[str], sizes: list[int]
) -> Generator[object, None, list[CurvePoint]]:
    """Tokens per word and characters per token of ``lines`` at each vocab size."""
    from core.stats import encoding_stats

    points = []
    for i, k in enumerate(sizes):
        yield Progress("curve", i, len(sizes))
        tok = truncate_tokenizer(full, k) if can_truncate(full) else full
        s = encoding_stats(tok, lines)
        points.append(CurvePoint(k, s.tokens_per_word, s.chars_per_token, s.unk_rate))
    yield Progress("curve", len(sizes), len(sizes))
    return points
