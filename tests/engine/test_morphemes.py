"""ko-morph and ja-morph (core.morphemes): morpheme cuts, exact offsets, word boundaries.

The golden cuts are the textbook analyses of the sentences (noun + particle, verb stem +
ending), not our output: 철수/는, 치킨/을, 먹/고, 볶음밥/을, 있/다 (the sentence of the Korean
BPE lesson that cites Park et al. 2020) and 吾輩/は/猫/で/ある (Natsume Soseki).
"""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import morphemes
from core.errors import ConfigError
from core.events import drain
from core.hangul import is_hangul
from core.morphemes import MorphemeSplit
from core.normalizers import normalizer_from_names
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import Metaspace, pre_tokenizer_from_dict, pre_tokenizer_from_name
from core.text import NormalizedString
from core.training import train_from_counts

CHEOLSU = "철수는 치킨을 먹고 볶음밥을 먹고 있다"


def test_korean_golden_sentence():
    assert pre_tokenizer_from_name("ko-morph").split_words(CHEOLSU) == [
        "▁철수", "는", "▁치킨", "을", "▁먹", "고", "▁볶음밥", "을", "▁먹", "고", "▁있", "다",
    ]  # fmt: skip


def test_japanese_golden_sentence():
    assert pre_tokenizer_from_name("ja-morph").split_words("吾輩は猫である。") == [
        "▁吾輩", "は", "猫", "で", "ある", "。",
    ]  # fmt: skip


def test_a_contracted_syllable_is_never_cut():
    # the analyser reads 했 as 하 + 었: two morphemes in one character, so no cut inside it
    pieces = MorphemeSplit("ko").pre_tokenize_str("공부했어요")
    assert "".join(p for p, _ in pieces) == "▁공부했어요"
    assert all(b - a >= 1 for _, (a, b) in pieces)
    assert ("▁공부", (0, 2)) in pieces


def test_offsets_point_into_the_original_text_after_nfkc_and_jamo():
    text = "ＡＢ철수는 먹고"
    ns = normalizer_from_names("nfkc,jamo").normalize(NormalizedString.from_str(text))
    pieces = [(p.normalized, p.offsets) for p in MorphemeSplit("ko").pre_tokenize(ns)]
    # the analyser saw syllables; the cuts are the same as on the plain text
    assert [span for _, span in pieces] == [span for _, span in MorphemeSplit("ko").pre_tokenize_str(text)]
    assert [text[a:b] for _, (a, b) in pieces] == ["ＡＢ", "철수", "는", " 먹", "고"]


MIXED = st.lists(
    st.sampled_from(
        ["철수는", "치킨을", "먹고", "했어요", "ㅋㅋ", "hello", "BPE", "don't", ",", "!", "123",
         "👋🏽", "🇰🇷", "吾輩は", "猫である", "カタカナ", "é", " ", "  ", "\t", "▁"]
    ),
    max_size=20,
).map("".join)  # fmt: skip


@pytest.mark.parametrize("language", ["ko", "ja"])
@settings(max_examples=60, deadline=None)
@given(text=MIXED)
def test_mixed_text_keeps_exact_offsets(language, text):
    pre = MorphemeSplit(language)
    pieces = pre.pre_tokenize_str(text)
    assert pre.split_words(text) == [p for p, _ in pieces]
    previous = 0
    for i, (piece, (a, b)) in enumerate(pieces):
        assert previous <= a < b <= len(text)
        original = text[a:b].replace(" ", "▁")
        assert piece == original or (i == 0 and a == 0 and piece == "▁" + original)
        previous = b
    # pieces re-join to the text (spaces as ▁), so the coloured spans cover every character
    assert "".join(p for p, _ in pieces) in (text.replace(" ", "▁"), "▁" + text.replace(" ", "▁"))
    # and the only new cuts are the analyser's, inside metaspace's pieces
    starts = {a for _, (a, _) in pieces}
    assert all(a in starts for _, (a, _) in Metaspace().pre_tokenize_str(text))


NO_HANGUL = st.text(st.characters(blacklist_categories=["Cs", "Cn"]), max_size=30).filter(
    lambda t: not any(is_hangul(c) for c in t)
)


@settings(max_examples=100, deadline=None)
@given(text=NO_HANGUL)
def test_other_scripts_pass_through_ko_morph_unchanged(text):
    assert MorphemeSplit("ko").pre_tokenize_str(text) == Metaspace().pre_tokenize_str(text)


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.sampled_from("abc 123,.!é👋🏽철수ㅋ"), max_size=30))
def test_other_scripts_pass_through_ja_morph_unchanged(text):
    assert MorphemeSplit("ja").pre_tokenize_str(text) == Metaspace().pre_tokenize_str(text)


def test_decoding_restores_the_spaces():
    lines = [CHEOLSU, "철수는 볶음밥을 먹고 치킨을 먹고 있다"] * 3
    options = TrainOptions("bpe", vocab_size=60, pre_tokenizer="ko-morph")
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    for line in lines[:2]:
        enc = tok.encode(line)
        assert tok.decode(enc.ids) == line
        # no token crosses a morpheme boundary: every cut of ko-morph is a token boundary
        starts = {a for a, _ in enc.offsets}
        assert {a for _, (a, _) in MorphemeSplit("ko").pre_tokenize_str(line)} <= starts


def test_serialises_and_reloads():
    pre = MorphemeSplit("ja", prepend_scheme="first")
    d = pre.to_dict()
    assert d["type"] == "MorphemeSplit" and d["language"] == "ja" and d["analyser"] == "sudachipy"
    back = pre_tokenizer_from_dict(d)
    assert isinstance(back, MorphemeSplit) and back.to_dict() == d


def test_a_missing_analyser_names_the_package(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "kiwipiepy_model" else real(name, *a)
    )
    monkeypatch.setattr(morphemes, "_loaded", {})
    with pytest.raises(ConfigError, match="pip install kiwipiepy kiwipiepy_model"):
        pre_tokenizer_from_name("ko-morph")
    with pytest.raises(ConfigError, match="no morpheme analyser for 'fr'"):
        MorphemeSplit("fr")


@pytest.mark.parametrize("line", ["吾輩は猫である。" * 1400, "あ" * 20_000, "名前はまだ無い " * 1500])
def test_japanese_lines_longer_than_sudachi_takes_are_analysed_in_pieces(line):
    # Sudachi refuses inputs over 49,149 bytes; a Japanese line of the corpus runs to 11,183 characters
    pieces = MorphemeSplit("ja").pre_tokenize_str(line)
    assert "".join(p for p, _ in pieces) == "▁" + line.replace(" ", "▁")
    assert all(a < b for _, (a, b) in pieces)
