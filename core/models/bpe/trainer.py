"""BPE trainer: learn merges from pre-token counts, one event per merge.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> model = drain(train_bpe({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    ...                         TrainOptions("bpe", vocab_size=11)))
    >>> model.merges
    [('u', 'g'), ('u', 'n'), ('h', 'ug')]

The loop (its step comments below are the spec):

1. ids: special tokens first, then the alphabet sorted by code point, then the
   alphabet's prefixed/suffixed forms (``##a``, ``a</w>``) sorted by code point,
   then merged tokens in creation order.
2. Each word becomes a run of ids in one flat array (``symbols``, with every
   word's length and count beside it).
3. Count every adjacent pair (weighted by the word's count) and remember, per
   pair, which words contain it. A min-heap holds ``(-count, left, right, seq, words)``.
4. Pop the top. If its count is stale, push it back with the current count.
   Otherwise merge it in the words it lists (left to right, without overlaps),
   update the counts of the pairs around each occurrence, and push the pairs that
   gained occurrences, each with the words where it gained them.

Steps 3 and 4 are compiled loops over numpy arrays (``core/models/bpe/train_kernels.py``,
numba, compiled ahead of time when ``python -m core.build`` has built them); they run a chunk of
merges at a time and this generator yields one :class:`MergeEvent` per merge between chunks, so a
caller can watch and cancel. A small job (``PLAIN_LIBRARY_MAX_SYMBOLS``) never imports numpy: it
runs the same kernels from their plain shared library on ``array.array`` buffers, or where that
is not built (``PYTHON_LOOP_MAX_SYMBOLS``) steps 2 to 4 in plain Python
(``core/models/bpe/reference.py``, the same loop on strings of ids), yielding as it merges.

**Tie rule**: highest count first; among equal counts the smaller
``(left id, right id)``.

**Parity with Hugging Face** ``tokenizers`` (``BpeTrainer``): the steps above
are its algorithm, including two quirks we reproduce on purpose so merge lists
come out identical: the merged pair's own count is not zeroed (only the
overlapping ``a a a`` case lowers it), and a heap entry only carries the words
where its pair gained occurrences since the previous push, so a pair that gains
occurrences later (when another merge re-creates an existing token) can be
merged a second time; such a merge adds no token. (Both only matter when a
token can be built by two different merges; we have not met that on real
corpora, where the parity tests find the lists identical.) ``tokenizers`` drops
alphabet characters beyond ``limit_alphabet`` from the words (their neighbours
become adjacent); so do we. Where ``tokenizers`` is not deterministic we are:
``limit_alphabet`` keeps the most frequent characters, the smaller code point
winning a tie; prefixed/suffixed forms get ids in code-point order.

``vocab_size`` counts special tokens and the alphabet, as in ``tokenizers``.

Leaves out: ``max_token_length``. (BPE-dropout is an encoding option: ``core/models/bpe/model.py``.)
"""

from __future__ import annotations

import time
from collections.abc import Generator

from core.bytelevel import BYTE_ALPHABET
from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TrainingStopped
from core.models.bpe.model import BPE
from core.models.bpe.reference import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_VOCAB

# A limit users already know (ids were once stored as code points); int32 ids would allow more.
MAX_VOCAB_SIZE = 1_000_000
# Words of at most this many characters in all (distinct words, each once) merge in the plain
# shared library of the compiled kernels (no numpy: core.jit's PLAIN_LIBRARIES), where
# ``python -m core.build`` could build it; larger ones on the same kernels over numpy arrays.
# `bench_bpe_train.py --each-loop`, BPE, CPU of the whole job, plain / numpy: en-botchan.txt 8k
# (40k characters) 0.12 / 0.25 s; ja-wagahaiwa.txt 8k (305k) 0.34 / 0.41 s; the first 1/8 of
# ko-movie-reviews.txt at 16k (412k) 0.56 / 0.61 s, 1/4 (726k) 0.93 / 0.88 s, 1/2 (1.13M) 1.47 / 1.29 s.
PLAIN_LIBRARY_MAX_SYMBOLS = 500_000
PLAIN_LIBRARY = True  # (tests turn it off to reach the Python loop)
# Where that library is not built (no C compiler), words of at most this many characters merge in
# plain Python (core/models/bpe/reference.py) instead. `--each-loop` on en-botchan.txt at 8k: the
# Python loop ~0.18 s CPU for the whole job, the compiled one ~0.25 s (its numpy import); at 100k
# characters of Japanese the Python loop takes twice the compiled one's time.
PYTHON_LOOP_MAX_SYMBOLS = 60_000
# Merges per compiled call, at most: each call's events are held in memory until yielded.
_MAX_CHUNK = 2048


