"""The encoding of one text: :class:`Encoding` (ids, tokens, offsets, word ids, special-tokens
mask), the shapes the encoders store it in before anyone reads it, and the rule that makes token
spans disjoint. The encoders (core.encode_chunks, the models' line encoders) build it and
core.tokenizer hands it out; it sits below both so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")


class _Listed(Generic[T]):
    """A field of :class:`Encoding`: kept as the encoder stored it (often a tuple) in the slot
    ``slot``, turned into a list the first time it is read and the same list after that.
    ``field`` is where the field's values are in a batch's columns (see
    :meth:`Encoding.from_batch`)."""

    def __init__(self, slot: str, field: int):
        self.slot = slot
        self.field = field

    @overload
    def __get__(self, obj: None, owner: type) -> _Listed[T]: ...
    @overload
    def __get__(self, obj: object, owner: type) -> list[T]: ...
    def __get__(self, obj, owner):
        if obj is None:
            return self
        found = getattr(obj, self.slot)
        if found.__class__ is not list:
            found = self._listed(found)
            setattr(obj, self.slot, found)
        return found

    def _listed(self, found) -> list:
        if len(found) == 4 and found[0] is BATCHED:
            return self._from_batch(*found[1:])
        if len(found) == 3 and found[0] is ROWS:
            return self._from_rows(found[1], found[2])
        return list(found)

    def _from_batch(self, columns: tuple, a: int, b: int) -> list:
        """Tokens ``a`` to ``b`` of the field's batch column (an ``array.array`` of numbers)."""
        return columns[self.field][a:b].tolist()

    def _from_rows(self, rows, strings: list[str]) -> list:
        """The field from a kernel's rows (see :meth:`Encoding.from_rows`)."""
        return rows[self.field].tolist()

    def __set__(self, obj: object, value: Sequence[T]) -> None:
        setattr(obj, self.slot, value)


class _ListedTokens(_Listed[str]):
    """``Encoding.tokens``: as :class:`_Listed`; a batch's column is ``(strings, indexes)``,
    each token the string at its index."""

    def _from_batch(self, columns: tuple, a: int, b: int) -> list:
        strings, at = columns[self.field]
        return list(map(strings.__getitem__, at[a:b]))

    def _from_rows(self, rows, strings: list[str]) -> list:
        return list(map(strings.__getitem__, rows[self.field].tolist()))


class _ListedOffsets(_Listed[tuple[int, int]]):
    """``Encoding.offsets``: as :class:`_Listed`, and also stored as ``(PAIRED, starts, ends)``
    (see :meth:`Encoding.from_spans`), zipped into pairs the first time it is read; a batch's
    starts and ends are its columns ``field`` and ``field + 1``."""

    def _listed(self, found) -> list:
        if len(found) == 3 and found[0] is PAIRED:
            return list(zip(found[1], found[2]))
        return super()._listed(found)

    def _from_batch(self, columns: tuple, a: int, b: int) -> list:
        return list(zip(columns[self.field][a:b], columns[self.field + 1][a:b]))

    def _from_rows(self, rows, strings: list[str]) -> list:
        return list(zip(rows[self.field].tolist(), rows[self.field + 1].tolist()))


class _ListedMask(_Listed[int]):
    """``Encoding.special_tokens_mask``: as :class:`_Listed`; all zeros in a batch's view."""

    def _from_batch(self, columns: tuple, a: int, b: int) -> list:
        return [0] * (b - a)

    def _from_rows(self, rows, strings: list[str]) -> list:
        return [0] * rows.shape[1]


# Marks offsets stored as two flat tuples (a plain object: the cyclic collector never tracks it,
# so the tuple holding it can be untracked as well).
PAIRED = object()
# Marks a field kept as ``(BATCHED, columns, a, b)``: tokens a to b of a batch's columns (see
# :meth:`Encoding.from_batch`).
BATCHED = object()
# Marks a field kept as ``(ROWS, rows, strings)``: a kernel's rows of one text (see
# :meth:`Encoding.from_rows`).
ROWS = object()
_ZEROS: dict[int, tuple[int, ...]] = {}  # ``(0,) * n`` by n, shared by every encoding of that length


