"""WordPiece encoder: greedy longest-match-first inside one pre-token, as BERT does.

    >>> wp = WordPiece({"[UNK]": 0, "hu": 1, "##g": 2, "##gs": 3, "p": 4, "##u": 5})
    >>> [t.value for t in wp.tokenize("hugs")]
    ['hu', '##gs']
    >>> [t.value for t in wp.tokenize("mug")]      # no token starts "mug": the whole word is unknown
    ['[UNK]']

How a pre-token is encoded (the same steps as BERT and Hugging Face ``tokenizers``):

1. A pre-token longer than ``max_input_chars_per_word`` characters is one unknown token.
2. From the start of the word, take the longest prefix that is in the vocabulary;
   every piece after the first is looked up with the continuing-subword prefix
   (``##gs``). Continue after it.
3. If at some position not even one character matches, the *whole* word becomes
   the unknown token (not only the part that failed).

Results are cached per pre-token. The model also answers the explorer's
questions: ``explain(piece)`` lists the greedy matches (and where matching
failed), ``truncated(vocab_size)`` keeps the first ``vocab_size`` ids (the
trainer's creation order) without retraining.

Leaves out: nothing of the encoder; vocab.txt files live in ``core.formats.bert_vocab``.
"""

from __future__ import annotations

import itertools

from core.errors import ConfigError, FormatError
from core.line_encoders import LineEncoder, LineKernels, TokenLengths
from core.models.base import ModelBase, Token, VocabLookup, vocab_by_id

_CACHE_LIMIT = 100_000  # pre-tokens; the cache is emptied when it gets this big
_FEW_PIECES = 16  # up to this many pieces, tokenize_spans_batch matches in Python, not compiled
_NO_SPANS: tuple[tuple, ...] = ((), (), (), ())  # the spans of an empty piece


