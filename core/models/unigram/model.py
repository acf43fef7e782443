"""The Unigram model: each piece has a log-probability; a word is cut along its best path.

    >>> m = Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5)])
    >>> [t.value for t in m.tokenize("▁ab")]
    ['▁', 'ab']

Encoding is Viterbi over the lattice of the word (``core.models.unigram.lattice``). A
character that no piece covers becomes the unknown token with the penalty
score ``min(score) - 10``, as SentencePiece and `tokenizers` do; consecutive
unknown characters are fused into one unknown token whose ``value`` is the
original text (as `tokenizers` reports it). With ``byte_fallback``, an unknown
run becomes its UTF-8 bytes as ``<0xXX>`` pieces when all of them are in the
vocabulary (else the unknown token), as `tokenizers` does.

Also: ``nbest`` and ``sample`` (subword regularization) for showing
alternatives, ``lattice`` for drawing, and ``truncated`` for the explorer's
vocab-size slider (from the pruning snapshots the trainer records).
Leaves out: SentencePiece's user-defined symbols and its normalizer (those are
pipeline stages elsewhere).
"""

from __future__ import annotations

import heapq
import math
import random
import re
from collections.abc import Sequence
from functools import cached_property

from core.errors import ConfigError, SubwordError
from core.line_encoders import LineEncoder, LineKernels, TokenLengths
from core.models.base import ModelBase, Token
from core.models.unigram.lattice import Lattice, Node

UNK_PENALTY = 10.0
_CACHE_LIMIT = 200_000  # pre-tokens whose tokens are kept; emptied when it gets this big
_CACHE_MAX_PIECE = 256  # longer pre-tokens (long words, whole lines) are not kept
_BYTE_PIECE = re.compile(r"<0x[0-9A-F]{2}>")


