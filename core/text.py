"""Text that remembers where each of its characters came from.

A :class:`NormalizedString` is what flows through the pipeline: the current text
(``normalized``) plus, for every one of its characters, the ``(start, end)`` span
of the *original* text it came from. Normalizers rewrite it, pre-tokenizers cut
it into pieces, and the model's token offsets are mapped back through it, so the
GUI can colour spans of exactly what the user typed.

    >>> s = NormalizedString.from_str("ab")
    >>> s.slice(1, 2).alignments
    [(1, 2)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate
from typing import TYPE_CHECKING

from core.errors import InputError
from core.records import Record

if TYPE_CHECKING:
    import numpy as np


class NormalizedString(Record):
    """Text with, for each of its characters, the span of the original text it came from."""

    __slots__ = ("normalized", "alignments", "original_length")

    def __init__(self, normalized: str, alignments: list[tuple[int, int]], original_length: int = 0) -> None:
        self.normalized = normalized
        self.alignments = alignments  # one original span per character of `normalized`
        self.original_length = original_length

    @classmethod
    def from_str(cls, text: str) -> NormalizedString:
        return cls(text, [(i, i + 1) for i in range(len(text))], len(text))

    def __len__(self) -> int:
        return len(self.normalized)

    def slice(self, start: int, end: int) -> NormalizedString:
        """The characters ``[start, end)`` with their alignments."""
        return NormalizedString(self.normalized[start:end], self.alignments[start:end], self.original_length)

    def span(self, start: int = 0, end: int | None = None) -> tuple[int, int]:
        """Original span covered by normalized characters ``[start, end)``.

        An empty range maps to an empty span at the position it would start at.
        """
        if end is None:
            end = len(self.normalized)
        if start >= end:
            if start < len(self.alignments):
                pos = self.alignments[start][0]
            elif self.alignments:
                pos = self.alignments[-1][1]
            else:
                pos = 0
            return (pos, pos)
        return (self.alignments[start][0], self.alignments[end - 1][1])

    @property
    def offsets(self) -> tuple[int, int]:
        return self.span()

    def transform(self, pieces: Iterable[tuple[str, tuple[int, int]]]) -> NormalizedString:
        """Rebuild from ``(text, original_span)`` pieces; every char of a piece gets its span."""
        chars: list[str] = []
        aligns: list[tuple[int, int]] = []
        for text, span in pieces:
            chars.append(text)
            aligns.extend([span] * len(text))
        return NormalizedString("".join(chars), aligns, self.original_length)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text, what: str = "text") -> str:
    """``text`` if it is a ``str`` every model can take; InputError otherwise.

    subtle: the one rule for surrogates, decided here for every model. A Python
    string can hold a lone surrogate (``"\\ud800"``, e.g. from ``surrogateescape``
    or half of a UTF-16 pair); it is not a Unicode character, cannot be written as
    UTF-8, and `tokenizers` refuses it too. Every entry point refuses it the same
    way, so no model quietly maps it to ``<unk>`` while another crashes; the one exception
    follows its reference library: a rank-file (tiktoken) model declares
    ``surrogates = "replace"`` and takes such text as tiktoken does (:func:`replace_surrogates`).

    >>> check_text("철수 👋🏽")
    '철수 👋🏽'
    """
    if not isinstance(text, str):
        raise InputError(f"{what} must be a string (str), not {type(text).__name__}")
    if not text.isascii():
        bad = _LONE_SURROGATE.search(text)
        if bad is not None:
            raise InputError(
                f"{what} holds a lone surrogate U+{ord(bad.group()):04X} at character {bad.start()}: "
                "not a Unicode character (decode the bytes with errors='replace' first)"
            )
    return text


def check_texts(texts: list, what: str = "text") -> list:
    """``[check_text(t, what) for t in texts]``, in one pass over the batch: ``texts`` itself when
    every one passes (joined, they encode as UTF-32, which refuses a surrogate as the rule does
    and costs ~0.05 µs a Korean line against ~0.36 for a ``check_text`` call each), else the
    same InputError as the first that fails.

    >>> check_texts(["철수", "👋🏽", ""])
    ['철수', '👋🏽', '']
    """
    try:
        "".join(texts).encode("utf-32-le")  # a non-str: TypeError; a surrogate: UnicodeEncodeError
    except (TypeError, UnicodeEncodeError):
        return [check_text(t, what) for t in texts]
    return texts


def replace_surrogates(text: str) -> tuple[str, list[int] | None]:
    """``text`` as tiktoken's ``encode`` takes one that UTF-8 cannot hold: a surrogate pair
    joined into its character, a lone surrogate replaced by U+FFFD (a round trip through
    UTF-16, as tiktoken does); with, when pairs were joined, the position in ``text`` of each
    character of the result and of its end (None: the positions did not move).

    >>> replace_surrogates("a\\ud83d\\udc4d\\ud800")
    ('a👍�', [0, 1, 3, 4])
    """
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text, None
    fixed = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if len(fixed) == len(text):
        return fixed, None
    positions = []
    i, n = 0, len(text)
    while i < n:
        positions.append(i)
        pair = "\ud800" <= text[i] <= "\udbff" and i + 1 < n and "\udc00" <= text[i + 1] <= "\udfff"
        i += 2 if pair else 1
    positions.append(n)
    return fixed, positions


def codepoints(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """All ``texts`` as one int32 array of code points, and where each starts (``len(texts) + 1``
    int64 bounds): what the compiled kernels read text as.

    >>> codes, bounds = codepoints(["ab", "", "한"])
    >>> codes.tolist(), bounds.tolist()
    ([97, 98, 54620], [0, 2, 2, 3])

    subtle: the codes are a read-only view of the encoded text (no copy); a lone surrogate is
    its code point, so text that did not pass :func:`check_text` (a trainer's words) is read too.
    """
    import numpy as np

    codes = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.int32)
    if len(texts) == 1:  # one text (a call of encode_ids): its bounds at once
        return codes, np.array([0, codes.shape[0]], dtype=np.int64)
    bounds = np.fromiter(accumulate(map(len, texts), initial=0), dtype=np.int64, count=len(texts) + 1)
    return codes, bounds


def split_flat(flat: np.ndarray, bounds: np.ndarray) -> list[list[int]]:
    """``flat`` cut at ``bounds`` into lists of ints: what a kernel's ids of many texts become.

    >>> import numpy as np
    >>> split_flat(np.array([1, 2, 3]), np.array([0, 2, 2, 3]))
    [[1, 2], [], [3]]
    """
    values = flat.tolist()
    if bounds.shape[0] == 2:  # one text (a call of encode_ids): no cutting
        return [values]
    edges = bounds.tolist()
    return [values[a:b] for a, b in zip(edges, edges[1:])]