def train_bpe(word_counts: dict[str, int], options) -> Generator[object, None, BPE]:
    """Learn a BPE model from ``{pre-token: count}``; yields Progress, MergeEvent, TrainingStopped."""
    vocab, merges = yield from learn_merges(word_counts, options)
    return BPE(
        vocab,
        merges,
        unk_token=options.unk_token,
        continuing_subword_prefix=options.continuing_subword_prefix or None,
        end_of_word_suffix=options.end_of_word_suffix or None,
    )


def learn_merges(
    word_counts: dict[str, int], options
) -> Generator[object, None, tuple[dict[str, int], list[tuple[str, str]]]]:
    """:func:`train_bpe`'s events, and ``(vocabulary, merges)`` instead of the model.

    The WordPiece trainer keeps the vocabulary only: it need not build a BPE model's rank tables.
    """
    vocab_size = options.vocab_size
    if vocab_size > MAX_VOCAB_SIZE:
        raise ConfigError(f"BPE supports at most {MAX_VOCAB_SIZE:,} tokens, not {vocab_size:,}")
    if options.limit_alphabet is not None and options.limit_alphabet < 0:
        raise ConfigError("the alphabet limit cannot be negative")
    if word_counts and min(word_counts.values()) <= 0:  # zero or negative counts: not in the corpus
        word_counts = {w: c for w, c in word_counts.items() if c > 0}
    if not word_counts:
        raise CorpusError("nothing to train on: no words were counted")
    prefix = options.continuing_subword_prefix or None
    suffix = options.end_of_word_suffix or None
    min_frequency = options.min_frequency

    # -- step 1: ids for special tokens, then the alphabet ----------------------
    id_to_token: list[str] = []
    token_to_id: dict[str, int] = {}

    def add(token: str) -> int:
        i = token_to_id.get(token)
        if i is None:
            i = token_to_id[token] = len(id_to_token)
            id_to_token.append(token)
        return i

    for t in options.special_tokens or []:
        add(t)
    # A small job (a short novel) never imports numpy: ~0.05 s of CPU, half of what `tokenizers`
    # spends on all of it. It merges in the plain library, or in plain Python without it.
    n_symbols = sum(map(len, word_counts))
    plain = _plain_kernels() if n_symbols <= PLAIN_LIBRARY_MAX_SYMBOLS else None
    small = plain is not None or n_symbols <= PYTHON_LOOP_MAX_SYMBOLS
    if small:
        joined = "".join(word_counts)
        chars = sorted(set(joined))
    else:
        import numpy as np  # here, not at the top: `import core` stays light

        # Every character position once, as (distinct character, form) keys; the distinct
        # characters are also the whole alphabet when it is not limited.
        chars, keys, lengths = _symbol_keys(word_counts, prefix, suffix)
    alphabet = yield from _alphabet(word_counts, options.limit_alphabet, options.byte_level, chars, small)
    # WordPiece parity tests replay tokenizers' own (hash-order) numbering of the alphabet.
    rank = {t: i for i, t in enumerate(options.extra.get("alphabet_order") or ())}
    for c in sorted(alphabet, key=lambda t: rank.get(t, len(rank))) if rank else alphabet:
        add(c)
    if not small:
        # (character, form) combinations that occur, in key order (a presence table: O(n), no sort)
        occurs = np.zeros(4 * len(chars), dtype=bool)
        occurs[keys] = True
        needed = np.flatnonzero(occurs).tolist()
        del occurs
    if prefix or suffix:
        if small:
            from core.models.bpe.reference import forms_needed

            needed_forms = forms_needed(word_counts, prefix, suffix)
        else:
            needed_forms = {(chars[k >> 2], k & 3) for k in needed}
        forms = {_form(ch, form, prefix, suffix) for ch, form in needed_forms if ch in token_to_id}
        for form in sorted(sorted(forms.difference(token_to_id)), key=lambda t: rank.get(t, len(rank))):
            add(form)

    # -- step 2: words as arrays of ids -----------------------------------------
    total = len(word_counts)
    yield Progress("tokenize words", 0, total)
    # subtle: with a prefix or suffix a one-character special token counts as a known
    # character (as it did in the per-word loop this replaces); without, the alphabet alone.
    known = token_to_id if prefix or suffix else set(alphabet)
    merges: list[tuple[str, str]] = []
    if plain is not None:  # steps 2 to 4 compiled, on array.array buffers (no numpy)
        from core.models.bpe.flat_arrays import PlainArrays

        xp = PlainArrays()
        symbols, word_len = _plain_words(word_counts, joined, chars, token_to_id, known, prefix, suffix, xp)
        del joined
        yield Progress("tokenize words", total, total)
        counts = xp.of(word_counts.values(), "int64")
        result = yield from _merge_compiled(
            symbols, word_len, counts, id_to_token, token_to_id, options, merges, kernels=plain, arrays=xp
        )
        del symbols, word_len, counts
    elif small:
        from core.models.bpe import reference

        del joined
        words = reference.word_ids(list(word_counts), token_to_id, known, prefix, suffix)
        yield Progress("tokenize words", total, total)
        # steps 3 and 4 in plain Python
        yield Progress("count pairs", 0, total)
        result = yield from reference.merge(
            words, list(word_counts.values()), id_to_token, token_to_id, prefix or "", vocab_size,
            min_frequency, merges,
        )  # fmt: skip
        del words
    else:
        lookup = np.full(4 * len(chars), -1, dtype=np.int32)
        for k in needed:
            if chars[k >> 2] in known:
                lookup[k] = token_to_id[_form(chars[k >> 2], k & 3, prefix, suffix)]
        ids = lookup[keys]
        del keys
        kept = ids >= 0
        symbols = ids[kept]
        word_len = np.bincount(
            np.repeat(np.arange(total, dtype=np.int32), lengths)[kept], minlength=total
        ).astype(np.int32)
        del ids, kept, lengths
        counts = np.fromiter(word_counts.values(), dtype=np.int64, count=total)
        yield Progress("tokenize words", total, total)
        result = yield from _merge_compiled(
            symbols, word_len, counts, id_to_token, token_to_id, options, merges
        )
        del symbols, word_len, counts
    if result == STOP_VOCAB:
        reason = "reached the requested vocabulary size"
    elif result == STOP_MIN_FREQUENCY:
        reason = f"no pair occurs at least {min_frequency} times (the minimum frequency)"
    else:
        reason = "no pairs left to merge: every word is a single token"

    if reason == "reached the requested vocabulary size" and not merges:
        reason = (
            f"the special tokens and alphabet ({len(id_to_token):,} symbols) already fill "
            f"the requested vocabulary of {vocab_size:,}"
        )
    yield TrainingStopped(reason, len(id_to_token), vocab_size)
    return token_to_id, merges


