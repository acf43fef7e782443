"""BPE trainer: learn merges from pre-token counts, one event per merge.

    >>> model = drain(train_bpe({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    ...                         TrainOptions("bpe", vocab_size=11)))
    >>> model.merges
    [('u', 'g'), ('u', 'n'), ('h', 'ug')]

The loop (its step comments below are the spec):

1. ids: special tokens first, then the alphabet sorted by code point, then the
   alphabet's prefixed/suffixed forms (``##a``, ``a</w>``) sorted by code point,
   then merged tokens in creation order.
2. Each word becomes a string of id code points (``chr(id)``), so a pair is a
   two-character string, ``str.find`` locates it and ``str.replace`` merges it
   left to right without overlaps.
3. Count every adjacent pair (weighted by the word's count) and remember, per
   pair, which words contain it. A min-heap holds ``(-count, pair, seq, words)``.
4. Pop the top. If its count is stale, push it back with the current count.
   Otherwise merge it in the words it lists, update the counts of the pairs
   around each occurrence, and push the pairs that gained occurrences.

**Tie rule**: highest count first; among equal counts the smaller
``(left id, right id)``. A two-character pair string compares exactly like
that id tuple, so the heap needs no extra key.

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

Leaves out: ``max_token_length`` and BPE-dropout.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Generator

from core.bytelevel import BYTE_ALPHABET
from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TrainingStopped
from core.models.bpe import BPE

# Ids are stored as code points, so a vocabulary must fit below the Unicode limit.
MAX_VOCAB_SIZE = 1_000_000
_PROGRESS_EVERY = 50_000  # words between two Progress events during setup


def train_bpe(word_counts: dict[str, int], options) -> Generator[object, None, BPE]:
    """Learn a BPE model from ``{pre-token: count}``; yields Progress, MergeEvent, TrainingStopped."""
    vocab_size = options.vocab_size
    if vocab_size > MAX_VOCAB_SIZE:
        raise ConfigError(f"BPE supports at most {MAX_VOCAB_SIZE:,} tokens, not {vocab_size:,}")
    if options.limit_alphabet is not None and options.limit_alphabet < 0:
        raise ConfigError("the alphabet limit cannot be negative")
    if any(c <= 0 for c in word_counts.values()):  # zero or negative counts: not in the corpus
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
    alphabet = yield from _alphabet(word_counts, options.limit_alphabet, options.byte_level)
    for c in alphabet:
        add(c)
    if prefix or suffix:
        for form in sorted(_affixed_forms(word_counts, token_to_id, prefix, suffix)):
            add(form)

    # -- step 2: words as strings of id code points -----------------------------
    total = len(word_counts)
    yield Progress("tokenize words", 0, total)
    counts: list[int] = list(word_counts.values())
    if prefix or suffix:
        words: list[str] = []
        for n, word in enumerate(word_counts, start=1):
            words.append(_word_ids(word, token_to_id, prefix, suffix))
            if n % _PROGRESS_EVERY == 0:
                yield Progress("tokenize words", n, total)
    else:
        words = _all_word_ids(word_counts, alphabet, token_to_id)
    yield Progress("tokenize words", total, total)

    # -- step 3: pair counts, and the words each pair occurs in -----------------
    yield Progress("count pairs", 0, len(words))
    pair_counts, heap, word_index = _count_pairs(words, counts)
    yield Progress("count pairs", len(words), len(words))
    seq = len(heap)
    # subtle: from here on `where` only collects the words where a pair gained occurrences
    # during one merge; a defaultdict (like pair_counts) saves a method call per update.
    where = defaultdict(list)

    # -- step 4: merge until the vocabulary is big enough -----------------------
    merges: list[tuple[str, str]] = []
    step = 0
    reason = None
    while True:
        if len(id_to_token) >= vocab_size:
            reason = "reached the requested vocabulary size"
            break
        if not heap:
            reason = "no pairs left to merge: every word is a single token"
            break
        negcount, pair, _, pos = top = heapq.heappop(heap)
        count = pair_counts[pair]
        if -negcount != count:  # stale: push back with the current count (lazy invalidation)
            heapq.heappush(heap, (-count, pair, top[2], pos))
            continue
        if count < 1:
            reason = "no pairs left to merge: every word is a single token"
            break
        if type(pos) is tuple:  # an initial entry: its words are a slice of word_index
            pos = word_index[pos[0] : pos[1]].tolist()
        if count < min_frequency:
            reason = f"no pair occurs at least {min_frequency} times (the minimum frequency)"
            break

        # 4a. the new token: left + right (right without its continuing-subword prefix)
        a, b = pair
        left, right = id_to_token[ord(a)], id_to_token[ord(b)]
        piece = right[len(prefix) :] if prefix and right.startswith(prefix) else right
        new_token = left + piece
        c = chr(add(new_token))
        merges.append((left, right))

        # 4b. merge in every listed word; each occurrence retires the pairs around it
        # and creates pairs with the new token (exactly tokenizers' Word::merge changes).
        for iw in pos:
            w = words[iw]
            j = w.find(pair)
            if j < 0:
                continue
            n = counts[iw]
            last = len(w) - 2
            prev_end = -1
            while j >= 0:
                if j > 0:
                    p = c if prev_end == j else w[j - 1]
                    pair_counts[p + a] -= n
                    k = p + c
                    pair_counts[k] += n
                    lst = where[k]
                    if not lst or lst[-1] != iw:
                        lst.append(iw)
                if j < last:
                    q = w[j + 2]
                    pair_counts[b + q] -= n
                    k = c + q
                    pair_counts[k] += n
                    lst = where[k]
                    if not lst or lst[-1] != iw:
                        lst.append(iw)
                prev_end = j + 2
                j = w.find(pair, prev_end)
            words[iw] = w.replace(pair, c)

        # 4c. push every pair that gained occurrences, with its current count
        for k, lst in where.items():
            kc = pair_counts[k]
            if kc > 0:
                heapq.heappush(heap, (-kc, k, seq, lst))
                seq += 1
        where.clear()

        step += 1
        yield MergeEvent(
            step,
            left,
            right,
            new_token,
            count,
            len(id_to_token),
            float(count),
            _has_tie(heap, count, pair_counts),
        )

    if reason == "reached the requested vocabulary size" and step == 0:
        reason = (
            f"the special tokens and alphabet ({len(id_to_token)} symbols) already fill "
            f"the requested vocabulary of {vocab_size}"
        )
    yield TrainingStopped(reason, len(id_to_token), vocab_size)

    return BPE(
        dict(token_to_id),
        merges,
        unk_token=options.unk_token,
        continuing_subword_prefix=prefix,
        end_of_word_suffix=suffix,
    )


def _count_pairs(words: list[str], counts: list[int]):
    """Step 3 with numpy: ``(pair_counts, heap, word_index)`` for words as id strings.

    ``pair_counts`` maps each adjacent pair (a two-character string) to its count,
    weighted by the words' counts; ``heap`` holds ``(-count, pair, seq, (start, stop))``
    for every pair, where ``word_index[start:stop]`` are the words it occurs in, in
    increasing order, once each. For ``["ab", "abab"]`` with counts ``[1, 2]``:
    ``pair_counts == {"ab": 5, "ba": 2}`` and ``"ab"`` occurs in words ``[0, 1]``.

    Why numpy: a Python loop over the ~5 million pairs of a 20 MB corpus took ~3 s;
    sorting their codes does the counting and the grouping in a few C passes, and the
    word lists stay one array until their pair is merged (few of them ever are).
    """
    import numpy as np

    n_words = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n_words)
    codes = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
        np.int64
    )
    word_of = np.repeat(np.arange(n_words, dtype=np.int32), lengths)
    inside = word_of[:-1] == word_of[1:]  # pairs that do not straddle two words
    pair_code = ((codes[:-1] << 21) | codes[1:])[inside]  # ids < 2**20 (MAX_VOCAB_SIZE)
    pair_word = word_of[:-1][inside]
    del codes, word_of, inside
    order = np.lexsort((pair_word, pair_code))  # by pair, then by word
    pair_code = pair_code[order]
    pair_word = pair_word[order]
    del order
    weight = np.asarray(counts, dtype=np.int64)[pair_word]
    if len(pair_code) == 0:
        return defaultdict(int), [], np.zeros(0, dtype=np.int32)
    new_pair = np.empty(len(pair_code), dtype=bool)
    new_pair[0] = True
    np.not_equal(pair_code[1:], pair_code[:-1], out=new_pair[1:])
    starts = np.flatnonzero(new_pair)
    totals = np.add.reduceat(weight, starts)
    del weight
    # Each word once per pair: drop repeats of (pair, word), then find each pair's slice.
    first_in_word = new_pair
    first_in_word[1:] |= pair_word[1:] != pair_word[:-1]
    pair_code = pair_code[first_in_word]
    word_index = pair_word[first_in_word]
    del pair_word, first_in_word
    bounds = np.flatnonzero(np.concatenate(([True], pair_code[1:] != pair_code[:-1]), axis=None))
    code_list = pair_code[bounds].tolist()
    keys = [chr(c >> 21) + chr(c & 0x1FFFFF) for c in code_list]
    total_list = totals.tolist()
    pair_counts: defaultdict[str, int] = defaultdict(int, zip(keys, total_list))
    ends = bounds[1:].tolist() + [len(word_index)]
    heap = list(zip([-t for t in total_list], keys, range(len(keys)), zip(bounds.tolist(), ends)))
    heapq.heapify(heap)
    return pair_counts, heap, word_index


def _alphabet(word_counts: dict[str, int], limit: int | None, byte_level: bool):
    """Characters of the words (plus all 256 byte symbols for byte-level), sorted by code point.

    With ``limit``, keep the ``limit`` most frequent (the byte symbols count as most frequent).
    ``_alphabet({"hug": 10, "pug": 5}, 2, False)`` gives ``["g", "u"]`` (after draining).
    """
    yield Progress("alphabet", 0, len(word_counts))
    if limit is None:
        # Without a limit only the set matters: one pass in C over all the text.
        chars = set("".join(word_counts))
        if byte_level:
            chars.update(BYTE_ALPHABET)
        yield Progress("alphabet", len(word_counts), len(word_counts))
        return sorted(chars)
    freq = _char_frequencies(word_counts)
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


def _all_word_ids(word_counts: dict[str, int], alphabet: list[str], token_to_id: dict[str, int]) -> list[str]:
    """Every word as a string of id code points, in one ``str.translate`` call.

    ``_all_word_ids({"hug": 1, "gu": 2}, ["g", "h", "u"], {"g": 0, "h": 1, "u": 2})``
    gives ``["\\x01\\x02\\x00", "\\x00\\x02"]``. Characters outside the alphabet are dropped.

    subtle: the words are joined with a separator that is neither a word character
    nor an id (ids stay below ``MAX_VOCAB_SIZE``), then translated and split again.
    """
    table: dict[int, int | None] = {ord(ch): token_to_id[ch] for ch in alphabet}
    joined = "".join(word_counts)
    present = set(joined)
    for ch in present.difference(alphabet):
        table[ord(ch)] = None
    sep = chr(0x10FFFF)
    while sep in present:
        sep = chr(ord(sep) - 1)
    if ord(sep) < MAX_VOCAB_SIZE:  # pragma: no cover - every code point above a million is used
        return [_word_ids(w, token_to_id, None, None) for w in word_counts]
    return sep.join(word_counts).translate(table).split(sep)


def _affixed_forms(word_counts, token_to_id, prefix, suffix) -> set[str]:
    """The ``##c`` / ``c</w>`` / ``##c</w>`` forms the words need (alphabet characters only)."""
    forms: set[str] = set()
    for word in word_counts:
        for s in _symbols(word, token_to_id, prefix, suffix):
            if s not in token_to_id:
                forms.add(s)
    return forms


