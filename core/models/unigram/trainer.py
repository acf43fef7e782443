"""Unigram training the SentencePiece way, over all distinct words at once (numpy and compiled sweeps).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> counts = {"▁먹고": 10, "▁먹는": 4, "▁있다": 7}
    >>> model = drain(train_unigram(counts, TrainOptions("unigram", vocab_size=12)))
    >>> [t.value for t in model.tokenize("▁먹고")], [t.value for t in model.tokenize("▁있고")]
    (['▁먹고'], ['▁', '있', '고'])

The phases (each yields events; ``extra`` settings in brackets):

1. seed: every character plus the most frequent substrings of the words,
   weighted by word count, up to ``max_piece_length`` [16] characters, scored
   ``count * length`` like SentencePiece, at most ``seed_size`` [1,000,000]
   pieces. Substrings are counted level by level (length 1, 2, ... 16) on
   the whole corpus at once: a length-k substring is named by two ranks of
   power-of-two-long substrings (prefix doubling, as in suffix-array
   construction; equal pairs grouped by a radix sort of 11-bit digits, linear in the
   positions), and only positions whose (k-1)-prefix occurs twice or more
   are looked at (a substring is never more frequent than its prefix). Like
   SentencePiece's suffix-tree nodes, a seed occurs twice or more and is
   right-maximal (two different followers; see ``_seed_pieces`` for how the
   end of a word counts).
2. EM: the E-step runs forward-backward on every distinct word's lattice at
   once (one flat edge list sorted by start position, swept by compiled loops in
   ``core.models.unigram.train_kernels``: linear in the corpus however long a word
   is, with progress between slices) and sums each piece's expected count
   weighted by word count; the M-step drops
   pieces expected fewer than 0.5 times (never single characters) and sets
   ``score = digamma(count) - digamma(total)`` (SentencePiece's Bayesian
   update). ``n_sub_iterations`` [2] EM steps per round.
3. prune (SentencePiece's ``PruneSentencePieces``): a piece whose own best
   segmentation is something else, or that no word's Viterbi path uses, goes
   first; for the others, the loss of removing piece ``w`` is estimated from its
   best alternative segmentation ``alt(w)``:
   ``F(w) * (log p(w) - sum(log p'(a) for a in alt(w))``, where ``F(w)`` is the
   share of words whose best path uses ``w`` and ``p'`` gives ``w``'s count to
   its alternatives. Keep the ``shrinking_factor`` [0.75] share with the
   highest losses (single characters always kept), down to 1.1 x the target.
4. repeat EM + prune until the size is reached; the last round's EM is the
   final EM. Then keep the target number of pieces by score (characters
   always), specials first with ids 0.. (``<unk>`` = 0), pieces by score.

Leaves out: SentencePiece's Unicode-script and digit splitting rules, its
character coverage (every character is kept), and multi-threading.
``extra["textbook"]`` runs the seed's teaching recipe instead
(``core.models.unigram.reference``).

Memory: per-position arrays are int32, the edge list exists once and shrinks in place,
seed pieces and pruning snapshots are read out of the corpus text when asked for, and
freed numpy memory is handed back to the system after each big phase (see
``_release_freed_memory``).
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from itertools import repeat
from typing import overload

import numpy as np

from core.errors import ConfigError
from core.events import Progress, TrainingStopped, UnigramRound, drain
from core.models.unigram.model import Unigram
from core.models.unigram.signatures import sweep_kernels

DEFAULT_MAX_PIECE_LENGTH = 16
DEFAULT_SHRINKING_FACTOR = 0.75
DEFAULT_SEED_SIZE = 1_000_000
DEFAULT_SUB_ITERATIONS = 2
EXPECTED_COUNT_THRESHOLD = 0.5  # SentencePiece's kExpectedFrequencyThreshold
DESIRED_SIZE_FACTOR = 1.1  # prune down to 1.1 x the target, then cut by score
SNAPSHOT_LIMIT_FACTOR = 10  # keep slider snapshots up to 10 x the target size
_SLICE = 1 << 21  # edges per compiled sweep call: progress comes between calls
_SEPARATOR = 0x110000  # beyond Unicode: marks the end of each word in the flat corpus
_WS_FIRST_BYTE = 0xE2  # the first UTF-8 byte of "▁" (U+2581) and "▅" (U+2585)


def digamma(x: np.ndarray) -> np.ndarray:
    """SentencePiece's digamma approximation (recurrence up to 7, then the asymptotic series).

    >>> round(float(digamma(np.array([1.0]))[0]), 6)   # -Euler's gamma
    -0.577216
    """
    x = np.array(x, dtype=np.float64, copy=True)
    result = np.zeros_like(x)
    for _ in range(7):
        small = x < 7
        if not small.any():
            break
        result[small] -= 1.0 / x[small]
        x[small] += 1.0
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += (
        np.log(x)
        + (1.0 / 24.0) * xx2
        - (7.0 / 960.0) * xx4
        + 31.0 / 8064.0 * xx4 * xx2
        - 127.0 / 30720.0 * xx4 * xx4
    )
    return result


# --------------------------------------------------------------------------------------------
# Many lattices at once


class Lattices:
    """The lattices of many strings as one flat edge list, swept by compiled loops.

    Nodes are integers; lattice ``w`` runs from node ``starts[w]`` to node ``ends[w]``
    (lattices are consecutive, non-overlapping node ranges). An edge ``src -> src + lens``
    carries piece ``pid``; edges are sorted by ``src``, which is the order every sweep
    needs (``core.models.unigram.train_kernels``). Sweeps run slice by slice of
    ``_SLICE`` edges and the ``*_steps`` methods yield a ``Progress`` after each slice,
    so one huge string (a long unspaced line) still reports progress.

    Pieces: ``pid`` numbers the pieces the edges still carry, ``0 .. len(ids) - 1``, and
    ``ids`` maps them to the caller's piece ids (``None``: the same numbers). Methods take
    and return arrays over the caller's ids. subtle: a sweep reads a score and adds an
    expected count per edge at ``pid``; numbered densely, the pieces still alive after the
    first EM rounds (a few hundred thousand of the seed's million) fit in the cache, where
    scattered over the seed's numbering each edge missed it (twice as slow on a 2 MB line).
    """

    float32 = False  # sweep in spm_train's float32 arithmetic (``train_kernels``'s ``*_f32``)

    def __init__(self, src, lens, pid, starts, ends, n_nodes, ids=None):
        self.src = np.ascontiguousarray(src, dtype=np.int32)
        self.lens = np.ascontiguousarray(lens, dtype=np.int16)  # pieces have at most 256 characters
        self.pid = np.ascontiguousarray(pid, dtype=np.int32)
        self.starts = np.ascontiguousarray(starts, dtype=np.int64)
        self.ends = np.ascontiguousarray(ends, dtype=np.int64)
        self.n_nodes = int(n_nodes)
        self.ids = ids

    def piece_ids(self) -> np.ndarray:
        """The caller's piece id of each edge."""
        return self.pid if self.ids is None else self.ids[self.pid]

    def _local(self, values: np.ndarray) -> np.ndarray:
        """``values`` (over the caller's piece ids) over this lattice's piece numbers."""
        return values if self.ids is None else np.ascontiguousarray(values[self.ids])

    def _n_local(self, n_pieces: int) -> int:
        return n_pieces if self.ids is None else len(self.ids)

    def _to_caller(self, values: np.ndarray, n_pieces: int) -> np.ndarray:
        """``values`` over this lattice's piece numbers, spread over the caller's ``n_pieces`` ids."""
        if self.ids is None:
            return values
        out = np.zeros(n_pieces, dtype=values.dtype)
        out[self.ids] = values
        return out

    def without(self, alive: np.ndarray) -> Lattices:
        """The same lattices keeping only edges of pieces with ``alive[id]`` (still sorted),
        the pieces kept numbered densely again.

        subtle: reuses (overwrites) this object's edge arrays, the trainer's largest: use only
        the returned lattices afterwards.
        """
        kept = self._local(alive).astype(bool)
        new_number = (np.cumsum(kept, dtype=np.int64) - 1).astype(np.int32)
        new_number[~kept] = -1
        k = sweep_kernels().keep_edges(self.src, self.lens, self.pid, new_number)
        new = Lattices.__new__(Lattices)
        new.src, new.lens, new.pid = self.src[:k], self.lens[:k], self.pid[:k]
        if 2 * k < len(self.src):  # give the memory back once it is mostly unused
            new.src, new.lens, new.pid = new.src.copy(), new.lens.copy(), new.pid.copy()
        new.starts, new.ends, new.n_nodes = self.starts, self.ends, self.n_nodes
        new.ids = np.flatnonzero(kept) if self.ids is None else self.ids[kept]
        new.float32 = self.float32
        return new

    def _slices(self, reverse=False):
        bounds = list(range(0, len(self.src), _SLICE)) + [len(self.src)]
        pairs = list(zip(bounds[:-1], bounds[1:])) or [(0, 0)]
        return pairs[::-1] if reverse else pairs

    def _start_values(self, nodes):
        value = np.full(self.n_nodes + 1, -np.inf)
        value[nodes] = 0.0
        return value

    def forward_steps(self, score, phase="forward"):
        """Log of the summed probability of all paths reaching each node; yields ``Progress``."""
        forward_slice = sweep_kernels().forward_slice
        alpha = self._start_values(self.starts)
        score = self._local(score)
        for e0, e1 in self._slices():
            forward_slice(self.src, self.lens, self.pid, score, alpha, e0, e1)
            yield Progress(phase, e1, len(self.src))
        return alpha

    def forward(self, score):
        """Log of the summed probability of all paths reaching each node."""
        return drain(self.forward_steps(score))

    def expected_counts_steps(
        self, score, weights, n_pieces, phase="expected counts", unk_score=-np.inf, count_as=None
    ):
        """E-step: (expected count per piece, log Z per lattice); yields ``Progress`` per slice.

        ``unk_score`` (float32 sweeps): edges scored so are spm_train's unknown nodes;
        ``count_as`` (float32 sweeps, over the caller's ids): the piece each piece's count is
        added to, as it goes (default: its own)."""
        kernels = sweep_kernels()
        if self.float32:
            forward_slice, backward_slice = kernels.forward_slice_f32, kernels.backward_slice_f32
            marginals_slice = kernels.marginals_slice_f32
        else:
            forward_slice, backward_slice = kernels.forward_slice, kernels.backward_slice
            marginals_slice = kernels.marginals_slice
        n = len(self.src)
        args = (self.src, self.lens, self.pid, self._local(score))
        alpha = self._start_values(self.starts)
        for e0, e1 in self._slices():
            forward_slice(*args, alpha, e0, e1)
            yield Progress(phase, e1, 3 * n)
        beta = self._start_values(self.ends)
        extra = (float(unk_score),) if self.float32 else ()
        for e0, e1 in self._slices(reverse=True):
            backward_slice(*args, beta, *extra, e0, e1)
            yield Progress(phase, 2 * n - e0, 3 * n)
        log_z = alpha[self.ends]
        expected = np.zeros(self._n_local(n_pieces))
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        target = ()
        if self.float32:
            n_local = self._n_local(n_pieces)
            if count_as is None:
                target = (np.arange(n_local, dtype=np.int32),)
            else:  # caller's ids -> this lattice's numbers (a target must be one of them)
                local_of = np.full(n_pieces, -1, dtype=np.int64)
                local_of[np.arange(n_pieces) if self.ids is None else self.ids] = np.arange(n_local)
                target = (np.ascontiguousarray(local_of[self._local(count_as)], dtype=np.int32),)
                assert (target[0] >= 0).all()
        for e0, e1 in self._slices():
            marginals_slice(*args, alpha, beta, self.starts, log_z, weights, expected, *target, e0, e1)
            yield Progress(phase, 2 * n + e1, 3 * n)
        return self._to_caller(expected, n_pieces), log_z

    def expected_counts(self, score, weights, n_pieces):
        """E-step: (expected count per piece, log Z per lattice)."""
        return drain(self.expected_counts_steps(score, weights, n_pieces))

    def _best_steps(self, score, phase):
        """Best-path sweep: (best score per node, best edge into each node); yields ``Progress``."""
        kernels = sweep_kernels()
        viterbi_slice = kernels.viterbi_slice_f32 if self.float32 else kernels.viterbi_slice
        best = self._start_values(self.starts)
        back = np.full(self.n_nodes + 1, -1, dtype=np.int32)  # edges number fewer than 2**31
        n = len(self.src)
        score = self._local(score)
        for e0, e1 in self._slices():
            viterbi_slice(self.src, self.lens, self.pid, score, best, back, e0, e1)
            yield Progress(phase, e1, n)
        return best, back

    def viterbi_steps(self, score, phase="best paths"):
        """Best path per lattice: (best score per lattice, lattice id per token, piece per token).

        Tokens are grouped by lattice, each lattice's listed from its end. Yields ``Progress``.
        """
        backtrack = sweep_kernels().backtrack
        best, back = yield from self._best_steps(score, phase)
        owner, pieces = backtrack(self.starts, self.ends, back, self.src, self.pid)
        return best[self.ends], owner, (pieces if self.ids is None else self.ids[pieces])

    def best_path_counts_steps(self, score, weights, n_pieces, phase="best paths"):
        """(weighted uses of each piece on the best paths, summed weight of the lattices using it)."""
        best_path_counts = sweep_kernels().best_path_counts
        _, back = yield from self._best_steps(score, phase)
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        freq, used_by = best_path_counts(
            self.starts, self.ends, back, self.src, self.pid, weights, self._n_local(n_pieces)
        )
        return self._to_caller(freq, n_pieces), self._to_caller(used_by, n_pieces)

    def viterbi(self, score):
        """Best path per lattice: (best score per lattice, lattice id per token, piece per token)."""
        return drain(self.viterbi_steps(score))


# --------------------------------------------------------------------------------------------
# The corpus as arrays


class _Corpus:
    """Distinct words laid end to end: word ``w`` is ``codes[off[w]:off[w]+len[w]]`` followed by
    a separator slot; its lattice nodes are ``off[w] .. off[w]+len[w]`` (the separator slot is its
    end node)."""

    def __init__(self, words: list[str], counts: np.ndarray):
        self.counts = counts.astype(np.float64)
        self.text = "\x00".join(words) + "\x00"
        codes = np.frombuffer(self.text.encode("utf-32-le"), dtype=np.uint32).astype(np.int32)
        lengths = np.array([len(w) for w in words], dtype=np.int64)
        self.lengths = lengths
        self.off = np.zeros(len(words), dtype=np.int64)
        self.off[1:] = np.cumsum(lengths + 1)[:-1]
        self.ends = self.off + lengths
        codes[self.ends] = _SEPARATOR
        self.codes = codes
        self.n = len(codes)
        if self.n >= 2**31:  # positions and edges are int32
            raise ConfigError(
                "the distinct words hold over 2**31 characters; train on a sample of the corpus"
            )
        word_of_pos = np.repeat(np.arange(len(words)), lengths + 1)
        self.dist = (self.ends[word_of_pos] - np.arange(self.n)).astype(np.int32)  # chars left in the word
        self.pos_weight = self.counts[word_of_pos]

    def drop_seed_arrays(self) -> None:
        """Frees the per-position arrays only seeding reads (a third of the corpus's memory);
        once they are gone, does nothing."""
        for name in ("codes", "dist", "pos_weight", "pos_final_weight", "pos_unknown_weight"):
            self.__dict__.pop(name, None)
        _release_freed_memory()


def _release_freed_memory() -> None:
    """Gives memory freed by numpy back to the operating system (glibc only; elsewhere nothing).

    subtle: glibc keeps freed blocks below its (self-raising, up to 32 MB) mmap threshold in
    the heap for reuse, so after seeding's big temporaries are gone the process still holds
    them: on an 8 MB corpus, 160 MB of peak memory that nothing uses. ``malloc_trim`` returns
    them; it costs a few milliseconds.
    """
    trim = _MALLOC_TRIM
    if trim is None:
        trim = _find_malloc_trim()
    if trim:
        trim(0)


def _find_malloc_trim():
    """glibc's ``malloc_trim``, or False; looked up once (a ``CDLL`` per call, ~0.15 ms, was most
    of the cost: a Unigram training calls it ~30 times)."""
    global _MALLOC_TRIM
    try:
        import ctypes

        _MALLOC_TRIM = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        _MALLOC_TRIM = False
    return _MALLOC_TRIM


_MALLOC_TRIM = None  # (found at the first call)


class _SeedPieces(Sequence[str]):
    """The seed pieces, read out of the corpus text when asked for: characters first, then
    substring ``j`` at ``text[pos[j] : pos[j] + length[j]]``.

    Hundreds of thousands of small strings would cost more memory than the edges between them,
    and training names only the pieces it reports or keeps.

    >>> list(_SeedPieces(["a", "b"], "abab", np.array([1]), np.array([3])))
    ['a', 'b', 'bab']
    """

    def __init__(self, chars: list[str], text: str, pos: np.ndarray, length: np.ndarray):
        self.chars, self.text = chars, text
        self.pos, self.length = pos, length

    def take(self, ids: np.ndarray) -> list[str]:
        """The pieces ``ids``, read out in one pass (a pruning round names tens of thousands).

        >>> _SeedPieces(["a", "b"], "abab", np.array([1]), np.array([3])).take(np.array([2, 0]))
        ['bab', 'a']
        """
        ids = np.asarray(ids, dtype=np.int64)
        n_chars, chars, text = len(self.chars), self.chars, self.text
        if not len(self.pos):
            return [chars[i] for i in ids.tolist()]
        j = np.maximum(ids - n_chars, 0)
        starts = self.pos[j].astype(np.int64)
        ends = starts + self.length[j]
        return [
            chars[i] if i < n_chars else text[a:b]
            for i, a, b in zip(ids.tolist(), starts.tolist(), ends.tolist())
        ]

    def lengths(self) -> np.ndarray:
        """Each piece's length in characters."""
        return np.concatenate([np.ones(len(self.chars), dtype=np.int64), self.length]).astype(np.int64)

    def __len__(self) -> int:
        return len(self.chars) + len(self.pos)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if i < len(self.chars):
            return self.chars[i]
        j = i - len(self.chars)
        start = int(self.pos[j])
        return self.text[start : start + int(self.length[j])]


class _Snapshot(Sequence[tuple[str, float]]):
    """One pruning round's vocabulary for the model's size slider: ``(piece, score)`` pairs,
    kept as two arrays (a round of 60,000 pieces as tuples of strings would cost 8 MB).

    >>> list(_Snapshot(["a", "b", "ab"], np.array([0, 2]), np.array([-1.0, -2.0])))
    [('a', -1.0), ('ab', -2.0)]
    """

    def __init__(self, pieces: Sequence[str], ids: np.ndarray, scores: np.ndarray):
        self.pieces, self.ids, self.scores = pieces, ids, scores

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> tuple[str, float]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, float]]: ...
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self.pieces[int(self.ids[i])], float(self.scores[i])


