"""SentencePiece's ``char`` and ``word`` models: one piece per character, or per ``▁``-initial word.

Written to a ``tokenizer.json`` as `tokenizers`' nearest model, a WordLevel vocabulary.

Leaves out: training (SentencePiece's char and word trainers only count).
"""

from __future__ import annotations

from core.models.sentencepiece import SentencePieceModel
from core.sentencepiece_pieces import SPACE, Piece


class SentencePieceChar(SentencePieceModel):
    """SentencePiece's ``char`` model: each character is a piece (a user-defined piece that
    starts here, the longest, is one piece instead).

    >>> from core.sentencepiece_pieces import UNKNOWN
    >>> m = SentencePieceChar([Piece("<unk>", 0, UNKNOWN), Piece("▁", -1), Piece("a", -2)])
    >>> [t.value for t in m.tokenize("▁ab")]
    ['▁', 'a', '<unk>']
    """

    def __init__(self, pieces: list[Piece], byte_fallback: bool = False):
        super().__init__(pieces, byte_fallback)
        self._user = sorted(self.user_defined, key=len, reverse=True)

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        out = []
        i = 0
        while i < len(s):
            n = next((len(u) for u in self._user if s.startswith(u, i)), 1)
            out.append((i, i + n, self.piece_to_id(s[i : i + n])))
            i += n
        return out

    def to_dict(self) -> dict:
        return _word_level_dict(self)


class SentencePieceWord(SentencePieceModel):
    """SentencePiece's ``word`` model: the sentence is cut before every ``▁`` and each word
    is one piece or unknown.

    >>> from core.sentencepiece_pieces import UNKNOWN
    >>> m = SentencePieceWord([Piece("<unk>", 0, UNKNOWN), Piece("▁a", -1)])
    >>> [t.value for t in m.tokenize("▁a▁b")]
    ['▁a', '<unk>']
    """

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        starts = [0] + [i for i, c in enumerate(s) if c == SPACE and i > 0]
        ends = starts[1:] + [len(s)]
        return [(a, b, self.piece_to_id(s[a:b])) for a, b in zip(starts, ends) if b > a]

    def to_dict(self) -> dict:
        return _word_level_dict(self)


def _word_level_dict(model: SentencePieceModel) -> dict:
    """A char or word model as `tokenizers`' nearest model: a WordLevel vocabulary."""
    return {"type": "WordLevel", "vocab": model.get_vocab(), "unk_token": model.unk_token}
