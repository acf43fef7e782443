"""Corpus counting: stream text files into word and character counts.

``count_words`` reads a file of any size in memory proportional to the number of
*distinct* words, not to the file size, and runs every line through the
training options' normalizer and pre-tokenizer. It is a generator like every
long job in the engine: it yields ``Progress("count", bytes_read, total_bytes)``
about once per megabyte (a GUI shows a bar and cancels by no longer iterating)
and ``Warning_`` events, and returns a :class:`CorpusCounts`.

    counts = drain(count_words("reviews.txt", TrainOptions("bpe")))  # a file

    >>> count_lines(["먹고 먹고 있다"]).words
    {'먹고': 2, '있다': 1}

What real files contain, and what happens to it:

- a UTF-8 byte order mark is stripped; CRLF, LF and lone CR all end a line and
  are never part of a word;
- invalid bytes become U+FFFD, are counted (``replaced_bytes``) and reported
  with a ``Warning_``; counting never crashes on them;
- ``encoding="auto"`` reads UTF-8 (or UTF-16 with a BOM) and falls back to
  CP949 (a superset of EUC-KR) only when that decodes the first block without
  a single error and UTF-8 does not (see :func:`detect_encoding`); any Python
  codec name may be chosen instead. Detection looks at the
  first megabyte only: a CP949 file whose first megabyte is plain ASCII is read
  as UTF-8, and the replaced-bytes warning says to choose the encoding;
- a line longer than a block is cut at a safe point (see ``_safe_cut``);
- an empty or whitespace-only file, a binary file, a missing path, a directory,
  a FIFO, socket or device (checked before opening: a FIFO would block) or an
  unreadable file raise :class:`~core.errors.CorpusError` naming the path.

The counting loop itself (one process over a file or a byte range of it) is
``core.counting``; ``core.corpus_parallel`` runs it in several processes.

Word-count files (``word<TAB>count`` per line) are read and written here too, so
counts computed elsewhere (a cluster job, another tool) can be trained on.

Leaves out: compressed inputs (.gz, .bz2), encodings other than UTF-8/16 and
CP949 in automatic detection, and Unicode line separators (U+2028, U+0085) as
line ends — they are ordinary whitespace here, as in ``tokenizers``.
"""

from __future__ import annotations

import codecs
import os
import re
from collections import Counter
from collections.abc import Generator, Iterable
from pathlib import Path

from core.counting import (
    BLOCK_BYTES,
    PREVIEW_LINES,
    CorpusCounts,
    _check_head,
    _count_file,
    _Counter,
)
from core.errors import ConfigError, CorpusError
from core.events import Progress, Warning_
from core.limits import MAX_COUNT, check_bound
from core.paths import require_regular_file


def _as_paths(paths) -> list[Path]:
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = [Path(p) for p in paths]
    if not out:
        raise CorpusError("no corpus file given")
    for p in out:
        if not p.exists():
            raise CorpusError(f"{p}: no such file")
        # subtle: before any open: opening a FIFO blocks until someone writes to it
        require_regular_file(p, CorpusError, "a text file")
        if not os.access(p, os.R_OK):
            raise CorpusError(f"{p}: permission denied")
    return out


def _check_encoding(encoding: str) -> str:
    if encoding == "auto":
        return encoding
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise ConfigError(f"unknown encoding {encoding!r} (try utf-8, cp949 or euc-kr)") from None
    if not getattr(info, "_is_text_encoding", True):
        raise ConfigError(f"{encoding!r} is not a text encoding")
    return info.name