def _distinct(values):
    """``np.unique(values)`` of a 1-d integer array: sorted, each value once. (np.unique itself
    imports ``numpy.ma`` at its first call, ~8 ms of a small training.)

        >>> _distinct(np.array([3, 1, 3, 2])).tolist()
        [1, 2, 3]
    """
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _seed_pieces(
    corpus: _Corpus,
    max_len: int,
    seed_size: int,
    valid_piece=None,
    utf8_followers=False,
    valid_pieces=None,
    unknown_char=None,
):
    """Count substrings level by level; return (pieces, initial values, representative
    position per piece, edges src/len/pid sorted by start, number of characters).

    ``utf8_followers``: two followers differ only if their first UTF-8 bytes do (see
    ``train_unigram``); ``unknown_char``: listed last among the characters, with value 0
    (the caller keeps it out of the vocabulary). Generator: yields Progress per level.
    """
    group_pairs = sweep_kernels().group_pairs
    n = corpus.n
    codes = corpus.codes
    # Characters: every distinct code but the separator, most frequent first.
    is_char = corpus.dist >= 1
    # (what np.unique(codes, return_inverse=True) gives, without its n log n sort)
    present = np.zeros(_SEPARATOR + 1, dtype=bool)
    present[codes] = True
    uniq_codes = np.flatnonzero(present)
    inv_codes = (np.cumsum(present, dtype=np.int32) - 1)[codes]  # int32: fewer than 2**31 positions
    del present
    char_freq = np.bincount(inv_codes[is_char], weights=corpus.pos_weight[is_char], minlength=len(uniq_codes))
    char_ids = np.flatnonzero(uniq_codes != _SEPARATOR)
    char_order = char_ids[np.argsort(-char_freq[char_ids], kind="stable")]
    if unknown_char is not None:  # last, so the other pieces keep spm_train's numbering
        unk_code = ord(unknown_char)
        char_order = np.concatenate(
            [char_order[uniq_codes[char_order] != unk_code], char_order[uniq_codes[char_order] == unk_code]]
        )
        char_freq[uniq_codes == unk_code] = 0.0
    chars = [chr(int(c)) for c in uniq_codes[char_order]]
    # ranks of power-of-two-long substrings (prefix doubling)
    # (int32 to halve their memory: ranks are below n; keys are computed in int64)
    ranks = {1: inv_codes}
    n_ranks = {1: len(uniq_codes)}
    n_doublings = (max_len + 1).bit_length() - 1  # ranks of lengths 2, 4, ... up to max_len + 1
    # progress: the doublings, two steps per level 2 .. max_len (its grouping, the rest), the
    # choice of seeds, the edges of each length
    edge_base = n_doublings + 2 * (max_len - 1) + 1
    steps = edge_base + max_len
    yield Progress("seed", 0, steps)  # characters counted
    m = 1
    while 2 * m <= max_len + 1:
        r = ranks[m]
        shifted = np.full(n, n_ranks[m], dtype=np.int32)  # past the end: a rank of its own
        shifted[: n - m] = r[m:]
        n_uniq, _, ranks[2 * m] = group_pairs(r, shifted, n_ranks[m], n_ranks[m] + 1)
        n_ranks[2 * m] = n_uniq
        del shifted
        _release_freed_memory()
        m *= 2
        yield Progress("seed", m.bit_length() - 1, steps)  # after each doubling: each is a pass over n
    # Level by level: only positions whose (k-1)-prefix occurs twice or more are looked at.
    # A candidate must also be right-maximal, as SentencePiece's suffix-tree nodes are: it
    # has two different followers. SentencePiece sees whole lines, where a word's end is
    # followed by "▁" or by the end of the line; we see words only, so the end of a word
    # counts as one follower, or as two when it ends words twice or more. A level's
    # candidates are settled at the next level, once their followers are known.
    alive = np.flatnonzero(is_char).astype(np.int32)
    levels = {}
    cand_len, cand_freq, cand_pos, cand_uid = [], [], [], []
    prev = None  # (uid per position, freq per uid, first index per uid, positions) of level k-1
    prev_uid_aligned = None  # level k-1 uid of each position in ``alive``
    for k in range(2, max_len + 2):
        sel = corpus.dist[alive] >= k
        alive = alive[sel]
        m = 1 << (k.bit_length() - 1)
        for shorter in [
            length for length in ranks if length < m
        ]:  # levels from here on use ranks[m] or longer
            del ranks[shorter]
        n_uniq, first, inv = group_pairs(ranks[m][alive], ranks[m][alive + (k - m)], n_ranks[m], n_ranks[m])
        yield Progress("seed", n_doublings + 2 * (k - 2) + 1, steps)
        if prev is not None:
            p_inv, p_freq, p_first, p_pos = prev
            final = getattr(corpus, "pos_final_weight", None)
            # a level-k substring has one (k-1)-prefix: its followers are the distinct level-k
            # substrings sharing that prefix
            prefix_of = np.empty(n_uniq, dtype=np.int64)
            prefix_of[inv] = prev_uid_aligned[sel]
            if utf8_followers and final is not None:
                # followers told apart by their first UTF-8 byte only: distinct (prefix, byte)
                pairs = _distinct(prefix_of * 256 + _utf8_first_byte(codes[alive[first] + (k - 1)]))
                followers = np.bincount(pairs >> 8, minlength=len(p_freq))
                # "▁" (and "▅") start with the byte 0xE2, as "…", "★" or "─" do
                ws_byte = np.zeros(len(p_freq), dtype=bool)
                ws_byte[pairs[(pairs & 255) == _WS_FIRST_BYTE] >> 8] = True
            else:
                followers = np.bincount(prefix_of, minlength=len(p_freq))
            at_end = corpus.dist[p_pos] == k - 1
            end_weight = np.bincount(
                p_inv[at_end], weights=corpus.pos_weight[p_pos[at_end]], minlength=len(p_freq)
            )
            if final is None:
                maximal = (followers + (end_weight > 0) >= 2) | (end_weight >= 2)
            else:  # told which word ends end a line: "▁" (the next word) and a line's end differ
                end_final = np.bincount(p_inv[at_end], weights=final[p_pos[at_end]], minlength=len(p_freq))
                unknown = corpus.pos_unknown_weight
                end_unk = np.bincount(p_inv[at_end], weights=unknown[p_pos[at_end]], minlength=len(p_freq))
                mid = end_weight - end_final - end_unk
                if utf8_followers:  # the next word's "▁" and "▅" share their first byte
                    after_ws = ((mid > 0.5) | (end_unk > 0)) & ~ws_byte
                    maximal = followers + after_ws + (end_final > 0) >= 2
                else:
                    maximal = followers + (mid > 0.5) + (end_final > 0) + (end_unk > 0) >= 2
            is_candidate = (p_freq >= 2) & maximal
            seed_freq = p_freq
            last_end = getattr(corpus, "last_end", None)
            if final is not None and last_end is not None and corpus.dist[last_end - (k - 1)] == k - 1:
                # the last line's suffix of this length, if it ends other lines: counted again
                at = np.searchsorted(p_pos, last_end - (k - 1))
                if at < len(p_pos) and p_pos[at] == last_end - (k - 1) and end_final[p_inv[at]] >= 2:
                    u = p_inv[at]
                    seed_freq = np.where(is_candidate, p_freq, 0.0)
                    seed_freq[u] += end_final[u]
                    is_candidate[u] = True
            frequent = np.flatnonzero(is_candidate)
            if k - 1 in levels:  # only a candidate's positions can become edges: keep those alone
                pos, uid, n_uid = levels[k - 1]
                hit = is_candidate[uid]
                levels[k - 1] = (pos[hit], uid[hit], n_uid)
                del pos, uid, hit
            cand_len.append(np.full(len(frequent), k - 1, dtype=np.int16))
            cand_freq.append(seed_freq[frequent])
            cand_pos.append(p_pos[p_first[frequent]].astype(np.int32))
            cand_uid.append(frequent.astype(np.int32))
        if k > max_len or len(alive) == 0:
            break
        freq = np.bincount(inv, weights=corpus.pos_weight[alive])
        prev = (inv, freq, first, alive)
        keep_pos = freq[inv] >= 2
        alive, prev_uid_aligned = alive[keep_pos], inv[keep_pos]
        # a seed occurs twice or more: only these positions can hold one of this level's seeds
        levels[k] = (alive.astype(np.int32), prev_uid_aligned.astype(np.int32), n_uniq)
        _release_freed_memory()
        yield Progress("seed", n_doublings + 2 * (k - 1), steps)
    del ranks, prev, first, inv, alive, prev_uid_aligned
    # pick the best substrings by count * length, like SentencePiece
    n_sub = max(0, seed_size - len(chars))
    if cand_len:
        c_len = np.concatenate(cand_len).astype(np.int64)
        c_freq = np.concatenate(cand_freq)
        c_pos = np.concatenate(cand_pos).astype(np.int64)
        c_uid = np.concatenate(cand_uid)
        del cand_len, cand_freq, cand_pos, cand_uid
        if valid_pieces is not None:  # the same, many at once (SentencePieceSettings.valid_pieces)
            ok = valid_pieces(codes, c_pos, c_len)
            c_len, c_freq, c_pos, c_uid = c_len[ok], c_freq[ok], c_pos[ok], c_uid[ok]
        elif valid_piece is not None:  # e.g. SentencePiece's one-script rule (core.sentencepiece_training)
            text = corpus.text
            ok = np.fromiter(
                (valid_piece(text[p : p + k]) for p, k in zip(c_pos.tolist(), c_len.tolist())),
                dtype=bool,
                count=len(c_pos),
            )
            c_len, c_freq, c_pos, c_uid = c_len[ok], c_freq[ok], c_pos[ok], c_uid[ok]
        if utf8_followers:  # sentencepiece 0.2.x's order: ties by UTF-8 size, then bytes
            order = _spm_seed_order(codes, c_pos, c_len, c_freq * c_len)[:n_sub]
        else:
            order = np.argsort(-(c_freq * c_len), kind="stable")[:n_sub]
        c_len, c_freq, c_pos, c_uid = c_len[order], c_freq[order], c_pos[order], c_uid[order]
    else:
        c_len = c_freq = c_pos = c_uid = np.zeros(0, np.int64)
    yield Progress("seed", edge_base, steps)
    text = corpus.text
    pieces = _SeedPieces(chars, text, c_pos, c_len)
    values = np.concatenate([char_freq[char_order], c_freq * c_len]).astype(np.float64)
    rep_pos = np.concatenate([np.full(len(chars), -1), c_pos]).astype(np.int64)
    # edges: every position/length whose substring is a seed piece (int32: a corpus has
    # fewer than 2**31 positions; edges are the trainer's largest arrays)
    code_to_piece = np.full(len(uniq_codes), -1, dtype=np.int32)
    code_to_piece[char_order] = np.arange(len(chars), dtype=np.int32)
    char_pos = np.flatnonzero(is_char).astype(np.int32)
    del is_char
    # subtle: the edges are seeding's largest arrays; the per-position arrays only the levels
    # read go first (about 30 MB on 8 MB of Korean reviews)
    corpus.drop_seed_arrays()

    def seeds_at(k):
        """(positions, piece ids) of the level-k seeds: at most one per position."""
        if k == 1:
            return char_pos, code_to_piece[inv_codes[char_pos]]
        pos, inv, n_uniq = levels[k]
        at_k = np.flatnonzero(c_len == k)
        uid_to_piece = np.full(n_uniq, -1, dtype=np.int32)
        uid_to_piece[c_uid[at_k]] = len(chars) + at_k
        ids = uid_to_piece[inv]
        hit = ids >= 0
        return pos[hit], ids[hit]

    # Laid out sorted by (start, length) without a sort: count the edges leaving each
    # position, then fill each position's slots level by level (lengths ascending).
    lengths = [1] + [k for k in levels if (c_len == k).any()]
    per_pos = np.zeros(n + 1, dtype=np.int32)
    total = 0
    for k in lengths:
        pos = seeds_at(k)[0]
        per_pos[pos + 1] += 1
        total += len(pos)
    if total >= 2**31:
        raise ConfigError("this corpus has over 2**31 seed occurrences; train on a sample of it")
    slot = np.cumsum(per_pos, dtype=np.int32)[:-1]  # first slot of each position's edges
    del per_pos
    src = np.empty(total, dtype=np.int32)
    lens = np.empty(total, dtype=np.int16)  # max_len <= 256
    pid = np.empty(total, dtype=np.int32)
    for k in lengths:
        pos, ids = seeds_at(k)
        at = slot[pos]
        src[at], lens[at], pid[at] = pos, k, ids
        slot[pos] += 1
        levels.pop(k, None)
        yield Progress("seed", edge_base + k, steps)
    yield Progress("seed", steps, steps)
    return pieces, values, rep_pos, src, lens, pid, len(chars)


