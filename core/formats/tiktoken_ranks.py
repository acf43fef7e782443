"""tiktoken rank files: ``<base64 of the token's bytes> <rank>`` per line.

    >>> tok = load_tiktoken("cl100k_base.tiktoken", pattern="cl100k_base")
    >>> tok.encode("Hello 한국어").ids

A rank file is a byte-level BPE with no merge list: the rank of a token is its
id AND its merge priority. Encoding one piece of text (what tiktoken's core
does, rebuilt in :class:`TiktokenBPE`):

1. Split the text with the pattern (by name: ``gpt2``, ``cl100k_base``,
   ``o200k_base``; or a regex given as is).
2. A piece whose UTF-8 bytes are a token is that token.
3. Otherwise start from single bytes and repeatedly join the adjacent pair
   whose joined bytes have the LOWEST rank (ties: leftmost), until no adjacent
   pair joins into a token.

Inside the explorer tokens are shown in the GPT-2 byte alphabet (``Ġ`` for a
space, see :mod:`core.bytelevel`), like any byte-level BPE.

Special tokens are not in a rank file: pass them to :func:`load_tiktoken`.
Leaves out: the pattern itself is not stored in the file either.
"""

from __future__ import annotations

import base64
import binascii
import heapq
import os
from itertools import repeat
from pathlib import Path

import regex

from core.atomic import write_atomic
from core.bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE, BytePiecesMemo, bytes_to_chars
from core.errors import ConfigError, FormatError
from core.limits import bounded_pattern, check_token_id
from core.line_encoders import TokenLengths
from core.models.base import ModelBase, Token
from core.text import NormalizedString

# The split patterns of OpenAI's encodings (possessive quantifiers are understood by `regex`).
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PARTS = [
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
]
O200K_PATTERN = "|".join(O200K_PARTS)
PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "r50k_base": GPT2_PATTERN,
    "p50k_base": GPT2_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}


def resolve_pattern(pattern: str) -> str:
    """A pattern name (``"cl100k_base"``) or a regex; an invalid regex is a ConfigError.

    >>> resolve_pattern("gpt2") == GPT2_PATTERN
    True
    """
    pat = PATTERNS.get(pattern, pattern)
    try:
        regex.compile(pat)
    except (regex.error, RecursionError, OverflowError) as e:
        raise ConfigError(
            f"split pattern is neither a known name ({', '.join(PATTERNS)}) nor a valid regex: {e}"
        ) from None
    return pat


# -- the file -------------------------------------------------------------------------


