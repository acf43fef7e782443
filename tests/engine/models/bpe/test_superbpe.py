"""SuperBPE (Liu et al., 2025): stage 1 is plain byte-level BPE on words up to the transition,
stage 2 goes on from stage 1's encoding of the stage-2 pieces and learns tokens across spaces,
with the reference trainer's limits (4 words, no ': '). Parity with `tokenizers` loading the
saved tokenizer.json is tests/parity/test_superbpe_parity.py."""

from __future__ import annotations

from collections import Counter

import pytest

from core.errors import ConfigError
from core.events import MergeEvent, StageStarted, TrainingStopped, drain
from core.models.bpe.superbpe import stage1_words, train_superbpe
from core.models.bpe.trainer import learn_merges
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from tests.conftest import CORPORA

SPACE = "Ġ"


def crosses_space(token: str) -> bool:
    """A superword: a space after something that is not a space (``ĠofĠthe``, ``,Ġand``)."""
    return any(c == SPACE and p != SPACE for p, c in zip(token, token[1:]))


def train(lines, vocab_size, **extra):
    options = TrainOptions("superbpe", vocab_size=vocab_size, extra=extra)
    events: list = []
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options), events.append)
    return tok, events, options


@pytest.fixture(scope="module")
def botchan():
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:2500]
    return lines, train(lines, 1500, transition=1000)


def test_the_stages_are_marked_and_merges_number_on(botchan):
    _, (tok, events, _) = botchan
    stages = [e for e in events if isinstance(e, StageStarted)]
    merges = [e for e in events if isinstance(e, MergeEvent)]
    assert [s.stage for s in stages] == [1, 2]
    second = stages[1]
    assert second.vocab_size == 1000 and second.after_step == 1000 - 256  # the 256 bytes, then merges
    assert [m.step for m in merges] == list(range(1, len(merges) + 1))
    assert events.index(second) == events.index(merges[second.after_step - 1]) + 1
    assert merges[second.after_step - 1].vocab_size == 1000
    assert [e for e in events if isinstance(e, TrainingStopped)] == [events[-1]]  # stage 1's end is not one
    assert events[-1].vocab_size == len(tok.model.vocab) == 1500


def test_superwords_come_in_stage_2_only(botchan):
    _, (tok, events, _) = botchan
    merges = [e for e in events if isinstance(e, MergeEvent)]
    after = next(e for e in events if isinstance(e, StageStarted) and e.stage == 2).after_step
    assert not any(crosses_space(m.new_token) for m in merges[:after])
    superwords = [m.new_token for m in merges[after:] if crosses_space(m.new_token)]
    assert len(superwords) > 150 and "ĠofĠthe" in superwords
    assert tok.encode("by the way, it was of the same.").tokens.count("ĠofĠthe") == 1


def test_stage_1_is_plain_bpe_on_the_words(botchan):
    """With the transition at the vocabulary size SuperBPE is the BPE trainer on stage 1's words:
    the same merge list, and the same first 744 merges at transition 1000."""
    lines, (tok, _, options) = botchan
    counts = pre_tokenize_lines(lines, options)
    plain_vocab, plain_merges = drain(learn_merges(stage1_words(counts), options._replace(vocab_size=1000)))
    assert tok.model.merges[: len(plain_merges)] == plain_merges
    only1 = drain(train_superbpe(counts, options._replace(vocab_size=1000, extra={"transition": 1000})))
    assert only1.merges == plain_merges and only1.vocab == plain_vocab


def test_stage_2_starts_from_the_stage_1_encoding(botchan):
    """Stage 2's words are the stage-2 pieces as stage 1's merges encode them (the reference
    replays stage 1's merges from characters instead and can leave some unapplied: see the
    module docstring), so its first merge is the most frequent pair of those encodings, the
    smaller (left id, right id) first among equals."""
    lines, (tok, events, options) = botchan
    counts = pre_tokenize_lines(lines, options)
    after = next(e for e in events if isinstance(e, StageStarted) and e.stage == 2).after_step
    cut = tok.model.truncated(1000)
    assert cut.merges == tok.model.merges[:after]
    pairs: Counter = Counter()
    for piece, n in counts.items():
        ids = cut.tokenize_ids(piece)
        for pair in zip(ids, ids[1:]):
            pairs[pair] += n
    top = max(pairs.values())
    left, right = min(p for p, c in pairs.items() if c == top)
    first = [e for e in events if isinstance(e, MergeEvent)][after]
    assert (first.left, first.right, first.count) == (cut.id_to_token(left), cut.id_to_token(right), top)