def _f32(x):
    """``x`` rounded to float32 (kept as float64): how spm_train stores its numbers.

    >>> float(_f32(0.1)) == 0.1
    False
    """
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)


def _spm_seed_order(codes, pos, length, score) -> np.ndarray:
    """The order of seed substrings ``codes[pos : pos + length]`` as ``spm_train`` 0.2.x lists
    them: score descending, then UTF-8 size descending, then the bytes ascending (code points
    compare as their UTF-8 bytes do; a proper prefix comes first). The list order is the order
    its float32 M-step sums counts in and breaks equal pruning losses by.

    >>> c = np.array([ord(x) for x in "abあb"])
    >>> _spm_seed_order(c, np.array([0, 1, 2, 3]), np.array([2, 1, 1, 1]), np.array([2.0, 2.0, 2.0, 2.0])).tolist()
    [2, 0, 1, 3]
    """
    n = len(pos)
    width = int(length.max()) if n else 0
    keys = []
    size = np.zeros(n, dtype=np.int64)
    for j in range(width):
        inside = j < length
        c = np.where(inside, codes[np.minimum(pos + j, len(codes) - 1)], -1).astype(np.int64)
        size += np.where(inside, 1 + (c >= 0x80) + (c >= 0x800) + (c >= 0x10000), 0)
        keys.append(c)
    # np.lexsort: the last key is the primary one
    return np.lexsort(tuple(keys[::-1]) + (-size, -np.asarray(score, dtype=np.float64)))


