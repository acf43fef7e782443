"""The BPE trainer's steps 2 to 4 in plain Python, for small jobs: no numpy, no compiled kernels.

``core.models.bpe.trainer`` runs these when the words hold few symbols (``PYTHON_LOOP_MAX_SYMBOLS``
there): on a 0.3 MB novel the merges themselves take less time than importing numpy and
loading the compiled merge loop, which cost ~0.1 s of CPU and ~20 MB before the first merge.
The algorithm, the tie rule, the heap and the tie flag are those of
``core/models/bpe/train_kernels.py`` step for step (both are the loop ``core/models/bpe/trainer.py``
describes), so both paths give the same merges and events; the tests run both.

A word is a string whose characters are token ids (``chr(id)``), so finding and replacing a
pair is ``str.find`` and ``str.replace`` in C, and a pair is a two-character string whose
order is the order of ``(left id, right id)``.

    >>> from core.events import drain
    >>> tokens = ["a", "b"]
    >>> words = word_ids(["abab", "ab"], {"a": 0, "b": 1}, "ab", None, None)
    >>> merges = []
    >>> drain(merge(words, [2, 1], tokens, {"a": 0, "b": 1}, "", 3, 0, merges)) == STOP_VOCAB
    True
    >>> merges, tokens                      # a + b -> ab (5 occurrences): the vocabulary is full
    ([('a', 'b')], ['a', 'b', 'ab'])
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Generator
from operator import add, itemgetter

from core.events import MergeEvent, Progress

# merge()'s results: the same codes as the compiled kernels' (core.models.bpe.signatures)
STOP_VOCAB, STOP_NO_PAIRS, STOP_MIN_FREQUENCY = 1, 2, 3
_TIE_LOOK = 64  # heap entries the tie check looks at, at most (as the kernel's)


def forms_needed(words, prefix: str | None, suffix: str | None) -> set[tuple[str, int]]:
    """``(character, form)`` of every position of ``words``, as ``bpe._symbol_keys`` numbers forms.

    Form 1: with the continuing-subword prefix (not the word's first character); 2: with the
    end-of-word suffix (its last); 3: both. ``forms_needed(["hug", "a"], "##", None)`` gives
    ``{("h", 0), ("u", 1), ("g", 1), ("a", 0)}``.
    """
    pre = 1 if prefix else 0
    end = 2 if suffix else 0
    if bool(prefix) != bool(suffix):  # one affix: each word is its edge character and the rest
        edge, rest = _edge_and_rest(words, at_end=bool(suffix))
        edge_form, rest_form = (end, 0) if suffix else (0, pre)
        forms = {(ch, edge_form) for ch in set(edge)}
        forms.update((ch, rest_form) for ch in set("".join(rest)))
        return forms
    out: set[tuple[str, int]] = set()
    middles = []
    for w in words:
        if len(w) == 1:
            out.add((w, end))
        elif w:
            out.add((w[0], 0))
            out.add((w[-1], pre | end))
            middles.append(w[1:-1])
    out.update((ch, pre) for ch in set("".join(middles)))
    return out


_FIRST, _AFTER_FIRST = itemgetter(slice(None, 1)), itemgetter(slice(1, None))
_LAST, _BEFORE_LAST = itemgetter(slice(-1, None)), itemgetter(slice(None, -1))


def _edge_and_rest(words, *, at_end: bool) -> tuple[str, list[str]]:
    """Each word's first character (its last with ``at_end``) in one string, and the rest of each.

    ``_edge_and_rest(["hug", "a"], at_end=False)`` gives ``("ha", ["ug", ""])``. With one affix, the
    edge character is the only one whose form differs from the others': a prefix marks every
    character but the first, a suffix only the last (a one-character word included). Slicing with
    ``itemgetter`` keeps the per-word work in C.
    """
    if at_end:
        return "".join(map(_LAST, words)), list(map(_BEFORE_LAST, words))
    return "".join(map(_FIRST, words)), list(map(_AFTER_FIRST, words))


def word_ids(words, token_to_id: dict[str, int], known, prefix: str | None, suffix: str | None) -> list[str]:
    """Every word as a string of id code points; characters not in ``known`` are dropped.

    ``word_ids(["hug", "gu"], {"g": 0, "h": 1, "u": 2}, "ghu", None, None)`` gives
    ``["\\x01\\x02\\x00", "\\x00\\x02"]``. With a prefix or suffix a character's token is its
    form (``##u``, ``g</w>``), chosen by its place in the word, as in ``tokenizers``.
    """
    if not words:  # (the joined paths below would give one empty word)
        return []
    chars = set("".join(words))

    def table(form: int) -> dict[int, str | None]:
        out: dict[int, str | None] = {}
        for ch in chars:
            token = (prefix if form & 1 and prefix else "") + ch + (suffix if form & 2 and suffix else "")
            i = token_to_id.get(token) if ch in known else None
            out[ord(ch)] = None if i is None else chr(i)
        return out

    if not prefix and not suffix:
        # One translate over all words joined by a character that is neither in a word nor an id.
        sep = _separator(chars, len(token_to_id))
        if sep is not None:
            return sep.join(words).translate(table(0)).split(sep)
    pre = 1 if prefix else 0
    end = 2 if suffix else 0
    if bool(prefix) != bool(suffix):
        # One affix: the edge characters in one translate, the rests in another (joined by a
        # character that is neither in a word nor an id), then each word is its two halves again.
        edge, rest = _edge_and_rest(words, at_end=bool(suffix))
        edge_form, rest_form = (end, 0) if suffix else (0, pre)
        edge_ids = edge.translate(table(edge_form))
        sep = _separator(chars, len(token_to_id))
        # (an empty word or a dropped edge character leaves fewer edges than words: the loop below)
        if len(edge_ids) == len(words) and sep is not None:
            rest_ids = sep.join(rest).translate(table(rest_form)).split(sep)
            return list(map(add, rest_ids, edge_ids) if suffix else map(add, edge_ids, rest_ids))
    first, middle, last, single = table(0), table(pre), table(pre | end), table(end)
    out = []
    for w in words:
        if len(w) > 1:
            out.append(w[0].translate(first) + w[1:-1].translate(middle) + w[-1].translate(last))
        else:
            out.append(w.translate(single))
    return out


def _separator(chars: set[str], n_ids: int) -> str | None:
    """A character that is neither in ``chars`` nor an id below ``n_ids`` (None if none is left)."""
    sep = chr(0x10FFFF)
    while sep in chars:
        sep = chr(ord(sep) - 1)
    return sep if ord(sep) > n_ids else None


# Heap keys: one int per entry, ordered as (-count, left id, right id, seq) is (the kernel's order),
# so heapq compares ints in C instead of tuples (same pops, same layout: the tie flag reads it).
_SEQ_BITS = 40  # pushes per training, at most 2**40
_ID_BITS = 21  # ids below 0x110000 (as many as there are characters)
_COUNT_SHIFT = _SEQ_BITS + 2 * _ID_BITS
_SEQ_MASK = (1 << _SEQ_BITS) - 1
_LOW_MASK = (1 << _COUNT_SHIFT) - 1


def _rank(pair: str) -> int:
    """The pair's place in ``(left id, right id)`` order, shifted above the sequence number."""
    return ((ord(pair[0]) << _ID_BITS) | ord(pair[1])) << _SEQ_BITS


def merge(words: list[str], counts: list[int], id_to_token: list[str], token_to_id: dict[str, int],
          prefix: str, vocab_size: int, min_frequency: int, merges: list[tuple[str, str]],
          first_step: int = 0, refuse: Callable[[str], bool] | None = None,
          ) -> Generator[Progress | MergeEvent, None, int]:  # fmt: skip
    """Steps 3 and 4 of ``core.models.bpe.trainer``: ``Progress("count pairs", n, n)`` once the pairs are
    counted, then one :class:`MergeEvent` per merge (also appended to ``merges``); returns why it
    stopped (a ``STOP_*``).

    ``words`` (id strings, rewritten in place) and ``counts`` are the words and how often each
    occurs; ``id_to_token`` and ``token_to_id`` grow with every new token. The words may start
    from any tokens (SuperBPE's stage 2 starts from stage 1's): events then number from
    ``first_step + 1``. ``refuse(new token)`` true drops the pair at the top without merging it
    (its entry is gone; a later gain pushes it again, to be refused again).
    """
    # -- step 3: pair counts, and the words each pair occurs in (increasing, once each)
    # subtle: map(add, w, w[1:]) builds a word's pairs in C; words of equal count are counted
    # together (Counter's C loop), so Python loops only over distinct pairs.
    pair_counts: defaultdict[str, int] = defaultdict(int)
    pair_words: defaultdict[str, list[int]] = defaultdict(list)
    by_count: defaultdict[int, list[str]] = defaultdict(list)
    for iw, w in enumerate(words):
        if len(w) > 1:
            pairs = set(map(add, w, w[1:]))
            by_count[counts[iw]].append(w)
            for k in pairs:
                pair_words[k].append(iw)
    sep = chr(len(id_to_token))  # no word holds it (not an id yet): pairs across two words hold it
    for n, same in by_count.items():
        joined = sep.join(same)
        for k, m in Counter(map(add, joined, joined[1:])).items():
            if sep not in k:
                pair_counts[k] += m * n
    # One heap key per entry (see _rank), seq the entry's number: its pair and its words are
    # entry_pair[seq] and entry_words[seq]. heapq's own steps, as the kernel's heap takes them.
    entry_pair = sorted(pair_words)
    entry_words: list[list[int]] = [pair_words[k] for k in entry_pair]
    heap = [(-pair_counts[k] << _COUNT_SHIFT) | _rank(k) | seq for seq, k in enumerate(entry_pair)]
    del pair_words
    heapq.heapify(heap)
    # the words where a pair gained occurrences during one merge, in order of first gain
    where: defaultdict[str, list[int]] = defaultdict(list)
    step = first_step
    yield Progress("count pairs", len(words), len(words))

    heappop, heappush = heapq.heappop, heapq.heappush

    # -- step 4: merge until the vocabulary is big enough
    while True:
        if len(id_to_token) >= vocab_size:
            return STOP_VOCAB
        if not heap:
            return STOP_NO_PAIRS
        key = heap[0]
        seq = key & _SEQ_MASK
        pair = entry_pair[seq]
        count = pair_counts[pair]
        if key >> _COUNT_SHIFT != -count:  # stale: push back with the current count (lazy invalidation)
            # subtle: pop then push, not heapreplace: the kernel's heap takes these very steps
            heappop(heap)
            heappush(heap, (-count << _COUNT_SHIFT) | (key & _LOW_MASK))
            continue
        if count < 1:
            return STOP_NO_PAIRS
        if count < min_frequency:
            return STOP_MIN_FREQUENCY
        heappop(heap)
        listed = entry_words[seq]
        entry_words[seq] = []  # (each entry is merged once: its words can go)
        # Tied when another pair has this count now; most ties are at the heap's top: the
        # walk (_has_tie) starts there, and is only called when the top is keyed this count too.
        tie = False
        if heap:
            top = heap[0]
            if top >> _COUNT_SHIFT == -count:
                other = entry_pair[top & _SEQ_MASK]
                tie = (other != pair and pair_counts[other] == count) or _has_tie(
                    heap, count, pair, pair_counts, entry_pair
                )

        # 4a. the new token: left + right (right without its continuing-subword prefix), or the
        # existing token with the same text
        a, b = pair[0], pair[1]
        left, right = id_to_token[ord(a)], id_to_token[ord(b)]
        piece = right[len(prefix) :] if prefix and right.startswith(prefix) else right
        new_token = left + piece
        if refuse is not None and refuse(new_token):
            continue
        new_id = token_to_id.get(new_token)
        fresh = new_id is None  # a new token: no word holds it yet
        if new_id is None:
            new_id = token_to_id[new_token] = len(id_to_token)
            id_to_token.append(new_token)
        c = chr(new_id)

        # 4b. merge in every listed word, left to right without overlaps; each occurrence
        # retires the pairs around it and creates pairs with the new token
        for iw in listed:
            w = words[iw]
            j = w.find(pair)
            if j < 0:
                continue
            n = counts[iw]
            if fresh and w.find(pair, j + 2) < 0:
                # One occurrence of the pair and none of the new token (most words): each
                # neighbour's new pair is gained once here, no word listed twice.
                if j:
                    q = w[j - 1]
                    pair_counts[q + a] -= n
                    k = q + c
                    pair_counts[k] += n
                    where[k].append(iw)
                if j < len(w) - 2:
                    q = w[j + 2]
                    pair_counts[b + q] -= n
                    k = c + q
                    pair_counts[k] += n
                    where[k].append(iw)
                words[iw] = w.replace(pair, c)
                continue
            last = len(w) - 2
            prev_end = -1
            while j >= 0:
                if j > 0:
                    q = c if prev_end == j else w[j - 1]
                    pair_counts[q + a] -= n
                    k = q + c
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

        # 4c. push every pair that gained occurrences, with its current count and its words
        for k, lst in where.items():
            kc = pair_counts[k]
            if kc > 0:
                rank = ((ord(k[0]) << _ID_BITS) | ord(k[1])) << _SEQ_BITS  # (_rank, inline)
                heappush(heap, (-kc << _COUNT_SHIFT) | rank | len(entry_pair))
                entry_pair.append(k)
                entry_words.append(lst)
        where.clear()

        merges.append((left, right))
        step += 1
        yield MergeEvent(step, left, right, new_token, count, len(id_to_token), float(count), tie)


def _has_tie(
    heap: list[int], count: int, pair: str, pair_counts: dict[str, int], entry_pair: list[str]
) -> bool:
    """Does a pair other than ``pair`` have ``count`` now? The kernel's ``_has_tie``, on heapq's list.

    Walks the heap's entries keyed ``count`` from the top (right child first, at most 64), as
    the kernel does, so both paths flag the same merges.
    """
    low = -count << _COUNT_SHIFT
    high = low + (1 << _COUNT_SHIFT)  # keys of entries pushed with ``count`` lie in [low, high)
    size = len(heap)
    stack = [0]
    pop, push = stack.pop, stack.append
    seen = 0
    while stack:
        i = pop()
        if i < size:
            key = heap[i]
            if low <= key < high:
                other = entry_pair[key & _SEQ_MASK]
                if other != pair and pair_counts[other] == count:
                    return True
                seen += 1
                if seen == _TIE_LOOK:
                    return False
                push(2 * i + 1)
                push(2 * i + 2)
    return False