class WordPiece(VocabLookup, ModelBase):
    """A WordPiece model: a vocabulary (token -> id), an unknown token and the ``##`` prefix.

    The unknown token must be in the vocabulary, so that :meth:`tokenize` never raises.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
    ):
        if not isinstance(vocab, dict) or not vocab:
            raise ConfigError("a WordPiece vocabulary cannot be empty")
        if unk_token not in vocab:
            raise ConfigError(f"the WordPiece vocabulary has no unknown token {unk_token!r}")
        ids: dict[int, str] = {}
        for token, i in vocab.items():
            if not isinstance(token, str) or not isinstance(i, int) or isinstance(i, bool) or i < 0:
                raise ConfigError(f"bad vocabulary entry {token!r}: {i!r} (want text -> whole number >= 0)")
            if i in ids:
                raise ConfigError(f"tokens {ids[i]!r} and {token!r} share id {i}")
            ids[i] = token
        if not isinstance(max_input_chars_per_word, int) or max_input_chars_per_word < 0:
            raise ConfigError("max_input_chars_per_word must be a whole number >= 0")
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix or ""
        self.max_input_chars_per_word = max_input_chars_per_word
        self._id_to_token = ids
        self._unk_id = self.vocab[unk_token]
        # subtle: no token is longer than this many characters, so the longest-match
        # search may start its window there instead of at the end of the word.
        self._max_token_chars = max(len(t) for t in self.vocab)
        self._cache: dict[str, list[Token]] = {}

    def _is_base(self, token: str) -> bool:
        """A single character, bare or with the continuing prefix (the alphabet)."""
        p = self.continuing_subword_prefix
        return len(token) == 1 or (bool(p) and token.startswith(p) and len(token) == len(p) + 1)

    @property
    def min_vocab_size(self) -> int:
        """The smallest size :meth:`truncated` cuts to: every id up to the last alphabet token or unk."""
        last = max([i for t, i in self.vocab.items() if self._is_base(t)] + [self._unk_id])
        return sum(1 for i in self._id_to_token if i <= last)

    def truncated(self, vocab_size: int) -> WordPiece:
        """Keep the tokens with the ``vocab_size`` smallest ids (the trainer's creation order).

        Never cuts below :attr:`min_vocab_size`, so the alphabet and the unknown token
        stay. Ids are kept as they are. Cheap: no retraining.

        >>> WordPiece({"[UNK]": 0, "a": 1, "##b": 2, "ab": 3}).truncated(3).get_vocab()
        {'[UNK]': 0, 'a': 1, '##b': 2}
        """
        keep = max(vocab_size, self.min_vocab_size)
        if keep >= len(self.vocab):
            return self
        kept_ids = sorted(self._id_to_token)[:keep]
        vocab = {self._id_to_token[i]: i for i in kept_ids}
        vocab[self.unk_token] = self._unk_id
        return WordPiece(vocab, self.unk_token, self.continuing_subword_prefix, self.max_input_chars_per_word)

    # -- encoding ---------------------------------------------------------------
    def _longest_match(self, piece: str, start: int) -> tuple[int, str] | None:
        """The end and token of the longest vocabulary match at ``start``, or None.

        >>> WordPiece({"[UNK]": 0, "h": 1, "hu": 2, "##g": 3})._longest_match("hug", 0)
        (2, 'hu')
        """
        prefix = self.continuing_subword_prefix if start > 0 else ""
        end = min(len(piece), start + self._max_token_chars)
        vocab = self.vocab
        while end > start:
            candidate = prefix + piece[start:end]
            if candidate in vocab:
                return end, candidate
            end -= 1
        return None

    def explains(self) -> str:
        return "longest match"

    def explain(self, piece: str) -> list[tuple[int, int, str | None]]:
        """The greedy matches in order, as ``(start, end, token)``; ``None`` marks failure.

        When matching fails at some position the last entry is ``(position, len(piece), None)``
        (and :meth:`tokenize` returns one unknown token). A word longer than
        ``max_input_chars_per_word`` gives ``[(0, len(piece), None)]``.

        >>> WordPiece({"[UNK]": 0, "h": 1, "##u": 2}).explain("hum")
        [(0, 1, 'h'), (1, 2, '##u'), (2, 3, None)]
        """
        if len(piece) > self.max_input_chars_per_word:
            return [(0, len(piece), None)]
        out: list[tuple[int, int, str | None]] = []
        start = 0
        while start < len(piece):
            match = self._longest_match(piece, start)
            if match is None:
                out.append((start, len(piece), None))
                break
            end, token = match
            out.append((start, end, token))
            start = end
        return out

    def tokenize(self, piece: str) -> list[Token]:
        """Tokens of one pre-token; ``start``/``end`` index its characters. Never raises."""
        cached = self._cache.get(piece)
        if cached is not None:
            return list(cached)
        steps = self.explain(piece)
        if steps and steps[-1][2] is None:
            tokens = [Token(self._unk_id, self.unk_token, 0, len(piece))]
        else:
            tokens = [Token(self.vocab[t], t, s, e) for s, e, t in steps]
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[piece] = tokens
        return list(tokens)

    def tokenize_spans_batch(self, pieces: list[str]) -> list[tuple[tuple, ...]]:
        """:meth:`tokenize` of each piece as ``(ids, tokens, starts, ends)`` tuples, not kept
        (``Tokenizer.encode`` keeps whole chunks). Many pieces go through the compiled match
        of :meth:`tokenize_ids_batch`, each token's span following from its length.

        >>> WordPiece({"[UNK]": 0, "hu": 1, "##gs": 2}).tokenize_spans_batch(["hugs", "mugs"])
        [((1, 2), ('hu', '##gs'), (0, 2), (2, 4)), ((0,), ('[UNK]',), (0,), (4,))]
        """
        unk, unk_token = self._unk_id, self.unk_token
        if len(pieces) <= _FEW_PIECES:
            out = []
            for piece in pieces:
                steps = self.explain(piece)
                if steps and steps[-1][2] is None:
                    out.append(((unk,), (unk_token,), (0,), (len(piece),)))
                else:
                    out.append(tuple(zip(*((self.vocab[t], t, s, e) for s, e, t in steps))) or _NO_SPANS)
            return out
        id_to_token, skip = self._id_to_token, len(self.continuing_subword_prefix)
        out = []
        for piece, ids in zip(pieces, self.tokenize_ids_batch(pieces)):
            if ids == [unk]:  # no match (or the unknown token itself): the whole piece
                out.append(((unk,), (unk_token,), (0,), (len(piece),)))
                continue
            tokens = tuple(map(id_to_token.__getitem__, ids))
            # subtle: every token after the first is the ## form of the characters it covers
            ends = tuple(itertools.accumulate(len(t) - (skip if k else 0) for k, t in enumerate(tokens)))
            out.append((tuple(ids), tokens, (0, *ends[:-1]), ends) if ids else _NO_SPANS)
        return out

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path: no offsets, no Token objects).

        >>> WordPiece({"[UNK]": 0, "hu": 1, "##gs": 2}).tokenize_ids("hugs")
        [1, 2]
        """
        steps = self.explain(piece)
        if steps and steps[-1][2] is None:
            return [self._unk_id]
        vocab = self.vocab
        return [vocab[t] for _, _, t in steps]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]`` in one call of the compiled greedy match
        (``core.models.wordpiece.kernels``; the ids fast path hands over a batch's new words).

        >>> WordPiece({"[UNK]": 0, "hu": 1, "##gs": 2}).tokenize_ids_batch(["hugs", "mugs"])
        [[1, 2], [0]]
        """
        ids, ends = self._match_flat(pieces)
        flat, cuts = ids.tolist(), ends.tolist()
        return [flat[cuts[k] : cuts[k + 1]] for k in range(len(pieces))]

    def tokenize_ids_flat(self, pieces: list[str]):
        """:meth:`tokenize_ids_batch` as flat arrays ``(ids, bounds, known)`` (every piece
        known: a piece without a match is the unknown token, which callers recognise).

            >>> ids, bounds, _ = WordPiece({"[UNK]": 0, "hu": 1, "##gs": 2}).tokenize_ids_flat(["hugs", "mugs"])
            >>> ids.tolist(), bounds.tolist()
            ([1, 2, 0], [0, 2, 3])
        """
        import numpy as np

        ids, ends = self._match_flat(pieces)
        return ids, ends, np.ones(len(pieces), bool)

    def matcher_args(self) -> tuple:
        """What the compiled greedy match (``kernels._longest_match_ids``) takes after
        the text, for a kernel that calls it itself (``core.models.wordpiece.line_kernels.wordpiece_fragments``):
        the trie's arrays, where continuing pieces start, the unknown token, the longest word."""
        found = self.__dict__.get("_matcher_args")
        if found is None:
            from core.models.wordpiece.kernels import continuing_root

            trie = self._trie()
            node = continuing_root(trie, self.continuing_subword_prefix)
            found = self._matcher_args = (
                trie.keys,
                trie.children,
                trie.piece_id,
                node,
                self._unk_id,
                self.max_input_chars_per_word,
            )
        return found

    # -- what the chunk cache and the explorer ask (core.models.base.ModelBase) ---------
    def token_lengths(self) -> TokenLengths | None:
        """Every token covers the characters its string holds after the continuing prefix
        (the unknown token stands for others: length 0)."""
        return TokenLengths.of(self, len(self.continuing_subword_prefix), {self._unk_id})

    def line_encoder(self, pre_tokenizer) -> LineEncoder | None:
        """The compiled greedy match: of pre-tokens the chunk cache cut (any pre-tokenizer), and
        of a whole line from the cache's character tables (the ``"normalized"`` way), from
        ``core.models.wordpiece.line_kernels``."""
        return LineEncoder("normalized", "core.models.wordpiece.line_kernels", self._load_line_kernels)

    def _load_line_kernels(self) -> LineKernels:
        from core.models.wordpiece import line_kernels  # (imports numba)

        return line_kernels.load(self)

    def can_truncate(self) -> bool:
        return True

    def _trie(self):
        """The vocabulary as the kernels' character trie, built once."""
        trie = self.__dict__.get("_compiled_trie")
        if trie is None:
            from core.models.unigram.kernels import PieceTrie

            trie = self._compiled_trie = PieceTrie.build((t, i, 0.0, False) for t, i in self.vocab.items())
        return trie

    def _match_flat(self, pieces: list[str]):
        """The compiled greedy match of every piece: flat ids and each piece's bounds in them."""
        from core.models.wordpiece.kernels import _longest_match_ids
        from core.text import codepoints

        return _longest_match_ids(*codepoints(pieces), *self.matcher_args())

    def __getstate__(self) -> dict:
        """Pickle without the kernel's trie (rebuilt on first use)."""
        state = dict(self.__dict__)
        state.pop("_compiled_trie", None)
        state.pop("_matcher_args", None)
        state.pop("_length_table", None)  # encode_chunks' table (rebuilt on use)
        return state

    # -- serialization -------------------------------------------------------------
    def to_dict(self) -> dict:
        """The ``"model"`` entry of a Hugging Face ``tokenizer.json``."""
        return {
            "type": "WordPiece",
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "vocab": vocab_by_id(self.vocab),
        }

    @classmethod
    def from_dict(cls, d: dict) -> WordPiece:
        """Read a ``"model"`` dict of type ``"WordPiece"`` (missing options take BERT's defaults)."""
        if not isinstance(d, dict) or d.get("type", "WordPiece") != "WordPiece":
            raise FormatError("not a WordPiece model")
        vocab = d.get("vocab")
        if not isinstance(vocab, dict) or not vocab:
            raise FormatError("a WordPiece model needs a non-empty vocabulary of token -> id")
        try:
            return cls(
                vocab,
                unk_token=d.get("unk_token", "[UNK]"),
                continuing_subword_prefix=d.get("continuing_subword_prefix", "##"),
                max_input_chars_per_word=d.get("max_input_chars_per_word", 100),
            )
        except ConfigError as e:
            raise FormatError(str(e)) from e

    def __repr__(self) -> str:
        return f"WordPiece(vocab_size={len(self.vocab)}, unk_token={self.unk_token!r})"