def read_ranks(path: str | os.PathLike) -> dict[bytes, int]:
    """The ``bytes -> rank`` table of a rank file; FormatError naming the file and line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    ranks: dict[bytes, int] = {}
    seen_rank: dict[int, int] = {}
    for lineno, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{path}: line {lineno} is not '<base64 token> <rank>'")
        try:
            # subtle: an empty token is written "=" (Whisper's multilingual file ends "= 50256");
            # tiktoken's lenient decoding reads it as b"", strict decoding refuses it.
            token = b"" if parts[0] == b"=" else base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(f"{path}: line {lineno}: {parts[0][:40]!r} is not base64") from None
        try:
            rank = int(parts[1])
        except ValueError:
            raise FormatError(
                f"{path}: line {lineno}: rank {parts[1][:40]!r} is not a whole number"
            ) from None
        if rank < 0:
            raise FormatError(f"{path}: line {lineno}: negative rank {rank}")
        check_token_id(rank, "rank", f"{path}: line {lineno}")
        if token in ranks:
            raise FormatError(f"{path}: line {lineno}: token {token!r} already has rank {ranks[token]}")
        if rank in seen_rank:
            raise FormatError(f"{path}: duplicate id: rank {rank} on lines {seen_rank[rank]} and {lineno}")
        seen_rank[rank] = lineno
        ranks[token] = rank
    if not ranks:
        raise FormatError(f"{path}: empty rank file")
    return ranks


def write_ranks(ranks: dict[bytes, int], path: str | os.PathLike) -> None:
    """Write a rank file atomically (temp file + rename), ordered by rank."""
    lines = [
        f"{base64.b64encode(t).decode('ascii')} {r}\n" for t, r in sorted(ranks.items(), key=lambda x: x[1])
    ]
    write_atomic(Path(path), "".join(lines))


def looks_like_rank_file(path: str | os.PathLike, lines: int = 5) -> bool:
    """True if the first lines are ``base64 integer`` pairs (format detection)."""
    try:
        with open(path, "rb") as f:
            head = [f.readline() for _ in range(lines)]
    except OSError:
        return False
    head = [h.strip() for h in head if h.strip()]
    return bool(head) and all(_is_rank_line(h) for h in head)


# The encodings tiktoken ships (tiktoken_ext.openai_public), known by how many ranks their files hold.
ENDOFTEXT, ENDOFPROMPT = "<|endoftext|>", "<|endofprompt|>"
KNOWN_RANK_COUNTS: dict[int, tuple[str, dict[str, int]]] = {
    50256: ("r50k_base", {ENDOFTEXT: 50256}),
    50280: ("p50k_base", {ENDOFTEXT: 50256}),
    100256: (
        "cl100k_base",
        {
            ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            ENDOFPROMPT: 100276,
        },
    ),
    199998: ("o200k_base", {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
}


def guess_encoding(n_ranks: int) -> tuple[str, dict[str, int], str]:
    """``(pattern name, special tokens, why)`` for a rank file of ``n_ranks`` ranks.

    A file the size of one tiktoken ships is that encoding, with its special tokens;
    any other size takes the pattern of the nearest family (GPT-2's ~50k, cl100k's
    ~100k, o200k's ~200k) and no special tokens.

    >>> guess_encoding(50257)[:2]      # Whisper's multilingual file: GPT-2 plus an empty token
    ('gpt2', {})
    """
    if n_ranks in KNOWN_RANK_COUNTS:
        name, specials = KNOWN_RANK_COUNTS[n_ranks]
        return name, dict(specials), f"{n_ranks:,} ranks, as tiktoken's {name}"
    if n_ranks < 75_000:
        name = "gpt2"
    elif n_ranks < 150_000:
        name = "cl100k_base"
    else:
        name = "o200k_base"
    return name, {}, f"{n_ranks:,} ranks, nearest in size to {name}"


# -- the model --------------------------------------------------------------------------

# The GPT-2 byte alphabet back to Latin-1 code points, so ``str.translate`` + ``encode("latin-1")``
# turn a byte-level piece into its bytes without a Python loop.
_TO_LATIN1 = {ord(c): b for c, b in CHAR_TO_BYTE.items()}
_SHORT_PIECE = 64  # bytes; longer pieces are merged with the heap of TiktokenBPE._merge
_NO_RANK = 1 << 62  # above every rank
_NO_RANKS = (_NO_RANK,) * _SHORT_PIECE


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
            return self._merge_compiled([data], piece)[0]
        # step 3 on a short piece: scan all pairs, join the leftmost lowest-ranked one
        # (the heap's order, with less bookkeeping for a handful of bytes; tiktoken does the same)
        parts = [data[k : k + 1] for k in range(len(data))]
        get = ranks.get
        # found[k] = rank of parts[k] + parts[k + 1]; after a join only the two beside it change
        found = list(map(get, map(bytes.__add__, parts, parts[1:]), _NO_RANKS[: len(parts) - 1]))
        while found:
            best = min(found)
            if best == _NO_RANK:
                break
            at = found.index(best)
            parts[at : at + 2] = (parts[at] + parts[at + 1],)
            del found[at]
            if at < len(found):
                found[at] = get(parts[at] + parts[at + 1], _NO_RANK)
            if at > 0:
                found[at - 1] = get(parts[at - 1] + parts[at], _NO_RANK)
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
        merged = iter(self._merge_compiled(todo, pieces))
        return [ids if ids is not None else next(merged) for ids in out]

    def _merge_compiled(self, datas: list[bytes], pieces: list[str] | None) -> list[list[int]]:
        """Step 3 on the bytes of many pieces, in one call of the compiled merge (a piece of
        ``pieces`` holding a byte without a rank makes :meth:`tokenize` say which)."""
        from core.models.bpe.kernels import split_flat

        merged = self._merge_flat(datas)
        if merged is None:
            for piece in pieces if pieces is not None else map(bytes_to_chars, datas):
                self.tokenize(piece)  # raises the ConfigError naming the byte
            raise AssertionError("unreachable: a byte without a rank was not found again")
        out_ids, _, out_bounds = merged
        return split_flat(out_ids, out_bounds)

    def _merge_flat(self, datas: list[bytes]):
        """``core.models.bpe.kernels.merge_flat`` on the bytes of ``datas`` as single-byte ranks
        (token ids, byte index where each token starts, token bounds); None if a byte has no rank."""
        import numpy as np

        from core.models.bpe.kernels import PairTable, merge_flat

        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            byte_ranks = np.array([self.ranks.get(bytes([b]), -1) for b in range(256)], np.int64)
            compiled = self._compiled = (byte_ranks, PairTable.build(self._pair_ranks()))
        byte_ranks, table = compiled
        symbols = byte_ranks[np.frombuffer(b"".join(datas), np.uint8)]
        if self.missing_bytes and (symbols < 0).any():
            return None
        bounds = np.zeros(len(datas) + 1, np.int64)
        np.cumsum(np.fromiter(map(len, datas), np.int64, len(datas)), out=bounds[1:])
        return merge_flat(symbols, bounds, table)

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
        state = {k: v for k, v in self.__dict__.items() if k not in ("_compiled", "_pairs", "_length_table")}
        state["_cache"] = {}
        return state

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


class TiktokenSplit(BytePiecesMemo):
    """Split with a tiktoken pattern, then write each piece's bytes in the GPT-2 alphabet.

    >>> TiktokenSplit("gpt2").pre_tokenize_str("Hi 한")
    [('Hi', (0, 2)), ('Ġíķľ', (2, 4))]
    """

    def __init__(self, pattern: str = "cl100k_base"):
        self.name = pattern if pattern in PATTERNS else None
        self.pattern = resolve_pattern(pattern)
        self._re = regex.compile(self.pattern)
        if self.pattern not in PATTERNS.values():  # a file's own pattern: it may backtrack without end
            self._re = bounded_pattern(self._re, "split pattern")

    def pre_tokenize(self, text: NormalizedString) -> list[NormalizedString]:
        out = []
        for m in self._re.finditer(text.normalized):
            piece = text.slice(m.start(), m.end())
            chars: list[str] = []
            aligns: list[tuple[int, int]] = []
            for c, span in zip(piece.normalized, piece.alignments):
                encoded = c.encode("utf-8", errors="surrogatepass")
                chars.extend(BYTE_TO_CHAR[b] for b in encoded)
                aligns.extend([span] * len(encoded))
            out.append(NormalizedString("".join(chars), aligns, piece.original_length))
        return out

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        return [(p.normalized, p.offsets) for p in self.pre_tokenize(NormalizedString.from_str(text))]

    def split_words(self, text: str) -> list[str]:
        return self.raw_to_words(self.split_raw(text))

    def split_raw(self, text: str) -> list[str]:
        """The pieces of ``text`` as they are, before the byte alphabet (the ids path caches by them)."""
        return self._re.findall(text)

    def to_dict(self) -> dict:
        return {
            "type": "Sequence",
            "pretokenizers": [
                {
                    "type": "Split",
                    "pattern": {"Regex": self.pattern},
                    "behavior": "Isolated",
                    "invert": False,
                },
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
            ],
        }

    def __repr__(self) -> str:
        return f"TiktokenSplit({self.name or 'custom'!r})"


def tiktoken_tokenizer(
    ranks: dict[bytes, int], pattern: str = "cl100k_base", special_tokens: dict[str, int] | None = None
):
    """``special_tokens`` (e.g. ``{"<|endoftext|>": 100257}``) are matched in the text first,
    as ``tiktoken.Encoding.encode(text, allowed_special="all")`` does."""
    from core import decoders
    from core.tokenizer import AddedToken, Tokenizer

    specials = dict(special_tokens or {})
    taken = {r: t for t, r in ranks.items()}
    for content, id in specials.items():
        if id in taken:
            raise ConfigError(
                f"special token {content!r} has id {id}, which the rank of {taken[id]!r} already uses"
            )
    split = TiktokenSplit(pattern)
    tok = Tokenizer(
        TiktokenBPE(ranks),
        pre_tokenizer=split,
        decoder=decoders.ByteLevel(),
        added_tokens=[AddedToken(content, id, special=True) for content, id in specials.items()],
    )
    tok.extra["tiktoken"] = {"pattern": split.name or pattern}
    return tok


def load_tiktoken(
    path: str | os.PathLike, pattern: str = "cl100k_base", special_tokens: dict[str, int] | None = None
):
    """A rank file as a Tokenizer that encodes as ``tiktoken.Encoding`` with the same ranks and pattern."""
    return tiktoken_tokenizer(read_ranks(path), pattern, special_tokens)


def ranks_of(tok) -> dict[bytes, int]:
    """The rank table of a byte-level tokenizer (ids as ranks), to save as a rank file.

    A byte-level BPE whose ids follow its merge order (as trained) encodes the
    same through tiktoken's algorithm; other tokenizers cannot be rank files.
    """
    model = tok.model
    if isinstance(model, TiktokenBPE):
        return dict(model.ranks)
    vocab = model.get_vocab()
    ranks: dict[bytes, int] = {}
    for token, id in vocab.items():
        if any(c not in CHAR_TO_BYTE for c in token):
            raise ConfigError(
                f"token {token!r} is not byte-level: only a byte-level BPE can be a tiktoken rank file"
            )
        ranks[bytes(CHAR_TO_BYTE[c] for c in token)] = id
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        # subtle: tiktoken cannot encode a byte it has no rank for (it panics); a BPE over
        # characters whose tokens all look like byte symbols gets here with a few dozen
        raise ConfigError(
            f"a tiktoken rank file needs all 256 single bytes and this vocabulary lacks {len(missing)} "
            f"(e.g. {bytes([missing[0]])!r}): only a byte-level BPE can be a rank file; save it as tokenizer.json"
        )
    return ranks


def save_tiktoken(tok, path: str | os.PathLike) -> None:
    write_ranks(ranks_of(tok), path)


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    return one_file(folder, "*.tiktoken")


def sniff(head) -> bool:
    """Every line is ``base64 number``."""
    return not head.binary and all(_is_rank_line(ln) for ln in head.lines)


def _is_rank_line(line: bytes) -> bool:
    parts = line.split()
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    if parts[0] == b"=":  # the empty token
        return True
    try:
        base64.b64decode(parts[0], validate=True)
        return True
    except (binascii.Error, ValueError):
        return False


def open_file(path: Path, pattern: str | None = None):
    """``pattern``: the split pattern, which the file does not store (a name or a regex);
    without it, the one its size suggests (:func:`guess_encoding`).

    A file the size of one of tiktoken's encodings gets that encoding's special tokens;
    text that spells one is encoded as ordinary text (``encode_ordinary``) until the
    tokenizer's ``encode_special_tokens`` is set to False (``allowed_special="all"``).
    """
    from core.formats.common import LoadedTokenizer

    tok, warnings = rank_file_tokenizer(path, pattern)
    return LoadedTokenizer(tok, "tiktoken", path, warnings)


def rank_file_tokenizer(path: Path, pattern: str | None = None):
    """``(tokenizer, warnings)`` of a rank file, its pattern and special tokens guessed from its size."""
    ranks = read_ranks(path)
    guessed, specials, why = guess_encoding(len(ranks))
    warnings = []
    if pattern is None:
        pattern = guessed
        warnings.append(
            f"{path.name} does not store its split pattern: assumed {guessed} ({why}; choose with --pattern)"
        )
    taken = set(ranks.values())
    tok = tiktoken_tokenizer(ranks, pattern, {t: i for t, i in specials.items() if i not in taken})
    tok.encode_special_tokens = True
    return tok, warnings


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import describe, file_in

    save_tiktoken(tok, file_in(path, "ranks.tiktoken"))  # ConfigError (nothing written) unless byte-level
    losses = ["a tiktoken rank file does not store its split pattern"]
    if not isinstance(tok.pre_tokenizer, TiktokenSplit):
        losses.append(
            f"tiktoken applies a regex split pattern; this tokenizer's pre-tokenizer "
            f"{describe(tok.pre_tokenizer) if tok.pre_tokenizer else 'None'} is lost"
        )
    if tok.normalizer is not None:
        losses.append(f"a tiktoken rank file carries no normalizer: {describe(tok.normalizer)} is lost")
    if tok.added_tokens:
        losses.append("a tiktoken rank file carries no special tokens")
    if "tiktoken" not in (tok.extra or {}):
        losses.append(
            "ranks are the model's ids: tiktoken merges by rank, which equals this model's merge order "
            "only when ids were assigned in merge order (as trainers do)"
        )
    return losses
