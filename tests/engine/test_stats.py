"""core.stats on small inputs whose counts are worked out by hand.

The BPE model is trained on the seeds' hug/pug table (hug 10, pug 5, pun 12,
bun 4, hugs 5) with vocab 11: the alphabet b g h n p s u plus <unk>, then the
merges u+g (20), u+n (16), h+ug (15), as the BPE seed works them out.
"""

from __future__ import annotations

import pytest

from core.encoding import Encoding
from core.events import drain
from core.models.unigram.model import Unigram
from core.options import TrainOptions
from core.pre_tokenizers import Metaspace
from core.stats import (
    EncodingStats,
    boundaries,
    differing_boundaries,
    encoding_stats,
    shared_token_mask,
    unknown_id,
    unknown_mask,
    word_count_stats,
)
from core.tokenizer import Tokenizer
from core.training import train_from_counts

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


@pytest.fixture(scope="module")
def bpe():
    return drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=11)))


@pytest.fixture(scope="module")
def unigram():
    # A metaspace Unigram model that knows the whole words ▁hug and ▁pug.
    pieces = [
        ("<unk>", 0.0),
        ("▁hug", -1.0),
        ("▁pug", -1.0),
        ("▁", -2.0),
        ("h", -3.0),
        ("u", -3.0),
        ("g", -3.0),
        ("p", -3.0),
    ]
    return Tokenizer(Unigram(pieces), pre_tokenizer=Metaspace())


def test_the_seed_merges_are_what_the_hand_counts_below_assume(bpe):
    assert bpe.model.merges == [("u", "g"), ("u", "n"), ("h", "ug")]


def test_encoding_stats_by_hand(bpe):
    # hugs -> hug s ; bug -> b ug ; mug -> <unk> ug (m is not in the alphabet)
    s = encoding_stats(bpe, ["hugs bug mug"])
    assert (s.lines, s.tokens, s.words, s.characters, s.unknown) == (1, 6, 3, 12, 1)
    assert s.distinct_ids == 5  # hug s b ug <unk>
    assert s.vocab_size == 11
    assert s.tokens_per_word == 2.0
    assert s.chars_per_token == 2.0
    assert s.unk_rate == pytest.approx(1 / 6)
    assert s.vocab_used == pytest.approx(5 / 11)


def test_stats_add_up_over_lines(bpe):
    s = encoding_stats(bpe, ["hug", "pun pun"])  # hug | p un, p un
    assert (s.lines, s.tokens, s.words, s.characters, s.unknown) == (2, 5, 3, 10, 0)
    assert s.distinct_ids == 3  # hug p un


def test_empty_input_gives_zero_ratios_not_errors(bpe):
    for lines in ([], [""]):
        s = encoding_stats(bpe, lines)
        assert s.tokens == 0 and s.words == 0
        assert (s.tokens_per_word, s.chars_per_token, s.unk_rate) == (0.0, 0.0, 0.0)
    assert EncodingStats(0, 0, 0, 0, 0, 0, 0).vocab_used == 0.0


def test_a_typed_special_token_is_not_an_unknown_token(bpe):
    enc = bpe.encode("<unk> mug")
    assert enc.tokens == ["<unk>", "<unk>", "ug"]
    assert unknown_id(bpe) == 0
    assert unknown_mask(enc, 0) == [False, True, False]
    s = encoding_stats(bpe, ["<unk> mug"])
    assert s.unknown == 1 and s.words == 1  # the added token is not a word


def test_models_without_an_unknown_token():
    bl = drain(train_from_counts({"ĠíķľêµŃ": 3}, TrainOptions("bytelevel-bpe", vocab_size=260)))
    assert unknown_id(bl) is None
    assert unknown_mask(bl.encode("한"), None) == [False] * len(bl.encode("한").ids)


def test_boundaries_by_hand(bpe):
    enc = bpe.encode("hugs bug")  # hug(0,3) s(3,4) b(5,6) ug(6,8)
    assert boundaries(enc) == {0, 3, 4, 5, 6, 8}
    # with the text, 4 (just before the space) moves past it to 5
    assert boundaries(enc, "hugs bug") == {0, 3, 5, 6, 8}


def test_byte_pieces_of_one_character_add_no_boundary_inside_it():
    bl = drain(train_from_counts({"ĠíķľêµŃ": 3}, TrainOptions("bytelevel-bpe", vocab_size=260)))
    enc = bl.encode("한")  # several byte tokens, all spanning the one syllable
    assert len(enc.ids) > 1
    assert boundaries(enc, "한") == {0, 1}