def count_words(
    paths, options=None, encoding: str = "auto", workers: int | None = None, characters: bool = True
) -> Generator[Progress | Warning_, None, CorpusCounts]:
    """Count the words (pre-tokens under ``options``) and characters of text files.

    ``paths``: one path or a list; ``options``: a ``core.options.TrainOptions``
    whose normalizer and pre-tokenizer are applied to each line (None: plain
    whitespace-split words); ``encoding``: ``"auto"`` or a codec name;
    ``workers``: processes for a large file (None: one per CPU; 1: this process
    only). Files of ``core.corpus_parallel.PARALLEL_MIN_BYTES`` or more are
    counted in parallel (see that module); the counts are the same either way.
    ``characters=False``: the character counts are not needed (training is not shown them), so
    ``chars`` is left empty and ``characters`` still says how many there are; it saves a pass
    over the text, about a tenth of a small training job.

    A file holding ``"먹고 먹고\\r\\n있다\\r\\n"`` gives ``words == {'먹고': 2, '있다': 1}``.
    """
    files = _as_paths(paths)
    encoding = _check_encoding(encoding)
    if workers is not None and workers < 1:
        raise ConfigError(f"the number of counting processes must be at least 1, not {workers}")
    sizes = [p.stat().st_size for p in files]
    total = sum(sizes)
    counter = _Counter(options, count_characters=characters)
    min_bytes = _parallel_min_bytes(options)
    used: list[str] = []
    file_encodings: list[str] = []
    replaced_total = 0
    done = 0
    empty: list[Path] = []
    for path, size in zip(files, sizes):
        n_workers, file_encoding = _parallel_workers(path, size, encoding, workers, min_bytes)
        if n_workers > 1:
            from core.corpus_parallel import count_file_parallel

            step = count_file_parallel(path, counter, file_encoding, done, total, n_workers)
        else:
            step = _count_file(path, counter, encoding, done, total)
        enc, replaced, n_bytes, had_text = yield from step
        done += n_bytes
        file_encodings.append(enc)
        if enc not in used:
            used.append(enc)
        if replaced:
            replaced_total += replaced
            yield Warning_(
                f"{path}: {replaced:,} invalid byte(s) replaced with U+FFFD (read as {enc}; "
                f"if the file is in another encoding, choose it)"
            )
        if not had_text:
            if len(files) == 1:
                raise CorpusError(f"{path} is empty" + (" (only whitespace)" if n_bytes else ""))
            empty.append(path)
            yield Warning_(f"{path} is empty: skipped")
    if len(empty) == len(files):
        raise CorpusError(f"all {len(files)} corpus files are empty")
    result = counter.result(
        replaced_bytes=replaced_total,
        encoding=", ".join(used),
        paths=files,
        bytes_read=done,
    )
    _mark_last_sentence(result.words, files, file_encodings, options)
    return result


def _mark_last_sentence(words: dict[str, int], files: list[Path], encodings: list[str], options) -> None:
    """SentencePiece Unigram's counts (line ends marked): the last word of the sentence
    ``spm_train`` reads last gets a second ``LINE_END`` (one of its occurrences moves there).

    subtle: sentencepiece 0.2.3 seeds over all sentences laid end to end, each ended by a NUL;
    after the last one no sentence follows, so each suffix of it that ends other lines too is
    counted twice (``core.models.unigram.trainer``). Which sentence is last needs the line
    order, which counts lose: the files are read again (only for this algorithm)."""
    if options is None or len(encodings) != len(files):
        return
    from core.options import build_pre_tokenizer
    from core.pre_tokenizers import SentencePieceWords

    pre = build_pre_tokenizer(options)
    if not isinstance(pre, SentencePieceWords) or not pre.mark_line_end:
        return
    # only here: its dataclasses would cost every other training ~11 ms of start-up
    from core.sentencepiece_training import LINE_END, last_sentence

    lines: list[str] = []
    for path, enc in zip(files, encodings):
        try:
            text = path.read_text(encoding=enc, errors="replace").removeprefix("\ufeff")
        except (OSError, LookupError):
            return
        lines += text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last = last_sentence(lines, pre.split_words)
    if last and words.get(last[-1], 0) > 0 and last[-1].endswith(LINE_END):
        words[last[-1]] -= 1
        if not words[last[-1]]:
            del words[last[-1]]
        words[last[-1] + LINE_END] = 1


