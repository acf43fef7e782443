"""The BPE trainer's merge state: the flat arrays of ``core/trainers/bpe_kernels.py`` and the Python
that grows them and runs chunks of merges.

The kernels themselves come from :func:`merge_kernels`: the extension ``python -m core.jit``
compiles ahead of time from ``bpe_kernels.py`` (signatures in :data:`EXPORTS`) when it is built
and current, else numba's JIT of the same source. The extension needs neither numba nor LLVM,
which costs a short training ~0.5 s of CPU and ~120 MB before its first merge; both give the
same merges (``tests/parity`` runs both).

    >>> ab_abab = np.array([0, 1, 0, 1, 0, 1]), np.array([2, 4]), np.array([1, 2])  # symbols, lengths, counts
    >>> state = MergeState.build(*ab_abab, ["a", "b"], "")
    >>> state.run(10, vocab_size=3, min_frequency=0)[0] == STOP_VOCAB
    True
    >>> state.events()[:, :4].tolist()        # left id, right id, new id, count: a + b -> ab (id 2)
    [[0, 1, 2, 5]]
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from core.errors import CorpusError

# ints[...] slots
I_TOKENS, I_CHARS, I_PAIRS, I_ENTRIES, I_SEQ, I_HEAP, I_POOL, I_STEP, I_NEED, I_NEED_NEW, I_NEED_CHARS = (
    range(11)
)
# merge_chunk results
CHUNK_DONE, STOP_VOCAB, STOP_NO_PAIRS, STOP_MIN_FREQUENCY, GROW = range(5)

# The kernels' signatures for the compiled-ahead build (numba's notation; ``[::1]`` a contiguous
# array). They are exactly the dtypes MergeState passes: an extension, unlike the JIT, cannot
# compile another version for other dtypes, and refuses them.
_I4, _I8 = "int32[::1]", "int64[::1]"
EXPORTS = {
    "rehash_pairs": f"void({_I4}, {_I4}, {_I4}, int64)",
    "count_pairs": f"int64({_I4}, {_I8}, {_I4}, {_I8}, int64, {_I4}, {_I4}, {_I4}, {_I8}, {_I8}, {_I4}, {_I8})",
    "fill_initial_entries": (
        f"void({_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I8}, {_I8}, {_I8}, {_I4}, "
        f"{_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I4}, {_I8})"
    ),
    "index_tokens": f"void({_I8}, {_I4}, {_I4}, {_I8}, {_I4}, int64)",
    "merge_chunk": (
        f"UniTuple(int64, 2)({_I4}, {_I8}, {_I4}, {_I8}, "  # words
        f"{_I8}, {_I4}, {_I4}, {_I8}, {_I4}, {_I4}, "  # tokens, prefix
        f"{_I4}, {_I4}, {_I4}, {_I8}, {_I4}, "  # pairs
        f"{_I4}, {_I8}, {_I4}, {_I4}, {_I4}, {_I4}, {_I4}, "  # entries, heap, pool
        f"{_I4}, {_I4}, {_I4}, {_I8}, {_I4}, "  # gains of one merge
        f"{_I8}, int64, int64, int64, "  # ints, vocab_size, min_frequency, max_merges
        f"{_I4}, {_I4}, {_I4}, {_I8}, bool_[::1], {_I4})"  # out_*
    ),
}


def merge_kernels() -> ModuleType:
    """The module whose functions run the merge loop: compiled ahead of time if built, else the JIT."""
    from core.jit import load_ahead_of_time

    ahead = load_ahead_of_time("core.trainers.bpe_kernels")
    if ahead is not None:
        return ahead
    from core.trainers import bpe_kernels  # loads numba and the cached JIT kernels

    return bpe_kernels


# -- the Python side: arrays, growth, chunks ------------------------------------------------------


_malloc_trim: list = []  # glibc's malloc_trim once looked up, or None where there is none


def _return_freed_memory() -> None:
    """Hand the free pages of the C heap back to the system (glibc's ``malloc_trim``); else nothing.

    subtle: an array that cannot grow in place is copied, and the blocks it leaves stay in the
    process: on the Korean corpus at 32k, ~11 MB of the peak. A trim takes ~1 ms and runs only
    after the set-up and after each growth (~20 times in that training).
    """
    if not _malloc_trim:
        try:
            import ctypes

            _malloc_trim.append(ctypes.CDLL("libc.so.6").malloc_trim)
        except (OSError, AttributeError):  # not glibc (macOS, Windows, musl): nothing to do
            _malloc_trim.append(None)
    if _malloc_trim[0] is not None:
        _malloc_trim[0](0)


def _table_size(capacity: int) -> int:
    """A power of two at least 1.5 times ``capacity`` (open addressing stays at most 2/3 full)."""
    size = 16
    while size < capacity + capacity // 2:
        size *= 2
    return size


def _grown(array: np.ndarray, size: int, fill: int = 0) -> np.ndarray:
    """``array`` lengthened to ``size`` items, the new ones ``fill``.

    subtle: resized in place (``realloc``, which moves big blocks by remapping pages) rather
    than copied, so growing does not hold the old and the new array at once; no other
    reference to these arrays outlives a kernel call.
    """
    old = array.shape[0]
    if not array.flags.owndata:
        array = array.copy()
    array.resize(size, refcheck=False)
    array[old:] = fill
    return array


def _codes(strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Code points of all ``strings`` (one int32 array) and their start offsets (int64)."""
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    starts = np.zeros(len(strings), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    text = "".join(strings).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(text, dtype=np.uint32).astype(np.int32), starts


class MergeState:
    """Every array of the merge loop, and the Python that grows them and runs chunks of merges."""

    symbols: np.ndarray
    word_start: np.ndarray
    word_len: np.ndarray
    word_count: np.ndarray
    token_keys: np.ndarray
    token_ids: np.ndarray
    token_chars: np.ndarray
    token_start: np.ndarray
    token_len: np.ndarray
    prefix: np.ndarray
    pair_table: np.ndarray
    pair_left: np.ndarray
    pair_right: np.ndarray
    pair_count: np.ndarray
    pair_slot: np.ndarray
    entry_pair: np.ndarray
    entry_neg: np.ndarray
    entry_seq: np.ndarray
    entry_start: np.ndarray
    entry_end: np.ndarray
    heap: np.ndarray
    pool: np.ndarray
    gained_slot: np.ndarray
    gained_word: np.ndarray
    slot_pair: np.ndarray
    slot_count: np.ndarray
    slot_last_word: np.ndarray
    out_left: np.ndarray
    out_right: np.ndarray
    out_new: np.ndarray
    out_count: np.ndarray
    out_tie: np.ndarray
    out_vocab: np.ndarray
    done: int

    def __init__(self, kernels: ModuleType | None = None) -> None:
        self.ints = np.zeros(11, dtype=np.int64)
        self.kernels = kernels or merge_kernels()

    @classmethod
    def build(cls, symbols: np.ndarray, word_len: np.ndarray, counts: np.ndarray, tokens: list[str], prefix: str,
              vocab_size: int | None = None, kernels: ModuleType | None = None) -> MergeState:  # fmt: skip
        """Step 3 of the trainer: the words' arrays in, pairs counted and the first heap built.

        ``symbols`` holds every word's ids one after the other (``word_len`` says how many
        each; ``counts`` how often it occurs); ``tokens`` are the initial tokens in id order;
        ``prefix`` is the continuing-subword prefix ("" for none).
        """
        self = cls(kernels)
        ints = self.ints
        self.symbols = np.ascontiguousarray(symbols, dtype=np.int32)
        self.word_len = np.ascontiguousarray(word_len, dtype=np.int32)
        self.word_start = np.zeros(self.word_len.shape[0], dtype=np.int64)
        np.cumsum(self.word_len[:-1], out=self.word_start[1:])
        self.word_count = np.ascontiguousarray(counts, dtype=np.int64)
        capacity = max(len(tokens), vocab_size or 0) + 1
        chars, starts = _codes(tokens)
        self.token_chars = _grown(chars, max(2 * chars.shape[0], 1024))
        self.token_start = _grown(starts, capacity)
        self.token_len = _grown(np.fromiter(map(len, tokens), dtype=np.int32, count=len(tokens)), capacity)
        self.token_keys = np.full(_table_size(capacity), -1, dtype=np.int64)
        self.token_ids = np.zeros(self.token_keys.shape[0], dtype=np.int32)
        self.prefix = np.frombuffer(prefix.encode("utf-32-le"), dtype=np.uint32).astype(np.int32)
        self.kernels.index_tokens(
            self.token_keys, self.token_ids, self.token_chars, self.token_start, self.token_len, len(tokens)
        )
        ints[I_TOKENS] = len(tokens)
        ints[I_CHARS] = chars.shape[0]

        # Distinct pairs are fewer than symbols; start at a quarter and grow while counting.
        self.pair_left = np.zeros(max(1024, self.symbols.shape[0] // 4), dtype=np.int32)
        self._grow_pairs(0)
        pair_words = np.zeros(self.pair_left.shape[0], dtype=np.int64)
        last_word = np.full(self.pair_left.shape[0], -1, dtype=np.int32)
        w = 0
        while True:
            w = self.kernels.count_pairs(self.symbols, self.word_start, self.word_len, self.word_count, w, self.pair_table,
                            self.pair_left, self.pair_right, self.pair_count, pair_words,
                            last_word, ints)  # fmt: skip
            if w == self.word_len.shape[0]:
                break
            self._grow_pairs(int(self.word_len[w]))
            pair_words = _grown(pair_words, self.pair_left.shape[0])
            last_word = _grown(last_word, self.pair_left.shape[0], -1)
        n_pairs = int(ints[I_PAIRS])
        order = np.argsort((self.pair_left[:n_pairs].astype(np.int64) << 32) | self.pair_right[:n_pairs])
        n_entries = n_pairs + n_pairs // 4 + 1024
        self.entry_pair = np.zeros(n_entries, dtype=np.int32)
        self.entry_neg = np.zeros(n_entries, dtype=np.int64)
        self.entry_seq = np.zeros(n_entries, dtype=np.int32)
        # subtle: int32 offsets into the pool; _grow refuses a pool past 2**31 entries.
        self.entry_start = np.zeros(n_entries, dtype=np.int32)
        self.entry_end = np.zeros(n_entries, dtype=np.int32)
        self.heap = np.zeros(n_entries, dtype=np.int32)
        total_words = int(pair_words[:n_pairs].sum())
        self.pool = np.zeros(total_words + total_words // 4 + 1024, dtype=np.int32)
        last_word[:] = -1
        self.kernels.fill_initial_entries(self.symbols, self.word_start, self.word_len, self.pair_table,
                             self.pair_left, self.pair_right, self.pair_count, order, pair_words[:n_pairs],
                             last_word, self.entry_pair, self.entry_neg, self.entry_seq, self.entry_start,
                             self.entry_end, self.pool, self.heap, ints)  # fmt: skip
        del order, pair_words, last_word
        self.pair_slot = np.full(self.pair_left.shape[0], -1, dtype=np.int32)
        self._gained(1024)
        self._events(0)
        _return_freed_memory()  # the set-up's temporaries
        return self

    def _grow_pairs(self, need: int) -> None:
        """Room for ``need`` more pairs (at least double); rebuilds the pair table."""
        n_pairs = int(self.ints[I_PAIRS])
        if n_pairs == 0 and not hasattr(self, "pair_right"):
            size = self.pair_left.shape[0]
            self.pair_right = np.zeros(size, dtype=np.int32)
            self.pair_count = np.zeros(size, dtype=np.int64)
        else:
            size = max(self.pair_left.shape[0] * 5 // 4, n_pairs + need)
            self.pair_left = _grown(self.pair_left, size)
            self.pair_right = _grown(self.pair_right, size)
            self.pair_count = _grown(self.pair_count, size)
            if hasattr(self, "pair_slot"):
                self.pair_slot = _grown(self.pair_slot, size, -1)
        self.pair_table = np.empty(0, dtype=np.int32)  # the old table goes before the new one comes
        self.pair_table = np.full(_table_size(size), -1, dtype=np.int32)
        self.kernels.rehash_pairs(self.pair_table, self.pair_left, self.pair_right, n_pairs)

    def _gained(self, size: int) -> None:
        self.gained_slot = np.zeros(size, dtype=np.int32)
        self.gained_word = np.zeros(size, dtype=np.int32)
        self.slot_pair = np.zeros(size, dtype=np.int32)
        self.slot_count = np.zeros(size, dtype=np.int64)
        self.slot_last_word = np.zeros(size, dtype=np.int32)

    def _events(self, size: int) -> None:
        self.out_left = np.zeros(size, dtype=np.int32)
        self.out_right = np.zeros(size, dtype=np.int32)
        self.out_new = np.zeros(size, dtype=np.int32)
        self.out_count = np.zeros(size, dtype=np.int64)
        self.out_tie = np.zeros(size, dtype=np.bool_)
        self.out_vocab = np.zeros(size, dtype=np.int32)
        self.done = 0

    def _grow(self) -> None:
        """Room for the next merge's worst case (``ints[I_NEED*]``), growing by half what is short."""
        ints = self.ints
        need, need_new, need_chars = int(ints[I_NEED]), int(ints[I_NEED_NEW]), int(ints[I_NEED_CHARS])
        if ints[I_PAIRS] + need_new > self.pair_left.shape[0]:
            self._grow_pairs(need_new)
        if ints[I_ENTRIES] + need_new > self.entry_pair.shape[0]:
            size = max(self.entry_pair.shape[0] * 5 // 4, int(ints[I_ENTRIES]) + need_new)
            for name in ("entry_pair", "entry_neg", "entry_seq", "entry_start", "entry_end", "heap"):
                setattr(self, name, _grown(getattr(self, name), size))
        if ints[I_POOL] + need > self.pool.shape[0]:
            size = max(self.pool.shape[0] * 5 // 4, int(ints[I_POOL]) + need)
            if size >= 2**31:
                raise CorpusError(
                    "too many distinct words for BPE training in one process (over 2**31 word lists)"
                )
            self.pool = _grown(self.pool, size)
        if need > self.gained_slot.shape[0]:
            self._gained(max(self.gained_slot.shape[0] * 3 // 2, need))
        if ints[I_CHARS] + need_chars > self.token_chars.shape[0]:
            size = max(2 * self.token_chars.shape[0], int(ints[I_CHARS]) + need_chars)
            self.token_chars = _grown(self.token_chars, size)
        _return_freed_memory()

    def run(self, max_merges: int, vocab_size: int, min_frequency: int) -> tuple[int, int]:
        """Up to ``max_merges`` merges; ``(result, merges done)``, the merges in :meth:`events`."""
        if self.out_left.shape[0] < max_merges:
            self._events(max_merges)
        self.done = 0
        while True:
            result, done = self.kernels.merge_chunk(
                self.symbols, self.word_start, self.word_len, self.word_count,
                self.token_keys, self.token_ids, self.token_chars, self.token_start, self.token_len, self.prefix,
                self.pair_table, self.pair_left, self.pair_right, self.pair_count,
                self.pair_slot,
                self.entry_pair, self.entry_neg, self.entry_seq, self.entry_start, self.entry_end,
                self.heap, self.pool, self.gained_slot, self.gained_word, self.slot_pair, self.slot_count,
                self.slot_last_word,
                self.ints, vocab_size, min_frequency, max_merges - self.done,
                self.out_left[self.done :], self.out_right[self.done :], self.out_new[self.done :],
                self.out_count[self.done :], self.out_tie[self.done :], self.out_vocab[self.done :],
            )  # fmt: skip
            self.done += done
            if result != GROW:
                return result, self.done
            self._grow()

    def events(self) -> np.ndarray:
        """The last run's merges, one row each: left id, right id, new id, count, tie, vocab size."""
        d = self.done
        return np.stack(
            [self.out_left[:d], self.out_right[:d], self.out_new[:d], self.out_count[:d],
             self.out_tie[:d], self.out_vocab[:d]], axis=1,
        )  # fmt: skip