def _utf8_first_byte(codes: np.ndarray) -> np.ndarray:
    """The first byte of each code point's UTF-8 form.

    >>> _utf8_first_byte(np.array([0x61, 0xE9, 0x2581, 0xAC00, 0x1F642])).tolist()
    [97, 195, 226, 234, 240]
    """
    c = codes.astype(np.int64)
    return np.where(
        c < 0x80,
        c,
        np.where(c < 0x800, 0xC0 | (c >> 6), np.where(c < 0x10000, 0xE0 | (c >> 12), 0xF0 | (c >> 18))),
    )


# --------------------------------------------------------------------------------------------
# The trainer


def _corpus_lattices(corpus: _Corpus, src, lens, pid) -> Lattices:
    """The lattices of all distinct words; edges are sorted by start position unless they are."""
    if len(src) > 1 and (np.diff(src) < 0).any():
        src, lens, pid = _by_start(src, lens, pid)
    return Lattices(src, lens, pid, corpus.off, corpus.ends, corpus.n)


def _piece_lattices(corpus: _Corpus, lattices: Lattices, pieces_idx, rep_pos, piece_len) -> Lattices:
    """The lattice of each piece's own string, without the piece itself (its alternatives).

    Cut out of the corpus's ``lattices`` (sorted by start position), numbering pieces as they do.
    Built from one occurrence of the piece in the corpus: the corpus edges inside that span.
    Lattice ``j`` belongs to piece ``pieces_idx[j]``.
    """
    L = piece_len[pieces_idx]
    base = np.zeros(len(pieces_idx), dtype=np.int64)
    base[1:] = np.cumsum(L + 1)[:-1]
    e_src, e_len, e_pid = _inner_edges(lattices, rep_pos[pieces_idx], L, base)
    out = Lattices(e_src, e_len, e_pid, base, base + L, int((L + 1).sum()), lattices.ids)
    out.float32 = lattices.float32
    return out