def test_the_word_limit():
    lines = ["by the way it is what it is and so on"] * 30 + ["note: the end"] * 30
    whole = "byĠtheĠwayĠitĠisĠwhatĠitĠisĠandĠsoĠon"
    for max_words, longest in ((4, 4), (2, 2), (0, 11)):
        _, events, _ = train(lines, 400, transition=290, max_words=max_words)
        made = [e.new_token for e in events if isinstance(e, MergeEvent)]
        assert max(len([w for w in t.split(SPACE) if w]) for t in made) <= longest
        assert (whole in made) == (max_words == 0)


def test_the_colon_rule():
    lines = ["note: the end of it"] * 40
    _, events, _ = train(lines, 300, transition=270)
    made = [e.new_token for e in events if isinstance(e, MergeEvent)]
    assert not any(":Ġ" in t for t in made) and "ĠtheĠendĠofĠit" in made
    _, events, _ = train(lines, 300, transition=270, colon_rule=False)
    assert any(":Ġ" in e.new_token for e in events if isinstance(e, MergeEvent))


def test_where_stage_2_may_cross_punctuation():
    """The reference's stage-2 pattern cuts out runs of two or more punctuation characters,
    numbers (in threes) and the spaces before a space, not one punctuation mark: a superword
    may cross a comma or a full stop (",Ġand", ".ĠThe"); only ': ' is refused. We follow it."""
    tok, _, _ = train(["It was late. The end, and so... 12345 done"] * 30, 320, transition=290)
    pieces = tok.pre_tokenizer.split_words("It was late. The end, and so... 12345 done")
    assert pieces == ["ItĠwasĠlate.ĠTheĠend,ĠandĠso", "...", "Ġ", "123", "45", "Ġdone"]
    assert "late.ĠTheĠend" in "".join(tok.encode("It was late. The end").tokens)
    assert any("." + SPACE in t for t in tok.model.vocab)


def test_unsplit_stage_2():
    """The other split rule: no cut at all in stage 2 (each line one piece)."""
    options = TrainOptions(
        "superbpe", vocab_size=280, pre_tokenizer="superbpe-unsplit", extra={"transition": 260}
    )
    tok = drain(train_from_counts(pre_tokenize_lines(["a b... c"] * 3, options), options))
    assert tok.pre_tokenizer.split_words("a b... c") == ["aĠb...Ġc"]
    assert "aĠb...Ġc" in tok.model.vocab


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"extra": {"transition": 2000}}, "transition must be a vocabulary size from 1 to 1,000"),
        ({"extra": {"transition": 0}}, "transition must be"),
        ({"extra": {"transition": 0.5}}, "transition must be"),
        ({"extra": {"max_words": -1}}, "word limit"),
        ({"extra": {"colon_rule": "yes"}}, "colon rule"),
        ({"pre_tokenizer": "bytelevel"}, "stage 2 splits with superbpe or superbpe-unsplit"),
    ],
)
def test_bad_options_fail_before_training(kwargs, words):
    with pytest.raises(ConfigError, match=words):
        TrainOptions("superbpe", vocab_size=1000, **kwargs)


def test_superbpe_options_belong_to_superbpe():
    with pytest.raises(ConfigError, match="'transition' is a superbpe option"):
        TrainOptions("bpe", vocab_size=1000, extra={"transition": 900})


def test_default_transition_is_90_percent(botchan):
    lines, _ = botchan
    _, events, _ = train(lines[:300], 600)
    assert next(e for e in events if isinstance(e, StageStarted) and e.stage == 2).vocab_size == 540
