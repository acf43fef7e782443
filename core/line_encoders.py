"""What a model hands the chunk cache (``core.encode_chunks``) to go faster: its token lengths
and its own compiled line encoder (``core.models.base.ModelBase.token_lengths`` and
``line_encoder``, which return these). Here, in the encoding layer, so that the cache reads
them without importing any model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

# What a "normalized" way's line kernel answers before it matches anything (in place of the tokens
# it wrote): a character not yet in the cache's tables (fill them, call again), a line the
# general path must take, too little room (its ``good`` then says how many tokens it may need).
NEED_CHARS = -1
TAKE_GENERAL = -2
NEED_ROOM = -3


class LineKernels(NamedTuple):
    """A model's compiled kernels for the chunk cache, loaded (see :class:`LineEncoder`).

    ``line`` encodes a whole line's new chunks and gathers the line in one call, ``fragments``
    a set of new chunks, both handed over the :class:`LineEncoder`'s ``way``; ``pieces`` (any
    way) takes pre-tokens the cache has cut (``core.chunk_kernels.chunk_spans``' arguments
    before the token lengths, with ``tables`` after the pieces). ``tables`` are the model's
    arguments, passed after the cache's own (each kernel's docstring says which).
    """

    line: Callable | None
    fragments: Callable | None
    pieces: Callable | None
    tables: tuple


class LineEncoder(NamedTuple):
    """A model's own compiled way through a line's new chunks (:meth:`ModelBase.line_encoder`).

    ``way`` is how the chunk cache hands the chunks over:

    - ``"words"``: the line's characters, chunks cut at ASCII spaces; the kernels pre-tokenize
      them with the model's tables (plain BPE under ``Whitespace`` or ``WhitespaceSplit``);
    - ``"bytes"``: each chunk a regex match, one pre-token, its UTF-8 bytes (byte-level BPE);
    - ``"lead"``: ``Metaspace`` chunks, ``▁`` + each chunk's text (Unigram);
    - ``"normalized"``: the line's characters with the cache's tables of what the normalizer
      and the pre-tokenizer make of each (WordPiece under BERT's stages);
    - ``""``: no line kernel, only ``pieces``.

    ``module`` holds the kernels; it imports numba (~0.4 s), so the cache imports it (through
    ``load``, once per plan) only when it may load numba, and asks ``core.jit.loaded(module)``
    whether someone did already.
    """

    way: str
    module: str
    load: Callable[[], LineKernels]


class TokenLengths:
    """How many characters each token of a model covers, for the chunk cache's spans.

    ``lengths[id]`` is the length of the token's string, 0 for tokens that stand for something
    else (the unknown token, SentencePiece's byte pieces ``<0x41>``) and ids no token has;
    ``prefix`` is the length of WordPiece's ``##``, which every token after a word's first
    carries; ``names[id]`` is the token's string; ``per_piece`` says a few pieces are best
    tokenized one by one (BPE's short merge loop) rather than in one batch call.
    """

    def __init__(self, names: list[str], lengths, prefix: int, per_piece: bool = False):
        self.names = names
        self.lengths = lengths
        self.prefix = prefix
        self.per_piece = per_piece
        self._length_list: list[int] | None = None

    def length_list(self) -> list[int]:
        """``lengths`` as a list (indexing a list from Python is faster than an array)."""
        if self._length_list is None:
            self._length_list = self.lengths.tolist()
        return self._length_list

    @classmethod
    def of(
        cls, model, prefix: int, opaque, per_piece: bool = False, byte_pieces: bool = False
    ) -> TokenLengths:
        """The table of ``model``'s vocabulary, ``opaque`` ids at length 0 (and SentencePiece's
        byte pieces if ``byte_pieces``). Kept on the model (``_length_table``: a model drops it
        when pickled), so a BPE cut (the slider's) inherits its model's: same ids."""
        import numpy as np

        found = model.__dict__.get("_length_table")
        if found is not None:
            return found
        vocab = model.get_vocab()
        tokens, ids = list(vocab), list(vocab.values())
        names = [""] * (max(ids, default=-1) + 1)
        if len(names) == len(tokens):  # ids 0..n-1 (every model file we read): sorted in C
            names = list(map(tokens.__getitem__, np.argsort(np.array(ids, np.int64), kind="stable").tolist()))
        else:
            for token, i in vocab.items():
                names[i] = token
        lengths = np.array(list(map(len, names)), np.int64)
        lengths[[i for i in opaque if i is not None]] = 0
        if byte_pieces:
            import re

            byte_piece = re.compile(r"<0x[0-9A-F]{2}>").fullmatch
            lengths[[i for i, token in enumerate(names) if byte_piece(token)]] = 0
        table = model.__dict__["_length_table"] = cls(names, lengths, prefix, per_piece)
        return table