def _plain_words(word_counts: dict[str, int], joined: str, chars: list[str], token_to_id: dict[str, int],
                 known, prefix: str | None, suffix: str | None, xp):  # fmt: skip
    """Step 2 for the plain library: every word's ids one after the other (int32) and each word's
    length, as ``array.array`` buffers. ``joined`` is all the words one after the other and
    ``chars`` their distinct characters.

    Without affixes one ``str.translate`` of ``joined`` gives every id as a character at once
    (the words keep their lengths unless a character outside the alphabet is dropped);
    otherwise, and then, through ``reference.word_ids`` (two translates with one affix, else a
    loop over the words).
    """
    if not prefix and not suffix:
        ids = joined.translate({ord(ch): chr(token_to_id[ch]) if ch in known else None for ch in chars})
        if len(ids) == len(joined):
            return xp.codes([ids])[0], xp.of(map(len, word_counts), "int32")
    from core.models.bpe.reference import word_ids

    words = word_ids(list(word_counts), token_to_id, known, prefix, suffix)
    return xp.codes(words)[0], xp.of(map(len, words), "int32")


def _plain_kernels():
    """The merge loop's plain shared library (``core.jit.PlainKernels``) if small jobs may use it
    and it is built, else ``None`` (they merge in plain Python)."""
    if not PLAIN_LIBRARY:
        return None
    from core.models.bpe.merge_loop import plain_merge_kernels

    return plain_merge_kernels()


