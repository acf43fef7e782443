"""BPE encoder: apply learned merges by rank inside one pre-token.

    >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
    >>> [t.value for t in bpe.tokenize("pug")]
    ['p', 'ug']
    >>> [t.value for t in bpe.tokenize("mug")]      # 'm' is not in the vocabulary
    ['<unk>', 'ug']

How a pre-token is encoded (the same steps as Hugging Face ``tokenizers``):

1. Split it into characters. A non-first character gets the continuing-subword
   prefix (``##u``), the last one the end-of-word suffix (``g</w>``).
2. A character missing from the vocabulary becomes the unknown token (several in
   a row fuse into one with ``fuse_unk``), or its UTF-8 bytes ``<0xE1>`` with
   ``byte_fallback``; with no unknown token at all it is dropped.
3. Repeatedly merge the adjacent pair with the lowest merge rank, leftmost first,
   until no adjacent pair is a merge.

Results are cached per pre-token. The model also answers the explorer's
questions: ``truncated(vocab_size)`` cuts it to its first merges without
retraining, ``explain(piece)`` lists the merges applied, ``merge_parts(token)``
says how a token was built.

**BPE-dropout** (Provilkov et al., 2020, "BPE-Dropout: Simple and Effective Subword
Regularization"): with ``dropout=p`` step 3 skips each candidate merge it takes from the heap
with probability p, as `tokenizers`' ``BPE(dropout=p)`` does: a skipped candidate waits aside
and goes back into the heap when a later candidate is not skipped (a stale one included); the
candidates still aside when the heap runs dry are never applied, so p=1 leaves the characters.
A model with dropout is random: nothing is cached (:attr:`deterministic` is False, and the
tokenizer's chunk and id caches stand aside), and ``ignore_merges`` is not consulted (as in
`tokenizers`, whose dropout path goes straight to the merges). Unlike `tokenizers` (thread-local
randomness) the draws come from one ``random.Random(seed)`` per model: a seed reproduces them.

    >>> drop = BPE({"u": 0, "g": 1, "ug": 2}, [("u", "g")], dropout=1.0)
    >>> [t.value for t in drop.tokenize("ug")]
    ['u', 'g']
"""

from __future__ import annotations

import heapq
import itertools
import operator
import random
from collections.abc import Iterable
from functools import cached_property, partial
from itertools import repeat
from typing import NamedTuple

from core.errors import ConfigError, FormatError
from core.line_encoders import LineEncoder, TokenLengths
from core.models.base import ModelBase, Token, VocabLookup, vocab_by_id
from core.records import frozen_record

_CACHE_LIMIT = 100_000  # pre-tokens; the cache is emptied when it gets this big
_CACHE_MAX_PIECE = 256  # longer pieces (whole lines with pre-tokenizer "none") are not cached
_SHORT_PIECE = 48  # up to this many symbols, tokenize_ids scans pairs instead of keeping a heap
_NO_MERGE = (float("inf"), -1)  # the rank of a pair that is no merge: above every rank
_join = operator.add
# A piece's tokens: ids, token strings, and the characters each starts and ends at.
Spans = tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]]


def merge_ids(ids: list[int], ranks: dict[tuple[int, int], tuple[int, int]]) -> list[int]:
    """Merge a long run of ids: the lowest-ranked adjacent pair first, the leftmost among equals,
    until no pair is in ``ranks`` (``(left, right) -> (rank, merged id)``).

        >>> merge_ids([1, 2, 1, 2], {(1, 2): (0, 3), (3, 3): (1, 4)})
        [4]

    A heap of ``(rank, position)`` over a linked list of symbols, so a piece of n symbols
    takes O(n log n): stale heap entries (a side merged since) are skipped when popped.
    """
    n = len(ids)
    if n < 2:
        return list(ids)
    ids = list(ids)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    get = ranks.get
    heap = [(r[0], i, r[1]) for i, r in enumerate(map(get, zip(ids, ids[1:]))) if r is not None]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        rank, i, new_id = pop(heap)
        j = nxt[i]
        if not alive[i] or j >= n:
            continue
        r = get((ids[i], ids[j]))
        if r is None or r[1] != new_id or r[0] != rank:
            continue  # stale: the pair at i changed since this entry was pushed
        ids[i] = new_id
        alive[j] = False
        k = nxt[j]
        nxt[i] = k
        if k < n:
            prv[k] = i
            r = get((new_id, ids[k]))
            if r is not None:
                push(heap, (r[0], i, r[1]))
        p = prv[i]
        if p >= 0:
            r = get((ids[p], new_id))
            if r is not None:
                push(heap, (r[0], p, r[1]))
    return [x for x, a in zip(ids, alive) if a]


