"""The counting loop one process runs: a file's bytes (or a range of them) decoded, cut into lines, counted.

``core.corpus.count_words`` runs it over whole files, ``core.corpus_parallel``
and ``core.cluster_count`` over byte ranges cut at line ends (:func:`count_range`,
their unit of work); what it does with real files (byte order marks, line ends,
invalid bytes, long lines, encoding detection) is told in ``core.corpus``.

    >>> counter = _Counter(None)
    >>> counter.add_lines("hug pug\\npug", 2)
    >>> counter.result(encoding="", paths=[]).words
    {'hug': 1, 'pug': 2}

Leaves out: choosing files and processes (``core.corpus``, ``core.corpus_parallel``).
"""

from __future__ import annotations

import codecs
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path

from core.errors import CorpusError
from core.events import Progress
from core.records import Record

BLOCK_BYTES = 1 << 20  # read this many bytes at a time (and report progress once per block)
MAX_SEGMENT_CHARS = 1 << 16  # a partial line longer than this is cut at its last safe point while reading
LONG_LINE_CHARS = 1 << 16  # pre-tokenizers that work line by line see lines cut to this length
# Characters counted without numpy before it is imported for the rest (see _count_chars).
NUMPY_CHAR_COUNT_FROM = 4 << 20
_FEW_DISTINCT_CHARS = 128
PREVIEW_LINES = 50
PREVIEW_LINE_CHARS = 2000  # a preview line is cut here (think of the 50 MB single line)
BINARY_ERROR_RATIO = 0.30  # more undecodable bytes than this share of the first block: not text

_REPLACE_HANDLER = "subword-count-replace"
_tls = threading.local()