def _merge_compiled(symbols, word_len, counts, id_to_token: list[str], token_to_id: dict[str, int], options,
                    merges: list, kernels=None, arrays=None):  # fmt: skip
    """Steps 3 and 4 compiled: yields Progress and one MergeEvent per merge, appends to ``merges``;
    returns why it stopped (a ``STOP_*``).

    core/models/bpe/train_kernels.py keeps the words, pair counts, word lists and heap in flat
    arrays; merge_loop.py picks the build, ahead of time or JIT, unless ``kernels`` (and the
    ``arrays`` they take) are given.
    """
    from core.models.bpe import merge_loop as merging
    from core.models.bpe import signatures  # the kernels' result codes

    prefix = options.continuing_subword_prefix or ""
    vocab_size, min_frequency = options.vocab_size, options.min_frequency
    total = len(word_len)
    yield Progress("count pairs", 0, total)
    state = merging.MergeState.build(
        symbols, word_len, counts, id_to_token, prefix, vocab_size, kernels, arrays
    )
    del symbols, word_len, counts  # the state holds them now
    yield Progress("count pairs", total, total)

    # Chunks of merges between yields: long enough that the call costs nothing, short enough
    # (about 50 ms) that the explorer's merge log moves and a cancel is honoured promptly.
    step = 0
    chunk = 16
    while True:
        started = time.perf_counter()
        result, done = state.run(chunk, vocab_size, min_frequency)
        elapsed = time.perf_counter() - started
        for left_id, right_id, new_id, count, tie, size in state.events():
            # 4a. the new token: left + right (right without its continuing-subword prefix)
            left, right = id_to_token[left_id], id_to_token[right_id]
            piece = right[len(prefix) :] if prefix and right.startswith(prefix) else right
            new_token = left + piece
            if new_id == len(id_to_token):  # else the merge re-created an existing token
                token_to_id[new_token] = new_id
                id_to_token.append(new_token)
            merges.append((left, right))
            step += 1
            yield MergeEvent(step, left, right, new_token, count, size, float(count), bool(tie))
        if result != signatures.CHUNK_DONE:
            break
        if elapsed < 0.025 and chunk < _MAX_CHUNK:
            chunk *= 2
        elif elapsed > 0.1 and chunk > 1:
            chunk //= 2
    # (returning drops the state before the model is built: its arrays are the biggest thing we hold)
    return {signatures.STOP_VOCAB: STOP_VOCAB, signatures.STOP_MIN_FREQUENCY: STOP_MIN_FREQUENCY}.get(
        result, STOP_NO_PAIRS
    )


def _alphabet(word_counts: dict[str, int], limit: int | None, byte_level: bool, present: list[str],
              small: bool = False):  # fmt: skip
    """Characters of the words (plus all 256 byte symbols for byte-level), sorted by code point.

    ``present`` are the words' distinct characters (``_symbol_keys`` found them). With ``limit``,
    keep the ``limit`` most frequent (the byte symbols count as most frequent).
    ``_alphabet({"hug": 10, "pug": 5}, 2, False, ["g", "h", "p", "u"])`` gives ``["g", "u"]``
    (after draining).
    """
    yield Progress("alphabet", 0, len(word_counts))
    if limit is None:
        # Without a limit only the set matters, and counting the words' characters found it.
        chars = set(present)
        if byte_level:
            chars.update(BYTE_ALPHABET)
        yield Progress("alphabet", len(word_counts), len(word_counts))
        return sorted(chars)
    freq = _char_frequencies_in_python(word_counts) if small else _char_frequencies(word_counts)
    if byte_level:
        huge = 1 << 62
        for ch in BYTE_ALPHABET:
            freq[ch] = huge
    yield Progress("alphabet", len(word_counts), len(word_counts))
    chars = list(freq)
    if len(chars) > limit:
        chars.sort(key=lambda ch: (-freq[ch], ord(ch)))
        chars = chars[:limit]
    return sorted(chars)