class Unigram(ModelBase):
    """``pieces[i] = (piece, log_prob)`` is the token with id ``i``."""

    def __init__(self, pieces: list[tuple[str, float]], unk_id: int | None = 0, byte_fallback: bool = False):
        # 1. validate: a bad vocabulary is refused with a clear message.
        if not pieces:
            raise ConfigError("a Unigram model needs at least one piece (the vocabulary is empty)")
        self._pieces: list[tuple[str, float]] = []
        self._ids: dict[str, int] = {}
        for i, entry in enumerate(pieces):
            try:
                piece, score = entry
                score = float(score)
            except (TypeError, ValueError):
                raise ConfigError(f"Unigram vocab entry {i} ({entry!r}) is not (piece, score)") from None
            if not isinstance(piece, str) or piece == "":
                raise ConfigError(f"Unigram vocab entry {i} has an empty or non-text piece")
            if not math.isfinite(score):
                raise ConfigError(f"piece {piece!r} has a score that is not a finite number ({score})")
            if piece in self._ids:
                raise ConfigError(f"piece {piece!r} appears twice in the Unigram vocabulary")
            self._ids[piece] = i
            self._pieces.append((piece, score))
        if unk_id is not None and not (isinstance(unk_id, int) and 0 <= unk_id < len(self._pieces)):
            raise ConfigError(f"unk_id {unk_id!r} is not the id of a piece (0..{len(self._pieces) - 1})")
        self.unk_id = unk_id
        self.unk_token: str | None = self._pieces[unk_id][0] if unk_id is not None else None
        self.byte_fallback = bool(byte_fallback)
        # Filled by the trainer: (vocab size, pieces) after each pruning round.
        self.snapshots: list[tuple[int, Sequence[tuple[str, float]]]] = []
        self.special_tokens: list[str] = []

        # 2. the matcher: every piece but the unknown token (and byte pieces under byte
        #    fallback) can be matched; ``_prefixes`` lets the scan stop early.
        self.min_score = min(s for _, s in self._pieces)
        self.unk_score = self.min_score - UNK_PENALTY
        self._match: dict[str, tuple[int, float]] = {}
        for i, (piece, score) in enumerate(self._pieces):
            if i == unk_id or (self.byte_fallback and _BYTE_PIECE.fullmatch(piece)):
                continue
            self._match[piece] = (i, score)
        self.max_piece_length = max((len(p) for p in self._match), default=1)

    @cached_property
    def _prefixes(self) -> set[str]:
        """Every prefix of a matchable piece, made at the first segmentation in Python: a
        trainer that only hands its pieces on (the SentencePiece one) never needs them."""
        return {piece[:j] for piece in self._match for j in range(1, len(piece) + 1)}

    # --- the Model protocol ---------------------------------------------------

    def tokenize(self, piece: str) -> list[Token]:
        """Viterbi best path of one pre-token, unknown runs fused (most words repeat:
        the tokens of short ones are kept)."""
        cache = self.__dict__.setdefault("_token_cache", {})
        found = cache.get(piece)
        if found is None:
            found = tuple(self._to_tokens(piece, self._best_path(piece)))
            if len(piece) <= _CACHE_MAX_PIECE:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[piece] = found
        return list(found)

    def tokenize_batch(self, pieces: list[str]) -> list[tuple[Token, ...]]:
        """:meth:`tokenize` of each piece as a tuple (shared with the cache, so not copied),
        the pieces not kept yet in one kernel call (``Tokenizer.encode`` hands over all
        pre-tokens of a text at once).

        >>> m = Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5)])
        >>> [[t.value for t in ts] for ts in m.tokenize_batch(["▁ab", "ba"])]
        [['▁', 'ab'], ['b', 'a']]
        """
        cache = self.__dict__.setdefault("_token_cache", {})
        found = [cache.get(p) for p in pieces]
        missing = [p for p, f in zip(pieces, found) if f is None]
        if missing:
            made = dict(zip(missing, self._compiled_tokens(missing)))
            if len(cache) + len(made) >= _CACHE_LIMIT:
                cache.clear()
            for piece, tokens in made.items():
                if len(piece) <= _CACHE_MAX_PIECE:
                    cache[piece] = tokens
            found = [f if f is not None else made[p] for p, f in zip(pieces, found)]
        return found

    def tokenize_spans_batch(self, pieces: list[str]) -> list[tuple[tuple, ...]]:
        """:meth:`tokenize` of each piece as ``(ids, tokens, starts, ends)`` tuples, in one kernel
        call and not kept (``Tokenizer.encode`` keeps whole chunks; a cache of Token objects
        would only give the garbage collector more to walk).

        >>> Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5)]).tokenize_spans_batch(["▁ab"])
        [((1, 4), ('▁', 'ab'), (0, 1), (1, 3))]
        """
        empty: tuple[tuple, ...] = ((), (), (), ())
        return [
            tuple(zip(*((t.id, t.value, t.start, t.end) for t in tokens))) or empty
            for tokens in self._compiled_tokens(pieces)
        ]

    def _compiled_tokens(self, pieces: list[str]) -> list[tuple[Token, ...]]:
        """The tokens of each piece, their best paths found in one kernel call."""
        from core.models.unigram.kernels import best_paths
        from core.text import codepoints

        codes, bounds = codepoints(pieces)
        unk = -1 if self.unk_id is None else self.unk_id
        starts, ids, ends = best_paths(codes, bounds, self._kernel_trie(), unk, self.unk_score)
        starts_l, ids_l, cuts = starts.tolist(), ids.tolist(), ends.tolist()
        out = []
        for k, piece in enumerate(pieces):
            a, b = cuts[k], cuts[k + 1]
            node_ends = starts_l[a + 1 : b] + [len(piece)]
            path = [(s, e, None if i < 0 else i) for s, e, i in zip(starts_l[a:b], node_ends, ids_l[a:b])]
            out.append(tuple(self._to_tokens(piece, path)))
        return out

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize`, without Token objects.

        >>> Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5)]).tokenize_ids("▁ab")
        [1, 4]
        """
        return self.tokenize_ids_batch([piece])[0]

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``, all in one call of the compiled Viterbi
        (``core.models.unigram.kernels``, the same algorithm as :meth:`_viterbi`)."""
        ids, ends = self._best_flat(pieces)
        flat = ids.tolist()
        cuts = ends.tolist()
        return [flat[cuts[k] : cuts[k + 1]] for k in range(len(pieces))]

    def tokenize_ids_flat(self, pieces: list[str]):
        """:meth:`tokenize_ids_batch` as flat arrays ``(ids, bounds, known)`` (every piece
        known: an unknown run is the unknown token or bytes, which callers recognise).

            >>> model = Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("b", -2.0), ("ab", -2.5)])
            >>> ids, bounds, _ = model.tokenize_ids_flat(["▁ab", "b"])
            >>> ids.tolist(), bounds.tolist()
            ([1, 4, 3], [0, 2, 3])
        """
        import numpy as np

        ids, ends = self._best_flat(pieces)
        return ids, ends, np.ones(len(pieces), bool)

    def _best_flat(self, pieces: list[str]):
        """The compiled Viterbi of every piece: flat ids and each piece's bounds in them."""
        from core.models.unigram.kernels import _best_ids
        from core.text import codepoints

        ids, ends, failed = _best_ids(*codepoints(pieces), *self.viterbi_args())
        if failed >= 0:  # an unknown run and no unknown token: say which
            self.tokenize(pieces[failed])
            raise LookupError(failed)  # not reached: tokenize raised the SubwordError that explains it
        return ids, ends

    def viterbi_args(self) -> tuple:
        """What the compiled Viterbi (``kernels._best_ids``) takes after the text, for
        a kernel that calls it itself (``core.models.unigram.line_kernels.metaspace_fragments``): the trie's
        arrays, the unknown token and its score, and how unknown runs are written. Built once."""
        found = self.__dict__.get("_viterbi_args")
        if found is None:
            from core.models.unigram.kernels import BYTES_IF_ALL_PRESENT, UNK_ONLY

            trie = self._kernel_trie()
            found = self._viterbi_args = (
                trie.keys,
                trie.children,
                trie.piece_id,
                trie.score,
                trie.user,
                -1 if self.unk_id is None else self.unk_id,
                float(self.unk_score),
                False,
                0.0,
                BYTES_IF_ALL_PRESENT if self.byte_fallback else UNK_ONLY,
                self._byte_id_array(),
            )
        return found

    # -- what the chunk cache and the explorer ask (core.models.base.ModelBase) ---------
    def token_lengths(self) -> TokenLengths | None:
        """Every piece covers the characters its string holds (the unknown token and byte
        pieces stand for others: length 0)."""
        return TokenLengths.of(self, 0, {self.unk_id}, byte_pieces=self.byte_fallback)

    def line_encoder(self, pre_tokenizer) -> LineEncoder | None:
        """The compiled Viterbi of ``Metaspace`` chunks (the ``"lead"`` way), from
        ``core.models.unigram.line_kernels``."""
        return LineEncoder("lead", "core.models.unigram.line_kernels", self._load_line_kernels)

    def _load_line_kernels(self) -> LineKernels:
        from core.models.unigram import line_kernels  # (imports numba)

        return line_kernels.load(self)

    def can_nbest(self) -> bool:
        return True

    def can_sample(self) -> bool:
        return True

    def can_truncate(self) -> bool:
        return True

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, id: int) -> str | None:
        return self._pieces[id][0] if 0 <= id < len(self._pieces) else None

    def get_vocab(self) -> dict[str, int]:
        return dict(self._ids)

    @property
    def vocab_size(self) -> int:
        return len(self._pieces)

    @property
    def pieces(self) -> list[tuple[str, float]]:
        return list(self._pieces)

    def score(self, id: int) -> float:
        return self._pieces[id][1]

    def to_dict(self) -> dict:
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[p, s] for p, s in self._pieces],
            "byte_fallback": self.byte_fallback,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Unigram:
        if not isinstance(d, dict) or d.get("type", "Unigram") != "Unigram":
            raise ConfigError("not a Unigram model description")
        vocab = d.get("vocab")
        if not isinstance(vocab, list):
            raise ConfigError('a Unigram model needs a "vocab" list of [piece, score]')
        return cls(
            [tuple(v) if isinstance(v, (list, tuple)) else v for v in vocab],
            unk_id=d.get("unk_id"),
            byte_fallback=bool(d.get("byte_fallback", False)),
        )

    def __repr__(self) -> str:
        return f"Unigram(vocab_size={self.vocab_size}, unk_id={self.unk_id})"

    # --- the lattice and its paths ---------------------------------------------

    def explains(self) -> str:
        return "lattice"

    def lattice(self, piece: str) -> Lattice:
        """All nodes of ``piece``: every vocabulary match, plus an unknown node for each
        character that no single-character piece covers."""
        nodes: list[Node] = []
        for start, end, pid, score in self._matches(piece):
            text = self._pieces[pid][0] if pid != self.unk_id else self.unk_token or piece[start:end]
            nodes.append(Node(start, end, text, pid if pid is not None else -1, score))
        return Lattice(piece, nodes)

    def nbest(self, piece: str, k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations as (token values, score), best first.

        >>> m = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)])
        >>> m.nbest("aa", 2)
        [(['aa'], -1.5), (['a', 'a'], -2.0)]
        """
        if k < 1:
            raise ConfigError(f"n-best needs k >= 1, not {k}")
        lat = self.lattice(piece)
        return [([t.value for t in self._to_tokens(piece, path)], score) for path, score in lat.nbest(k)]

    def nbest_words(self, words: list[str], k: int) -> list[tuple[list[str], float]]:
        """The ``k`` best segmentations of a sequence of pre-tokens (each cut on its own).

        Exact: the k best sums of independent parts come from each part's k best.
        >>> m = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)])
        >>> m.nbest_words(["aa", "a"], 2)
        [(['aa', 'a'], -2.5), (['a', 'a', 'a'], -3.0)]
        """
        best: list[tuple[list[str], float]] = [([], 0.0)]
        for word in words:
            options = self.nbest(word, k)
            pairs = [(a + b, s + t) for a, s in best for b, t in options]
            best = heapq.nlargest(k, pairs, key=lambda x: x[1])
        return best

    def sample(self, piece: str, alpha: float = 0.1, rng: random.Random | None = None) -> list[Token]:
        """A segmentation drawn with probability proportional to ``exp(alpha * score)``."""
        if not (isinstance(alpha, (int, float)) and 0 < alpha < float("inf")):
            raise ConfigError(f"sampling needs a finite alpha > 0, not {alpha!r}")
        path = self.lattice(piece).sample(alpha, rng)
        return self._to_tokens(piece, path)

    # --- the vocab-size slider -------------------------------------------------

    @property
    def min_vocab_size(self) -> int:
        """Specials + single characters: the smallest size this model can be cut to."""
        keep = sum(1 for i, (p, _) in enumerate(self._pieces) if len(p) == 1 or self._is_special(i, p))
        return keep

    def truncated(self, vocab_size: int) -> Unigram:
        """The smallest pruning snapshot of at least ``vocab_size`` pieces (or this model),
        cut to exactly ``vocab_size`` by dropping the lowest-scoring multi-character pieces."""
        if vocab_size < self.min_vocab_size:
            raise ConfigError(
                f"vocab size {vocab_size} is below this model's minimum ({self.min_vocab_size})"
            )
        specials = [(p, s) for i, (p, s) in enumerate(self._pieces) if self._is_special(i, p)]
        base = [(p, s) for i, (p, s) in enumerate(self._pieces) if not self._is_special(i, p)]
        # the smallest candidate that is big enough (this model first on equal size), else the biggest.
        candidates = sorted(
            [(len(base), 0, base)] + [(n, 1, snap) for n, snap in self.snapshots], key=lambda c: (c[0], c[1])
        )
        fitting = [c for c in candidates if c[0] + len(specials) >= vocab_size]
        base = fitting[0][2] if fitting else candidates[-1][2]
        if len(specials) + len(base) <= vocab_size:
            cut = base
        else:
            n_drop = len(specials) + len(base) - vocab_size
            multi = sorted((i for i, (p, _) in enumerate(base) if len(p) > 1), key=lambda i: (base[i][1], -i))
            drop = set(multi[:n_drop])
            cut = [e for i, e in enumerate(base) if i not in drop]
        pieces = specials + sorted(cut, key=lambda e: -e[1])
        unk = (
            None
            if self.unk_token is None
            else next(i for i, (p, _) in enumerate(pieces) if p == self.unk_token)
        )
        model = Unigram(pieces, unk_id=unk, byte_fallback=self.byte_fallback)
        model.special_tokens = list(self.special_tokens)
        return model

    # --- internals --------------------------------------------------------------

    def _is_special(self, i: int, piece: str) -> bool:
        return i == self.unk_id or piece in self.special_tokens

    def _matches(self, piece: str):
        """Yield (start, end, id, score) for every lattice node of ``piece``."""
        n = len(piece)
        match, prefixes, max_len = self._match, self._prefixes, self.max_piece_length
        for start in range(n):
            has_single = False
            for end in range(start + 1, min(n, start + max_len) + 1):
                sub = piece[start:end]
                if sub not in prefixes:
                    break
                hit = match.get(sub)
                if hit is not None:
                    if end == start + 1:
                        has_single = True
                    yield start, end, hit[0], hit[1]
            if not has_single:
                yield start, start + 1, self.unk_id, self.unk_score

    def _best_path(self, piece: str) -> list[tuple[int, int, int | None]]:
        """:meth:`_viterbi`, by the compiled kernel."""
        import numpy as np

        from core.models.unigram.kernels import best_path

        if not piece:
            return []
        codes = np.frombuffer(piece.encode("utf-32-le"), dtype=np.int32)
        unk = -1 if self.unk_id is None else self.unk_id
        starts, ids = best_path(codes, self._kernel_trie(), unk, self.unk_score)
        bounds = starts.tolist() + [len(piece)]
        return [(bounds[k], bounds[k + 1], None if id < 0 else id) for k, id in enumerate(ids.tolist())]

    def _kernel_trie(self):
        """The matched pieces as the kernel's trie (built on first use)."""
        trie = self.__dict__.get("_compiled_trie")
        if trie is None:
            from core.models.unigram.kernels import PieceTrie

            trie = self._compiled_trie = PieceTrie.build(
                (piece, i, score, False) for piece, (i, score) in self._match.items()
            )
        return trie

    def _byte_id_array(self):
        """``<0xXX>`` piece ids by byte (-1 where missing), for the kernel's byte fallback."""
        array = self.__dict__.get("_byte_ids")
        if array is None:
            import numpy as np

            found = (self._ids.get(f"<0x{b:02X}>") for b in range(256))
            array = self._byte_ids = np.array([-1 if i is None else i for i in found], dtype=np.int32)
        return array

    def __getstate__(self) -> dict:
        """Pickle without the kernel's arrays and the token cache (rebuilt on use)."""
        state = dict(self.__dict__)
        for name in ("_compiled_trie", "_token_cache", "_byte_ids", "_length_table", "_viterbi_args"):
            state.pop(name, None)
        return state

    def _viterbi(self, piece: str) -> list[tuple[int, int, int | None]]:
        """Best path as (start, end, id); ties keep the path found first. The readable
        form of what :meth:`_best_path` computes (the tests hold them equal)."""
        n = len(piece)
        if n == 0:
            return []
        best = [-math.inf] * (n + 1)
        back: list[tuple[int, int | None] | None] = [None] * (n + 1)
        best[0] = 0.0
        match, prefixes, max_len = self._match, self._prefixes, self.max_piece_length
        unk_id, unk_score = self.unk_id, self.unk_score
        for start in range(n):
            base = best[start]
            has_single = False
            for end in range(start + 1, min(n, start + max_len) + 1):
                sub = piece[start:end]
                if sub not in prefixes:
                    break
                hit = match.get(sub)
                if hit is not None:
                    if end == start + 1:
                        has_single = True
                    score = base + hit[1]
                    if score > best[end]:
                        best[end] = score
                        back[end] = (start, hit[0])
            if not has_single:
                score = base + unk_score
                if score > best[start + 1]:
                    best[start + 1] = score
                    back[start + 1] = (start, unk_id)
        path = []
        end = n
        while end > 0:
            start, pid = back[end]
            path.append((start, end, pid))
            end = start
        path.reverse()
        return path

    def _to_tokens(self, piece: str, path) -> list[Token]:
        """Turn a path (nodes or (start, end, id) triples) into tokens, fusing unknown runs."""
        out: list[Token] = []
        unk_start = None
        unk_id = self.unk_id
        for item in path:
            if isinstance(item, Node):
                start, end, pid = item.start, item.end, (item.id if item.id >= 0 else None)
            else:
                start, end, pid = item
            is_unk = pid is None or pid == unk_id  # the unknown piece itself is never matched
            if is_unk:
                if unk_start is None:
                    unk_start = start
                continue
            if unk_start is not None:
                out.extend(self._unknown(piece, unk_start, start))
                unk_start = None
            out.append(Token(pid, self._pieces[pid][0], start, end))
        if unk_start is not None:
            out.extend(self._unknown(piece, unk_start, len(piece)))
        return out

    def _unknown(self, piece: str, start: int, end: int) -> list[Token]:
        """An unknown run: byte pieces under byte fallback if all exist, else one unknown token."""
        text = piece[start:end]
        if self.byte_fallback:
            ids = []
            for ch_i, ch in enumerate(text):
                for b in ch.encode("utf-8"):
                    ids.append((self._ids.get(f"<0x{b:02X}>"), start + ch_i))
            if all(i is not None for i, _ in ids):
                # subtle: as in `tokenizers`, every byte token spans the whole unknown run
                return [Token(i, self._pieces[i][0], start, end) for i, _ in ids]
        if self.unk_id is None:
            raise SubwordError(
                f"{text!r} has characters no piece covers and this Unigram model has no unknown token"
            )
        return [Token(self.unk_id, text, start, end)]