def _count_and_replace(exc: UnicodeError) -> tuple[str, int]:
    """Like ``errors="replace"``, but remembers how many bytes were replaced."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _tls.replaced = getattr(_tls, "replaced", 0) + (exc.end - exc.start)
    return "\ufffd", exc.end


codecs.register_error(_REPLACE_HANDLER, _count_and_replace)

_last_space_before_word = None  # the pattern _safe_cut searches with, compiled on first use


def _last_space_before_word_pattern():
    """subtle: searched from the end (the `regex` module's (?r) flag), so finding the last cut
    point of a megabyte-long line costs no more than the tail it skips. Compiled when first
    needed: importing `regex` costs a small training job ~12 ms and most never cut a line."""
    global _last_space_before_word
    if _last_space_before_word is None:
        import regex

        _last_space_before_word = regex.compile(r"(?r)\s(?=\S)")
    return _last_space_before_word


class CorpusCounts(Record):
    """What counting a corpus found.

    ``words`` are pre-tokens under the options' pipeline (whitespace-split words
    when counted without options); ``chars`` count the characters of the decoded
    text before normalization, line ends excluded.
    """

    def __init__(
        self,
        words: dict[str, int],
        chars: dict[str, int],
        lines: int = 0,
        characters: int = 0,
        n_words: int = 0,
        replaced_bytes: int = 0,
        encoding: str = "utf-8",
        paths: list[Path] | None = None,
        preview: list[str] | None = None,
        bytes_read: int = 0,
    ) -> None:
        self.words = words
        self.chars = chars
        self.lines = lines
        self.characters = characters
        self.n_words = n_words
        self.replaced_bytes = replaced_bytes
        self.encoding = encoding
        self.paths: list[Path] = [] if paths is None else paths
        self.preview: list[str] = [] if preview is None else preview
        self.bytes_read = bytes_read

    @property
    def distinct_words(self) -> int:
        return len(self.words)

    @property
    def distinct_chars(self) -> int:
        return len(self.chars)


class _Counter:
    """Accumulates counts from text segments that never contain a line end.

    ``count_characters=False``: no character counts (``chars`` stays empty), only how many there are.
    """

    def __init__(self, options, count_characters: bool = True) -> None:
        self.options = options  # parallel counting builds the same pipeline in its workers
        self.words: Counter[str] = Counter()
        self.chars: Counter[str] = Counter()
        self.count_characters = count_characters
        self.uncounted_characters = 0  # characters not in ``chars`` (not counted), line ends excluded
        self.lines = 0
        self.characters = 0  # counted so far, line ends included
        self.preview: list[str] = []
        self.continuing = False  # the last thing added was a segment of a line still going on
        # Byte-level splitters: pieces counted as they are, each distinct one written in the byte
        # alphabet once (take_raw_pieces), not every occurrence: ~0.3 us each of ~20 per line.
        self.raw_pieces: Counter[str] | None = None
        self.split_first = False  # see _count_split_first
        self.split: Callable[[str], list[str]]
        self.count_block = None
        if options is None:
            self.normalize = None
            self.split = str.split
            self.line_independent = True
        else:
            from core.bytelevel import BytePiecesMemo
            from core.options import build_normalizer, build_pre_tokenizer
            from core.pre_tokenizers import BertPreTokenizer, Whitespace, WhitespaceSplit

            normalizer = build_normalizer(options)
            pre = build_pre_tokenizer(options)
            self.normalize = normalizer.normalize_str if normalizer is not None else None
            self.split = pre.split_words
            if isinstance(pre, BytePiecesMemo):
                self.split, self.raw_pieces, self.to_words = pre.split_raw, Counter(), pre.raw_to_words
            # subtle: these split on whitespace and never produce a piece that
            # spans a line end, so splitting many lines joined by "\n" at once
            # gives exactly the pieces of each line: one call per block, not per line.
            # (Unicode normalizers never compose across "\n" either.)
            self.line_independent = type(pre) in (Whitespace, WhitespaceSplit, BertPreTokenizer)
            self.split_first = type(pre) in (Whitespace, BertPreTokenizer)
            # SentencePiece words: most lines of a block counted by one split (count_block)
            self.count_block = getattr(pre, "count_block", None) if self.normalize is None else None

    def add_lines(self, block: str, n_lines: int) -> None:
        """``block``: ``n_lines`` complete lines joined by "\\n" (no final line end).

        After ``add_segment``, the first of them is the end of the segmented line.
        """
        self.lines += n_lines
        if len(self.preview) < PREVIEW_LINES:
            skip = 1 if self.continuing else 0
            for line in block.split("\n", PREVIEW_LINES)[skip : skip + PREVIEW_LINES - len(self.preview)]:
                self.preview.append(line[:PREVIEW_LINE_CHARS])
        self.continuing = False
        self._add(block)

    def add_segment(self, segment: str) -> None:
        """Part of a line too long to hold (see ``_safe_cut``); not a line of its own."""
        if not self.continuing and len(self.preview) < PREVIEW_LINES:
            self.preview.append(segment[:PREVIEW_LINE_CHARS])
        self.continuing = True
        self._add(segment)

    def _add(self, block: str) -> None:
        if self.count_characters:
            _count_chars(block, self.chars, self.characters)
        else:
            self.uncounted_characters += len(block) - block.count("\n")
        self.characters += len(block)
        if self.line_independent:
            text = self.normalize(block) if self.normalize else block
            if self.split_first and text.isascii() and not _has_unit_separators(text):
                self.words.update(_count_split_first(text, self.split))
            else:
                self.words.update(self.split(text))
        else:
            lines: Iterable[str] = (
                block.split("\n") if self.count_block is None else self.count_block(block, self.words)
            )
            # (a block of a megabyte holds thousands of lines, seldom a long one: look before cutting)
            if len(block) > LONG_LINE_CHARS and max(map(len, lines), default=0) > LONG_LINE_CHARS:
                lines = chain.from_iterable(map(_segments, lines))
            if self.normalize:
                lines = map(self.normalize, lines)
            counts = self.words if self.raw_pieces is None else self.raw_pieces
            counts.update(chain.from_iterable(map(self.split, lines)))

    def take_raw_pieces(self) -> None:
        """Add the raw pieces counted so far to ``words``, in the byte alphabet (see ``raw_pieces``)."""
        if self.raw_pieces:
            raw = self.raw_pieces
            # (the byte alphabet writes different pieces differently: no two add up)
            self.words.update(dict(zip(self.to_words(list(raw)), raw.values())))
            raw.clear()

    def merge(self, words: dict, chars: dict, lines: int, preview: list[str]) -> None:
        """Add the counts of the next stretch of whole lines, counted elsewhere (a worker)."""
        self.words.update(words)
        if self.count_characters:
            self.chars.update(chars)
        else:
            self.uncounted_characters += sum(chars.values())
        self.lines += lines
        self.preview.extend(preview[: PREVIEW_LINES - len(self.preview)])

    def result(self, **stats) -> CorpusCounts:
        self.take_raw_pieces()
        self.chars.pop("\n", None)
        words = dict(self.words)
        return CorpusCounts(
            words=words,
            chars=dict(self.chars),
            lines=self.lines,
            characters=sum(self.chars.values()) + self.uncounted_characters,
            n_words=sum(words.values()),
            preview=self.preview,
            **stats,
        )


def _has_unit_separators(text: str) -> bool:
    """Does ``text`` hold U+001C..U+001F, where ``str.split()`` cuts and the pre-tokenizers do not?"""
    return "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text


def _count_split_first(text: str, split_words) -> dict[str, int]:
    """``Counter(split_words(text))`` for ASCII text without U+001C..U+001F, under the Whitespace
    or BERT pre-tokenizer (``split_words``), the same counts in the same order.

        >>> from core.pre_tokenizers import Whitespace
        >>> _count_split_first("hug, hug pug", Whitespace().split_words)
        {'hug': 2, ',': 1, 'pug': 1}

    Why: a novel repeats its words, so splitting at white space and counting the distinct pieces
    (both in C), then cutting only those with punctuation in them, beats running the pre-tokenizer's
    regex over every occurrence: 0.27 MB of English (en-botchan.txt), 11.1 -> 8.4 ms (BERT's 11.8 ->
    8.6); ``count_words`` on the file in a fresh process, 14.6 -> 12.5 ms.

    subtle: both pre-tokenizers' pieces hold no white space and never span it, so a text's pieces
    are its white-space-separated tokens' pieces in turn; ``str.split()`` cuts at exactly their
    white space in ASCII text once U+001C..U+001F are ruled out; a token of letters and digits
    alone (``isalnum``) is one piece. Counting the first occurrence of each token first keeps
    each piece where its first occurrence puts it.
    """
    words: dict[str, int] = {}
    get = words.get
    for token, n in Counter(text.split()).items():
        if token.isalnum():
            words[token] = get(token, 0) + n
        else:
            for piece in split_words(token):
                words[piece] = get(piece, 0) + n
    return words


def _count_chars(text: str, into: Counter, counted_before: int = 0) -> None:
    """Add ``text``'s character counts to ``into`` (``counted_before``: characters counted so far).

    subtle: ``Counter.update(text)`` allocates a new int per character once counts
    pass 256, which is slow (and very slow under tracemalloc). With numpy, the
    UTF-16 code units of the text are histogrammed in one C pass instead; text
    with characters outside the BMP (surrogate pairs) falls back to Counter.
    A small corpus of few distinct characters (English, not Korean) is counted without numpy
    unless it is already loaded: importing it costs ~0.1 s of CPU and ~13 MB, and ``str.count``
    per distinct character (a C scan each) counts a few megabytes of such text in less.
    """
    if (
        counted_before < NUMPY_CHAR_COUNT_FROM
        and "numpy" not in sys.modules
        and len(distinct := set(text)) <= _FEW_DISTINCT_CHARS
    ):
        for ch in distinct:
            into[ch] += text.count(ch)
        return
    if len(text) < 4096 or _np() is None:
        into.update(text)
        return
    np = _np()
    units = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), dtype="<u2")
    hist = np.zeros(0x10000, dtype=np.int64)
    for i in range(0, len(units), 1 << 16):  # slices: bincount copies its input to int64
        hist += np.bincount(units[i : i + (1 << 16)], minlength=0x10000)
    if hist[0xD800:0xE000].any():  # surrogate pairs: astral characters (emoji...)
        into.update(text)
        return
    for code in np.flatnonzero(hist).tolist():
        into[chr(code)] += int(hist[code])


_numpy = False


def _np():
    """numpy if installed (it arrives with pyqtgraph), else None; imported on first use."""
    global _numpy
    if _numpy is False:
        try:
            import numpy
        except ImportError:  # pragma: no cover - numpy is a dependency of the GUI
            numpy = None
        _numpy = numpy
    return _numpy


def _decode_errors(data: bytes, encoding: str, final: bool) -> int:
    """How many bytes of ``data`` do not decode in ``encoding``."""
    _tls.replaced = 0
    codecs.getincrementaldecoder(encoding)(_REPLACE_HANDLER).decode(data, final)
    return _tls.replaced


def detect_encoding(sample: bytes, final: bool = True) -> str:
    """Guess a sample's encoding: UTF-16 by its BOM; CP949 only if it reads cleanly and UTF-8 does not.

    The rule, in order:

    1. a UTF-16 byte order mark: UTF-16;
    2. the sample is valid UTF-8: UTF-8;
    3. the sample is valid CP949 (Windows' superset of EUC-KR) without a single
       undecodable byte, *and* most of its double-byte characters are from the
       common EUC-KR set (KS X 1001: both bytes 0xA1 or above): CP949;
    4. otherwise UTF-8, its invalid bytes replaced with U+FFFD and counted
       (``replaced_bytes``, and a warning that says to choose the encoding).

    subtle: "decodes with fewer errors" is not enough for CP949. CP949's
    extension reads almost any high byte followed by a letter as one of the
    8,822 rare syllables EUC-KR lacks, so one stray byte in a UTF-8 file
    (``caf\\xc3def``) decodes "cleanly" as CP949 and invents a syllable (``홥``)
    that would end up in the vocabulary. Real Korean text is mostly the 2,350
    common syllables; a replaced byte is visible and counted, an invented
    syllable is not.

    >>> detect_encoding("철수는 먹고".encode("cp949"))
    'cp949'
    >>> detect_encoding(b"caf\\xc3def")
    'utf-8'
    """
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if _decode_errors(sample, "utf-8", final) == 0:
        return "utf-8"
    if _decode_errors(sample, "cp949", final) == 0 and _mostly_euc_kr(sample):
        return "cp949"
    return "utf-8"


def _mostly_euc_kr(sample: bytes) -> bool:
    """Are most double-byte characters of this (cleanly CP949) sample in the common EUC-KR set?

    >>> _mostly_euc_kr("철수".encode("cp949")), _mostly_euc_kr(b"caf\\xc3def")
    (True, False)
    """
    text = codecs.getincrementaldecoder("cp949")("ignore").decode(sample, False)
    common = rare = 0
    for char, n in Counter(text).items():
        if char > "\x7f":
            if char.encode("cp949")[-1] >= 0xA1:
                common += n
            else:
                rare += n
    return common > rare


def _safe_cut(text: str, start: int = 0, end: int | None = None) -> int:
    """Where to cut a too-long line ``text[start:end]`` so that no pre-token is split.

    The cut goes just before the last whitespace character that is followed by
    a non-space: the piece after it starts with that whitespace, so GPT-2's
    `` word`` and metaspace's ``▁word`` pieces stay whole, and a run of spaces
    splits exactly as it would uncut.

    subtle: the approximation — a line with no such point in a whole block (a
    stretch of about a megabyte without whitespace, e.g. Japanese or Thai
    without line ends, or any long line under pre-tokenizer ``none``) is cut
    at the block end, so one pre-token there is split in two.

    >>> _safe_cut("ab  cd ef")
    6
    """
    end = len(text) if end is None else end
    m = _last_space_before_word_pattern().search(text, start, end)
    if m is None or m.start() == start:
        return end
    return m.start()


def _segments(line: str) -> Iterable[str]:
    """``line`` in pieces of at most ``LONG_LINE_CHARS``, cut at safe points (see ``_safe_cut``).

    This bounds the memory of pre-tokenizers that build per-character offsets.
    """
    if len(line) <= LONG_LINE_CHARS:
        return (line,)
    pieces = []
    start = 0
    while len(line) - start > LONG_LINE_CHARS:
        cut = _safe_cut(line, start, start + LONG_LINE_CHARS)
        pieces.append(line[start:cut])
        start = cut
    pieces.append(line[start:])
    return pieces


def _is_utf16_or_32(encoding: str) -> bool:
    return encoding.replace("_", "-").startswith(("utf-16", "utf-32"))


def _check_head(path: Path, block: bytes, encoding: str, final: bool) -> str:
    """The encoding of a file whose first block is ``block`` (detected for "auto"); binary files raise."""
    if encoding == "auto":
        encoding = detect_encoding(block, final)
    if b"\x00" in block and not _is_utf16_or_32(encoding):
        raise CorpusError(f"{path} looks like a binary file (it contains NUL bytes), not text")
    if block and _decode_errors(block, encoding, final) > BINARY_ERROR_RATIO * len(block):
        raise CorpusError(
            f"{path} looks like a binary file: most of it is not {encoding} text (if it is text, choose its encoding)"
        )
    return encoding


def _count_file(
    path: Path,
    counter: _Counter,
    encoding: str,
    done_before: int,
    total: int,
    start: int = 0,
    stop: int | None = None,
):
    """Feed one file to ``counter``; yields progress, returns (encoding, replaced bytes, bytes read, had text).

    ``start``/``stop``: count only these bytes (a range cut at line ends, see
    ``core.corpus_parallel``); a range that does not start the file keeps a
    leading U+FEFF (there it is text, not a byte order mark).
    """
    try:
        f = open(path, "rb")
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
    with f:

        def read() -> bytes:
            if stop is None:
                return f.read(BLOCK_BYTES)
            return f.read(max(0, min(BLOCK_BYTES, stop - f.tell())))

        try:
            if start:
                f.seek(start)
            block = read()
        except OSError as e:
            raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
        if not start:
            encoding = _check_head(path, block, encoding, len(block) < BLOCK_BYTES)

        decoder = codecs.getincrementaldecoder(encoding)(_REPLACE_HANDLER)
        replaced = 0
        bytes_read = 0
        pending = ""
        first = not start
        had_text = False
        while True:
            bytes_read += len(block)
            eof = not block
            _tls.replaced = 0
            text = pending + decoder.decode(block, final=eof)
            replaced += _tls.replaced
            block = b""  # subtle: drop references early: peak memory is a few blocks
            if first and text:
                text = text.removeprefix("\ufeff")  # a byte order mark is not text
                first = False
            if not had_text and text and not text.isspace():
                had_text = True
            # Line ends: CRLF and lone CR become LF. A CR at the very end may be
            # the first half of a CRLF split across blocks: keep it for later.
            if text.endswith("\r") and not eof:
                text, pending = text[:-1], "\r"
            else:
                pending = ""
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            last_nl = text.rfind("\n")
            if eof:
                if text or counter.continuing:  # the last line, which may lack its line end
                    text = text.removesuffix("\n")
                    counter.add_lines(text, text.count("\n") + 1)
            elif last_nl >= 0:
                counter.add_lines(text[:last_nl], text.count("\n", 0, last_nl) + 1)
                pending = text[last_nl + 1 :] + pending
            elif len(text) > MAX_SEGMENT_CHARS:
                cut = _safe_cut(text)
                counter.add_segment(text[:cut] if cut < len(text) else text)
                pending = text[cut:] + pending
            else:
                pending = text + pending
            text = ""
            if eof:
                break
            yield Progress("count", done_before + bytes_read, total)
            try:
                block = read()
            except OSError as e:
                raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None
    return encoding, replaced, bytes_read, had_text


def count_range(path: str, start: int, stop: int, encoding: str, options, on_progress=None) -> tuple:
    """Count the lines in bytes ``[start, stop)`` of ``path`` (cut at line ends); picklable counts.

    Returns ``(words, chars, lines, preview, replaced bytes, bytes read, had text)``;
    ``on_progress(bytes read so far)`` is called once per block. This is the unit of
    work of the worker processes here and of the Dask job (``core.cluster_count``).
    """
    counter = _Counter(options)
    gen = _count_file(Path(path), counter, encoding, 0, 0, start, stop)
    try:
        while True:
            event = next(gen)
            if on_progress is not None:
                on_progress(event.done)
    except StopIteration as stop_iteration:
        _, replaced, n_bytes, had_text = stop_iteration.value
    counter.take_raw_pieces()
    counter.chars.pop("\n", None)
    return (
        dict(counter.words),
        dict(counter.chars),
        counter.lines,
        counter.preview,
        replaced,
        n_bytes,
        had_text,
    )
