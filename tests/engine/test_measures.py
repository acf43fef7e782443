"""The report card's measures (core.measures), each on an example worked out by hand."""

from __future__ import annotations

import math

import pytest
from measures_files import abc_bpe, byte_level_bpe, korean_bpe, unigram_metaspace, wordpiece

from core.errors import ConfigError, InputError
from core.events import Progress, drain
from core.measures import (
    BoundaryScores,
    Compression,
    WordFrequencies,
    boundary_scores,
    character_baseline,
    gini,
    guess_language,
    morpheme_boundaries,
    parity,
    renyi_efficiency,
    report,
    shannon_efficiency,
    text_sizes,
    vocabulary_hygiene,
    word_baseline,
    word_inner_boundaries,
)

# -- compression ---------------------------------------------------------------------------------


def test_text_sizes_count_spaces_as_characters_and_bytes_but_not_line_ends():
    s = text_sizes(["hug pug", "철수는  밥"])  # 7 chars; 6 chars (two spaces), 4 × 3 bytes + 2
    assert (s.lines, s.characters, s.bytes, s.words, s.letters) == (2, 13, 21, 4, 10)


def test_compression_ratios():
    c = Compression(3, text_sizes(["hug pug"]))  # hug p ug
    assert c.tokens_per_word == 1.5
    assert c.tokens_per_character == 3 / 7
    assert c.tokens_per_byte == 3 / 7
    assert c.bytes_per_token == 7 / 3
    korean = Compression(4, text_sizes(["철수는 밥"]))  # 5 characters, 13 bytes
    assert korean.tokens_per_byte == 4 / 13 and korean.tokens_per_character == 4 / 5


def test_empty_text_gives_zero_ratios_not_an_error():
    c = Compression(0, text_sizes([]))
    assert (c.tokens_per_word, c.tokens_per_byte, c.bytes_per_token) == (0.0, 0.0, 0.0)


def test_character_baseline_is_one_token_per_non_space_character():
    assert character_baseline(text_sizes(["hug pug"])).tokens_per_word == 3.0
    assert character_baseline(text_sizes(["철수는 밥"])).tokens == 4


def test_word_baseline_keeps_the_most_frequent_words_and_an_unknown_token():
    lines = ["a a a b", "b c"]  # a: 3, b: 2, c: 1
    freq = WordFrequencies(lines)
    assert (freq.distinct, freq.total) == (3, 6)
    assert freq.unknown_rate(3) == 1 / 6  # a, b and <unk>
    assert freq.unknown_rate(2) == 3 / 6  # a and <unk>
    assert freq.unknown_rate(1) == 1.0  # <unk> alone
    assert freq.unknown_rate(4) == 0.0
    b = word_baseline(freq, 3, text_sizes(lines))
    assert b.compression.tokens_per_word == 1.0 and b.unknown_rate == 1 / 6


# -- Rényi and Shannon ------------------------------------------------------------------------------


def test_renyi_efficiency_worked_example():
    # p = (1/2, 1/4, 1/4): sum p^3 = 5/32; H_3 = log2(5/32) / (1 - 3); over log2 3
    expected = math.log2(5 / 32) / -2 / math.log2(3)
    assert renyi_efficiency([2, 1, 1], 3.0) == pytest.approx(expected, abs=1e-12)
    # order 2: sum p^2 = 3/8
    assert renyi_efficiency([2, 1, 1], 2.0) == pytest.approx(-math.log2(3 / 8) / math.log2(3), abs=1e-12)


def test_shannon_efficiency_worked_example():
    assert shannon_efficiency([2, 1, 1]) == pytest.approx(1.5 / math.log2(3), abs=1e-12)
    assert renyi_efficiency([2, 1, 1], 1.0) == shannon_efficiency([2, 1, 1])


def test_efficiency_of_a_uniform_distribution_is_one_and_a_vocab_size_lowers_it():
    assert renyi_efficiency([5, 5, 5, 5]) == pytest.approx(1.0)
    assert shannon_efficiency([5, 5, 5, 5], vocab_size=16) == pytest.approx(0.5)
    assert renyi_efficiency([5, 5, 5, 5], vocab_size=16) == pytest.approx(0.5)