def test_a_model_and_its_cut_differ_where_the_cut_lacks_a_merge(bpe):
    cut = Tokenizer(bpe.model.truncated(9), pre_tokenizer=bpe.pre_tokenizer)  # only u+g learned
    full, small = bpe.encode("hugs"), cut.encode("hugs")
    assert full.tokens == ["hug", "s"] and small.tokens == ["h", "ug", "s"]
    assert differing_boundaries(full, small, "hugs") == (set(), {1})
    assert shared_token_mask(full, [small], "hugs") == [False, True]
    assert shared_token_mask(small, [full], "hugs") == [False, False, True]


def test_metaspace_and_whitespace_tokenizers_agree_about_spaces(bpe, unigram):
    text = "hug pug"
    u, b = unigram.encode(text), bpe.encode(text)
    assert u.offsets == [(0, 3), (3, 7)]  # ▁pug owns the space
    assert b.offsets == [(0, 3), (4, 5), (5, 7)]  # hug p ug, the space in no token
    assert differing_boundaries(b, u, text) == ({5}, set())
    assert shared_token_mask(u, [b], text) == [True, False]
    assert shared_token_mask(b, [u], text) == [True, False, False]


def test_boundaries_skip_empty_spans():
    assert boundaries(Encoding(offsets=[(0, 0), (0, 2), (2, 2)])) == {0, 2}


def test_word_count_stats_weight_each_word_by_its_count(bpe):
    # hugs -> hug s, twice ; mug -> <unk> ug, once
    s = word_count_stats(bpe, [("hugs", 2), ("mug", 1)])
    assert (s.lines, s.tokens, s.words, s.characters, s.unknown) == (2, 6, 3, 11, 1)
    assert s.distinct_ids == 4  # hug s <unk> ug
    # the same as encoding the words written out
    assert s.tokens == encoding_stats(bpe, ["hugs hugs mug"]).tokens


def test_words_are_the_text_s_whitespace_words_whatever_the_pre_tokenizer(bpe):
    """Punctuation, a morpheme analyser or a long word cut into pieces must not change the divisor
    of tokens per word, or two tokenizers of the same text could not be compared."""
    from core.pre_tokenizers import pre_tokenizer_from_name

    text = "hugs, pug! 철수는 치킨을 먹고 " + "hug" * 2000
    splitting = Tokenizer(bpe.model, None, pre_tokenizer_from_name("whitespace"), bpe.decoder)
    pre_tokens = {w for w in splitting.encode(text).word_ids if w is not None}
    assert len(pre_tokens) > 6  # it does cut "," and "!" off as pre-tokens of their own
    for tok in (bpe, splitting):
        assert encoding_stats(tok, [text]).words == 6


def test_byte_pieces_and_one_token_over_the_same_character_differ_on_both_sides():
    """One token over 한 beside three byte pieces all spanning it: the pieces were 'differing'
    and the one token 'shared' (Compare said 0 differing tokens on one side, 2 on the other)."""
    one = Encoding(offsets=[(0, 1), (2, 5)])
    pieces = Encoding(offsets=[(0, 0), (0, 0), (0, 1), (2, 5)])  # as byte-level pieces are spanned
    assert shared_token_mask(one, [pieces], "한 hug") == [False, True]
    assert shared_token_mask(pieces, [one], "한 hug") == [False, False, False, True]
    # the shared tokens pair off: each side's differing tokens are its tokens less as many
    a, b = shared_token_mask(one, [pieces], "한 hug"), shared_token_mask(pieces, [one], "한 hug")
    assert sum(a) == sum(b)


def test_unknown_rate_without_byte_fallback_counts_each_run_of_bytes_once():
    from core.stats import EncodingStats, byte_counts

    assert byte_counts([5, 1, 2, 7, 3], frozenset({1, 2, 3})) == (3, 2)
    assert byte_counts([5, 1], frozenset()) == (0, 0)
    # 10 tokens, 6 of them bytes in 2 runs: without bytes 6 tokens, 2 of them unknown
    s = EncodingStats(1, 10, 2, 8, 0, 5, 300, byte_tokens=6, byte_runs=2)
    assert s.unk_rate == 0 and s.unk_rate_without_bytes == 2 / 6
