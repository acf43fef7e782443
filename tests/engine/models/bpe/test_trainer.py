"""BPE trainer: golden examples worked by hand from the seeds, the tie rule, stop reasons.

Every expected merge list below was worked out by hand (the working is in the
comments), not produced by our code.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TrainingStopped, drain
from core.models.bpe.trainer import train_bpe
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
KO = {"철수는": 10, "치킨을": 9, "먹고": 11, "볶음밥을": 5, "있다": 2}
LOW = {"low": 5, "lower": 2, "newest": 6, "widest": 3}

# Every test here runs on both builds of the merge loop: compiled ahead of time and JIT.
pytestmark = pytest.mark.usefixtures("bpe_kernels_build")


def train(counts, **kw):
    events: list = []
    model = drain(train_bpe(counts, TrainOptions(kw.pop("algorithm", "bpe"), **kw)), events.append)
    return model, events


def merge_events(events):
    return [e for e in events if isinstance(e, MergeEvent)]


def test_hug_seed_merges_counts_and_encoding():
    # Seed 000: pairs u g = 10+5+5 = 20, then u n = 12+4 = 16, then h ug = 10+5 = 15.
    # Vocab 11 = <unk> + 7 letters (b g h n p s u) + 3 merges.
    tok = drain(train_from_counts(HUG, TrainOptions("bpe", vocab_size=11)))
    model, events = train(HUG, vocab_size=11)
    merges = merge_events(events)
    assert [(e.left, e.right, e.count) for e in merges] == [("u", "g", 20), ("u", "n", 16), ("h", "ug", 15)]
    assert [e.vocab_size for e in merges] == [9, 10, 11]
    assert model.merges == [("u", "g"), ("u", "n"), ("h", "ug")]
    assert sorted(model.get_vocab()) == sorted(
        ["<unk>", "b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"]
    )
    assert model.token_to_id("<unk>") == 0
    # 'm' was never seen: it becomes <unk>, and u g still merges.
    assert tok.encode("pug bug mug").tokens == ["p", "ug", "b", "ug", "<unk>", "ug"]
    stop = events[-1]
    assert isinstance(stop, TrainingStopped) and stop.reached_target and stop.vocab_size == 11


def test_aaabdaaabac_as_compression():
    # Seed 000: with pre-tokenizer none the whole line is one sequence.
    # a a occurs 4 times (twice in each aaab) -> aa; left to right "aaab" -> aa a b.
    # Then a b = 2 and aa a = 2 tie: (a, b) has the smaller ids (alphabet before merged
    # tokens), as the seed says ("alphabetical"). Then aa ab = 2 -> aaab.
    opts = TrainOptions("bpe", vocab_size=7, pre_tokenizer="none", special_tokens=[])
    counts = pre_tokenize_lines(["aaabdaaabac"], opts)
    assert counts == {"aaabdaaabac": 1}
    events: list = []
    tok = drain(train_from_counts(counts, opts), events.append)
    merges = merge_events(events)
    assert [(e.left, e.right, e.count) for e in merges] == [("a", "a", 4), ("a", "b", 2), ("aa", "ab", 2)]
    assert merges[1].tie is True
    assert tok.encode("aaabdaaabac").tokens == ["aaab", "d", "aaab", "a", "c"]
    assert tok.vocab_size == 7


def test_korean_seed_first_merge_and_tie():
    # Seed 001: 먹 고 = 11 is the most frequent pair. The seed then adds both 철수 and
    # 수는 (10 each) at once; BPE merges one pair per step. The tie 철 수 / 수 는 goes to
    # the smaller left id: 수 (U+C218) sorts before 철 (U+CCA0), so 수 는 wins, and then
    # 철 + 수는 (still 10) becomes 철수는. We follow the algorithm, not the seed's shortcut.
    model, events = train(KO, vocab_size=13 + 3, special_tokens=[])
    merges = merge_events(events)
    assert [(e.left, e.right, e.count) for e in merges] == [
        ("먹", "고", 11),
        ("수", "는", 10),
        ("철", "수는", 10),
    ]
    assert [e.tie for e in merges] == [False, True, False]
    assert model.vocab_size == 16


def test_low_lower_newest_widest_without_suffix():
    # Seed 004. Pairs: e s = s t = 6+3 = 9 (tie: e < s) -> es; es t = 9 -> est;
    # l o = o w = 7 (tie: l < o) -> lo; lo w = 7 -> low; then n e = e w = w est = 6:
    # (e, w) has the smallest ids -> ew. Alphabet: d e i l n o r s t w.
    model, events = train(LOW, vocab_size=10 + 5, special_tokens=[])
    assert model.merges == [("e", "s"), ("es", "t"), ("l", "o"), ("lo", "w"), ("e", "w")]
    assert [e.count for e in merge_events(events)] == [9, 9, 7, 7, 6]
    assert [t.value for t in model.tokenize("lowest")] == ["low", "est"]


def test_low_lower_newest_widest_with_end_of_word_suffix():
    # As tokenizers does, the suffix is glued to the last character: l o w</w>.
    # e s = 9 ties with s t</w> = 9 -> es; es t</w> = 9 -> est</w>; l o = 7 -> lo
    # (o w</w> is only 5, o w only 2); then n e = e w = w est</w> = 6 -> ew (smallest ids);
    # n ew = ew est</w> = 6 -> (n, ew) since n is alphabet; new est</w> = 6 -> newest</w>;
    # lo w</w> = 5 -> low</w>.
    model, _ = train(LOW, vocab_size=10 + 3 + 7, special_tokens=[], end_of_word_suffix="</w>")
    assert model.merges == [
        ("e", "s"),
        ("es", "t</w>"),
        ("l", "o"),
        ("e", "w"),
        ("n", "ew"),
        ("new", "est</w>"),
        ("lo", "w</w>"),
    ]
    assert {"r</w>", "t</w>", "w</w>"} <= set(model.get_vocab())
    # "lowest": es, est</w>, lo apply; w est</w> is not a merge.
    assert [t.value for t in model.tokenize("lowest")] == ["lo", "w", "est</w>"]
    assert [(t.start, t.end) for t in model.tokenize("lowest")] == [(0, 2), (2, 3), (3, 6)]


def test_continuing_subword_prefix_builds_tokens_without_inner_prefix():
    # h ##u ##g; ids: alphabet g h u = 0 1 2, then forms ##g ##u = 3 4 (code-point order).
    # (h, ##u) = (1, 4) beats (##u, ##g) = (4, 3) -> "hu" (the right part loses its prefix),
    # then (hu, ##g) -> "hug".
    model, _ = train({"hug": 3}, vocab_size=100, special_tokens=[], continuing_subword_prefix="##")
    assert model.merges == [("h", "##u"), ("hu", "##g")]
    assert [t.value for t in model.tokenize("hug")] == ["hug"]


def test_tie_rule_alphabet_ids_before_merged_tokens():
    # a a = a b = c d = 3: (a, a) has the smallest ids -> aa. Then aa b = c d = 3:
    # c is alphabet (id 2) and aa is merged (id 4), so (c, d) wins though "aa" < "c".
    model, _ = train({"aab": 3, "cd": 3}, vocab_size=100, special_tokens=[])
    assert model.merges == [("a", "a"), ("c", "d"), ("aa", "b")]


def test_tie_rule_merged_tokens_in_creation_order():
    # z z = 4+1 = 5 -> zz. Then a a = a b = zz b = 4 -> (a, a) (alphabet ids).
    # Then zz b = aa b = 4: zz was created first, so it has the smaller id and wins
    # although "aa" sorts before "zz".
    model, _ = train({"zzb": 4, "aab": 4, "zz": 1}, vocab_size=100, special_tokens=[])
    assert model.merges == [("z", "z"), ("a", "a"), ("zz", "b"), ("aa", "b")]


def test_tie_rule_special_tokens_come_first():
    # With "z" as a special token it gets id 0, so (z, x) beats (a, x) at equal counts.
    model, _ = train({"zx": 2, "ax": 2}, vocab_size=4, special_tokens=["z"])
    assert model.merges == [("z", "x")]
    model, _ = train({"zx": 2, "ax": 2}, vocab_size=4, special_tokens=[])
    assert model.merges == [("a", "x")]


def test_min_frequency_stops_with_reason():
    model, events = train(HUG, vocab_size=100, min_frequency=16)
    assert model.merges == [("u", "g"), ("u", "n")]  # h ug = 15 < 16
    stop = events[-1]
    assert isinstance(stop, TrainingStopped)
    assert "minimum frequency" in stop.reason and not stop.reached_target
    assert stop.vocab_size == 10 and stop.requested_vocab_size == 100


def test_runs_out_of_pairs():
    model, events = train({"ab": 1}, vocab_size=50, special_tokens=[])
    assert model.merges == [("a", "b")]
    assert "no pairs left" in events[-1].reason and events[-1].vocab_size == 3


def test_vocab_size_below_alphabet_keeps_alphabet_and_says_why():
    model, events = train(HUG, vocab_size=3)
    assert model.merges == []
    assert model.vocab_size == 8  # <unk> + 7 letters: the alphabet is never cut by vocab_size
    stop = events[-1]
    assert "already fill" in stop.reason and stop.vocab_size == 8 and stop.requested_vocab_size == 3


def test_limit_alphabet_keeps_most_frequent_and_drops_the_rest_from_words():
    # Letter counts: u 36, h 15, n 16, p 17, g 20, b 4, s 5. Keeping 5: u g p n h.
    # 'b' and 's' leave the words: "bun" -> u n, "hugs" -> h u g.
    model, _ = train(HUG, vocab_size=100, limit_alphabet=5)
    assert model.min_vocab_size == 6
    assert "b" not in model.get_vocab() and "s" not in model.get_vocab()
    assert model.merges[:2] == [("u", "g"), ("u", "n")]


def test_byte_level_alphabet_has_all_256_bytes():
    from core.bytelevel import BYTE_ALPHABET, bytes_to_chars

    word = bytes_to_chars("한국".encode())
    model, _ = train({word: 3}, algorithm="bytelevel-bpe", vocab_size=300, special_tokens=[])
    vocab = model.get_vocab()
    assert all(c in vocab for c in BYTE_ALPHABET)
    assert [vocab[c] for c in BYTE_ALPHABET] == list(range(256))  # sorted by code point
    assert len(model.merges) == 5  # six bytes merge into one token
    assert [t.value for t in model.tokenize(word)] == [word]


def test_events_are_small_and_progress_comes_first():
    _, events = train(HUG, vocab_size=11)
    kinds = [type(e) for e in events]
    first_merge = kinds.index(MergeEvent)
    assert all(k is Progress for k in kinds[:first_merge])
    assert kinds[-1] is TrainingStopped
    assert [e.step for e in merge_events(events)] == [1, 2, 3]


def test_bad_input():
    with pytest.raises(CorpusError):
        drain(train_bpe({}, TrainOptions("bpe", vocab_size=10)))
    with pytest.raises(ConfigError):
        drain(train_bpe(HUG, TrainOptions("bpe", vocab_size=5_000_000)))
    with pytest.raises(ConfigError):
        TrainOptions("bpe", vocab_size=0)
    with pytest.raises(ConfigError):
        drain(train_bpe(HUG, TrainOptions("bpe", vocab_size=10, limit_alphabet=-1)))
    # zero and negative counts are ignored rather than trained on
    model, _ = train({"ab": 0, "cd": -3, "ef": 2}, vocab_size=100, special_tokens=[])
    assert model.merges == [("e", "f")]
    assert sorted(model.get_vocab()) == ["e", "ef", "f"]
    with pytest.raises(CorpusError):
        drain(train_bpe({"ab": 0}, TrainOptions("bpe", vocab_size=10)))


def test_cancel_by_stopping_iteration():
    gen = train_bpe(HUG, TrainOptions("bpe", vocab_size=11))
    for e in gen:
        if isinstance(e, MergeEvent):
            break
    gen.close()  # no exception: cancellation is simply not iterating further


# --- the numpy/translate set-up steps against plain-Python references ------------------------


def test_setup_helpers_match_plain_python():
    from collections import Counter

    from core.models.bpe.merge_loop import MergeState
    from core.models.bpe.trainer import _char_frequencies, _form, _symbol_keys

    word_counts = {"hug": 10, "pug": 5, "철수👋🏽": 3, "": 2, "a": 1, "abab": 4}
    expected = Counter()
    for w, n in word_counts.items():
        for ch in w:
            expected[ch] += n
    assert _char_frequencies(word_counts) == dict(expected)

    alphabet = sorted(set("hugpab철"))  # "수", "👋" and "🏽" are outside: dropped
    token_to_id = {ch: i for i, ch in enumerate(alphabet)}
    words = ["".join(chr(token_to_id[c]) for c in w if c in token_to_id) for w in word_counts]

    chars, keys, lengths = _symbol_keys(word_counts, "##", "</w>")
    forms = [_form(chars[k >> 2], k & 3, "##", "</w>") for k in keys.tolist()]
    assert forms == [
        ("##" if i else "") + c + ("</w>" if i == len(w) - 1 else "")
        for w in word_counts
        for i, c in enumerate(w)
    ]
    assert lengths.tolist() == [len(w) for w in word_counts]

    counts = list(word_counts.values())
    symbols = np.array([ord(c) for w in words for c in w], dtype=np.int32)
    state = MergeState.build(symbols, np.array([len(w) for w in words]), np.array(counts), alphabet, "")
    _check_first_heap(state, words, counts)


def test_the_plain_library_sets_up_the_same_first_heap():
    # The same set-up on array.array buffers, through the plain shared library (no numpy).
    from core.jit import JIT_ONLY_VARIABLE
    from core.models.bpe.flat_arrays import PlainArrays
    from core.models.bpe.merge_loop import MergeState, plain_merge_kernels

    if os.environ.get(JIT_ONLY_VARIABLE) == "1":  # (this module's "jit" build parameter)
        pytest.skip("numba's JIT is forced for this run: the plain library is not loaded")
    kernels = plain_merge_kernels()
    if kernels is None:
        pytest.skip("the BPE kernels' plain library is not built here (python -m core.build builds it)")
    words = ["\x03\x01\x02", "\x02\x01\x02\x01", "\x00", "", "\x04\x03\x03\x03\x01"]
    counts = [10, 5, 3, 2, 4]
    symbols = [ord(c) for w in words for c in w]
    state = MergeState.build(symbols, [len(w) for w in words], counts, list("abcde"), "", kernels=kernels,
                             arrays=PlainArrays())  # fmt: skip
    _check_first_heap(state, words, counts)


def _check_first_heap(state, words: list[str], counts: list[int]) -> None:
    from collections import Counter

    from core.models.bpe.merge_loop import I_PAIRS

    ref_counts, ref_words = Counter(), {}
    for i, w in enumerate(words):
        for pair in (w[j : j + 2] for j in range(len(w) - 1)):
            ref_counts[pair] += counts[i]
            seen = ref_words.setdefault(pair, [])
            if i not in seen:
                seen.append(i)
    n_pairs = int(state.ints[I_PAIRS])
    pairs = [chr(a) + chr(b) for a, b in zip(state.pair_left[:n_pairs], state.pair_right[:n_pairs])]
    assert dict(zip(pairs, state.pair_count[:n_pairs].tolist())) == dict(ref_counts)
    # the first heap entries list each pair's words in increasing order, pairs sorted by ids
    entries = range(n_pairs)
    listed = {
        pairs[state.entry_pair[e]]: state.pool[state.entry_start[e] : state.entry_end[e]].tolist()
        for e in entries
    }
    assert listed == ref_words
    assert [pairs[state.entry_pair[e]] for e in entries] == sorted(ref_words)