@pytest.mark.parametrize("counts", [[], [7], [0, 0]])
def test_efficiency_of_fewer_than_two_types_is_undefined(counts):
    assert math.isnan(renyi_efficiency(counts)) and math.isnan(shannon_efficiency(counts))


@pytest.mark.parametrize("alpha", [-1.0, math.inf, math.nan])
def test_a_bad_renyi_order_is_a_config_error(alpha):
    with pytest.raises(ConfigError, match="Rényi order"):
        renyi_efficiency([1, 2], alpha)


# -- parity ---------------------------------------------------------------------------------


def test_gini_worked_examples():
    assert gini([1, 1, 2, 4]) == 0.3125  # sum over ordered pairs of |xi - xj| = 20; 20 / (2 · 16 · 2)
    assert gini([3, 3, 3]) == 0.0
    assert gini([0, 0, 0, 1]) == 0.75  # one holds everything: (n - 1) / n
    assert gini([]) == 0.0


def test_parity_premiums_against_the_pivot():
    p = parity({"ko": 30, "en": 20, "ja": 50}, "en")
    assert p.premiums == {"ko": 1.5, "en": 1.0, "ja": 2.5}
    assert p.gini == pytest.approx(gini([30, 20, 50]))
    with pytest.raises(ConfigError, match="pivot"):
        parity({"ko": 1, "en": 1}, "fr")


# -- morphological alignment -------------------------------------------------------------------------


def test_boundary_scores_worked_example_and_pooling():
    s = boundary_scores({2, 4}, {2, 3})
    assert (s.precision, s.recall, s.f1) == (0.5, 0.5, 0.5)
    pooled = s + boundary_scores({1}, {1, 5, 6})  # 2 matched of 3 predicted, of 5 gold
    assert pooled == BoundaryScores(2, 3, 5)
    assert pooled.precision == 2 / 3 and pooled.recall == 2 / 5
    assert pooled.f1 == pytest.approx(2 * (2 / 3) * (2 / 5) / (2 / 3 + 2 / 5))
    assert BoundaryScores(0, 0, 0).f1 == 0.0


def test_word_inner_boundaries_leave_out_word_edges_and_other_scripts():
    # 먹었|고 치킨|을 hello|,world: the cut in "hello,world" is no Korean morpheme's business
    text = "먹었고 치킨을 hello,world"
    offsets = [(0, 2), (2, 3), (4, 6), (6, 7), (8, 13), (13, 14), (14, 19)]
    assert word_inner_boundaries(offsets, text, "ko") == {2, 6}
    # byte pieces of one syllable share its span: no cut inside it; empty spans add nothing
    assert word_inner_boundaries([(0, 1), (0, 1), (1, 1), (1, 2)], "먹고", "ko") == {1}


def test_morpheme_boundaries_and_token_alignment_on_korean(tmp_path):
    assert morpheme_boundaries(["먹었고 치킨을"], "ko") == [{1, 2, 6}]  # 먹|었|고 치킨|을 (Kiwi)
    tok = korean_bpe(tmp_path)  # 먹었|고 치킨|을
    card = drain(report({"ko": tok}, ["먹었고 치킨을"], language="ko"))
    assert card.tokenizers[0].alignment == BoundaryScores(2, 2, 3)  # P = 1, R = 2/3
    assert card.tokenizers[0].alignment.f1 == pytest.approx(0.8)


def test_japanese_morpheme_boundaries_come_from_sudachi():
    (cuts,) = morpheme_boundaries(["吾輩は猫である"], "ja")
    assert {2, 3, 4} <= cuts  # 吾輩|は|猫|...


def test_guess_language():
    assert guess_language(["철수는 치킨을", "ㅋㅋ"]) == "ko"
    assert guess_language(["吾輩は猫である"]) == "ja"
    assert guess_language(["中文没有假名"]) is None  # kanji without kana is not Japanese
    assert guess_language(["hug pug", ""]) is None