def _inner_edges(lattices: Lattices, rep_pos, piece_len, base):
    """The edges of each piece's own lattice without the piece itself, cut from the corpus's
    ``lattices``: ``(src, lens, pid)`` sorted by ``src`` (see ``copy_inner_edges``)."""
    copy_inner_edges = sweep_kernels().copy_inner_edges
    src, lens, pid = lattices.src, lattices.lens, lattices.pid
    rep_pos = np.ascontiguousarray(rep_pos, dtype=np.int64)
    piece_len = np.ascontiguousarray(piece_len, dtype=np.int64)
    # the first edge at each piece's position; asked in ascending order, a binary search starts
    # where the last one ended (numpy's), instead of missing the cache all the way down
    order = np.argsort(rep_pos, kind="stable")
    first_edge = np.empty(len(rep_pos), dtype=np.int64)
    first_edge[order] = np.searchsorted(src, rep_pos[order].astype(src.dtype))  # same dtypes: no copy
    none = np.zeros(0, dtype=np.int32)
    total = copy_inner_edges(
        src, lens, pid, first_edge, rep_pos, piece_len, base, none, none.astype(np.int16), none
    )
    out_src = np.empty(total, dtype=np.int32)
    out_lens = np.empty(total, dtype=np.int16)
    out_pid = np.empty(total, dtype=np.int32)
    copy_inner_edges(src, lens, pid, first_edge, rep_pos, piece_len, base, out_src, out_lens, out_pid)
    return out_src, out_lens, out_pid