def _parallel_min_bytes(options) -> int:
    """From what file size counting under ``options`` is worth several processes.

    A pre-tokenizer that is much slower than splitting (a morpheme analyser reads
    a few hundred KB a second) says so with a ``parallel_min_bytes`` attribute.
    """
    from core import corpus_parallel

    if options is None:
        return corpus_parallel.PARALLEL_MIN_BYTES
    from core.options import build_pre_tokenizer

    pre = build_pre_tokenizer(options)
    return getattr(pre, "parallel_min_bytes", corpus_parallel.PARALLEL_MIN_BYTES)


def _parallel_workers(
    path: Path, size: int, encoding: str, workers: int | None, min_bytes: int | None = None
) -> tuple[int, str]:
    """``(processes, concrete encoding)`` for counting ``path`` in parallel, or ``(1, "")``.

    Parallel when more than one process is allowed, the file is large (``min_bytes``,
    default ``PARALLEL_MIN_BYTES``), and its encoding can be cut at line-end bytes
    (see ``core.corpus_parallel``).
    """
    from core import corpus_parallel

    workers = corpus_parallel.available_cpus() if workers is None else workers
    if min_bytes is None:
        min_bytes = corpus_parallel.PARALLEL_MIN_BYTES
    if workers < 2 or size < min_bytes:
        return 1, ""
    try:
        with open(path, "rb") as f:
            head = f.read(BLOCK_BYTES)
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
    encoding = _check_head(path, head, encoding, len(head) < BLOCK_BYTES)
    return (workers, encoding) if corpus_parallel.can_split(encoding) else (1, "")


def count_lines(lines: Iterable[str], options=None) -> CorpusCounts:
    """Count in-memory lines (tests, the GUI's examples); a line's own line end is ignored.

    >>> count_lines(["hug hug", "pug"]).words
    {'hug': 2, 'pug': 1}
    """
    counter = _Counter(options)
    for line in lines:
        line = line.rstrip("\r\n").replace("\r\n", "\n").replace("\r", "\n")
        counter.add_lines(line, line.count("\n") + 1)
    return counter.result(encoding="", paths=[])


# --- word-count files -------------------------------------------------------

_COUNT = re.compile(r"[0-9]+")
COUNTED_WITH = "#counted-with\t"  # first line of a file whose words are already pre-tokens


class WordCounts(dict):
    """``{word: count}`` from a word-count file.

    ``counted_with`` is ``None`` for plain words, or the pipeline
    (``core.options.counting_pipeline``) whose pre-tokens the words are, when the file
    starts with a ``#counted-with<TAB>{json}`` line (``subword count`` writes it).
    ``core.options.pre_tokenize_counts`` then uses the words as they are.
    """

    counted_with: dict | None = None


def read_word_counts(path) -> WordCounts:
    """Read a ``word<TAB>count`` file; duplicate words are summed, blank lines skipped.

    The count is what follows the *last* tab; a line without a tab may use a
    space instead (subword-nmt's ``get_vocab`` output). Everything before it,
    leading spaces included (GPT-2 pieces start with one), is the word.

    A file holding ``"hug\\t10\\npug\\t5\\n"`` gives ``{'hug': 10, 'pug': 5}``.
    A first line ``#counted-with<TAB>{json}`` sets ``counted_with`` (see :class:`WordCounts`).
    """
    path = _as_paths(path)[0]
    counts = WordCounts()
    total = 0
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
    if b"\x00" in data[:BLOCK_BYTES]:
        raise CorpusError(f"{path} looks like a binary file (it contains NUL bytes), not a word-count file")
    data = data.removeprefix(codecs.BOM_UTF8)
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CorpusError(f"{path}, line {number}: not valid UTF-8") from None
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        if number == 1 and line.startswith(COUNTED_WITH):
            counts.counted_with = _read_pipeline(path, line[len(COUNTED_WITH) :])
            continue
        sep = "\t" if "\t" in line else " "
        word, _, count = line.rpartition(sep)
        if not word or not _COUNT.fullmatch(count.strip()):
            raise CorpusError(f"{path}, line {number}: expected 'word<TAB>count', got {line[:80]!r}")
        digits = count.strip().lstrip("0") or "0"
        n = int(digits) if len(digits) <= 19 else MAX_COUNT + 1  # never int() of a 5,000-digit string
        if n <= 0:
            raise CorpusError(f"{path}, line {number}: the count must be a positive whole number, not {n}")
        # subtle: the trainers add counts up in int64 (a pair's count is a sum of words' counts):
        # the counts of the whole file together stay within MAX_COUNT, so those sums cannot wrap
        total += n
        check_bound(total, MAX_COUNT, "the counts added up", f"{path}, line {number}", CorpusError)
        counts[word] = counts.get(word, 0) + n
    if not counts:
        raise CorpusError(f"{path} is empty: no word counts in it")
    return counts


