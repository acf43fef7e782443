"""subword-nmt-style application: the seed's glossary examples, @@ output, vocabulary split-back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ConfigError
from core.models.bpe.subword_nmt import SubwordNmt, count_vocabulary

# Codes in subword-nmt's 0.2 convention for the seeds' hug/pug table (000_*: u g, u n, h ug):
# the word-final unit carries </w>, so "ug" at the end of a word is "ug</w>".
CODES = [("u", "g</w>"), ("u", "n</w>"), ("h", "ug</w>"), ("p", "u"), ("h", "u")]


def test_seed_glossary_example_1934usabusa():
    # seed 002_*, isolate_glossary's docstring
    assert SubwordNmt(CODES, glossaries=["USA"]).isolate_glossaries("1934USABUSA") == [
        "1934",
        "USA",
        "B",
        "USA",
    ]


def test_seed_glossary_examples_korean():
    # seed 002_*: glossaries applied one after the other
    bpe = SubwordNmt(CODES, glossaries=["땅콩", "비행"])
    assert bpe.isolate_glossaries("비행기땅콩먹는비행기땅콩비행기?") == [
        "비행",
        "기",
        "땅콩",
        "먹는",
        "비행",
        "기",
        "땅콩",
        "비행",
        "기?",
    ]
    assert SubwordNmt(CODES, glossaries=["땅콩"]).isolate_glossaries("땅콩버터먹고땅콩먹자") == [
        "땅콩",
        "버터먹고",
        "땅콩",
        "먹자",
    ]


def test_glossary_segments_are_never_split_and_get_separators():
    bpe = SubwordNmt(CODES, glossaries=["USA", "[0-9]+"])
    # 1934 and USA match a glossary whole: kept; "B" is one character; then @@ joins them.
    assert bpe.segment_line("1934USABUSA hug\n") == "1934@@ USA@@ B@@ USA hug\n"


def test_merges_by_rank_and_end_of_word():
    bpe = SubwordNmt(CODES)
    # hug: h u g</w> -> (u g</w> rank 0) h ug</w> -> (h ug</w> rank 2) hug</w> -> "hug"
    # pug: p u g</w> -> p ug</w>; "p ug</w>" is no merge -> p@@ ug
    # pun: p u n</w> -> u n</w> (rank 1) beats p u (rank 3) -> p un
    # hun: h u n</w> -> h un ; bug: b ug
    assert bpe.segment_line("hug pug pun hun bug") == "hug p@@ ug p@@ un h@@ un b@@ ug"
    # "ug" inside a word is not "ug</w>": pugs -> p u g s -> (p u rank 3) pu g s
    assert bpe.segment("pugs") == "pu@@ g@@ s"


def test_version_01_uses_a_separate_end_mark():
    bpe = SubwordNmt([("u", "g"), ("ug", "</w>"), ("h", "ug</w>")], version=(0, 1))
    assert bpe.segment("hug hugs") == "hug h@@ ug@@ s"


def test_whitespace_handling_is_subword_nmt_s():
    bpe = SubwordNmt(CODES)
    assert bpe.segment_line("  hug  pug \r\n") == "  hug p@@ ug \r\n"  # edges kept, double spaces dropped
    # A tab is inside the word: h u g \t p u g</w> -> (u g</w>, rank 0) ... p ug</w>, then
    # (h u, rank 4) -> hu; "g" before the tab is not word-final, so it stays alone.
    assert bpe.segment_line("hug\tpug\n") == "hu@@ g@@ \t@@ p@@ ug\n"
    assert bpe.segment_line(" \n") == " \n"
    assert bpe.segment_line("") == ""


def test_vocabulary_splits_rare_subwords_back_recursively():
    # Without a vocabulary "hug" is one subword. With a vocabulary lacking "hug" it is split
    # back by reversing h + ug</w>; "ug" is final and in the vocabulary, "h" needs "h@@".
    bpe = SubwordNmt(CODES, vocabulary={"h@@", "ug", "p@@"})
    assert bpe.segment("hug") == "h@@ ug"
    # "pu" (non-final, from p + u) is not in as "pu@@": split to p@@ u@@; "u@@" is not in
    # the vocabulary either, but no merge made "u", so it stays.
    assert bpe.segment("pugs") == "p@@ u@@ g@@ s"
    # no vocabulary entry for "ug": ug</w> is undone too -> u g
    assert SubwordNmt(CODES, vocabulary={"h@@"}).segment("hug") == "h@@ u@@ g"


def test_split_back_looks_up_non_final_parts_with_the_separator():
    # abcd -> (abc + d</w>): abc is not final, so it must be in as "abc@@"; it is not, so
    # undo ab + c; "ab" is in the vocabulary only bare (as a final subword), which does not
    # count inside a word: undo a + b too. With "ab@@" in the vocabulary, ab stays.
    codes = [("a", "b"), ("ab", "c"), ("abc", "d</w>")]
    assert SubwordNmt(codes, vocabulary={"ab", "d"}).segment("abcd") == "a@@ b@@ c@@ d"
    assert SubwordNmt(codes, vocabulary={"ab@@", "d"}).segment("abcd") == "ab@@ c@@ d"


def test_seed_recursive_split_example():
    # seed 002_*: codes {'는다</w>': ('는', '다</w>')}, vocab {'는', '다</w>'}, segment '는다'.
    # The seed annotates the result as '는', '다</w>'; following the code, the right part is
    # cut to '다' before it is yielded (right = right[:-4]), and as '다' is not in that
    # vocabulary and no merge made '다</w>', the result is ['는', '다'].
    bpe = SubwordNmt([("는", "다</w>")], vocabulary={"는", "다</w>"})
    assert bpe._split_back("는다", final=True) == ["는", "다"]
    assert bpe._split_back("먹는다", final=True) == ["먹는다"]  # not made by any merge: kept


def test_merge_listed_twice_keeps_first_rank():
    # ("a","b") first at rank 0 and again at rank 2; ("b","c") rank 1 must lose to it.
    bpe = SubwordNmt([("a", "b"), ("b", "c"), ("a", "b")])
    assert bpe.segment("abc") == "ab@@ c"


def test_count_vocabulary_as_get_vocab():
    assert count_vocabulary(["b a b\n", " a  c \r\n", "a"]) == {"a": 3, "b": 2, "c": 1}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"vocabulary": set()},  # e.g. a threshold above every count
        {"glossaries": ["("]},  # not a regular expression
        {"version": (0, 3)},
    ],
)
def test_bad_settings_are_config_errors(kwargs):
    with pytest.raises(ConfigError):
        SubwordNmt(CODES, **kwargs)


def test_bad_merges_are_config_errors():
    with pytest.raises(ConfigError):
        SubwordNmt([("a", "b", "c")])
    with pytest.raises(ConfigError):
        SubwordNmt([("a", "")])


BPE = SubwordNmt(CODES + [("a", "b"), ("ab", "c</w>")], glossaries=["USA", "a+"], vocabulary={"ab@@", "c"})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_segment_line_never_raises(line):
    assert isinstance(BPE.segment_line(line), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcUSA가 ", max_size=30))
def test_removing_separators_gives_back_the_words(line):
    # (with \r or \t inside a word subword-nmt may drop a \r after a glossary: see module doc)
    assert BPE.segment_line(line).replace("@@ ", "").split() == line.split()