# -- vocabulary hygiene ----------------------------------------------------------------------------


def test_hygiene_of_a_bpe_with_an_unreachable_and_intermediate_tokens(tmp_path):
    tok = abc_bpe(tmp_path)  # a b c ab bc abc; merges a+b, b+c, a+bc
    assert tok.encode("ab c a").tokens == ["ab", "c", "a"]
    used = {0: 1, 2: 1, 3: 1}  # a, c, ab
    h = vocabulary_hygiene(tok, used)
    assert h.unreachable == (5,)  # "abc" encodes as ab + c
    assert h.unused == (1, 4, 5)  # b, bc, abc
    assert h.intermediate_only == (1, 4)  # b (in a+b, b+c) and bc (in a+bc); abc builds nothing
    assert h.undecodable == h.byte_pieces == h.control_pieces == ()
    without_corpus = vocabulary_hygiene(tok)
    assert without_corpus.unused is None and without_corpus.intermediate_only is None
    assert without_corpus.unreachable == (5,)


def test_hygiene_of_byte_level_pieces(tmp_path):
    tok = byte_level_bpe(tmp_path)  # h i Ġ ì(0xEC) Ā(0x00) hi
    h = vocabulary_hygiene(tok)
    assert h.undecodable == (3,)  # 0xEC alone is no UTF-8 character
    assert h.byte_pieces == (3,)
    assert h.control_pieces == (4,)  # U+0000
    assert h.unreachable == ()  # "h" and "i" alone are themselves, " " is Ġ, "hi" is hi


