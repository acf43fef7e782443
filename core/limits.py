"""What a file may claim, and how long a pattern from a file may run: the bounds, in one place.

    >>> import regex
    >>> pattern = bounded_pattern(regex.compile("(a|aa)+$"), "Split pattern")
    >>> pattern.findall("aaa")
    ['a']
    >>> pattern.findall("a" * 60 + "!")   # backtracks without end: stopped after half a second
    Traceback (most recent call last):
    core.errors.FormatError: Split pattern '(a|aa)+$' ran past 0.5 s on 61 characters (it backtracks without end); ...

Tokenizer files come from other people. A file names sizes, ids and counts that the
engine then allocates or adds up, and regex patterns that it runs on every text: each
is refused beyond a bound chosen from real files, in one line naming the bound, as
Python's ``tarfile`` data filter and ``safetensors``' bounded header refuse what is out
of bounds instead of trying it.

Leaves out: bounds on what the engine itself builds (a trained vocabulary is as large
as asked); those are the training options' checks.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from core.errors import CorpusError, FormatError

if TYPE_CHECKING:
    import regex

# The largest published vocabularies hold a few hundred thousand tokens (Gemma's 262,144,
# o200k's 200,019, Mistral's tekken 131,072): 10 million is forty times that, and beyond it
# a file claims a vocabulary no model has, only an allocation that exhausts memory.
MAX_VOCAB_SIZE = 10_000_000
# An id indexes the id -> token table a tokenizer builds (a list as long as the largest id), so an
# id claims a vocabulary of that size: the largest id a file may hold is the vocabulary bound's.
# (int32, 2**31 - 1, which `tokenizers` and SentencePiece exchange ids as, would still let one
# line of a file ask for a 16 GB table.)
MAX_TOKEN_ID = MAX_VOCAB_SIZE - 1
# A count in a counts file: two of them (a pair's) must add up inside int64.
MAX_COUNT = 2**62
# What a gzip file may inflate to: CLIP's merges inflate to a few MB; a file that inflates
# further is not one (a 38 MB file can inflate to gigabytes).
MAX_INFLATED_BYTES = 64 << 20


def check_bound(value: int, bound: int, what: str, where: str, error: type[Exception] = FormatError) -> None:
    """``error`` in one line when ``value`` passes ``bound`` (named, with why it is there).

    >>> check_bound(10**12, MAX_VOCAB_SIZE, "default_vocab_size", "tekken.json")
    Traceback (most recent call last):
    core.errors.FormatError: tekken.json: default_vocab_size 1,000,000,000,000 is beyond the bound ...
    """
    if value > bound:
        raise error(
            f"{where}: {what} {value:,} is beyond the bound of {bound:,} (core.limits: no real file "
            "comes near it)"
        )


def check_token_id(value: int, what: str, where: str) -> None:
    """FormatError in one line when a token id read from a file passes :data:`MAX_TOKEN_ID`.

    >>> check_token_id(2**64, "the id of 'zz'", "vocab.json")
    Traceback (most recent call last):
    core.errors.FormatError: vocab.json: the id of 'zz' 18,446,744,073,709,551,616 is beyond the bound ...
    """
    check_bound(value, MAX_TOKEN_ID, what, where)


def loads_json(text: str | bytes, where: str, **kwargs: Any) -> Any:
    """``json.loads(text, **kwargs)``; JSON nested deeper than Python's parser follows is one
    FormatError line instead of a RecursionError traceback (invalid JSON stays the caller's).

    Real tokenizer files nest a few levels (a Sequence of normalizers inside the pipeline);
    ``[[[[...]]]]`` 100,000 deep is only there to break the reader.
    """
    try:
        return json.loads(text, **kwargs)
    except RecursionError:
        raise FormatError(
            f"{where}: JSON nested deeper than {sys.getrecursionlimit():,} levels (core.limits: a "
            "tokenizer file nests a few); refused"
        ) from None


# How deep a pipeline component (a normalizer, pre-tokenizer, decoder, post-processor) may nest
# as JSON: published tokenizer.json files nest a Sequence in a Sequence at most, six levels or so.
MAX_COMPONENT_DEPTH = 64


def check_json_depth(obj: Any, bound: int, what: str, where: str) -> None:
    """FormatError in one line when parsed JSON ``obj`` nests deeper than ``bound`` (objects and
    arrays each count one level); walked without recursion.

    >>> check_json_depth({"type": "Sequence", "normalizers": [{"type": "NFC"}]}, 3, "normalizer", "t.json")
    """
    level = [obj] if isinstance(obj, (dict, list)) else []
    depth = len(level)
    while level:
        if depth > bound:
            raise FormatError(
                f"{where}: {what} nests deeper than {bound} levels (core.limits: real files nest a few)"
            )
        children = (v for o in level for v in (o.values() if isinstance(o, dict) else o))
        level = [v for v in children if isinstance(v, (dict, list))]
        depth += 1


# The longest line `subword encode --input` reads: a whole book on one line is a few million
# characters; /dev/zero, or a sparse file, is one line that never ends. Reading stops here,
# so memory stays within ~64 MB (four bytes a character) whatever the input.
MAX_LINE_CHARS = 1 << 24


def bounded_lines(stream: IO[str], where: str, which: str = "", limit: int | None = None) -> Iterator[str]:
    """The lines of a text stream, as ``for line in stream`` yields them, never reading one past
    ``limit`` (default :data:`MAX_LINE_CHARS`) characters (CorpusError in one line naming
    ``which`` line, or its number, instead)."""
    limit = MAX_LINE_CHARS if limit is None else limit
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        if len(line) > limit and not line.endswith("\n"):
            raise line_too_long(where, which or f"line {number:,}", limit)
        yield line


def line_too_long(where: str, which: str, limit: int | None = None) -> CorpusError:
    return CorpusError(
        f"{where}: {which} is longer than {MAX_LINE_CHARS if limit is None else limit:,} characters (core.limits: is it text?); "
        "nothing more is read"
    )


# A pattern from a file runs with a time bound per call: this long, plus this long per
# character of text. Real split patterns find their pieces at well over 1 MB/s, so the
# bound is ~100 times what they need; a pattern that backtracks without end ("(a|aa)+$"
# runs for minutes on 61 characters) is stopped within seconds.
PATTERN_SECONDS = 0.5
PATTERN_SECONDS_PER_CHAR = 1e-5

# subtle: `regex` checks its clock so often that a bounded call takes about three times as
# long (the cl100k pattern on 4,288 lines of English: 0.15 s against 0.48 s, measured
# in-process). The published split patterns, which are known to run in linear time, are
# therefore run unbounded when a file holds one of them exactly: Llama 3's tokenizer.json
# Split (the cl100k pattern as `tokenizers` spells it), Qwen2's, and Mistral's tekken.json.
# (tiktoken's own encodings are known to core.pre_tokenizers.TIKTOKEN_PATTERNS.)
PUBLISHED_PATTERNS = frozenset(
    {
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?"""
        r"""[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+"""
        r"""|\s+(?!\S)|\s+""",
    }
)


