"""WordLevel: each pre-token is one token, or the unknown token.

    >>> m = WordLevel({"[UNK]": 0, "hello": 1}, "[UNK]")
    >>> [(t.id, t.value) for t in m.tokenize("hello")], [(t.id, t.value) for t in m.tokenize("hi")]
    ([(1, 'hello')], [(0, '[UNK]')])

As `tokenizers`' ``WordLevel``: no splitting at all, so the pre-tokenizer decides
everything. Published tokenizers use it for word vocabularies and for the
character vocabularies of speech models (with the CTC decoder).

Leaves out: training (a WordLevel vocabulary is a word count cut at a size).
"""

from __future__ import annotations

from core.errors import ConfigError
from core.models.base import ModelBase, Token, VocabLookup


class WordLevel(VocabLookup, ModelBase):
    def __init__(self, vocab: dict[str, int], unk_token: str | None = "[UNK]"):
        if not isinstance(vocab, dict):
            raise ConfigError("a WordLevel vocabulary is an object of token -> id")
        self.vocab = dict(vocab)
        self._id_to_token = {i: t for t, i in self.vocab.items()}
        if len(self._id_to_token) != len(self.vocab):
            raise ConfigError("two tokens of the WordLevel vocabulary share an id")
        self.unk_token = unk_token

    def tokenize(self, piece: str) -> list[Token]:
        if not piece:
            return []
        id = self.vocab.get(piece)
        if id is not None:
            return [Token(id, piece, 0, len(piece))]
        unk = self.vocab.get(self.unk_token) if self.unk_token is not None else None
        if unk is None or self.unk_token is None:
            # subtle: `tokenizers` fails the whole encoding here; we never raise on text,
            # so the piece is dropped (the explorer shows it as uncovered)
            return []
        return [Token(unk, self.unk_token, 0, len(piece))]

    def to_dict(self) -> dict:
        return {"type": "WordLevel", "vocab": dict(self.vocab), "unk_token": self.unk_token}

    @classmethod
    def from_dict(cls, d: dict) -> WordLevel:
        return cls(d.get("vocab") or {}, d.get("unk_token", "[UNK]"))

    def __repr__(self) -> str:
        return f"WordLevel({len(self.vocab)} tokens, unk={self.unk_token!r})"