def merge_short(ids: list[int], rank_of, starts: list[int] | None = None) -> list[int]:
    """Merge a short run of ids in place: the lowest-ranked adjacent pair first, the leftmost
    among equals, until no pair has a rank; ``rank_of`` is ``ranks.get`` of a table
    ``(left, right) -> (rank, merged id)``. ``starts`` (where each symbol starts), if given,
    loses the start of each right side merged away.

        >>> merge_short([1, 2, 1, 2], {(1, 2): (0, 3), (3, 3): (1, 4)}.get)
        [4]

    A scan of all pairs (the heap's order of :func:`merge_ids`, with less bookkeeping for a
    handful of symbols): ``found[k]`` is the rank of the pair at ``k``; after a merge only the
    two pairs beside it change. :func:`merge_joined` is the same loop for symbols that are
    merged by joining them.
    """
    found = list(map(rank_of, zip(ids, ids[1:]), repeat(_NO_MERGE)))
    while found:
        best = min(found)
        if best is _NO_MERGE:
            break
        at = found.index(best)
        ids[at : at + 2] = (best[1],)
        if starts is not None:
            del starts[at + 1]
        del found[at]
        if at < len(found):
            found[at] = rank_of((ids[at], ids[at + 1]), _NO_MERGE)
        if at > 0:
            found[at - 1] = rank_of((ids[at - 1], ids[at]), _NO_MERGE)
    return ids


def merge_joined(symbols: list, rank_of, no_rank):
    """:func:`merge_short` for symbols merged by joining them (``str``, ``bytes``): a pair's
    rank is ``rank_of(left + right, no_rank)``, and ``no_rank``, above every rank, means none.

        >>> merge_joined(list("abc"), {"ab": 1, "bc": 0}.get, 99)
        ['a', 'bc']

    SentencePiece's BPE ranks a pair by its joined piece's score (negated), tiktoken by its
    joined bytes' rank. subtle: a separate loop from :func:`merge_short`: written once for
    both, ids would have to be joined as 1-tuples and the merged id taken from the rank,
    which made BPE's loop about 40 % slower (measured on Korean words).
    """
    found = list(map(rank_of, map(_join, symbols, symbols[1:]), repeat(no_rank)))
    while found:
        best = min(found)  # subtle: by rank alone; equal ranks go to the leftmost pair
        if best == no_rank:
            break
        at = found.index(best)
        symbols[at : at + 2] = (symbols[at] + symbols[at + 1],)
        del found[at]
        if at < len(found):
            found[at] = rank_of(symbols[at] + symbols[at + 1], no_rank)
        if at > 0:
            found[at - 1] = rank_of(symbols[at - 1] + symbols[at], no_rank)
    return symbols


@frozen_record
class MergeStep(NamedTuple):
    """One merge applied while encoding a piece (the explorer's "why" view).

    ``position`` is the character offset in the piece where ``merged`` starts;
    ``symbols`` is the whole piece after this step, and ``index`` is where
    ``merged`` sits in it.
    """

    rank: int
    left: str
    right: str
    merged: str
    position: int
    symbols: tuple[str, ...]
    index: int = -1  # type: ignore[assignment]  # (the field hides tuple's index method)


def _check_merges(vocab: dict[str, int], merges: list[tuple[str, str]], prefix_len: int) -> None:
    """ConfigError naming the first merge whose parts or result are not in ``vocab``.

        >>> _check_merges({"u": 0, "g": 1}, [("u", "g")], 0)
        Traceback (most recent call last):
        core.errors.ConfigError: merge 1 (u g) uses 'ug', which is not in the vocabulary

    The common case in two C-level passes (8,000 merges: ~1.4 ms); the loop names the culprit.
    """
    has = vocab.__contains__
    if prefix_len:
        made = [a + b[prefix_len:] for a, b in merges]
    else:
        made = [a + b for a, b in merges]
    if all(map(has, itertools.chain.from_iterable(merges))) and all(map(has, made)):
        return
    for rank, ((a, b), new) in enumerate(zip(merges, made)):
        missing = next((t for t in (a, b, new) if t not in vocab), None)
        if missing is not None:
            raise ConfigError(f"merge {rank + 1} ({a} {b}) uses {missing!r}, which is not in the vocabulary")


