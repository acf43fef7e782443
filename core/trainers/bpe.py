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
    words: list[str] = []
    counts: list[int] = []
    total = len(word_counts)
    yield Progress("tokenize words", 0, total)
    for n, (word, count) in enumerate(word_counts.items(), start=1):
        words.append(_word_ids(word, token_to_id, prefix, suffix))
        counts.append(count)
        if n % _PROGRESS_EVERY == 0:
            yield Progress("tokenize words", n, total)
    yield Progress("tokenize words", total, total)

    # -- step 3: pair counts, and the words each pair occurs in -----------------
    pair_counts: dict[str, int] = {}
    where: dict[str, list[int]] = {}
    yield Progress("count pairs", 0, len(words))
    for i, w in enumerate(words):
        if len(w) < 2:
            continue
        n = counts[i]
        for pair in map(str.__add__, w[:-1], w[1:]):
            c = pair_counts.get(pair)
            if c is None:
                pair_counts[pair] = n
                where[pair] = [i]
            else:
                pair_counts[pair] = c + n
                lst = where[pair]
                if lst[-1] != i:
                    lst.append(i)
        if (i + 1) % _PROGRESS_EVERY == 0:
            yield Progress("count pairs", i + 1, len(words))
    yield Progress("count pairs", len(words), len(words))
    seq = 0
    heap = []
    for pair, pos in where.items():
        heap.append((-pair_counts[pair], pair, seq, pos))
        seq += 1
    heapq.heapify(heap)
    where = {}

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
                    k = p + a
                    pair_counts[k] -= n
                    k = p + c
                    pair_counts[k] = pair_counts.get(k, 0) + n
                    lst = where.get(k)
                    if lst is None:
                        where[k] = [iw]
                    elif lst[-1] != iw:
                        lst.append(iw)
                if j < last:
                    q = w[j + 2]
                    k = b + q
                    pair_counts[k] -= n
                    k = c + q
                    pair_counts[k] = pair_counts.get(k, 0) + n
                    lst = where.get(k)
                    if lst is None:
                        where[k] = [iw]
                    elif lst[-1] != iw:
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
        where = {}

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


def _alphabet(word_counts: dict[str, int], limit: int | None, byte_level: bool):
    """Characters of the words (plus all 256 byte symbols for byte-level), sorted by code point.

    With ``limit``, keep the ``limit`` most frequent (the byte symbols count as most frequent).
    """
    yield Progress("alphabet", 0, len(word_counts))
    freq: dict[str, int] = {}
    for word, count in word_counts.items():
        for ch in word:
            freq[ch] = freq.get(ch, 0) + count
    if byte_level:
        huge = 1 << 62
        for ch in BYTE_ALPHABET:
            freq[ch] = huge
    yield Progress("alphabet", len(word_counts), len(word_counts))
    chars = list(freq)
    if limit is not None and len(chars) > limit:
        chars.sort(key=lambda ch: (-freq[ch], ord(ch)))
        chars = chars[:limit]
    return sorted(chars)


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