def train_unigram(
    word_counts: dict[str, int],
    options,
    *,
    valid_piece=None,
    desired_size=None,
    prune_last=False,
    line_final: dict[str, int] | None = None,
    before_unknown: dict[str, int] | None = None,
    utf8_followers=False,
    unknown_count: float | None = None,
    valid_pieces=None,
    unknown_char: str | None = None,
    last_word: str | None = None,
) -> Generator[object, None, Unigram]:
    """SentencePiece-style Unigram training; see the module docstring for the phases.
    ``valid_piece(text) -> bool``, if given, says which substrings may be seeds; ``desired_size``
    pruning aims at (default: 1.1 x the target); ``prune_last``: every EM round is followed by a
    pruning round and training stops once pruning reaches ``desired_size`` (sentencepiece 0.2.x;
    default: stop after the EM round that reaches it); ``line_final``: how often each word ended
    a line (then a seed ending words is right-maximal as on whole lines, SentencePiece's view);
    ``before_unknown``: how often each word was followed by an unknown character (a third kind
    of follower); ``utf8_followers``: with ``line_final``, two followers count as different only
    if their first UTF-8 bytes differ (sentencepiece 0.2.x builds its suffix array over bytes);
    ``valid_pieces(codes, pos, length) -> bools``: ``valid_piece`` of many substrings at once
    (then used instead); ``unknown_count``: characters are pieces like any other (see ``_Unknowns``), and the
    corpus held this many (weighted) unknown characters, cut out of its words; ``unknown_char``
    (with ``unknown_count``): a character of the words that stands for an unknown one, never a
    piece: each occurrence is an unknown node of its word's lattice, as in ``spm_train``'s.
    ``last_word`` (with ``line_final``): the last word of the corpus's last line; each suffix of
    it that ends two lines or more is counted again, once per line it ends (sentencepiece 0.2.3
    seeds over its lines laid end to end, each ended by a NUL: after the last line nothing
    follows, so "X\\0" is a suffix-array interval of its own, whose piece, the NUL trimmed,
    adds to X's count).
    With ``prune_last`` or ``unknown_count`` the model keeps every piece left (the caller
    picks its vocabulary, as ``spm_train``'s last step does)."""
    extra = options.extra or {}
    if extra.get("textbook"):
        from core.models.unigram.reference import train_unigram_textbook

        return (yield from train_unigram_textbook(word_counts, options))

    # 0. settings and checks: bad input changes nothing and says why.
    max_len = int(extra.get("max_piece_length", DEFAULT_MAX_PIECE_LENGTH))
    shrink = float(extra.get("shrinking_factor", DEFAULT_SHRINKING_FACTOR))
    seed_size = int(extra.get("seed_size", DEFAULT_SEED_SIZE))
    n_sub_iter = int(extra.get("n_sub_iterations", DEFAULT_SUB_ITERATIONS))
    if not 1 <= max_len <= 256:
        raise ConfigError(f"max piece length must be between 1 and 256, not {max_len}")
    if not 0 < shrink < 1:
        raise ConfigError(f"shrinking factor must be between 0 and 1 (exclusive), not {shrink}")
    if n_sub_iter < 1 or seed_size < 1:
        raise ConfigError("EM sub-iterations and seed size must be positive")
    specials = list(options.special_tokens or [])
    min_count = max(1, int(options.min_frequency or 0))
    # (two flat lists, not a list of pairs: a pair per distinct word costs more than the word)
    words = [w for w, c in word_counts.items() if w and c >= min_count]
    if not words:
        raise ConfigError("cannot train on an empty corpus (no words with enough occurrences)")
    corpus = _Corpus(
        words, np.fromiter(map(word_counts.__getitem__, words), dtype=np.float64, count=len(words))
    )
    if last_word is not None and line_final is not None and last_word in words:
        corpus.last_end = int(corpus.ends[words.index(last_word)])
    if line_final is not None:
        finals = np.fromiter(map(line_final.get, words, repeat(0)), dtype=np.float64, count=len(words))
        corpus.pos_final_weight = np.repeat(finals, corpus.lengths + 1)
        before = before_unknown or {}
        unknowns = np.fromiter(map(before.get, words, repeat(0)), dtype=np.float64, count=len(words))
        corpus.pos_unknown_weight = np.repeat(unknowns, corpus.lengths + 1)
    del words
    in_words = corpus.codes[corpus.dist >= 1]
    present = np.zeros(int(in_words.max(initial=0)) + 1, dtype=bool)
    present[in_words] = True
    n_chars = int(np.count_nonzero(present))  # (distinct characters, without a set of them all)
    del in_words, present
    target = options.vocab_size - len(specials)
    if target < n_chars:
        raise ConfigError(
            f"vocab size {options.vocab_size:,} is below the {n_chars:,} distinct characters + "
            f"{len(specials)} special tokens this corpus needs"
        )
    desired = max(target, int(target * DESIRED_SIZE_FACTOR)) if desired_size is None else desired_size

    # 1. seed vocabulary.
    pieces, values, rep_pos, src, lens, pid, n_chars = yield from _seed_pieces(
        corpus, max_len, seed_size, valid_piece, utf8_followers, valid_pieces, unknown_char
    )
    corpus.drop_seed_arrays()
    n_all = len(pieces)
    piece_len = pieces.lengths()
    is_char = piece_len == 1
    alive = np.ones(n_all, dtype=bool)
    if unknown_char is not None and n_chars and pieces.chars[-1] == unknown_char:
        alive[n_chars - 1] = False  # a lost character from the start: an unknown node
    weights = corpus.counts
    unknowns = None if unknown_count is None else _Unknowns(is_char, unknown_count)
    if unknowns is None:
        score = np.log(values) - math.log(values.sum())
    else:  # spm_train's ToLogProb: float32 values, their sum and its log in double
        v32 = values.astype(np.float32).astype(np.float64)
        log_total = math.log(float(v32.sum()))
        with np.errstate(divide="ignore"):  # the unknown character's 0
            score = _f32(np.log(v32) - log_total)
        score[~alive] = -np.inf

    # subtle: the edge list stays sorted by start position (filtering keeps the order), so the
    # pieces' own lattices can be cut out of it with a binary search, without re-sorting.
    # The lattices hold the one copy of the edges.
    lattices = _corpus_lattices(corpus, src, lens, pid)
    lattices.float32 = unknowns is not None
    del src, lens, pid
    log_z = (yield from lattices.forward_steps(score, "seed loss"))[corpus.ends]
    yield UnigramRound("seed", 0, n_all + len(specials), float(-(weights * log_z).sum()))
    snapshots: list[tuple[int, Sequence[tuple[str, float]]]] = []
    em_round = 0
    prune_round = 0
    loss = float("nan")
    while True:
        # 2. EM: expected counts, then the digamma update; rare pieces (not characters) drop.
        for _ in range(n_sub_iter):
            em_round += 1
            lattice_score = score if unknowns is None else unknowns.scores(score, alive)
            expected, log_z = yield from lattices.expected_counts_steps(
                lattice_score,
                weights,
                n_all,
                unk_score=_Unknowns.score(score, alive),
                count_as=None if unknowns is None else unknowns.count_as(alive),
            )
            _release_freed_memory()
            loss = float(-(weights * log_z).sum())
            if unknowns is None:
                keep = alive & ((expected >= EXPECTED_COUNT_THRESHOLD) | is_char)
            else:
                expected = unknowns.fold(expected, alive)
                keep = alive & (expected >= EXPECTED_COUNT_THRESHOLD)
            expected = np.where(keep, np.maximum(expected, EXPECTED_COUNT_THRESHOLD), 0.0)
            new_score = np.full(n_all, -np.inf)
            if unknowns is None:
                new_score[keep] = digamma(expected[keep]) - digamma(np.array([expected[keep].sum()]))[0]
            else:  # spm_train's RunMStep: float32, summed in its list's order
                kept = np.flatnonzero(keep)
                kept = kept[np.argsort(unknowns.rank[kept], kind="stable")]
                total = float(np.cumsum(expected[kept].astype(np.float32), dtype=np.float32)[-1])
                new_score[kept] = _f32(digamma(_f32(expected[kept])) - _f32(digamma(np.array([total]))[0]))
            score = new_score
            if (keep != alive).any():
                alive = keep
                lattices = lattices.without(alive if unknowns is None else alive | is_char)
            yield UnigramRound("em", em_round, int(alive.sum()) + len(specials), loss)
        size = int(alive.sum())
        if size <= desired and not prune_last:
            break

        # 3. prune.
        prune_round += 1
        removed_ids, losses = yield from _prune(
            corpus,
            lattices,
            score if unknowns is None else unknowns.scores(score, alive),
            alive,
            is_char,
            rep_pos,
            piece_len,
            weights,
            max(desired, int(shrink * size)),
            target if prune_last else desired,  # sentencepiece 0.2.x: unneeded pieces go below desired
            unknowns,
        )
        alive[removed_ids] = False
        score[removed_ids] = -np.inf
        lattices = lattices.without(alive if unknowns is None else alive | is_char)
        _release_freed_memory()
        removed = tuple(zip(pieces.take(removed_ids), losses.tolist()))
        size = int(alive.sum())
        yield UnigramRound("prune", prune_round, size + len(specials), loss, removed)
        if size <= SNAPSHOT_LIMIT_FACTOR * target:
            ids = np.flatnonzero(alive)
            snapshots.append((size, _Snapshot(pieces, ids, score[ids])))
        if prune_last and size <= desired:
            break

    # 4. finalize: characters always, then the best-scoring pieces up to the target.
    ids = np.flatnonzero(alive)
    if prune_last or unknowns is not None:
        final = ids
    else:
        chars_first = ids[is_char[ids]]
        others = ids[~is_char[ids]]
        others = others[np.argsort(-score[others], kind="stable")][: max(0, target - len(chars_first))]
        final = np.concatenate([chars_first, others])
    final = final[np.argsort(-score[final], kind="stable")]
    if unknowns is None:
        final_lattices, final_score = lattices.without(_mask(final, n_all)), score
    else:  # characters the model lost are unknown again
        final_mask = _mask(final, n_all)
        final_lattices = lattices.without(final_mask | is_char)
        final_score = unknowns.scores(score, final_mask)
    expected, log_z = yield from final_lattices.expected_counts_steps(
        final_score, weights, n_all, unk_score=_Unknowns.score(score, _mask(final, n_all))
    )
    yield UnigramRound("final", em_round, len(final) + len(specials), float(-(weights * log_z).sum()))
    model_pieces = [(s, 0.0) for s in specials] + list(zip(pieces.take(final), score[final].tolist()))
    unk = specials.index(options.unk_token) if options.unk_token in specials else None
    model = Unigram(model_pieces, unk_id=unk)
    model.special_tokens = specials
    model.snapshots = snapshots
    yield TrainingStopped(
        "reached vocab size" if len(final) >= target else "ran out of pieces",
        min(len(final), target) + len(specials),  # (a caller picks from all the pieces left)
        options.vocab_size,
    )
    return model