class BPE(VocabLookup, ModelBase):
    """A BPE model: vocabulary plus ordered merges (rank = position in ``merges``).

    When a pair appears twice in ``merges`` the later rank wins, as in ``tokenizers``.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        merges: Iterable[tuple[str, str]],
        unk_token: str | None = None,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        byte_fallback: bool = False,
        fuse_unk: bool = False,
        ignore_merges: bool = False,
        dropout: float | None = None,
        seed: int | None = None,
    ):
        self.vocab: dict[str, int] = dict(vocab)
        self.merges: list[tuple[str, str]] = [(a, b) for a, b in merges]
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix or None
        self.end_of_word_suffix = end_of_word_suffix or None
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.ignore_merges = bool(ignore_merges)
        if dropout is not None and (
            isinstance(dropout, bool) or not isinstance(dropout, (int, float)) or not 0.0 <= dropout <= 1.0
        ):
            raise ConfigError(f"BPE dropout must be a probability between 0 and 1, not {dropout!r}")
        self.dropout = dropout
        self.seed = seed
        self._rng = random.Random(seed)  # (dropout's draws: one stream per model, seeded)
        self._id_to_token: dict[int, str] = {i: t for t, i in self.vocab.items()}
        if len(self._id_to_token) != len(self.vocab):
            raise ConfigError("the vocabulary gives the same id to two tokens")

        _check_merges(self.vocab, self.merges, len(self.continuing_subword_prefix or ""))
        # (the rank tables, ``_ranks`` and ``_made_by``, are built when first read)
        self._unk_id = self.vocab.get(unk_token) if unk_token is not None else None
        self._cache: dict[str, Spans] = {}

    # subtle: the rank tables are built when first read, not by ``__init__``: a model trained and
    # saved (``subword train``) never reads them, and building them was ~2 ms of the 4.4 ms a
    # trained 8,000-token model took to make (validating the merges, ~1.4 ms, stays in __init__).
    # Once built they are plain instance attributes (cached_property): encoding pays nothing for
    # it. The file readers build them at once (prepared), as a pickle does (__getstate__).
    @cached_property
    def _ranks(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(left id, right id) -> (rank, new id); a pair listed twice ranks by its later listing."""
        return self._build_rank_tables()[0]

    @cached_property
    def _made_by(self) -> dict[str, int]:
        """token -> the first merge that made it (for merge_parts / truncation)."""
        return self._build_rank_tables()[1]

    def _build_rank_tables(self) -> tuple[dict[tuple[int, int], tuple[int, int]], dict[str, int]]:
        """Both rank tables, in one pass over the merges; each is kept if not there yet."""
        prefix_len = len(self.continuing_subword_prefix or "")
        ranks: dict[tuple[int, int], tuple[int, int]] = {}
        made_by: dict[str, int] = {}
        get = self.vocab.get
        for rank, (a, b) in enumerate(self.merges):
            # (plain statements, no per-merge lists: every model that encodes runs this once)
            new = a + b[prefix_len:]
            ia, ib, inew = get(a), get(b), get(new)
            if ia is None or ib is None or inew is None:  # the vocabulary changed since __init__
                _check_merges(self.vocab, self.merges, prefix_len)
            ranks[ia, ib] = (rank, inew)  # type: ignore[index]
            if new not in made_by:
                made_by[new] = rank
        kept = self.__dict__
        return kept.setdefault("_ranks", ranks), kept.setdefault("_made_by", made_by)

    def prepared(self) -> BPE:
        """This model with its rank tables built now, not at its first encode: a model read from
        a file is read to encode (and the garbage collector's pass over the new tables then falls
        in the loading, where it fell before, not in the first lines encoded). Returns the model.

            >>> BPE({"u": 0, "g": 1, "ug": 2}, [("u", "g")]).prepared()._ranks
            {(0, 1): (0, 2)}
        """
        self._ranks  # noqa: B018
        return self

    @property
    def base_tokens(self) -> list[str]:
        """Tokens no merge produces: special tokens, the alphabet (and its prefixed/suffixed forms)."""
        return [t for t in self.vocab if t not in self._made_by]

    @property
    def min_vocab_size(self) -> int:
        """The smallest size :meth:`truncated` can cut to: the base tokens."""
        return len(self.vocab) - len(self._made_by)

    @property
    def deterministic(self) -> bool:
        """False when encoding draws at random (dropout above 0): callers must not cache its tokens."""
        return not self.dropout

    def can_dropout(self) -> bool:
        return True

    def with_dropout(self, dropout: float | None, seed: int | None = None) -> BPE:
        """A copy of this model that encodes with BPE-dropout ``dropout`` (None or 0: none),
        its draws seeded with ``seed``.

            >>> bpe = BPE({"u": 0, "g": 1, "ug": 2}, [("u", "g")])
            >>> [t.value for t in bpe.with_dropout(1.0).tokenize("ug")], bpe.dropout
            (['u', 'g'], None)
        """
        return BPE(
            self.vocab, self.merges, self.unk_token, self.continuing_subword_prefix,
            self.end_of_word_suffix, self.byte_fallback, self.fuse_unk, self.ignore_merges,
            dropout, seed,
        ).prepared()  # fmt: skip

    # -- encoding ---------------------------------------------------------------
    def tokenize(self, piece: str) -> list[Token]:
        """Tokens of one pre-token; ``start``/``end`` index its characters. Never raises."""
        return list(map(Token, *self._spans(piece)))

    def _spans(self, piece: str) -> Spans:
        """``(ids, tokens, starts, ends)`` of one pre-token, through the cache."""
        if self.dropout:
            return self._sampled_spans(piece)
        cached = self._cache.get(piece)
        if cached is None:
            cached = self._reused(piece)
        if cached is not None:
            return cached
        if self.ignore_merges and piece in self.vocab:
            found: Spans = ((self.vocab[piece],), (piece,), (0,), (len(piece),))
        else:
            symbols = self._initial_symbols(piece)
            self._merge_all(symbols, None)
            id_to_token = self._id_to_token
            kept = [s for s in symbols if s[0] is not None]
            found = (
                tuple(s[0] for s in kept),
                tuple(id_to_token[s[0]] for s in kept),
                tuple(s[1] for s in kept),
                tuple(s[2] for s in kept),
            )
        if len(piece) <= _CACHE_MAX_PIECE:
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[piece] = found
        return found

    def _sampled_spans(self, piece: str) -> Spans:
        """:meth:`_spans` with dropout: merged afresh on every call, never cached."""
        symbols = self._initial_symbols(piece)
        self._merge_all(symbols, None, self.dropout)
        kept = [s for s in symbols if s[0] is not None]
        id_to_token = self._id_to_token
        return (
            tuple(s[0] for s in kept),
            tuple(id_to_token[s[0]] for s in kept),
            tuple(s[1] for s in kept),
            tuple(s[2] for s in kept),
        )

    def tokenize_ids(self, piece: str) -> list[int]:
        """The ids of :meth:`tokenize` (the ids fast path: no offsets, no Token objects).

        >>> BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>").tokenize_ids("pug")
        [2, 4]
        """
        if self.dropout:
            return list(self._sampled_spans(piece)[0])
        if self.ignore_merges and piece in self.vocab:
            return [self.vocab[piece]]
        ids = self._symbol_ids(piece)
        if len(ids) > _SHORT_PIECE:
            return self._merge_compiled([ids])[0]
        if len(ids) < 2:
            return ids
        # step 3 on a short piece: scan all pairs, merge the leftmost lowest-ranked one
        return merge_short(ids, self._ranks.get)

    def _symbol_ids(self, piece: str) -> list[int]:
        """Steps 1-2 on ids: one id per character (with the continuing-subword prefix and the
        end-of-word suffix where they go); unknown characters as bytes, the unknown token, or
        dropped."""
        vocab = self.vocab
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        if prefix is None and suffix is None:
            ids = list(map(vocab.get, piece))
        else:
            chars = list(piece)
            if prefix:
                chars[1:] = [prefix + c for c in chars[1:]]
            if suffix and chars:
                chars[-1] += suffix
            ids = list(map(vocab.get, chars))
        if None in ids:
            ids = [s[0] for s in self._initial_symbols(piece)]
        return ids

    def tokenize_ids_batch(self, pieces: list[str]) -> list[list[int]]:
        """``[tokenize_ids(p) for p in pieces]``, merged in one compiled call (the batch fast path).

        >>> BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>").tokenize_ids_batch(["pug", "g"])
        [[2, 4], [1]]
        """
        if self.dropout:
            return [list(self._sampled_spans(p)[0]) for p in pieces]
        vocab, symbol_ids = self.vocab, self._symbol_ids
        out: list[list[int] | None] = []
        todo: list[list[int]] = []  # the symbols of each piece that needs merging
        for piece in pieces:
            if self.ignore_merges and piece in vocab:
                out.append([vocab[piece]])
                continue
            ids = symbol_ids(piece)
            if len(ids) < 2:
                out.append(ids)
            else:
                out.append(None)
                todo.append(ids)
        if not todo:
            return out  # type: ignore[return-value]
        merged = iter(self._merge_compiled(todo))
        return [ids if ids is not None else next(merged) for ids in out]

    def tokenize_ids_flat(self, pieces: list[str]):
        """:meth:`tokenize_ids_batch` of non-empty pieces as flat arrays, with no Python per
        piece: ``(ids, bounds, known)``, piece ``p``'s ids at ``ids[bounds[p]:bounds[p + 1]]``,
        ``known[p]`` False where the vocabulary lacks one of its characters (its ids are then
        not its tokens: ask :meth:`tokenize_ids`). None for a model this cannot follow (a
        prefix or suffix, ``ignore_merges``, dropout).

            >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
            >>> ids, bounds, known = bpe.tokenize_ids_flat(["pug", "gx"])
            >>> ids[: bounds[1]].tolist(), known.tolist()
            ([2, 4], [True, False])
        """
        import numpy as np

        from core.models.bpe.kernels import merge_flat
        from core.text import codepoints

        if self.continuing_subword_prefix or self.end_of_word_suffix or self.ignore_merges or self.dropout:
            return None
        points, point_ids = self._alphabet_arrays()
        codes, bounds = codepoints(pieces)
        at = np.searchsorted(points, codes).clip(0, len(points) - 1)
        hit = points[at] == codes
        ids, _, out_bounds = merge_flat(
            np.where(hit, point_ids[at], point_ids[0]), bounds, self._compiled_table()
        )
        return ids, out_bounds, np.logical_and.reduceat(hit, bounds[:-1])

    def _alphabet_arrays(self):
        """The one-character tokens as two arrays: their code points, sorted, and their ids
        (``[-1]``, ``[0]`` when there are none), built once."""
        import numpy as np

        alphabet = self.__dict__.get("_alphabet")
        if alphabet is None:
            singles = sorted((ord(t), i) for t, i in self.vocab.items() if len(t) == 1)
            alphabet = self._alphabet = (
                np.array([c for c, _ in singles] or [-1], np.int64),
                np.array([i for _, i in singles] or [0], np.int64),
            )
        return alphabet

    def tokenize_batch(self, pieces: list[str]) -> list[list[Token]]:
        """``[tokenize(p) for p in pieces]``, the pieces not cached merged in one compiled call.

        >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
        >>> [[(t.value, t.start, t.end) for t in ts] for ts in bpe.tokenize_batch(["pug", "ug"])]
        [[('p', 0, 1), ('ug', 1, 3)], [('ug', 0, 2)]]
        """
        return [list(map(Token, *spans)) for spans in self.tokenize_spans_batch(pieces)]

    def tokenize_spans_batch(self, pieces: list[str]) -> list[Spans]:
        """:meth:`tokenize` of each piece as ``(ids, tokens, starts, ends)`` tuples, no Token
        objects (``Tokenizer.encode`` hands over the pre-tokens of the chunks it has not seen).

        >>> bpe = BPE({"<unk>": 0, "g": 1, "p": 2, "u": 3, "ug": 4}, [("u", "g")], unk_token="<unk>")
        >>> bpe.tokenize_spans_batch(["pug"])
        [((2, 4), ('p', 'ug'), (0, 1), (1, 3))]

        The pieces not cached are merged in one compiled call, or by the pair scan of
        :meth:`tokenize_ids` when they are a few short ones (a kernel call costs more). subtle: the cache holds these tuples,
        not Token objects: tuples of numbers and strings are soon ignored by the cyclic
        garbage collector, and a cache of 100,000 words of Token objects made each of its
        full collections walk several hundred thousand objects more.
        """
        if self.dropout:
            return list(map(self._sampled_spans, pieces))
        cache, vocab = self._cache, self.vocab
        plain = self.continuing_subword_prefix is None and self.end_of_word_suffix is None
        out: list[Spans | None] = []
        todo: list[str] = []
        todo_ids: list[list[int]] = []
        reused = self._reused if "_reuse" in self.__dict__ else None
        for piece in pieces:
            cached = cache.get(piece)
            if cached is None and reused is not None:
                cached = reused(piece)
            if cached is not None:
                out.append(cached)
                continue
            ids = list(map(vocab.get, piece)) if plain and len(piece) > 1 else None
            if ids is None or None in ids or (self.ignore_merges and piece in vocab):
                out.append(self._spans(piece))  # prefixes, unknown characters, one character
                continue
            out.append(None)
            todo.append(piece)
            todo_ids.append(ids)
        if not todo:
            return out  # type: ignore[return-value]
        id_to_token = self._id_to_token
        symbols = sum(map(len, todo_ids))
        # subtle: a compiled call costs about what the pair scan spends on ten symbols, and
        # saves it about two per piece (measured on Korean words, plain and byte-level)
        if 3 * symbols < 30 + 4 * len(todo) and max(map(len, todo_ids)) <= _SHORT_PIECE:
            merged = [self._merge_short(ids) for ids in todo_ids]
        else:
            merged = self._merge_flat(todo, todo_ids)
        if len(cache) + len(todo) >= _CACHE_LIMIT:
            cache.clear()
        made = iter(zip(todo, merged))
        for k, found in enumerate(out):
            if found is not None:
                continue
            piece, (ids, starts) = next(made)
            spans = (
                tuple(ids),
                tuple(map(id_to_token.__getitem__, ids)),
                tuple(starts),
                (*starts[1:], len(piece)),
            )
            if len(piece) <= _CACHE_MAX_PIECE:
                cache[piece] = spans
            out[k] = spans
        return out  # type: ignore[return-value]

    def _merge_short(self, ids: list[int]) -> tuple[list[int], list[int]]:
        """Step 3 on a short piece of one symbol per character: the merged ids and the
        character each starts at (the pair scan of :meth:`tokenize_ids`, keeping starts)."""
        starts = list(range(len(ids)))
        return merge_short(ids, self._ranks.get, starts), starts

    def _merge_flat(
        self, pieces: list[str], pieces_ids: list[list[int]]
    ) -> list[tuple[list[int], list[int]]]:
        """Step 3 on many pieces of one symbol per character, in one compiled call: the merged
        ids of each and the character each starts at."""
        import numpy as np

        from core.models.bpe.kernels import merge_flat

        lengths = list(map(len, pieces))
        bounds = np.zeros(len(pieces) + 1, np.int64)
        np.cumsum(lengths, out=bounds[1:])
        flat = np.fromiter(itertools.chain.from_iterable(pieces_ids), np.int64, int(bounds[-1]))
        ids, first, out_bounds = merge_flat(flat, bounds, self._compiled_table())
        ids_list, first_list, edges = ids.tolist(), first.tolist(), out_bounds.tolist()
        return [(ids_list[a:b], first_list[a:b]) for a, b in zip(edges, edges[1:])]

    def _merge_compiled(self, pieces: list[list[int]]) -> list[list[int]]:
        """Step 3 on many pieces of symbol ids, in one call of the compiled merge."""
        from core.models.bpe.kernels import merge_many

        return merge_many(pieces, self._compiled_table())

    def _compiled_table(self):
        """The rank table as the compiled merge's ``PairTable``, built once per model."""
        from core.models.bpe.kernels import PairTable

        table = self.__dict__.get("_pair_table")
        if table is None:
            table = self._pair_table = PairTable.build(self._ranks)
        return table

    # -- what the chunk cache and the explorer ask (core.models.base.ModelBase) ---------
    def token_lengths(self) -> TokenLengths | None:
        """Every token covers the characters its string holds, but for a prefix, a suffix or
        dropout (the unknown token and byte-fallback pieces stand for others: length 0)."""
        if self.continuing_subword_prefix or self.end_of_word_suffix or self.dropout:
            return None
        return TokenLengths.of(self, 0, {self._unk_id}, per_piece=True, byte_pieces=self.byte_fallback)

    def line_encoder(self, pre_tokenizer) -> LineEncoder | None:
        """Plain BPE under ``Whitespace`` or ``WhitespaceSplit`` (the ``"words"`` way: the
        kernels cut pre-tokens by character classes) or ``ByteLevel`` (``"bytes"``), from
        ``core.models.bpe.line_kernels``; None with a prefix, a suffix or dropout."""
        from core.pre_tokenizers import ByteLevel, Whitespace, WhitespaceSplit

        if self.continuing_subword_prefix or self.end_of_word_suffix or self.dropout:
            return None
        kind = type(pre_tokenizer)
        way = "bytes" if kind is ByteLevel else "words" if kind in (Whitespace, WhitespaceSplit) else None
        if way is None:
            return None
        return LineEncoder(
            way, "core.models.bpe.line_kernels", partial(_load_line_kernels, self, pre_tokenizer, way)
        )

    def can_truncate(self) -> bool:
        return True

    def explains(self) -> str:
        return "merges"

    def has_merges(self) -> bool:
        return True

    def merge_list(self) -> list[tuple[str, str]]:
        """:attr:`merges`, in rank order."""
        return self.merges

    def explain(self, piece: str) -> list[MergeStep]:
        """The merges applied to ``piece``, in the order applied.

        >>> bpe = BPE({"h": 0, "u": 1, "g": 2, "s": 3, "ug": 4, "hug": 5}, [("u", "g"), ("h", "ug")])
        >>> [(s.left, s.right) for s in bpe.explain("hugs")]
        [('u', 'g'), ('h', 'ug')]
        """
        symbols = self._initial_symbols(piece)
        steps: list[MergeStep] = []
        self._merge_all(symbols, steps)
        return steps

    def merge_parts(self, token: str) -> tuple[str, str] | None:
        """The two tokens whose (first) merge built ``token``; None for a base token."""
        rank = self._made_by.get(token)
        return None if rank is None else self.merges[rank]

    def merge_rank(self, token: str) -> int | None:
        """Index in :attr:`merges` of the merge that first built ``token``."""
        return self._made_by.get(token)

    def _initial_symbols(self, piece: str) -> list[list]:
        """Step 1-2: ``[id, start, end]`` per character (id None = dropped)."""
        vocab = self.vocab
        prefix = self.continuing_subword_prefix
        suffix = self.end_of_word_suffix
        last = len(piece) - 1
        out: list[list] = []
        unk_open = False  # the previous symbol is an unknown token that may fuse
        for i, c in enumerate(piece):
            s = c
            if prefix and i > 0:
                s = prefix + s
            if suffix and i == last:
                s = s + suffix
            tid = vocab.get(s)
            if tid is not None:
                out.append([tid, i, i + 1])
                unk_open = False
                continue
            if self.byte_fallback:
                ids = [vocab.get(f"<0x{b:02X}>") for b in s.encode("utf-8")]
                if all(x is not None for x in ids):
                    # subtle: every byte token spans the whole character it came from.
                    out.extend([x, i, i + 1] for x in ids)
                    unk_open = False
                    continue
            if self._unk_id is None:
                continue  # no unknown token: the character is dropped, as in `tokenizers`
            if unk_open and self.fuse_unk:
                out[-1][2] = i + 1
            else:
                out.append([self._unk_id, i, i + 1])
                unk_open = True
        return out

    def _merge_all(
        self, symbols: list[list], steps: list[MergeStep] | None, dropout: float | None = None
    ) -> None:
        """Step 3, in place: a heap of (rank, position) over a linked list of symbols.

        With ``dropout`` each candidate popped is skipped with that probability (see the module).
        """
        n = len(symbols)
        if n < 2:
            return
        if steps is None and n > _SHORT_PIECE and not dropout:
            # a long piece (a pasted word): the compiled merge, then each token's span from
            # the first and last of the symbols it joined
            import numpy as np

            from core.models.bpe.kernels import merge_flat

            table = self._compiled_table()
            ids, first, _ = merge_flat(np.array([s[0] for s in symbols]), np.array([0, n]), table)
            starts = first.tolist()
            symbols[:] = [
                [id, symbols[a][1], symbols[b - 1][2]]
                for id, a, b in zip(ids.tolist(), starts, starts[1:] + [n])
            ]
            return
        ranks = self._ranks
        nxt = list(range(1, n + 1))
        prv = list(range(-1, n - 1))
        alive = [True] * n
        heap = []
        for i in range(n - 1):
            r = ranks.get((symbols[i][0], symbols[i + 1][0]))
            if r is not None:
                heap.append((r[0], i, r[1]))
        heapq.heapify(heap)
        draw = self._rng.random if dropout else None
        skipped: list[tuple[int, int, int]] = []
        while heap:
            rank, i, new_id = heapq.heappop(heap)
            if draw is not None:
                # subtle: as `tokenizers`' Word::merge_all: the draw comes before the staleness
                # checks, and the candidates set aside return as soon as one is not skipped
                if draw() < dropout:
                    skipped.append((rank, i, new_id))
                    continue
                for entry in skipped:
                    heapq.heappush(heap, entry)
                skipped.clear()
            if not alive[i]:
                continue
            j = nxt[i]
            if j >= n:
                continue
            r = ranks.get((symbols[i][0], symbols[j][0]))
            if r is None or r[1] != new_id:
                continue  # stale: the pair at i changed since this entry was pushed
            if steps is not None:
                left, right = self._id_to_token[symbols[i][0]], self._id_to_token[symbols[j][0]]
            # merge j into i
            symbols[i][0] = new_id
            symbols[i][2] = symbols[j][2]
            alive[j] = False
            k = nxt[j]
            nxt[i] = k
            if k < n:
                prv[k] = i
            if steps is not None:
                now = tuple(self._id_to_token[s[0]] for s, a in zip(symbols, alive) if a)
                steps.append(
                    MergeStep(
                        rank, left, right, self._id_to_token[new_id], symbols[i][1], now, sum(alive[:i])
                    )
                )
            p = prv[i]
            if p >= 0:
                r = ranks.get((symbols[p][0], new_id))
                if r is not None:
                    heapq.heappush(heap, (r[0], p, r[1]))
            if k < n:
                r = ranks.get((new_id, symbols[k][0]))
                if r is not None:
                    heapq.heappush(heap, (r[0], i, r[1]))
        symbols[:] = [s for s, a in zip(symbols, alive) if a]

    # -- the explorer's slider ---------------------------------------------------
    def truncated(self, vocab_size: int) -> BPE:
        """This model cut to its first merges so that it has at most ``vocab_size`` tokens.

        Keeps every base token and the merges up to the one that created the
        ``vocab_size - min_vocab_size``-th new token: exactly what training with
        that vocab size learns. Ids are kept. Cheap: no retraining, and no
        re-validation either (the explorer's slider calls this on every move).

            >>> bpe = BPE({"h": 0, "u": 1, "g": 2, "s": 3, "ug": 4, "hug": 5}, [("u", "g"), ("h", "ug")])
            >>> bpe.truncated(bpe.min_vocab_size + 1).merges   # 4 base tokens + the first merge's token
            [('u', 'g')]
        """
        if vocab_size >= len(self.vocab):
            return self
        # 1. once per model, tables in rank order (a cut is a prefix of each): the rank of
        #    each merge that creates a new token, and the rank-ordered items of the tables.
        tables = self.__dict__.get("_cut_tables")
        if tables is None:
            if len(self._ranks) != len(self.merges):
                # subtle: a pair listed twice ranks by its later listing; a cut before that
                # listing must rank it by the earlier one, so validate the slow way.
                tables = False
            else:
                creators = [r for t, r in self._made_by.items()]  # insertion order = rank order
                created = list(self._made_by)
                base = [(t, i) for t, i in self.vocab.items() if t not in self._made_by]
                kept = base + [(t, self.vocab[t]) for t in created]  # a cut keeps a prefix
                tables = (
                    creators,
                    len(base),
                    kept,
                    [(i, t) for t, i in kept],
                    list(self._ranks.items()),
                    list(self._made_by.items()),
                    self._reusable_rank_of_id(),
                )
            self._cut_tables = tables
        budget = max(vocab_size - self.min_vocab_size, 0)
        if tables is False:
            prefix_len = len(self.continuing_subword_prefix or "")
            k = created_n = 0
            for rank, (a, b) in enumerate(self.merges):
                if created_n == budget:
                    break
                k = rank + 1
                if self._made_by[a + b[prefix_len:]] == rank:  # this merge creates a new token
                    created_n += 1
            merges = self.merges[:k]
            made = {a + b[prefix_len:] for a, b in merges}
            vocab = {t: i for t, i in self.vocab.items() if t not in self._made_by or t in made}
            return self._with(vocab, merges)
        creators, n_base, kept, kept_by_id, rank_items, made_items, rank_of_id = tables
        # 2. the cut: merges up to the one creating the budget-th new token
        budget = min(budget, len(creators))
        k = creators[budget - 1] + 1 if budget else 0
        # 3. a model sharing everything else, with each table sliced to the cut
        cut = object.__new__(BPE)
        cut.__dict__.update(self.__dict__)
        del cut.__dict__["_cut_tables"]
        cut.__dict__.pop("_pair_table", None)
        cut.merges = self.merges[:k]
        # subtle: each table is a prefix of the ones of the last cut made: a copy of those
        # (a C-level copy of the hash table) and the few entries between them cost less than
        # building 30,000 entries again, and give the same dict, order included. A slider drag
        # moves a few tokens at a time (its cut was 5-8 ms of each move, these four dicts).
        last = self.__dict__.get("_last_cut")
        n = n_base + budget
        if last is not None and abs(k - len(last.merges)) < k:
            was_n, was_k = len(last.vocab), len(last.merges)
            cut.vocab = _resized(last.vocab, was_n, kept, n)
            cut._id_to_token = _resized(last._id_to_token, was_n, kept_by_id, n)
            cut._ranks = _resized(last._ranks, was_k, rank_items, k)
            cut._made_by = _resized(last._made_by, len(last._made_by), made_items, budget)
        else:
            cut.vocab = dict(kept[:n])
            cut._id_to_token = dict(kept_by_id[:n])
            cut._ranks = dict(rank_items[:k])  # without duplicates, the entry of rank r is the r-th
            cut._made_by = dict(made_items[:budget])
        cut._cache = {}
        full_table = self.__dict__.get("_pair_table")
        if full_table is not None and type(self) is BPE:
            # ranks are positions here (no pair listed twice on this path): the cut's table is
            # the full one with later merges masked, not a new hash built on every slider move
            cut._pair_table = full_table.below(k)
        cut.__dict__.pop("_reuse", None)
        cut.__dict__.pop("_last_cut", None)
        if rank_of_id is not None:
            cut._reuse = (self._cache, rank_of_id, k)
        self._last_cut = cut
        return cut

    def _reusable_rank_of_id(self) -> dict[int, int] | None:
        """``{token id: rank of the merge that made it}`` if a cut of this model may take a
        word's tokens from this model's cache whenever every one of them was made by a merge
        the cut keeps; None if it may not.

        Why that is exact: when every merge makes a token no other merge makes and each
        merge's parts are made by earlier merges, the merges applied to a word form trees
        whose ranks fall from each final token down to the characters. So if every final
        token was made below the cut, every merge applied was below it too; at each step the
        full model applied the lowest-ranked pair present, which the cut also has and also
        finds lowest: the cut makes the same tokens. (The explorer's slider re-encoded every
        word of the text under each cut; most of them come out the same.)
        """
        if self.dropout or len(self._made_by) != len(self.merges):
            return None  # random merges, or a merge that re-makes an existing token
        made_by = self._made_by
        for rank, (a, b) in enumerate(self.merges):
            if made_by.get(a, -1) >= rank or made_by.get(b, -1) >= rank:
                return None  # a merge listed before one of its parts exists
        return {self.vocab[t]: r for t, r in made_by.items()}

    def _reused(self, piece: str) -> Spans | None:
        """The full model's tokens of ``piece`` if this cut makes the same (see
        :meth:`_reusable_rank_of_id`), kept in this cut's cache too; else None."""
        reuse = self.__dict__.get("_reuse")
        if reuse is None:
            return None
        full_cache, rank_of_id, k = reuse
        spans = full_cache.get(piece)
        if spans is None:
            return None
        rank = rank_of_id.get
        for i in spans[0]:
            if rank(i, -1) >= k:
                return None
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[piece] = spans
        return spans

    def __getstate__(self) -> dict:
        """Pickle the model, not what it derived: the encode cache and the slider's cut tables
        are rebuilt on demand (they can be larger than the model itself). The rank tables go
        with it, built here if they were not yet: the explorer's worker trains the model and
        its window, which unpickles it in slices, encodes with it."""
        self.prepared()
        state = {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("_cut_tables", "_pair_table", "_reuse", "_last_cut", "_alphabet", "_length_table")
        }
        state["_cache"] = {}
        return state

    def _with(self, vocab: dict[str, int], merges: list[tuple[str, str]]) -> BPE:
        return BPE(
            vocab,
            merges,
            self.unk_token,
            self.continuing_subword_prefix,
            self.end_of_word_suffix,
            self.byte_fallback,
            self.fuse_unk,
            self.ignore_merges,
            self.dropout,
            self.seed,
        )

    # -- serialization -------------------------------------------------------------
    def ranked_merges(self) -> list[tuple[str, str]]:
        """Each distinct merge once, in rank order (a repeated pair keeps its later rank)."""
        last = dict(zip(self.merges, range(len(self.merges))))
        if len(last) == len(self.merges):  # no pair repeated (what training gives)
            return list(self.merges)
        return [pair for r, pair in enumerate(self.merges) if last[pair] == r]

    def to_dict(self) -> dict:
        """The ``"model"`` entry of a Hugging Face ``tokenizer.json`` (tokenizers >= 0.20 layout)."""
        return {
            "type": "BPE",
            "dropout": self.dropout,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "fuse_unk": self.fuse_unk,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges,
            "vocab": vocab_by_id(self.vocab),
            "merges": list(map(list, self.ranked_merges())),
        }

    @classmethod
    def from_dict(cls, d: dict) -> BPE:
        """Read a ``"model"`` dict; merges may be ``"a b"`` strings or ``["a", "b"]`` pairs."""
        if not isinstance(d, dict) or d.get("type", "BPE") != "BPE":
            raise FormatError("not a BPE model")
        vocab = d.get("vocab")
        if not isinstance(vocab, dict) or not all(
            isinstance(k, str) and isinstance(v, int) for k, v in vocab.items()
        ):
            raise FormatError("a BPE model needs a vocabulary mapping tokens to whole-number ids")
        merges = []
        for n, m in enumerate(d.get("merges") or [], start=1):
            if isinstance(m, str):
                parts = m.split(" ")
            elif isinstance(m, (list, tuple)):
                parts = list(m)
            else:
                parts = []
            if len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
                raise FormatError(f"merge {n} is malformed: {m!r}")
            merges.append((parts[0], parts[1]))
        try:
            return cls(
                vocab,
                merges,
                unk_token=d.get("unk_token"),
                continuing_subword_prefix=d.get("continuing_subword_prefix"),
                end_of_word_suffix=d.get("end_of_word_suffix"),
                byte_fallback=d.get("byte_fallback", False),
                fuse_unk=d.get("fuse_unk", False),
                ignore_merges=d.get("ignore_merges", False),
                dropout=d.get("dropout"),
            ).prepared()
        except ConfigError as e:
            raise FormatError(str(e)) from None

    def __repr__(self) -> str:
        return f"BPE(vocab_size={len(self.vocab)}, merges={len(self.merges)})"


def _resized(last: dict, last_n: int, items: list, n: int) -> dict:
    """``dict(items[:n])`` from ``last``, which is ``dict(items[:last_n])`` (see ``BPE.truncated``).

    >>> items = [("a", 0), ("b", 1), ("c", 2)]
    >>> _resized({"a": 0}, 1, items, 3), _resized(dict(items), 3, items, 1)
    ({'a': 0, 'b': 1, 'c': 2}, {'a': 0})
    """
    d = last.copy()
    if n > last_n:
        d.update(items[last_n:n])
    else:
        for key, _ in items[n:last_n]:
            del d[key]
    return d


def _load_line_kernels(model: BPE, pre_tokenizer, way: str):
    """:func:`core.models.bpe.line_kernels.load` (that module imports numba)."""
    from core.models.bpe import line_kernels

    return line_kernels.load(model, pre_tokenizer, way)
