"""tiktoken's BPE: a byte-level BPE with no merge list, where a token's rank is its id AND
its merge priority (what tiktoken's core does, rebuilt).

    >>> m = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4})
    >>> m.tokenize_ids("abc")
    [3, 2]

Encoding one piece (already split by :class:`core.pre_tokenizers.TiktokenSplit`):

1. A piece whose UTF-8 bytes are a token is that token.
2. Otherwise start from single bytes and repeatedly join the adjacent pair whose joined
   bytes have the LOWEST rank (ties: leftmost), until no adjacent pair joins into a token.

:meth:`TiktokenBPE.explain` lists these steps for the explorer's why view.

Tokens are shown in the GPT-2 byte alphabet (``Ġ`` for a space, see :mod:`core.bytelevel`),
like any byte-level BPE. A variant of BPE whose ranks come from the tokens: long pieces go
through the compiled merge of :mod:`core.models.bpe.kernels`.

Leaves out: rank files (``core.formats.tiktoken_ranks``) and special tokens (the tokenizer's).
"""

from __future__ import annotations

import heapq
from itertools import chain, repeat

from core.bytelevel import CHAR_TO_BYTE, bytes_to_chars
from core.errors import ConfigError
from core.line_encoders import TokenLengths
from core.models.base import ModelBase, Token
from core.models.bpe.model import MergeStep, merge_joined
from core.pre_tokenizers import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, R50K_PATTERN

# The GPT-2 byte alphabet back to Latin-1 code points, so ``str.translate`` + ``encode("latin-1")``
# turn a byte-level piece into its bytes without a Python loop.
_TO_LATIN1 = {ord(c): b for c, b in CHAR_TO_BYTE.items()}
_SHORT_PIECE = 64  # bytes; longer pieces are merged with the heap of TiktokenBPE._merge
_NO_RANK = 1 << 62  # above every rank
# the split patterns compiled with the merge (core.models.bpe.split_kernels): pattern -> its kind
# there (GPT2, CL100K, O200K)
_COMPILED_SPLITS = {GPT2_PATTERN: 0, R50K_PATTERN: 0, CL100K_PATTERN: 1, O200K_PATTERN: 2}