def _char_frequencies_in_python(word_counts: dict[str, int]) -> dict[str, int]:
    """:func:`_char_frequencies` for a small job, without numpy (each distinct character of a word
    counted with ``str.count``, in C)."""
    freq: dict[str, int] = {}
    for word, n in word_counts.items():
        for ch in set(word):
            freq[ch] = freq.get(ch, 0) + word.count(ch) * n
    return freq


def _char_frequencies(word_counts: dict[str, int]) -> dict[str, int]:
    """``{character: occurrences}``, each word weighted by its count.

    ``_char_frequencies({"hug": 10, "pug": 5}) == {"h": 10, "u": 15, "g": 15, "p": 5}``.
    numpy histograms the code points of all words at once (weights: each word's count
    repeated over its characters); a Python loop over every character costs ~1 s per
    million words.
    """
    import numpy as np

    text = "".join(word_counts)
    if not text:
        return {}
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    lengths = np.fromiter(map(len, word_counts), dtype=np.int64, count=len(word_counts))
    weights = np.repeat(np.fromiter(word_counts.values(), dtype=np.int64, count=len(word_counts)), lengths)
    uniq, inverse = np.unique(codes, return_inverse=True)
    # subtle: bincount sums weights as float64; exact while a character occurs fewer than 2**53 times.
    sums = np.bincount(inverse, weights=weights, minlength=len(uniq))
    return {chr(c): int(n) for c, n in zip(uniq.tolist(), sums.tolist())}


def _symbol_keys(word_counts: dict[str, int], prefix: str | None, suffix: str | None):
    """``(chars, keys, lengths)``: every character of every word as ``4 * char index + form``.

    ``chars`` are the distinct characters (sorted); the form (``key & 3``) says which
    affixes the position takes: 1 the continuing-subword prefix (not the word's first
    character), 2 the end-of-word suffix (its last), 0 none. ``lengths`` are the words'
    lengths. ``_symbol_keys({"hug": 1, "gu": 2}, "##", None)`` gives ``chars ["g", "h", "u"]``,
    ``keys [4, 9, 1, 0, 9]`` (h, ##u, ##g, g, ##u) and ``lengths [3, 2]``.

    subtle: as in `tokenizers`, "first" and "last" refer to the word's own characters,
    so a last character outside the alphabet takes the suffix away with it.
    """
    import numpy as np

    lengths = np.fromiter(map(len, word_counts), dtype=np.int64, count=len(word_counts))
    codes = np.frombuffer("".join(word_counts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # The distinct characters and each position's index among them, in O(n) with a lookup
    # table over code points (np.unique would sort all the text).
    present = np.zeros(int(codes.max(initial=0)) + 1, dtype=bool)
    present[codes] = True
    uniq = np.flatnonzero(present)
    index = np.cumsum(present, dtype=np.int64) - 1
    keys = index[codes] << 2
    del present, index
    ends = np.cumsum(lengths)[lengths > 0]
    if prefix:
        keys |= 1
        keys[(ends - lengths[lengths > 0])] &= ~1
    if suffix:
        keys[ends - 1] |= 2
    return [chr(c) for c in uniq.tolist()], keys, lengths


def _form(ch: str, form: int, prefix: str | None, suffix: str | None) -> str:
    """A character in the form ``_symbol_keys`` numbers: ``_form("u", 3, "##", "</w>") == "##u</w>"``."""
    return (prefix if form & 1 and prefix else "") + ch + (suffix if form & 2 and suffix else "")