def zeros(n: int) -> tuple[int, ...]:
    """``(0,) * n``, the same tuple each time (a special-tokens mask without special tokens)."""
    found = _ZEROS.get(n)
    if found is None:
        found = _ZEROS[n] = (0,) * n
    return found


class Encoding:
    """Tokens of one input. ``offsets`` are (start, end) character spans of the original text;
    ``word_ids`` index the pre-token each token came from (None for added tokens, which
    still take a word index, so the others are numbered as in `tokenizers`).

        >>> enc = Encoding(ids=(5, 7), offsets=((0, 3), (4, 7)))
        >>> enc.ids, enc.offsets, enc.tokens
        ([5, 7], [(0, 3), (4, 7)], [])

    Each field is a list, made from what the encoder stored (often a tuple) the first time
    it is read, and the same list after that, so a caller may change it in place.
    subtle: a tuple of ints or strings is soon ignored by the cyclic garbage collector and
    a list never is, so an encoding that is kept but not read (a batch of a corpus) costs
    it one object instead of six; every full collection walks all of them.
    """

    __slots__ = ("_ids", "_tokens", "_offsets", "_word_ids", "_special_tokens_mask")

    def __init__(
        self,
        ids: Sequence[int] = (),
        tokens: Sequence[str] = (),
        offsets: Sequence[tuple[int, int]] = (),
        word_ids: Sequence[int | None] = (),
        special_tokens_mask: Sequence[int] = (),
    ):
        self._ids = ids
        self._tokens = tokens
        self._offsets = offsets
        self._word_ids = word_ids
        self._special_tokens_mask = special_tokens_mask

    ids: _Listed[int] = _Listed("_ids", 0)
    tokens: _Listed[str] = _ListedTokens("_tokens", 1)
    offsets: _Listed[tuple[int, int]] = _ListedOffsets("_offsets", 2)
    word_ids: _Listed[int | None] = _Listed("_word_ids", 4)
    special_tokens_mask: _Listed[int] = _ListedMask("_special_tokens_mask", -1)

    @classmethod
    def from_spans(
        cls,
        ids: tuple[int, ...],
        tokens: tuple[str, ...],
        starts: tuple[int, ...],
        ends: tuple[int, ...],
        word_ids: tuple[int, ...],
    ) -> Encoding:
        """An encoding without special tokens whose offsets are given as starts and ends.

            >>> Encoding.from_spans((5, 7), ("ab", "c"), (0, 3), (2, 4), (0, 1)).offsets
            [(0, 2), (3, 4)]

        subtle: nothing here is an object per token (the pairs are made when ``offsets`` is
        first read), so a batch of a corpus leaves the cyclic collector a few tuples per text.
        """
        enc = cls.__new__(cls)
        enc._ids = ids
        enc._tokens = tokens
        enc._offsets = (PAIRED, starts, ends)
        enc._word_ids = word_ids
        enc._special_tokens_mask = zeros(len(ids))
        return enc

    @classmethod
    def from_batch(cls, columns: tuple, a: int, b: int) -> Encoding:
        """An encoding without special tokens: tokens ``a`` to ``b`` of a batch's ``columns``
        (ids, tokens, starts, ends, word ids; ids and word ids ``array.array``s, tokens
        ``(strings, indexes)``: each token the string at its index), sliced when a field is first
        read.

            >>> from array import array
            >>> tokens = (["ab", "c", "d"], array("q", [0, 1, 2]))
            >>> columns = (array("q", [5, 7, 9]), tokens, (0, 3, 0), (2, 4, 1), array("q", [0, 1, 0]))
            >>> Encoding.from_batch(columns, 0, 2).offsets, Encoding.from_batch(columns, 2, 3).ids
            ([(0, 2), (3, 4)], [9])

        subtle: one small tuple per encoding and nothing else, so the cyclic collector's first
        pass over a batch of a corpus (it meets everything the batch made at once) walks two
        objects per text, not seven.
        """
        enc = cls.__new__(cls)
        enc._ids = enc._tokens = enc._offsets = enc._word_ids = enc._special_tokens_mask = (
            BATCHED,
            columns,
            a,
            b,
        )
        return enc

    @classmethod
    def from_rows(cls, rows, strings: list[str]) -> Encoding:
        """An encoding without special tokens from a kernel's rows (``rows``: a numpy array of
        ids, each token's place in ``strings``, starts, ends, word ids), each field made when
        first read.

            >>> import numpy as np
            >>> enc = Encoding.from_rows(np.array([[5, 7], [1, 0], [0, 3], [2, 4], [0, 1]]), ["c", "ab"])
            >>> enc.ids, enc.tokens, enc.offsets, enc.word_ids, len(enc)
            ([5, 7], ['ab', 'c'], [(0, 2), (3, 4)], [0, 1], 2)

        subtle: a line's five lists of numbers, its token strings and four tuples cost ~3 µs
        of a fresh tokenizer's ~20 µs line (``core.encode_chunks``), and a caller who reads the
        ids (as `tokenizers` users mostly do) needs one of them; the rows' ``tolist`` gives
        Python ints (a numpy row's items are numpy scalars). One small tuple per encoding,
        the array not tracked by the cyclic collector.
        """
        enc = cls.__new__(cls)
        enc._ids = enc._tokens = enc._offsets = enc._word_ids = enc._special_tokens_mask = (
            ROWS,
            rows,
            strings,
        )
        return enc

    def __len__(self) -> int:
        ids = self._ids
        if len(ids) == 4 and ids[0] is BATCHED:
            return ids[3] - ids[2]
        if len(ids) == 3 and ids[0] is ROWS:
            return ids[1].shape[1]
        return len(ids)

    def __reduce__(self) -> tuple:
        # subtle: the fields as lists, never the markers (a new process has other markers)
        return (Encoding, self._fields())

    def _fields(self) -> tuple:
        return (self.ids, self.tokens, self.offsets, self.word_ids, self.special_tokens_mask)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Encoding:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        ids, tokens, offsets, word_ids, mask = self._fields()
        return (
            f"Encoding(ids={ids!r}, tokens={tokens!r}, offsets={offsets!r}, word_ids={word_ids!r}, "
            f"special_tokens_mask={mask!r})"
        )


def spans_without_overlaps(offsets: list[tuple[int, int]]) -> None:
    """Make token spans disjoint, in place: a character cut into several tokens belongs to the last.

        >>> offsets = [(0, 1), (0, 1), (0, 1), (1, 2)]   # the three UTF-8 bytes of "한", then "!"
        >>> spans_without_overlaps(offsets); offsets
        [(0, 0), (0, 0), (0, 1), (1, 2)]

    subtle: several tokens can come from one character: its bytes under byte-level,
    ``ᄀ`` ``ᅡ`` of an NFD ``가``, a prepended ``▁`` or prefix space and the character
    after it (``"0"`` with ``▁0`` missing from a Unigram vocabulary). `tokenizers`
    gives each of them the whole character, so its spans overlap (``▁ (0, 1)``,
    ``0 (0, 1)``). We follow SentencePiece: the token holding the character's last
    part owns it, and the tokens before end where it starts (``▁ (0, 0)``,
    ``0 (0, 1)``), so spans never overlap and each still slices the original text.
    """
    for i in range(len(offsets) - 1):
        end = offsets[i][1]
        next_start, next_end = offsets[i + 1]
        if next_start < end <= next_end:
            offsets[i] = (min(offsets[i][0], next_start), next_start)
