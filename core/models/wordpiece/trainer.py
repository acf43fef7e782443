"""WordPiece trainer: grow a vocabulary by merging the best adjacent pair, one pair per step.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> model = drain(train_wordpiece({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    ...                               TrainOptions("wordpiece", vocab_size=13)))
    >>> sorted(model.get_vocab(), key=model.token_to_id)      # alphabet, then merges in order
    ['[UNK]', 'b', 'h', 'p', '##g', '##n', '##s', '##u', '##gs', 'hu', 'hugs', 'hug', '##ug']

Words start as characters; every non-initial character carries the continuing-subword
prefix (``hug`` -> ``h ##u ##g``). Merging drops the right part's prefix:
``h`` + ``##u`` -> ``hu``, ``##g`` + ``##s`` -> ``##gs``. Two scores rank the pairs
(``options.extra["score"]``):

- ``"likelihood"`` (default; the Hugging Face course's formula): ``count(ab) / (count(a) * count(b))``,
  where ``count(x)`` counts every current occurrence of the unit ``x`` in the corpus
  (words weighted by their counts). The course writes it as ``(#ab/n) / ((#a/n)(#b/n))``;
  ``n`` is the same for every pair at a step, so it does not change which pair wins.
  The alphabet is the textbook's: word-initial characters bare, the others with ``##``.
- ``"frequency"``: the pair count alone; this is what Hugging Face's ``WordPieceTrainer``
  actually does (a BPE trainer with a ``##`` prefix). The alphabet is theirs: every
  character bare, plus the ``##`` form of every non-initial character. We run exactly that:
  ``core.models.bpe.trainer`` with the ``##`` prefix (its compiled merge loop), and keep its
  vocabulary; its events and stop reasons are the BPE trainer's.

Ties (documented, pinned by tests):

- likelihood: the pair seen first wins. Pairs are numbered when they first appear:
  the initial pairs in reading order (words in the order of ``word_counts``, left to
  right), then the pairs each merge creates, after all older ones, in reading order.
  (This is the Hugging Face course's rule, first pair in the corpus, for the initial
  pairs; it is what makes ``h ##u -> hu`` the second merge of the hug/pug example.)
- frequency: the smallest ``(left id, right id)``, as ``tokenizers`` does. (``tokenizers``
  numbers its ``##`` characters in hash order, so its own ties vary from run to run;
  ours are in code-point order.)

Vocabulary order (ids): special tokens, bare characters, ``##`` characters (each in
code-point order), then merged tokens in creation order. A merge whose token already
exists (``a`` + ``##bc`` and ``ab`` + ``##c``) reuses its id.

Extra options (``options.extra``): ``score``; ``max_input_chars_per_word`` for the model
(100); ``alphabet_order``, a list of tokens whose order the alphabet's ids follow (used to
replay ``tokenizers``' hash-order numbering in parity tests).

Leaves out: ``tokenizers``' ``initial_alphabet`` and ``max_token_length`` options.
"""

from __future__ import annotations

import heapq
from collections.abc import Generator

from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TrainingStopped
from core.models.bpe.trainer import learn_merges
from core.models.wordpiece.model import WordPiece

SCORES = ("likelihood", "frequency")
_PROGRESS_EVERY = 20_000  # words between Progress events while setting up


def _alphabet(char_counts: dict[str, int], limit: int | None) -> set[str]:
    """The characters kept: all of them, or the ``limit`` most frequent (ties: smaller code point).

    >>> sorted(_alphabet({"a": 5, "b": 1, "c": 5}, 2))
    ['a', 'c']
    """
    if limit is None or len(char_counts) <= limit:
        return set(char_counts)
    ranked = sorted(char_counts, key=lambda ch: (-char_counts[ch], ch))
    return set(ranked[: max(limit, 0)])


def _merge_word(
    symbols: list[int], a: int, b: int, new: int
) -> tuple[list[int], int, list[tuple[tuple[int, int], int]]]:
    """Merge every ``a b`` left to right; return the new symbols, the number of merges and pair changes.

    The changes list the neighbouring pairs that disappear (-1) and appear (+1); the
    merged pair itself is left out (the caller removes it entirely).

    >>> _merge_word([1, 2, 1, 2], 1, 2, 9)
    ([9, 9], 2, [((2, 1), -1), ((9, 1), 1), ((9, 1), -1), ((9, 9), 1)])
    """
    out: list[int] = []
    changes: list[tuple[tuple[int, int], int]] = []
    merged = 0
    i, n = 0, len(symbols)
    while i < n:
        if i + 1 < n and symbols[i] == a and symbols[i + 1] == b:
            if out:
                prev = out[-1]  # subtle: may be a `new` we just made (a b a b -> new new)
                changes.append(((prev, a), -1))
                changes.append(((prev, new), 1))
            if i + 2 < n:
                nxt = symbols[i + 2]
                changes.append(((b, nxt), -1))
                changes.append(((new, nxt), 1))
            out.append(new)
            merged += 1
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out, merged, changes