class BoundedPattern:
    """A compiled ``regex`` pattern whose calls stop past a time bound with one FormatError line.

    It answers the calls the engine makes on a pattern (``findall``, ``finditer``, ``sub``,
    ``fullmatch``), so a pre-tokenizer or normalizer holds it where it held the pattern.
    subtle: ``regex`` measures its ``timeout`` per call (each step of ``finditer`` too).
    """

    __slots__ = ("_re", "what")

    def __init__(self, compiled: regex.Pattern, what: str):
        self._re, self.what = compiled, what

    @property
    def pattern(self) -> str:
        return self._re.pattern

    def findall(self, text: str) -> list:
        try:
            return self._re.findall(text, timeout=_budget(text))
        except TimeoutError:
            raise self._too_slow(text) from None

    def finditer(self, text: str):
        try:
            yield from self._re.finditer(text, timeout=_budget(text))
        except TimeoutError:
            raise self._too_slow(text) from None

    def sub(self, repl: Any, text: str) -> str:
        try:
            return self._re.sub(repl, text, timeout=_budget(text))
        except TimeoutError:
            raise self._too_slow(text) from None

    def fullmatch(self, text: str):
        try:
            return self._re.fullmatch(text, timeout=_budget(text))
        except TimeoutError:
            raise self._too_slow(text) from None

    def _too_slow(self, text: str) -> FormatError:
        return FormatError(
            f"{self.what} {self._re.pattern!r} ran past {_budget(text):.1f} s on {len(text):,} characters "
            "(it backtracks without end); the file's pattern is refused"
        )

    def __reduce__(self):
        return BoundedPattern, (self._re, self.what)

    def __repr__(self) -> str:
        return f"BoundedPattern({self._re.pattern!r})"


def bounded_pattern(
    compiled: regex.Pattern, what: str, written: str | None = None
) -> BoundedPattern | regex.Pattern:
    """``compiled`` (a pattern read from a file, ``written`` so there if it was rewritten before
    compiling), its every call bounded in time, unless it is one of :data:`PUBLISHED_PATTERNS`."""
    if (written if written is not None else compiled.pattern) in PUBLISHED_PATTERNS:
        return compiled
    return BoundedPattern(compiled, what)


def _budget(text: str) -> float:
    return PATTERN_SECONDS + PATTERN_SECONDS_PER_CHAR * len(text)
