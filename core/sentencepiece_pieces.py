"""SentencePiece's pieces: the record its normalizer, its models and its ``.model`` file share.

A piece is a text, a score and a type (normal, unknown, control, user-defined, unused,
byte). SentencePiece marks a space as ``▁`` (:data:`SPACE`), computes in float32
(:func:`f32`) and spells a byte piece ``<0x0A>`` (:func:`byte_piece`). A user-defined
piece is matched longest first (:class:`PrefixMatcher`), in the normalizer as in the models.

    >>> Piece("▁a", -1.0)
    Piece(piece='▁a', score=-1.0, type=1)

Leaves out: everything about files (``core.formats.sentencepiece_model``) and segmenting
(the models: ``core.models.sentencepiece`` and the ``sentencepiece`` module of ``core.models.bpe``,
``core.models.unigram`` and ``core.models.wordlevel``).
"""

from __future__ import annotations

import struct

from core.records import Record

SPACE = "▁"

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
PIECE_TYPE_NAMES = {
    NORMAL: "normal",
    UNKNOWN: "unknown",
    CONTROL: "control",
    USER_DEFINED: "user-defined",
    UNUSED: "unused",
    BYTE: "byte",
}

_F32 = struct.Struct("<f")


class Piece(Record):
    """One entry of the piece table: its text, its score and its type (:data:`PIECE_TYPE_NAMES`)."""

    __slots__ = ("piece", "score", "type")

    def __init__(self, piece: str, score: float = 0.0, type: int = NORMAL) -> None:
        self.piece, self.score, self.type = piece, score, type


def f32(x: float) -> float:
    """Round to float32, as SentencePiece's ``float`` arithmetic does.

    >>> f32(0.1)
    0.10000000149011612
    """
    return _F32.unpack(_F32.pack(x))[0]


def byte_piece(b: int) -> str:
    """The piece that stands for byte ``b`` under byte fallback.

    >>> byte_piece(0x0A)
    '<0x0A>'
    """
    return f"<0x{b:02X}>"


class PrefixMatcher:
    """Longest user-defined piece starting at a position (SentencePiece's PrefixMatcher)."""

    def __init__(self, pieces: list[str]):
        self.by_first: dict[str, list[str]] = {}
        for p in sorted(set(pieces), key=len, reverse=True):
            self.by_first.setdefault(p[0], []).append(p)

    def match(self, s: str, i: int) -> int:
        cands = self.by_first.get(s[i]) if self.by_first else None
        if cands:
            for p in cands:
                if s.startswith(p, i):
                    return len(p)
        return 0
