"""PickyBPE training: BPE that removes intermediate tokens as it goes.

Chizhov, Arnett, Korotkova and Yamshchikov, "BPE Gets Picky: Efficient Vocabulary Refinement
During Tokenizer Training" (EMNLP 2024); reference code ``pchizhov/picky_bpe`` (``bpe_trainer.py``).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> model = drain(train_picky_bpe({"ould": 20, "would": 10, "could": 10},
    ...                               TrainOptions("picky-bpe", vocab_size=10, extra={"tau": 0.9})))
    >>> model.merges, model.removed_tokens()      # ou and ld live only inside ould: removed
    ([('l', 'd'), ('o', 'u'), ('ou', 'ld'), ('c', 'ould'), ('w', 'ould')], ['ld', 'ou'])

A token such as ``ould`` exists only to build ``would`` and ``could``; once almost all of its
occurrences sit inside a merge it is removed. The loop (its step comments below are the spec;
where the paper and the reference differ it follows the reference, and says so):

1. ids as the BPE trainer's: special tokens, the alphabet by code point, merged tokens in
   creation order. Every word is a string of ids (``chr(id)``), as in ``reference.py``.
2. Count every adjacent pair (weighted by the word's count) and every token; remember the words
   each pair and each merged token may occur in. A heap keyed ``(-count, left id, right id)``
   with lazy invalidation finds the most frequent pair.
3. Take the most frequent pair; among equal counts the smaller ``(left id, right id)`` (the BPE
   trainer's tie rule; the reference takes the first of its ``Counter``, an accident of order).
4. Merge it in every word, left to right without overlaps; ``n`` occurrences merged: the new
   token's count grows by ``n``, each part's falls by ``n``. A merge that makes a token removed
   earlier brings it back (the reference's ``restore``).
5. For the left part, then the right: ``IoS = n / count before the merge``. If ``IoS > τ`` and
   the part was made by a merge (characters stay), remove it: each occurrence becomes the
   tokens it was made of (the parts of its first merge, each removed one replaced by its own
   parts), which gain its count; a :class:`~core.events.TokenRemoved` follows the merge's
   :class:`~core.events.MergeEvent`. subtle: strictly greater, as the reference's ``>``: the
   paper's figure 2 says "greater or equal", but with ``>`` τ = 1 is plain BPE, as the paper
   says. subtle: for a pair of one token twice (``a a``) the reference divides by the count
   after the merge plus ``n`` (its count before, less ``n``); so do we.
6. Stop when the vocabulary (special tokens, alphabet, merged tokens present) reaches the size
   asked for, when no pair is left, or when the best pair occurs fewer than ``min_frequency``
   times. A removal frees a place, so PickyBPE makes more merges than BPE for the same size.

Per step only the words holding the merged pair or a removed token are rewritten, and their
pairs counted again (one ``Counter`` each, in C).

Leaves out: a continuing-subword prefix and an end-of-word suffix (the reference has none),
the compiled kernels (this loop is plain Python), and the reference's character coverage
(``--limit-alphabet`` drops characters as for BPE). Where the reference counts a merge that
re-makes a present token as a new one (its vocabulary counter then runs ahead of its
vocabulary), we count the tokens present.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Generator
from operator import add

from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TokenRemoved, TrainingStopped
from core.models.bpe.picky_model import PickyBPE
from core.options import picky_tau

_ID_BITS = 21  # ids below 0x110000 (they are characters)
_ID_MASK = (1 << _ID_BITS) - 1
_COUNT_SHIFT = 2 * _ID_BITS
_TIE_LOOK = 64  # heap entries the tie check looks at, at most (as the BPE trainer's)


def train_picky_bpe(word_counts: dict[str, int], options) -> Generator[object, None, PickyBPE]:
    """Learn a PickyBPE model; yields Progress, MergeEvent, TokenRemoved, TrainingStopped."""
    from core.models.bpe.trainer import MAX_VOCAB_SIZE, _alphabet

    tau = picky_tau(options.extra)
    if options.continuing_subword_prefix or options.end_of_word_suffix:
        raise ConfigError(
            "PickyBPE takes no continuing-subword prefix or end-of-word suffix (its reference has none)"
        )
    vocab_size = options.vocab_size
    if vocab_size > MAX_VOCAB_SIZE:
        raise ConfigError(f"BPE supports at most {MAX_VOCAB_SIZE:,} tokens, not {vocab_size:,}")
    if options.limit_alphabet is not None and options.limit_alphabet < 0:
        raise ConfigError("the alphabet limit cannot be negative")
    word_counts = {w: c for w, c in word_counts.items() if c > 0 and w}
    if not word_counts:
        raise CorpusError("nothing to train on: no words were counted")

    # -- step 1: ids for special tokens, then the alphabet
    id_to_token: list[str] = []
    token_to_id: dict[str, int] = {}
    for t in options.special_tokens or []:
        if t not in token_to_id:
            token_to_id[t] = len(id_to_token)
            id_to_token.append(t)
    chars = sorted(set("".join(word_counts)))
    alphabet = yield from _alphabet(word_counts, options.limit_alphabet, options.byte_level, chars, True)
    for c in alphabet:
        if c not in token_to_id:
            token_to_id[c] = len(id_to_token)
            id_to_token.append(c)
    n_base = len(id_to_token)

    total = len(word_counts)
    yield Progress("tokenize words", 0, total)
    known = set(alphabet)
    table = {ord(ch): chr(token_to_id[ch]) if ch in known else None for ch in chars}
    words = [w.translate(table) for w in word_counts]
    counts = list(word_counts.values())
    yield Progress("tokenize words", total, total)

    loop = _Loop(words, counts, id_to_token, token_to_id, n_base, tau)
    yield Progress("count pairs", 0, total)
    loop.count()
    yield Progress("count pairs", total, total)
    merges: list[tuple[str, str]] = []
    removals: list[tuple[int, str]] = []
    reason = yield from loop.run(vocab_size, options.min_frequency, merges, removals)
    if reason is None:
        reason = "reached the requested vocabulary size"
        if not merges:
            reason = (
                f"the special tokens and alphabet ({loop.size:,} symbols) already fill "
                f"the requested vocabulary of {vocab_size:,}"
            )
    yield TrainingStopped(reason, loop.size, vocab_size)
    present = [t for i, t in enumerate(id_to_token) if loop.present[i]]
    return PickyBPE(
        {t: i for i, t in enumerate(present)}, merges, removals, unk_token=options.unk_token, tau=tau
    )


class _Loop:
    """Steps 2 to 6 on the words (strings of id characters) and their counts."""

    def __init__(self, words: list[str], counts: list[int], id_to_token: list[str],
                 token_to_id: dict[str, int], n_base: int, tau: float) -> None:  # fmt: skip
        self.words, self.counts = words, counts
        self.id_to_token, self.token_to_id = id_to_token, token_to_id
        self.n_base, self.tau = n_base, tau
        self.present = [True] * n_base
        self.size = n_base  # tokens present
        self.freq = [0] * n_base  # each token's occurrences in the words as they are now
        self.parts: dict[int, tuple[int, int]] = {}  # merged token -> the parts of its first merge
        self.pair_counts: defaultdict[str, int] = defaultdict(int)
        # words a pair / a merged token may occur in (every word holding it is listed; some
        # listed ones no longer hold it): a pair's list is emptied when it is merged everywhere
        self.pair_words: defaultdict[str, list[int]] = defaultdict(list)
        self.token_words: defaultdict[int, list[int]] = defaultdict(list)
        self.heap: list[int] = []
        self.gained: set[str] = set()  # pairs whose count grew during this step

    # -- step 2
    def count(self) -> None:
        freq, pair_counts, pair_words = self.freq, self.pair_counts, self.pair_words
        for iw, w in enumerate(self.words):
            n = self.counts[iw]
            for ch, m in Counter(w).items():
                freq[ord(ch)] += m * n
            if len(w) > 1:
                for k, m in Counter(map(add, w, w[1:])).items():
                    pair_counts[k] += m * n
                    pair_words[k].append(iw)
        self.heap = [_key(c, k) for k, c in pair_counts.items()]
        heapq.heapify(self.heap)

    def run(self, vocab_size: int, min_frequency: int, merges: list, removals: list):
        """Merge until the vocabulary is full; returns why it stopped early (None: it is full)."""
        step = 0
        while self.size < vocab_size:
            found = self._best()
            if found is None:
                return "no pairs left to merge: every word is a single token"
            pair, count, tie = found
            if count < min_frequency:
                return f"no pair occurs at least {min_frequency} times (the minimum frequency)"
            step += 1
            a, b = ord(pair[0]), ord(pair[1])
            left, right = self.id_to_token[a], self.id_to_token[b]
            new_id, n = self._merge(pair)
            merges.append((left, right))
            yield MergeEvent(step, left, right, self.id_to_token[new_id], count, self.size, float(count), tie)
            # -- step 5: the left part, then the right (once for a pair of one token twice)
            freq = self.freq
            for part in (a,) if a == b else (a, b):
                freq[part] -= 2 * n if a == b else n
                ios = n / (freq[part] + n) if freq[part] + n else 0.0
                if ios > self.tau and part >= self.n_base and self.present[part]:
                    split = self._remove(part)
                    token = self.id_to_token[part]
                    removals.append((step, token))
                    yield TokenRemoved(step, token, ios, tuple(self.id_to_token[i] for i in split), self.size)
            self._push_gained()
        return None

    # -- step 3
    def _best(self) -> tuple[str, int, bool] | None:
        """The pair to merge, its count and whether another pair has that count; None if none."""
        heap, pair_counts = self.heap, self.pair_counts
        while heap:
            key = heap[0]
            pair = chr((key >> _ID_BITS) & _ID_MASK) + chr(key & _ID_MASK)
            keyed = -(key >> _COUNT_SHIFT)
            now = pair_counts.get(pair, 0)
            if now == keyed:
                if now < 1:
                    return None
                heapq.heappop(heap)
                return pair, now, self._has_tie(now, pair)
            heapq.heappop(heap)
            # stale: a count that fell is pushed again; one that grew was pushed when it grew
            if 0 < now < keyed:
                heapq.heappush(heap, _key(now, pair))
        return None

    def _has_tie(self, count: int, pair: str) -> bool:
        """Does a pair other than ``pair`` have ``count`` now? (walks the heap's entries keyed so)"""
        heap, size, seen = self.heap, len(self.heap), 0
        stack = [0]
        while stack:
            i = stack.pop()
            if i < size and -(heap[i] >> _COUNT_SHIFT) == count:
                key = heap[i]
                other = chr((key >> _ID_BITS) & _ID_MASK) + chr(key & _ID_MASK)
                if other != pair and self.pair_counts.get(other, 0) == count:
                    return True
                seen += 1
                if seen == _TIE_LOOK:
                    return False
                stack += (2 * i + 1, 2 * i + 2)
        return False

    # -- step 4
    def _merge(self, pair: str) -> tuple[int, int]:
        """Merge ``pair`` in every word: ``(the new token's id, occurrences merged)``."""
        a, b = ord(pair[0]), ord(pair[1])
        new_token = self.id_to_token[a] + self.id_to_token[b]
        new_id = self.token_to_id.get(new_token)
        if new_id is None:  # a new token
            new_id = self.token_to_id[new_token] = len(self.id_to_token)
            self.id_to_token.append(new_token)
            self.present.append(True)
            self.freq.append(0)
            self.parts[new_id] = (a, b)
            self.size += 1
        elif not self.present[new_id]:  # removed earlier: it comes back
            self.present[new_id] = True
            self.size += 1
        c = chr(new_id)
        merged = 0
        words, counts, token_words = self.words, self.counts, self.token_words[new_id]
        for iw in dict.fromkeys(self.pair_words.pop(pair, ())):
            w = words[iw]
            if pair not in w:
                continue
            new = w.replace(pair, c)  # left to right, without overlaps
            merged += (len(w) - len(new)) * counts[iw]
            self._rewrite(iw, new)
            token_words.append(iw)
        self.pair_counts.pop(pair, None)  # (merged everywhere: zero)
        self.freq[new_id] += merged
        return new_id, merged

    # -- step 5
    def _remove(self, token: int) -> list[int]:
        """Remove ``token``: each occurrence becomes its parts; returns them."""
        self.present[token] = False
        self.size -= 1
        split = self._walk(token)
        f, freq = self.freq[token], self.freq
        for i in split:
            freq[i] += f
        freq[token] = 0
        c, parts = chr(token), "".join(map(chr, split))
        words = self.words
        for iw in dict.fromkeys(self.token_words.pop(token, ())):
            w = words[iw]
            if c not in w:
                continue
            self._rewrite(iw, w.replace(c, parts))
            for i in split:
                if i >= self.n_base:
                    self.token_words[i].append(iw)
        return split

    def _walk(self, token: int) -> list[int]:
        """The tokens present that ``token`` is made of (itself if present or a character)."""
        if token < self.n_base or self.present[token]:
            return [token]
        a, b = self.parts[token]
        return self._walk(a) + self._walk(b)

    def _rewrite(self, iw: int, new: str) -> None:
        """Word ``iw`` becomes ``new``: its pair counts and word lists follow."""
        old, n = self.words[iw], self.counts[iw]
        pair_counts = self.pair_counts
        before = Counter(map(add, old, old[1:]))
        after = Counter(map(add, new, new[1:]))
        for k, m in before.items():
            pair_counts[k] -= m * n
        for k, m in after.items():
            pair_counts[k] += m * n
            had = before.get(k, 0)
            if not had:
                self.pair_words[k].append(iw)
            if m > had:
                self.gained.add(k)
        self.words[iw] = new

    def _push_gained(self) -> None:
        pair_counts, heap = self.pair_counts, self.heap
        for k in self.gained:
            c = pair_counts.get(k, 0)
            if c > 0:
                heapq.heappush(heap, _key(c, k))
        self.gained.clear()


def _key(count: int, pair: str) -> int:
    """One heap key, ordered as ``(-count, left id, right id)``."""
    return (-count << _COUNT_SHIFT) | (ord(pair[0]) << _ID_BITS) | ord(pair[1])
