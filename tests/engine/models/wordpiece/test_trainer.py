"""WordPiece trainer: the seeds' hug/pug table worked by hand, tie rules, and a naive reference."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.errors import ConfigError, CorpusError
from core.events import MergeEvent, Progress, TrainingStopped, drain
from core.models.wordpiece.trainer import train_wordpiece
from core.options import TrainOptions

# The seeds' table (000_*, 표1): pre-tokens and their counts.
HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def run(word_counts, vocab_size=100, **kw):
    extra = kw.pop("extra", {})
    events: list = []
    model = drain(
        train_wordpiece(word_counts, TrainOptions("wordpiece", vocab_size=vocab_size, extra=extra, **kw)),
        events.append,
    )
    merges = [e for e in events if isinstance(e, MergeEvent)]
    return model, merges, events


def test_likelihood_initial_vocab_is_the_textbook_alphabet():
    model, _, _ = run(HUG, vocab_size=1)
    # special tokens, word-initial characters, then ## + non-initial characters
    assert sorted(model.get_vocab(), key=model.token_to_id) == [
        "[UNK]",
        "b",
        "h",
        "p",
        "##g",
        "##n",
        "##s",
        "##u",
    ]


def test_likelihood_first_merges_worked_by_hand():
    _, merges, events = run(HUG)
    # Units: h 10+5=15, p 5+12=17, b 4, ##u 10+5+12+4+5=36, ##g 10+5+5=20, ##n 12+4=16, ##s 5.
    # Scores count(ab)/(count(a)count(b)):
    #   h ##u 15/(15*36)=1/36, ##u ##g 20/(36*20)=1/36, p ##u 17/(17*36)=1/36,
    #   ##u ##n 16/(36*16)=1/36, b ##u 4/(4*36)=1/36, ##g ##s 5/(20*5)=1/20  <- best, alone.
    m1 = merges[0]
    assert (m1.left, m1.right, m1.new_token, m1.count) == ("##g", "##s", "##gs", 5)
    assert m1.score == pytest.approx(1 / 20) and not m1.tie
    # After ##gs: ##g 15, ##gs 5, ##s 0. Every pair scores 1/36 (h ##u 15/(15*36),
    # ##u ##g 15/(36*15), ##u ##gs 5/(36*5), p ##u, ##u ##n, b ##u): a tie. The rule
    # "first pair seen" picks h ##u (first pair of the first word), as the course does.
    m2 = merges[1]
    assert (m2.left, m2.right, m2.new_token, m2.count) == ("h", "##u", "hu", 15)
    assert m2.score == pytest.approx(1 / 36) and m2.tie
    # After hu: hu 15, ##g 15, ##gs 5, p 17, ##u 21, ##n 16, b 4.
    #   hu ##g 10/(15*15)=2/45 (~1/22.5), hu ##gs 5/(15*5)=1/15  <- best, alone,
    #   p ##u 17/(17*21)=1/21, ##u ##g 5/(21*15)=1/63, ##u ##n 16/(21*16)=1/21, b ##u 4/(4*21)=1/21.
    # The course (and the seed's source) say hu ##g and hu ##gs both score 1/15 and
    # merge "hug" third: its arithmetic slips (hu ##g is 10/225). Following the
    # formula, "hugs" comes third and "hug" (10/(10*15)=1/15, then alone) fourth.
    m3, m4 = merges[2], merges[3]
    assert (m3.new_token, m3.count, m3.tie) == ("hugs", 5, False)
    assert m3.score == pytest.approx(1 / 15)
    assert (m4.new_token, m4.count, m4.tie) == ("hug", 10, False)
    assert m4.score == pytest.approx(1 / 15)
    # Now p 17, ##u 21, ##g 5, ##n 16, b 4: p ##u, ##u ##g (5/(21*5)), ##u ##n, b ##u all
    # 1/21; ##u ##g was seen before p ##u (second pair of the first word), so it wins.
    assert (merges[4].new_token, merges[4].tie) == ("##ug", True)
    assert isinstance(events[-1], TrainingStopped)


def test_frequency_score_is_bpe_with_prefix():
    model, merges, _ = run(HUG, extra={"score": "frequency"})
    # Counts: ##u ##g 20, ##u ##n 16, then h ##ug 15, p ##un 12, then p ##ug 5 ties hug ##s 5:
    # the smaller (left id, right id) wins, and "p" (id 5) comes before "hug" (id 14).
    assert [(m.new_token, m.count) for m in merges] == [
        ("##ug", 20),
        ("##un", 16),
        ("hug", 15),
        ("pun", 12),
        ("pug", 5),
        ("hugs", 5),
        ("bun", 4),
    ]
    assert [m.tie for m in merges] == [False, False, False, False, True, False, False]
    # tokenizers' alphabet: every character bare, ## for the non-initial ones.
    base = sorted(model.get_vocab(), key=model.token_to_id)[:12]
    assert base == ["[UNK]", "b", "g", "h", "n", "p", "s", "u", "##g", "##n", "##s", "##u"]


def test_vocab_order_specials_alphabet_then_creation_order():
    model, merges, _ = run(HUG, special_tokens=["[PAD]", "[UNK]", "[CLS]"])
    ids = model.get_vocab()
    assert [ids["[PAD]"], ids["[UNK]"], ids["[CLS]"]] == [0, 1, 2]
    made = [m.new_token for m in merges]
    assert [ids[t] for t in made] == list(range(len(ids) - len(made), len(ids)))
    assert [m.vocab_size for m in merges] == [ids[t] + 1 for t in made]


def test_events_progress_first_and_stop_last():
    _, merges, events = run(HUG, vocab_size=10)
    first_merge = next(i for i, e in enumerate(events) if isinstance(e, MergeEvent))
    assert any(isinstance(e, Progress) for e in events[:first_merge])
    assert isinstance(events[-1], TrainingStopped)
    assert events[-1].vocab_size == 10 and events[-1].reason == "vocab size reached"
    assert len(merges) == 2


def test_min_frequency_stops_rare_pairs():
    _, merges, events = run(HUG, min_frequency=13, extra={"score": "frequency"})
    assert [m.count for m in merges] == [20, 16, 15]
    assert "13" in events[-1].reason


def test_unknown_score_is_a_config_error():
    with pytest.raises(ConfigError):
        drain(train_wordpiece(HUG, TrainOptions("wordpiece", extra={"score": "entropy"})))


def test_unk_token_is_added_when_no_special_tokens():
    model, _, _ = run(HUG, special_tokens=[])
    assert model.token_to_id("[UNK]") == 0


def test_limit_alphabet_drops_rare_characters():
    model, _, _ = run({"aab": 3, "ac": 1}, vocab_size=1, limit_alphabet=2, extra={"score": "frequency"})
    assert "c" not in model.get_vocab() and "##c" not in model.get_vocab()


@pytest.mark.parametrize("word_counts", [{}, {"": 3, "a": 0}])
def test_empty_corpus_is_a_corpus_error(word_counts):
    with pytest.raises(CorpusError):
        run(word_counts)


def test_single_characters_only_stop_for_lack_of_pairs():
    model, merges, events = run({"a": 3, "b": 1})
    assert model.get_vocab() == {"[UNK]": 0, "a": 1, "b": 2} and not merges
    assert events[-1].reason == "no pair left"


def test_alphabet_larger_than_vocab_size_is_kept_and_said():
    model, merges, events = run(HUG, vocab_size=3)
    assert model.vocab_size == 8 and not merges
    assert "already fill" in events[-1].reason and events[-1].reached_target


def test_negative_alphabet_limit_is_a_config_error():
    with pytest.raises(ConfigError):
        run(HUG, limit_alphabet=-1)


# -- a naive reference: recount everything at every step ------------------------------------
def naive(word_counts: dict[str, int], score: str, vocab_size: int, prefix="##"):
    """The algorithm as written in the module docstring, without any incremental bookkeeping."""
    words = [([w[0]] + [prefix + c for c in w[1:]], n) for w, n in word_counts.items() if w and n > 0]
    if score == "likelihood":
        bare = sorted({syms[0] for syms, _ in words})
    else:
        bare = sorted({c for w, n in word_counts.items() if n > 0 for c in w})
    vocab = ["[UNK]"] + bare + sorted({s for syms, _ in words for s in syms[1:]})
    ids = {t: i for i, t in enumerate(vocab)}
    serial: dict = {}
    out = []
    while len(ids) < vocab_size:
        pairs: dict = {}
        units: dict = {}
        for syms, n in words:
            for s in syms:
                units[s] = units.get(s, 0) + n
            for p in zip(syms, syms[1:]):
                pairs[p] = pairs.get(p, 0) + n
                serial.setdefault(p, len(serial))
        if not pairs:
            break
        if score == "likelihood":
            value = {p: Fraction(c, units[p[0]] * units[p[1]]) for p, c in pairs.items()}
            best = min(pairs, key=lambda p: (-value[p], serial[p]))
        else:
            value = pairs
            best = min(pairs, key=lambda p: (-pairs[p], ids[p[0]], ids[p[1]]))
        tie = sum(1 for p in pairs if value[p] == value[best]) > 1
        a, b = best
        new = a + (b[len(prefix) :] if b.startswith(prefix) else b)
        ids.setdefault(new, len(ids))
        out.append((a, b, new, pairs[best], tie))
        merged_words = []
        for syms, n in words:
            res, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
                    res.append(new)
                    i += 2
                else:
                    res.append(syms[i])
                    i += 1
            merged_words.append((res, n))
        words = merged_words
    return out


WORDS = st.dictionaries(
    st.text(alphabet="abcab가나", min_size=1, max_size=7), st.integers(1, 9), min_size=1, max_size=12
)


@settings(max_examples=150, deadline=None)
@given(WORDS, st.sampled_from(["likelihood", "frequency"]))
# a pair pushed twice with one key tied with itself: the merge of b + ##c was marked a tie
@example({"a": 1, "b": 6, "aa": 4, "aca": 5, "bc가": 1, "aabc": 7, "bcab": 8}, "likelihood")
def test_incremental_trainer_equals_naive_reference(word_counts, score):
    _, merges, _ = run(word_counts, vocab_size=60, extra={"score": score})
    assert [(m.left, m.right, m.new_token, m.count, m.tie) for m in merges] == naive(word_counts, score, 60)