def train_wordpiece(word_counts: dict[str, int], options) -> Generator[object, None, WordPiece]:
    """Yield a :class:`MergeEvent` per merge (and :class:`Progress` while setting up); return the model."""
    score_kind = options.extra.get("score", "likelihood")
    if score_kind not in SCORES:
        raise ConfigError(f"unknown WordPiece score {score_kind!r}; choose from {', '.join(SCORES)}")
    likelihood = score_kind == "likelihood"
    prefix = "##" if options.continuing_subword_prefix is None else options.continuing_subword_prefix
    unk = options.unk_token or "[UNK]"
    specials = list(options.special_tokens or [])
    if unk not in specials:
        specials.insert(0, unk)  # the encoder needs an unknown token in the vocabulary
    min_count = max(1, options.min_frequency)
    max_chars = options.extra.get("max_input_chars_per_word", 100)
    if options.limit_alphabet is not None and options.limit_alphabet < 0:
        raise ConfigError("the alphabet limit cannot be negative")

    if not likelihood:
        # The frequency score is BPE with the ## prefix on every non-initial character, which is
        # what tokenizers' WordPieceTrainer runs (it wraps a BpeTrainer): so run our BPE trainer,
        # whose merge loop is compiled, and keep its vocabulary.
        bpe_options = options._replace(
            special_tokens=specials,
            unk_token=unk,
            continuing_subword_prefix=prefix,
            end_of_word_suffix=None,
            min_frequency=min_count,
        )
        if "" in word_counts or any(c <= 0 for c in word_counts.values()):
            word_counts = {w: c for w, c in word_counts.items() if w and c > 0}
        if not word_counts:
            raise CorpusError("nothing to train on: no words were counted")
        learnt, _ = yield from learn_merges(word_counts, bpe_options)
        return WordPiece(learnt, unk, prefix, max_chars)

    # 1. Count characters (weighted by word counts) and choose the alphabet.
    items = [(w, c) for w, c in word_counts.items() if w and c > 0]
    if not items:
        raise CorpusError("nothing to train on: no words were counted")
    char_counts: dict[str, int] = {}
    initial_chars: set[str] = set()
    inner_chars: set[str] = set()
    for k, (word, count) in enumerate(items):
        for ch in word:
            char_counts[ch] = char_counts.get(ch, 0) + count
        initial_chars.add(word[0])
        inner_chars.update(word[1:])
        if k % _PROGRESS_EVERY == 0:
            yield Progress("count characters", k, len(items))
    kept = _alphabet(char_counts, options.limit_alphabet)
    bare = sorted(kept if not likelihood else kept & initial_chars)
    prefixed = [prefix + ch for ch in sorted(kept & inner_chars)]
    order = options.extra.get("alphabet_order")
    if order:  # replay another trainer's alphabet numbering (e.g. tokenizers' hash order)
        rank = {t: i for i, t in enumerate(order)}
        bare.sort(key=lambda t: rank.get(t, len(rank)))
        prefixed.sort(key=lambda t: rank.get(t, len(rank)))

    # 2. The initial vocabulary: special tokens, bare characters, ## characters.
    vocab: dict[str, int] = {}
    tokens: list[str] = []
    for t in specials + bare + prefixed:
        if t not in vocab:
            vocab[t] = len(tokens)
            tokens.append(t)

    # 3. Words as lists of unit ids (characters outside the alphabet are dropped, as
    #    tokenizers does); unit counts; pair counts, where each pair occurs, birth order.
    words: list[list[int]] = []
    counts: list[int] = []
    for word, count in items:
        symbols = [vocab[ch if i == 0 else prefix + ch] for i, ch in enumerate(word) if ch in kept]
        if symbols:
            words.append(symbols)
            counts.append(count)
    unit_count: list[int] = [0] * len(tokens)
    pair_count: dict[tuple[int, int], int] = {}
    where: dict[tuple[int, int], set[int]] = {}
    serial: dict[tuple[int, int], int] = {}
    for w, symbols in enumerate(words):
        count = counts[w]
        for u in symbols:
            unit_count[u] += count
        for pair in zip(symbols, symbols[1:]):
            if pair not in pair_count:
                pair_count[pair] = 0
                where[pair] = set()
                serial[pair] = len(serial)
            pair_count[pair] += count
            where[pair].add(w)
        if w % _PROGRESS_EVERY == 0:
            yield Progress("count pairs", w, len(words))
    yield Progress("count pairs", len(words), len(words))
    pairs_of: list[set[tuple[int, int]]] = [set() for _ in tokens]  # pairs each unit takes part in
    for pair in pair_count:
        pairs_of[pair[0]].add(pair)
        pairs_of[pair[1]].add(pair)

    # subtle: likelihood scores are ranked by an exact integer key. Two different
    # fractions c/(x*y) with x*y <= total**2 differ by at least 1/total**4, so
    # floor(c * SCALE / (x*y)) with SCALE = total**4 orders them exactly (floats could
    # call two different scores a tie), and equal fractions get equal keys.
    total_units = sum(len(s) * c for s, c in zip(words, counts))
    scale = max(total_units, 2) ** 4

    def key(pair: tuple[int, int]) -> tuple:
        c = pair_count[pair]
        if likelihood:
            return (-(c * scale // (unit_count[pair[0]] * unit_count[pair[1]])), serial[pair], pair)
        return (-c, pair)

    heap = [key(p) for p, c in pair_count.items() if c >= min_count]
    heapq.heapify(heap)

    def is_current(entry: tuple) -> bool:
        pair = entry[-1]
        return pair in pair_count and pair_count[pair] >= min_count and key(pair) == entry

    # 4. Merge the best pair until the vocabulary is big enough.
    step = 0
    reason = "vocab size reached"
    while len(vocab) < options.vocab_size:
        while heap and not is_current(heap[0]):
            heapq.heappop(heap)  # lazy invalidation: a newer entry was pushed when it changed
        if not heap:
            reason = "no pair left" if not pair_count else f"no pair occurs {min_count} times"
            break
        best = heapq.heappop(heap)
        a, b = best[-1]
        # subtle: a pair pushed twice with the same key (its count changed and changed back) is
        # still current: skip the best pair's own copies, or it would tie with itself
        while heap and (not is_current(heap[0]) or heap[0][-1] == best[-1]):
            heapq.heappop(heap)
        tie = bool(heap) and heap[0][0] == best[0]
        pair_total = pair_count[(a, b)]
        score = pair_total / (unit_count[a] * unit_count[b]) if likelihood else float(pair_total)

        # 4a. The new token: the right part loses its ## (a + ##b -> ab, ##a + ##b -> ##ab).
        right = tokens[b][len(prefix) :] if prefix and tokens[b].startswith(prefix) else tokens[b]
        new_token = tokens[a] + right
        n = vocab.get(new_token)
        if n is None:
            n = vocab[new_token] = len(tokens)
            tokens.append(new_token)
            unit_count.append(0)
            pairs_of.append(set())

        # 4b. Rewrite every word holding the pair; collect the neighbouring pair changes.
        delta: dict[tuple[int, int], int] = {}
        gained: dict[tuple[int, int], list[int]] = {}
        rewritten: list[int] = []
        for w in sorted(where.pop((a, b), ())):
            new_symbols, merged, changes = _merge_word(words[w], a, b, n)
            if not merged:
                continue  # stale entry in `where`: an earlier merge took the pair away
            words[w] = new_symbols
            rewritten.append(w)
            count = counts[w]
            unit_count[a] -= merged * count
            unit_count[b] -= merged * count
            unit_count[n] += merged * count
            for pair, d in changes:
                if pair == (a, b):
                    continue
                delta[pair] = delta.get(pair, 0) + d * count
                if d > 0:
                    gained.setdefault(pair, []).append(w)

        # 4c. Apply the changes: the merged pair disappears everywhere.
        del pair_count[(a, b)]
        pairs_of[a].discard((a, b))
        pairs_of[b].discard((a, b))
        born: set[tuple[int, int]] = set()
        for pair, d in delta.items():
            c = pair_count.get(pair, 0) + d
            if c > 0:
                if pair not in pair_count:
                    pairs_of[pair[0]].add(pair)
                    pairs_of[pair[1]].add(pair)
                    where.setdefault(pair, set())
                    if pair not in serial:
                        born.add(pair)
                pair_count[pair] = c
                if pair in gained:
                    where[pair].update(gained[pair])
            elif pair in pair_count:
                del pair_count[pair]
                where.pop(pair, None)
                pairs_of[pair[0]].discard(pair)
                pairs_of[pair[1]].discard(pair)

        # Number the pairs seen for the first time in reading order of the rewritten words.
        for w in rewritten:
            if not born:
                break
            for pair in zip(words[w], words[w][1:]):
                if pair in born:
                    serial[pair] = len(serial)
                    born.discard(pair)

        # 4d. Re-score what changed. With likelihood, every pair touching a, b or the
        #     new token changes score (their unit counts moved), not only the pairs
        #     whose own count changed; scores may go *up*, so push fresh entries.
        touched = set(delta)
        if likelihood:
            touched.update(pairs_of[a], pairs_of[b], pairs_of[n])
        for pair in touched:
            if pair_count.get(pair, 0) >= min_count:
                heapq.heappush(heap, key(pair))
        if len(heap) > 4 * len(pair_count) + 100_000:
            heap = [key(p) for p, c in pair_count.items() if c >= min_count]
            heapq.heapify(heap)

        step += 1
        yield MergeEvent(step, tokens[a], tokens[b], new_token, pair_total, len(vocab), score, tie)

    if step == 0 and reason == "vocab size reached":
        reason = (
            f"the special tokens and alphabet ({len(vocab):,} symbols) already fill "
            f"the requested vocabulary of {options.vocab_size:,}"
        )
    yield TrainingStopped(reason, len(vocab), options.vocab_size)
    return WordPiece(vocab, unk, prefix, max_chars)