class TiktokenBPE(ModelBase):
    """Rank-based byte-level BPE; pieces and token values are in the GPT-2 byte alphabet.

    >>> m = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4})
    >>> [t.value for t in m.tokenize("abc")]
    ['ab', 'c']
    """

    unk_token = None
    # text with a surrogate is taken as tiktoken's encode takes it: a pair joined, a lone one
    # U+FFFD (its test_encode_surrogate_pairs); see Tokenizer._checked
    surrogates = "replace"

    def __init__(self, ranks: dict[bytes, int]):
        self.ranks = dict(ranks)
        self._vocab = {bytes_to_chars(t): r for t, r in self.ranks.items()}
        self._by_id = {r: t for t, r in self._vocab.items()}
        missing = [b for b in range(256) if bytes([b]) not in self.ranks]
        self.missing_bytes = missing  # such bytes cannot be encoded (tiktoken fails too)
        self._cache: dict[str, list[Token]] = {}

    def _merge(self, data: bytes) -> list[tuple[int, int]]:
        """Byte spans of the tokens of ``data`` (not itself a token)."""
        n = len(data)
        if n > _SHORT_PIECE:
            merged = self._merge_flat([data])
            if merged is not None:  # (else a byte without a rank, which tokenize reports)
                starts = merged[1].tolist()
                return list(zip(starts, starts[1:] + [n]))
        ranks = self.ranks
        # parts: linked list of [start, end); heap of (rank, start, end_of_right) candidates
        end = list(range(1, n + 1))
        nxt = list(range(1, n + 1))
        nxt[-1] = -1
        prev = list(range(-1, n - 1))
        alive = [True] * n
        heap: list[tuple[int, int, int]] = []

        def push(left: int) -> None:
            right = nxt[left]
            if right == -1:
                return
            r = ranks.get(data[left : end[right]])
            if r is not None:
                heapq.heappush(heap, (r, left, end[right]))

        for i in range(n - 1):
            push(i)
        while heap:
            r, left, stop = heapq.heappop(heap)
            right = nxt[left]
            if not alive[left] or right == -1 or end[right] != stop:
                continue  # stale: one side has grown since
            end[left] = end[right]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] != -1:
                prev[nxt[right]] = left
            if prev[left] != -1:
                push(prev[left])
            push(left)
        spans = []
        i = 0
        while i != -1:
            spans.append((i, end[i]))
            i = nxt[i]
        return spans

    def tokenize(self, piece: str) -> list[Token]:
        cached = self._cache.get(piece)
        if cached is not None:
            return cached
        try:
            data = bytes(CHAR_TO_BYTE[c] for c in piece)
        except KeyError:  # not byte-level text: encode it as UTF-8 first
            data = piece.encode("utf-8")
            piece = bytes_to_chars(data)
        rank = self.ranks.get(data)
        if not data:  # subtle: before the look-up, which would find a file's empty token
            out = []
        elif rank is not None:
            out = [Token(rank, piece, 0, len(data))]
        else:
            out = []
            for a, b in self._merge(data):
                r = self.ranks.get(data[a:b])
                if r is None:
                    raise ConfigError(
                        f"byte {data[a]:#04x} has no rank in this tiktoken file, so it cannot be encoded"
                    )
                out.append(Token(r, piece[a:b], a, b))
        if len(piece) <= 256:  # a long piece (a pasted word) would only fill memory
            if len(self._cache) > 100_000:
                self._cache.clear()
            self._cache[piece] = out
        return out

    def tokenize_batch(self, pieces: list[str]) -> list[list[Token]]:
        """``[tokenize(p) for p in pieces]``, the byte-level pieces to merge merged in one compiled call.

        >>> m = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4})
        >>> [[(t.value, t.start, t.end) for t in ts] for ts in m.tokenize_batch(["abc", "c"])]
        [[('ab', 0, 2), ('c', 2, 3)], [('c', 0, 1)]]
        """
        cache, ranks = self._cache, self.ranks
        out: list[list[Token] | None] = []
        todo: list[str] = []
        datas: list[bytes] = []
        for piece in pieces:
            cached = cache.get(piece)
            if cached is not None:
                out.append(cached)
                continue
            try:
                data = piece.translate(_TO_LATIN1).encode("latin-1")
            except UnicodeEncodeError:
                data = b""
            if len(data) < 2 or data in ranks:  # not byte-level, one byte or one token: as tokenize
                out.append(self.tokenize(piece))
                continue
            out.append(None)
            todo.append(piece)
            datas.append(data)
        if not todo:
            return out  # type: ignore[return-value]
        merged = self._merge_flat(datas)
        if merged is None:  # a byte without a rank: tokenize says which
            return [found if found is not None else self.tokenize(p) for found, p in zip(out, pieces)]
        ids, first, bounds = (a.tolist() for a in merged)
        if len(cache) + len(todo) > 100_000:
            cache.clear()
        made = iter(range(len(todo)))
        for k, found in enumerate(out):
            if found is None:
                p = next(made)
                piece, a, b = todo[p], bounds[p], bounds[p + 1]
                starts = first[a:b]
                tokens = [
                    Token(r, piece[s:e], s, e) for r, s, e in zip(ids[a:b], starts, starts[1:] + [len(piece)])
                ]
                if len(piece) <= 256:
                    cache[piece] = tokens
                out[k] = tokens
        return out  # type: ignore[return-value]

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path: no offsets, no Token objects).

        >>> TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4}).tokenize_ids("abc")
        [3, 2]
        """
        try:
            data = piece.translate(_TO_LATIN1).encode("latin-1")
        except UnicodeEncodeError:  # not byte-level text
            return [t.id for t in self.tokenize(piece)]
        if not data:  # subtle: before the look-up, which would find a file's empty token
            return []
        ranks = self.ranks
        rank = ranks.get(data)
        if rank is not None:
            return [rank]
        if len(data) > _SHORT_PIECE:
            return self._merge_compiled([data])[0]
        # step 2 on a short piece: scan all pairs, join the leftmost lowest-ranked one
        # (the heap's order, with less bookkeeping for a handful of bytes; tiktoken does the same)
        parts = merge_joined([data[k : k + 1] for k in range(len(data))], ranks.get, _NO_RANK)
        try:
            return [ranks[p] for p in parts]
        except KeyError:
            return [t.id for t in self.tokenize(piece)]  # a byte without a rank: tokenize says which

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``, the pieces to merge merged in one compiled call.

        >>> TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4}).tokenize_ids_batch(["abc", "c", ""])
        [[3, 2], [2], []]
        """
        datas: list[bytes | None] = []
        for piece in pieces:
            try:
                datas.append(piece.translate(_TO_LATIN1).encode("latin-1"))
            except UnicodeEncodeError:  # not byte-level text
                datas.append(None)
        return self._bytes_ids(datas, pieces)

    def token_lengths(self) -> TokenLengths:
        """Byte-level tokens, each covering the bytes its string holds; no unknown token."""
        return TokenLengths.of(self, 0, set())

    def raw_ids_batch(self):
        """:meth:`tokenize_raw_batch`: the ids path hands a byte-level splitter's pieces to it."""
        return self.tokenize_raw_batch

    def raw_texts_ids(self):
        """:meth:`tokenize_raw_texts`: the ids path hands it each text's pieces."""
        return self.tokenize_raw_texts

    def split_texts_ids(self, pattern: str):
        """GPT-2's, cl100k's and o200k's split patterns are compiled with the merge
        (:mod:`core.models.bpe.split_kernels`): whole texts in, their ids out, in one call.

        >>> TiktokenBPE({bytes([b]): b for b in range(256)}).split_texts_ids(GPT2_PATTERN)(["ab c"])
        [[97, 98, 32, 99]]
        """
        kind = _COMPILED_SPLITS.get(pattern)
        if kind is None:
            return None

        compiled = table = None

        def encode(texts: list[str]) -> list[list[int]] | None:
            nonlocal compiled, table
            if compiled is None:  # (looked up once: an import per call of encode_ids costs ~0.5 µs)
                from core.models.bpe.split_kernels import encode_texts as compiled

                table = self._rank_table()
            if table is None:  # a rank too large for it: the pre-tokenizer splits
                return None
            return compiled(texts, kind, table)

        return encode

    def tokenize_raw_texts(self, texts: list[list]) -> list[list[int]]:
        """The ids of texts, each given as its pieces of raw text (a byte-level splitter's) and
        the ids of its added tokens (ints): a piece that is a token is looked up, the others'
        UTF-8 bytes merged, all of them in one call of the compiled merge (no cache of pieces:
        most Korean pieces are met once, and a look-up per piece costs as much as the kernel).

        >>> TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4}).tokenize_raw_texts([["abc", "c", 9], []])
        [[3, 2, 2, 9], []]
        """
        from core.models.bpe.kernels import rank_text_pieces, rank_texts

        if int not in map(type, chain.from_iterable(texts)):  # no added token: bytes read in the kernel
            found = rank_text_pieces(texts, self._token_table())
            if found is not None:
                return found
        if len(texts) == 1:
            parts = texts[0]
            counts = [len(parts)]
        else:
            parts = list(chain.from_iterable(texts))
            counts = list(map(len, texts))
        get = self.ranks.get
        if all(type(p) is str for p in parts):
            datas = list(map(str.encode, parts, repeat("utf-8"), repeat("surrogatepass")))
            known = list(map(get, datas, repeat(-1)))
        else:  # added tokens' ids among the pieces
            datas = [p.encode("utf-8", "surrogatepass") if type(p) is str else b"" for p in parts]
            known = [get(d, -1) if type(p) is str else p for p, d in zip(parts, datas)]
        if b"" in self.ranks:  # subtle: a file's empty token is no match for an empty piece
            known = [-1 if type(p) is str and not d else k for p, d, k in zip(parts, datas, known)]
        found = rank_texts(datas, known, counts, *self._compiled_tables())
        if found is None:  # a byte without a rank: the piece by piece way says which
            batch = self.tokenize_raw_batch
            return [[i for p in ps for i in ([p] if type(p) is int else batch([p])[0])] for ps in texts]
        return found

    def tokenize_raw_batch(self, pieces: list[str]) -> list[list[int]]:
        """The ids of pieces of text as they are (not in the byte alphabet): of their UTF-8 bytes.
        The ids path hands a byte-level splitter's own pieces straight to this.

        >>> TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4}).tokenize_raw_batch(["abc"])
        [[3, 2]]
        """
        datas = list(map(str.encode, pieces, repeat("utf-8"), repeat("surrogatepass")))
        # subtle: the pieces in the byte alphabet are only wanted to name a byte without a rank
        return self._bytes_ids(datas, None)  # type: ignore[arg-type]

    def _bytes_ids(self, datas: list[bytes | None], pieces: list[str] | None) -> list[list[int]]:
        """Ids of each piece's bytes (None: not byte-level text, so :meth:`tokenize` it);
        ``pieces`` in the byte alphabet (None: made from ``datas`` if a byte has no rank)."""
        ranks = self.ranks
        out: list[list[int] | None] = []
        todo: list[bytes] = []
        for piece, data in zip(pieces or repeat(None), datas):
            if data is None:
                out.append([t.id for t in self.tokenize(piece)])  # type: ignore[arg-type]  # given with a None
                continue
            rank = ranks.get(data) if data else None  # subtle: a file's empty token is no match
            if not data or rank is not None:
                out.append([rank] if data else [])
                continue
            out.append(None)
            todo.append(data)
        if not todo:
            return out  # type: ignore[return-value]
        merged = iter(self._merge_compiled(todo))
        return [ids if ids is not None else next(merged) for ids in out]

    def _merge_compiled(self, datas: list[bytes]) -> list[list[int]]:
        """Step 3 on the bytes of many pieces, in one call of the compiled merge; where a byte
        has no rank, each piece goes through :meth:`tokenize`, which names that byte."""
        from core.models.bpe.kernels import merge_byte_pieces

        merged = merge_byte_pieces(datas, *self._compiled_tables())
        if merged is None:
            # subtle: each of these pieces' own bytes, never a list of other pieces beside them
            # (a hostile rank file whose merged pieces cover a missing byte reached an assert)
            return [[t.id for t in self.tokenize(bytes_to_chars(data))] for data in datas]
        return merged

    def _merge_flat(self, datas: list[bytes]):
        """``core.models.bpe.kernels.merge_flat`` on the bytes of ``datas`` as single-byte ranks
        (token ids, byte index where each token starts, token bounds); None if a byte has no rank."""
        import numpy as np

        from core.models.bpe.kernels import merge_flat

        byte_ranks, table = self._compiled_tables()
        symbols = byte_ranks[np.frombuffer(b"".join(datas), np.uint8)]
        if self.missing_bytes and (symbols < 0).any():
            return None
        bounds = np.zeros(len(datas) + 1, np.int64)
        np.cumsum(np.fromiter(map(len, datas), np.int64, len(datas)), out=bounds[1:])
        return merge_flat(symbols, bounds, table)

    def _compiled_tables(self):
        """``(rank of each byte (-1: none), PairTable)`` for the compiled merge, built once."""
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            import numpy as np

            from core.models.bpe.kernels import PairTable

            byte_ranks = np.array([self.ranks.get(bytes([b]), -1) for b in range(256)], np.int64)
            compiled = self._compiled = (byte_ranks, PairTable.build(self._pair_ranks()))
        return compiled

    def _token_table(self):
        """The ranks as ``core.models.bpe.kernels.TokenTable`` for the compiled look-up, built once."""
        table = self.__dict__.get("_tokens")
        if table is None:
            from core.models.bpe.kernels import TokenTable

            table = self._tokens = TokenTable.build(self.ranks, *self._compiled_tables())
        return table

    def _rank_table(self):
        """The ranks as ``core.models.bpe.split_kernels.RankTable`` for the compiled line
        encoder, built once (None: a rank too large for it)."""
        if "_rank_tables" not in self.__dict__:
            import numpy as np

            from core.models.bpe.split_kernels import RankTable

            get = self.ranks.get
            # (not _compiled_tables' byte ranks: its PairTable, unused here, cost the start ~0.1 s)
            byte_ranks = np.fromiter((get(bytes([b]), -1) for b in range(256)), np.int64, 256)
            self._rank_tables = RankTable.build(self.ranks, byte_ranks, self._pair_ranks())
        return self._rank_tables

    def _pair_ranks(self) -> dict[tuple[int, int], tuple[int, int]]:
        """``(rank of a, rank of b) -> (rank of a+b, rank of a+b)`` for every token a+b cut in two
        tokens: the rank table of a merge-list BPE, built once, for long pieces."""
        table = self.__dict__.get("_pairs")
        if table is None:
            ranks = self.ranks
            table = {}
            for token, rank in ranks.items():
                for k in range(1, len(token)):
                    left = ranks.get(token[:k])
                    if left is not None:
                        right = ranks.get(token[k:])
                        if right is not None:
                            table[(left, right)] = (rank, rank)
            self._pairs = table
        return table

    def __getstate__(self) -> dict:
        """Pickle without the compiled merge's tables and the cache (rebuilt on first use)."""
        state = {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("_compiled", "_pairs", "_length_table", "_tokens", "_rank_tables")
        }
        state["_cache"] = {}
        return state

    def explains(self) -> str:
        return "ranks"

    def explain(self, piece: str) -> list[MergeStep]:
        """The joins that cut ``piece`` (step 2 of the module), in the order applied; a step's
        ``rank`` is the joined token's rank (its id), its symbols are in the byte alphabet and
        its ``position`` is a byte offset. A piece that is itself a token (step 1) lists the
        joins that build it when they do (the same tokens), none when they do not (tiktoken
        takes it whole). Written for reading, like tiktoken's ``_educational.py``: it rescans
        every pair after each join, so it is quadratic in the piece's bytes.

        >>> m = TiktokenBPE({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4})
        >>> [(s.left, s.right, s.rank, s.symbols) for s in m.explain("abc")]
        [('a', 'b', 3, ('ab', 'c'))]
        """
        try:
            data = bytes(CHAR_TO_BYTE[c] for c in piece)
        except KeyError:  # not byte-level text: as tokenize, its UTF-8 bytes
            data = piece.encode("utf-8")
        ranks = self.ranks
        parts = [data[k : k + 1] for k in range(len(data))]
        steps: list[MergeStep] = []
        while len(parts) > 1:
            # the adjacent pair whose joined bytes have the lowest rank; equal ranks: the leftmost
            found = [ranks.get(a + b, _NO_RANK) for a, b in zip(parts, parts[1:])]
            best = min(found)
            if best == _NO_RANK:
                break
            at = found.index(best)
            left, right = parts[at], parts[at + 1]
            parts[at : at + 2] = [left + right]
            steps.append(
                MergeStep(
                    best,
                    bytes_to_chars(left),
                    bytes_to_chars(right),
                    bytes_to_chars(left + right),
                    sum(map(len, parts[:at])),
                    tuple(map(bytes_to_chars, parts)),
                    at,
                )
            )
        if len(data) > 1 and data in ranks and parts != [data]:
            return []  # step 1: the whole piece is a token, which the joins do not reach
        return steps

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._by_id.get(id)

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    def ranked_merges(self) -> list[tuple[str, str]]:
        """Merges a rank-ordered BPE would need (how `tokenizers`' converters derive them)."""
        found = []
        for token, rank in self.ranks.items():
            for k in range(1, len(token)):
                left, right = token[:k], token[k:]
                lr, rr = self.ranks.get(left), self.ranks.get(right)
                if lr is not None and rr is not None:
                    found.append((rank, lr, rr, left, right))
        found.sort()
        return [(bytes_to_chars(f[3]), bytes_to_chars(f[4])) for f in found]

    def to_dict(self) -> dict:
        # subtle: `ignore_merges` makes a piece that is itself a token one token, as tiktoken does.
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": True,
            "vocab": dict(self._vocab),
            "merges": [[a, b] for a, b in self.ranked_merges()],
        }

    def __repr__(self) -> str:
        return f"TiktokenBPE({len(self.ranks)} ranks)"