def _symbols(word: str, token_to_id: dict[str, int], prefix: str | None, suffix: str | None) -> list[str]:
    """Initial symbols of a word: ``"hug"`` -> ``["h", "##u", "##g</w>"]``.

    subtle: as in `tokenizers`, "first" and "last" refer to the word's own characters,
    so a last character outside the alphabet takes the suffix away with it.
    """
    last = len(word) - 1
    out = []
    for i, ch in enumerate(word):
        if ch not in token_to_id:
            continue
        s = prefix + ch if prefix and i > 0 else ch
        if suffix and i == last:
            s += suffix
        out.append(s)
    return out


def _word_ids(word: str, token_to_id: dict[str, int], prefix: str | None, suffix: str | None) -> str:
    """A word as a string of id code points; characters outside the alphabet are dropped."""
    if not prefix and not suffix:
        return "".join([chr(token_to_id[ch]) for ch in word if ch in token_to_id])
    return "".join([chr(token_to_id[s]) for s in _symbols(word, token_to_id, prefix, suffix)])


def _has_tie(heap: list, count: int, pair_counts: dict[str, int]) -> bool:
    """Does another pair have ``count`` right now? Looks only at heap entries keyed ``count``."""
    stack = [0]
    seen = 0
    while stack and seen < 64:
        i = stack.pop()
        if i >= len(heap) or heap[i][0] != -count:
            continue
        seen += 1
        if pair_counts[heap[i][1]] == count:
            return True
        stack.extend((2 * i + 1, 2 * i + 2))
    return False