def _by_start(src, lens, pid):
    """Edges sorted by start position, as compact int32 arrays."""
    order = np.argsort(src, kind="stable")
    return src[order].astype(np.int32), lens[order].astype(np.int32), pid[order].astype(np.int32)


def _mask(ids, n):
    m = np.zeros(n, dtype=bool)
    m[ids] = True
    return m


class _Unknowns:
    """SentencePiece's characters, which are pieces like any other (``spm_train``'s trainer).

    The M-step drops a character expected fewer than 0.5 times, pruning one that no best path
    uses. Where no character piece is left, ``spm_train``'s lattice has an unknown node scored
    10 below the lowest piece, whose count goes to piece id 0 (its trainer's model has no
    ``<unk>``: the default unknown id 0 is its first seed, the most frequent character); so
    does every unknown character of the corpus. Here a lost character's edges stay in the
    lattices, scored as that node, and their counts are moved to piece 0.

    >>> u = _Unknowns(np.array([True, True, False]), 2.0)
    >>> u.scores(np.array([-1.0, -3.0, -2.0]), np.array([True, False, True])).tolist()
    [-1.0, -12.0, -2.0]
    >>> u.fold(np.array([5.0, 0.25, 1.0]), np.array([True, False, True])).tolist()
    [7.25, 0.0, 1.0]

    ``rank`` is each piece's place in ``spm_train``'s piece list, which breaks ties between
    equal losses when pruning: the seed order at first, then what each pruning round keeps,
    characters first, then the rest by loss (``reorder``).
    """

    UNKNOWN_PENALTY = 10.0  # spm's kUnkPenalty

    def __init__(self, is_char: np.ndarray, count: float):
        self.is_char, self.count = is_char, float(count)
        self.rank = np.arange(len(is_char), dtype=np.int64)

    def reorder(self, chars: np.ndarray, kept: np.ndarray) -> None:
        """After a pruning round: the characters kept (``chars``), then the other pieces kept
        in the order given (``kept``), come first, in that order."""
        chars = chars[np.argsort(self.rank[chars], kind="stable")]
        new = np.concatenate([chars, kept])
        self.rank[new] = np.arange(len(new)) - len(new)  # ahead of every piece not kept

    @classmethod
    def score(cls, score: np.ndarray, alive: np.ndarray) -> float:
        """The unknown node's score: spm's ``min_score() - kUnkPenalty``, in float32."""
        return float(_f32(_f32(score[alive].min()) - cls.UNKNOWN_PENALTY))

    def scores(self, score: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """``score`` with each lost character scored as an unknown node."""
        lost = self.is_char & ~alive
        if not lost.any():
            return score
        out = score.copy()
        out[lost] = self.score(score, alive)
        return out

    def fold(self, counts: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """``counts`` with the lost characters' counts and the corpus's unknowns on piece 0."""
        lost = self.is_char & ~alive
        out = counts.copy()
        out[0] += out[lost].sum() + self.count
        out[lost] = 0.0
        return out

    def count_as(self, alive: np.ndarray) -> np.ndarray:
        """The piece each piece's expected count goes to: piece 0 for a lost character (spm adds
        it there as it sweeps, in its place among piece 0's own: float32 sums keep that order)."""
        return np.where(self.is_char & ~alive, 0, np.arange(len(alive))).astype(np.int64)

    def remap(self, pids: np.ndarray, alive: np.ndarray) -> np.ndarray:
        """Piece ids with each lost character as piece 0."""
        return np.where((self.is_char & ~alive)[pids], 0, pids)


def _spm_losses(freq, f_i, alt_owner, alt_pid, n_alt, total) -> np.ndarray:
    """Each piece's pruning loss as ``spm_train`` 0.2.3 computes it (``PruneSentencePieces``):
    float32 values, each log taken in double and rounded back, the alternatives' terms added
    left to right; equal float32 losses then keep its list order.

    ``alt_owner``/``alt_pid``: the alternative segmentations' tokens, grouped by piece, each
    group listed from its last token to its first (``Lattices.viterbi``)."""
    f32 = np.float32
    with np.errstate(divide="ignore", invalid="ignore"):
        s = f32(total)
        logsum = f32(np.log(np.float64(s)))
        fi = f_i.astype(f32)
        logprob_sp = (np.log(fi.astype(np.float64)) - np.float64(logsum)).astype(f32)
        grown = (s + fi * (n_alt - 1).astype(f32)).astype(f32)
        logsum_alt = np.log(grown.astype(np.float64)).astype(f32)
        owner = np.asarray(alt_owner, dtype=np.int64)
        starts = np.zeros(len(n_alt) + 1, dtype=np.int64)
        starts[1:] = np.cumsum(n_alt)
        from_left = starts[owner + 1] - 1 - np.arange(len(owner))  # (groups are contiguous)
        term = np.log((freq[alt_pid].astype(f32) + fi[owner]).astype(np.float64)) - logsum_alt[owner]
        logprob_alt = np.zeros(len(n_alt), dtype=f32)
        for j in range(int(n_alt.max()) if len(n_alt) else 0):
            at = from_left == j
            o = owner[at]
            logprob_alt[o] = (logprob_alt[o].astype(np.float64) + term[at]).astype(f32)
        share = (fi / s).astype(f32)
        return (share * (logprob_sp - logprob_alt).astype(f32)).astype(f32).astype(np.float64)


def _prune(
    corpus, lattices, score, alive, is_char, rep_pos, piece_len, weights, pruned_size, desired, unknowns=None
):
    """SentencePiece's PruneSentencePieces, vectorized. Returns (removed ids, their losses).

    With ``unknowns`` (a ``_Unknowns``), ``score`` already scores lost characters as unknown
    nodes, and a character no best path uses goes. Generator: yields ``Progress("prune", ...)``
    while it finds best paths."""
    n_all = len(score)
    ids = np.flatnonzero(alive)
    multi = ids[~is_char[ids]]
    # (a) each multi-character piece's best segmentation without itself.
    plat = _piece_lattices(corpus, lattices, multi, rep_pos, piece_len)
    alt_score, alt_owner, alt_pid = yield from plat.viterbi_steps(score, "prune")
    if unknowns is not None:
        alt_pid = unknowns.remap(alt_pid, alive)
    del plat  # before the corpus's own best paths: they need as much memory again
    _release_freed_memory()
    own = score[multi]
    replaced = alt_score > own  # its own string is better cut otherwise: not needed
    # (b) Viterbi on the corpus: piece frequencies and the words using each piece.
    freq, used_by = yield from lattices.best_path_counts_steps(score, weights, n_all, "prune")
    if unknowns is not None:
        freq = unknowns.fold(freq, alive)
    total = freq.sum()
    # (c) the loss of removing each piece.
    f_i = freq[multi]
    n_alt = np.bincount(alt_owner, minlength=len(multi))
    if unknowns is not None:
        loss = _spm_losses(freq, f_i, alt_owner, alt_pid, n_alt, total)
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) for unused pieces: dropped below
        logsum_alt = np.log(total + f_i * (n_alt - 1))
        alt_gain = np.bincount(
            alt_owner, weights=np.log(freq[alt_pid] + f_i[alt_owner]), minlength=len(multi)
        )
        logprob_sp = np.log(f_i) - np.log(total)
        logprob_alt = alt_gain - n_alt * logsum_alt
        if unknowns is None:
            loss = (used_by[multi] / weights.sum()) * (logprob_sp - logprob_alt)
    unneeded = replaced | (f_i == 0)
    # (d) keep characters, then the highest losses up to the pruned size. Unneeded pieces all
    #     go, even past the pruned size (as SentencePiece), but never below the desired size:
    #     then the best-scored of them stay.
    chars = ids[is_char[ids]]
    unused_chars = chars[(freq[chars] == 0) & (chars != 0)] if unknowns is not None else chars[:0]
    n_chars = len(chars) - len(unused_chars)
    n_needed = int((~unneeded).sum())
    n_keep = min(max(0, pruned_size - n_chars), n_needed)
    n_keep = max(n_keep, min(len(multi), max(0, desired - n_chars)))
    if unknowns is None:
        order = np.lexsort((-own, -np.where(unneeded, -np.inf, loss)))
    else:  # spm_train: ties by place in its piece list
        order = np.lexsort((unknowns.rank[multi], -np.where(unneeded, -np.inf, loss)))
    drop = order[n_keep:]
    if unknowns is not None:
        unknowns.reorder(chars[~np.isin(chars, unused_chars)], multi[order[:n_keep]])
    removed = np.concatenate([unused_chars, multi[drop]])
    return removed, np.concatenate([np.zeros(len(unused_chars)), np.where(unneeded[drop], 0.0, loss[drop])])