def _read_pipeline(path: Path, text: str) -> dict:
    import json  # here, not at the top: counting a text file needs neither json nor core.atomic

    try:
        pipeline = json.loads(text)
    except (ValueError, RecursionError):
        pipeline = None
    if not isinstance(pipeline, dict) or set(pipeline) != {"normalizer", "pre_tokenizer"}:
        raise CorpusError(f"{path}, line 1: expected {COUNTED_WITH.strip()} and the pipeline as JSON")
    return pipeline


def write_word_counts(counts: dict[str, int], path, options=None) -> None:
    """Write ``word<TAB>count`` lines, most frequent first (then by word), atomically.

    ``write_word_counts({"pug": 5, "hug": 10}, path)`` writes ``"hug\\t10\\npug\\t5\\n"``.
    With ``options`` (the words are pre-tokens under them), a first line
    ``#counted-with<TAB>{"normalizer": null, "pre_tokenizer": "whitespace"}`` says so,
    and the words keep the order of ``counts`` (the corpus order, as counting makes
    it): a trainer that breaks ties by first occurrence (WordPiece's likelihood
    score) then learns from the file exactly what it learns from the text.
    """
    import json

    from core.atomic import write_atomic
    from core.options import counting_pipeline

    lines = []
    if options is not None:
        lines.append(COUNTED_WITH + json.dumps(counting_pipeline(options), ensure_ascii=False) + "\n")
    items = counts.items() if options is not None else sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))
    for word, n in items:
        if not word.strip() or "\n" in word or "\r" in word or "\x00" in word:
            raise CorpusError(
                f"cannot write the word {word!r}: a word must be on one line, not blank, without NUL"
            )
        if not isinstance(n, int) or n <= 0:
            raise CorpusError(f"cannot write the count {n!r} of {word!r}: counts are positive whole numbers")
        lines.append(f"{word}\t{n}\n")
    write_atomic(Path(path), "".join(lines))


def load_word_counts_as_corpus(path, options=None) -> CorpusCounts:
    """A word-count file as a corpus: its words through ``options``' pipeline, with stats.

    ``lines`` is the number of distinct words in the file; ``chars`` count the
    characters of the file's words, each weighted by its count.
    """
    from core.options import pre_tokenize_counts

    path = Path(path)
    raw = read_word_counts(path)
    words = pre_tokenize_counts(raw, options) if options is not None else dict(raw)
    chars: Counter[str] = Counter()
    for word, n in raw.items():
        for c, k in Counter(word).items():
            chars[c] += k * n
    preview = [f"{w}\t{n}" for w, n in list(raw.items())[:PREVIEW_LINES]]
    return CorpusCounts(
        words=words,
        chars=dict(chars),
        lines=len(raw),
        characters=sum(chars.values()),
        n_words=sum(words.values()),
        encoding="utf-8",
        paths=[path],
        preview=preview,
        bytes_read=path.stat().st_size,
    )