def test_hygiene_leaves_special_tokens_out(tmp_path):
    from measures_files import write_bpe

    from core.formats.detect import open_tokenizer

    added = [
        {"id": 3, "content": "<s>", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
    ]  # fmt: skip
    path = write_bpe(tmp_path / "t.json", {"a": 0, "b": 1, "ab": 2, "<s>": 3}, ["a b"], added_tokens=added)
    h = vocabulary_hygiene(open_tokenizer(path).tokenizer, {})
    assert h.special == (3,)
    assert h.unused == (0, 1, 2)
    assert 3 not in h.unreachable


@pytest.mark.parametrize("make", [wordpiece, unigram_metaspace])
def test_in_word_pieces_are_reachable_when_the_model_cuts_them_whole(tmp_path, make):
    """WordPiece's ##-pieces and Metaspace's word-inner pieces (s, not ▁s) never come out of
    encoding their text alone, yet are ordinary tokens: the model cuts them from inside a word."""
    tok = make(tmp_path)
    assert tok.encode("hugs").tokens in (["hug", "##s"], ["▁hug", "s"])
    assert vocabulary_hygiene(tok).unreachable == ()


def test_a_token_its_pre_tokenizer_always_cuts_is_unreachable(tmp_path):
    """A token holding a space, behind a pre-tokenizer that splits on spaces, can never be made."""
    from measures_files import write_bpe

    from core.formats.detect import open_tokenizer

    vocab = {"a": 0, "b": 1, " ": 2, "a ": 3, "a b": 4}
    merges = [["a", " "], ["a ", "b"]]
    tok = open_tokenizer(write_bpe(tmp_path / "t.json", vocab, merges)).tokenizer
    assert tok.encode("a b").tokens == ["a", "b"]
    assert vocabulary_hygiene(tok).unreachable == (2, 3, 4)


# -- the whole report ----------------------------------------------------------------------------


class _Spy:
    """A tokenizer that notes every text it is asked to encode."""

    def __init__(self, tokenizer):
        self._tokenizer = tokenizer
        self.texts: list[str] = []

    def __getattr__(self, name):
        return getattr(self._tokenizer, name)

    def encode(self, text, *a, **k):
        self.texts.append(text)
        return self._tokenizer.encode(text, *a, **k)

    def encode_ids(self, text, *a, **k):
        self.texts.append(text)
        return self._tokenizer.encode_ids(text, *a, **k)

    def encode_batch(self, texts, *a, **k):
        self.texts.extend(texts)
        return self._tokenizer.encode_batch(texts, *a, **k)

    def encode_batch_ids(self, texts, *a, **k):
        texts = list(texts)
        self.texts.extend(texts)
        return self._tokenizer.encode_batch_ids(texts, *a, **k)


def test_report_encodes_each_corpus_line_once_and_derives_every_measure(tmp_path):
    lines = ["ab c a", "abc ab", "c c b a"]  # ab c a | ab c ab | c c b a: 10 tokens
    spy = _Spy(abc_bpe(tmp_path))
    events = []
    card = drain(report({"abc": spy}, lines, alignment_lines=2), events.append)
    for line in lines:
        assert spy.texts.count(line) == 1, line
    (row,) = card.tokenizers
    assert row.compression.tokens == 10 and card.sizes.words == 9
    assert row.compression.tokens_per_word == 10 / 9
    # ab: 3, c: 4, a: 2, b: 1 -> efficiency of those counts
    assert row.renyi == renyi_efficiency([3, 4, 2, 1])
    assert row.shannon == shannon_efficiency([3, 4, 2, 1])
    assert row.types_used == 4 and row.vocab_used == 4 / 6
    assert row.hygiene.unused == (4, 5) and row.hygiene.intermediate_only == (4,)
    assert row.word_baseline.unknown_rate == WordFrequencies(lines).unknown_rate(6)
    assert card.language is None and row.alignment is None and card.alignment_lines == 0
    phases = [e.phase for e in events if isinstance(e, Progress)]
    assert phases[0] == "words" and "encode" in phases and phases[-1] == "hygiene"
    encoded = [e for e in events if e.phase == "encode"]
    assert encoded[-1].done == encoded[-1].total == card.sizes.bytes


def test_report_parity_on_small_parallel_files(tmp_path):
    tok = abc_bpe(tmp_path)
    parallel = {"x": ["ab c", "a"], "y": ["a b c", "ab"]}  # x: ab c | a = 3 tokens; y: a b c | ab = 4
    card = drain(report([tok], ["a"], parallel, pivot="x"))
    p = card.tokenizers[0].parity
    assert p.tokens == {"x": 3, "y": 4} and p.premiums == {"x": 1.0, "y": 4 / 3}
    assert p.gini == gini([3, 4])
    assert card.pivot == "x" and card.parallel_lines == 2
    # the pivot defaults to en, else the first language
    assert drain(report([tok], ["a"], {"ko": ["a"], "en": ["ab"]})).pivot == "en"


@pytest.mark.parametrize(
    ("parallel", "message"),
    [
        ({"x": ["a"]}, "at least two"),
        ({"x": ["a"], "y": ["a", "b"]}, "same number of lines"),
    ],
)
def test_report_refuses_parallel_files_that_are_not(tmp_path, parallel, message):
    with pytest.raises(ConfigError, match=message):
        drain(report([abc_bpe(tmp_path)], ["a"], parallel))


def test_report_refuses_bad_input(tmp_path):
    tok = abc_bpe(tmp_path)
    with pytest.raises(ConfigError, match="at least one tokenizer"):
        drain(report({}, ["a"]))
    with pytest.raises(InputError, match="line 2"):
        drain(report([tok], ["a", b"b"]))  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="ko or ja"):
        drain(report([tok], ["a"], language="fr"))
    with pytest.raises(ConfigError, match="pivot"):
        drain(report([tok], ["a"], {"x": ["a"], "y": ["b"]}, pivot="z"))


def test_report_samples_korean_lines_for_alignment(tmp_path):
    tok = korean_bpe(tmp_path)
    lines = ["먹었고 치킨을"] * 5
    card = drain(report([tok], lines, alignment_lines=2))
    assert card.language == "ko" and card.alignment_lines == 2
    assert card.tokenizers[0].alignment == BoundaryScores(4, 4, 6)
    assert card.tokenizers[0].compression.tokens == 20  # every line counted, sampled or not
