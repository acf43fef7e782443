"""The jamo normalizer and decoder (core.hangul, normalizers.Jamo, decoders.JamoCompose).

Checked against Python's own Unicode database (NFD/NFC), an implementation independent of
ours, on every one of the 11,172 syllables; alignments are checked as a property.
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from core.decoders import JamoCompose
from core.events import drain
from core.hangul import compose_jamo, compose_spans, decompose_syllable, decompose_text
from core.normalizers import NFKC, Jamo, Sequence, normalizer_from_dict, normalizer_from_names
from core.options import TrainOptions, pre_tokenize_lines
from core.text import NormalizedString
from core.training import train_from_counts

ALL_SYLLABLES = "".join(chr(c) for c in range(0xAC00, 0xD7A4))


def test_golden_syllables_from_the_unicode_arithmetic():
    # 철 = U+CCA0: index 8352 = 14*588 + 4*28 + 8 -> ᄎ (U+110E), ᅥ (U+1165), ᆯ (U+11AF)
    assert decompose_syllable("철") == "\u110e\u1165\u11af"
    assert decompose_syllable("가") == "\u1100\u1161"  # no final consonant: two jamo
    assert decompose_syllable("a") == "a"


def test_every_syllable_decomposes_as_nfd_and_composes_back_as_nfc():
    jamo = decompose_text(ALL_SYLLABLES)
    assert jamo == unicodedata.normalize("NFD", ALL_SYLLABLES)
    assert compose_jamo(jamo) == ALL_SYLLABLES == unicodedata.normalize("NFC", jamo)


def test_other_text_is_untouched():
    text = "é ㅋㅋㅋ hello 👋🏽 吾輩"  # an accent NFD would split, compatibility jamo, emoji
    assert Jamo().normalize_str(text) == text
    assert Jamo().normalize(NormalizedString.from_str(text)) == NormalizedString.from_str(text)


def test_compose_spans_index_the_jamo_text():
    assert compose_spans("\u1112\u1161\u11abx\u1100") == [("한", 0, 3), ("x", 3, 4), ("\u1100", 4, 5)]


MIXED = st.lists(
    st.sampled_from([*"철수는치킨을먹고있다한", " ", "a", "é", "ㅋ", "👋🏽", "吾", "\u1100", "\u1161"]),
    max_size=25,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(MIXED)
def test_every_jamo_points_back_to_its_syllable(text):
    out = Jamo().normalize(NormalizedString.from_str(text))
    assert out.normalized == Jamo().normalize_str(text)
    assert len(out.alignments) == len(out.normalized)
    # the characters aligned to each original character are exactly its decomposition
    for i, c in enumerate(text):
        mine = "".join(ch for ch, span in zip(out.normalized, out.alignments) if span == (i, i + 1))
        assert mine == decompose_syllable(c)


@settings(max_examples=100, deadline=None)
@given(MIXED)
def test_decoding_recomposes(text):
    # text that holds no conjoining jamo of its own comes back exactly
    text = "".join(c for c in text if c not in "\u1100\u1161")
    tokens = list(Jamo().normalize_str(text))  # the worst case: one jamo per token
    assert JamoCompose().decode(tokens) == text


def test_combines_with_other_normalizers():
    norm = normalizer_from_names("nfkc,jamo")
    assert isinstance(norm, Sequence) and isinstance(norm.normalizers[0], NFKC)
    out = norm.normalize(NormalizedString.from_str("Ａ한"))  # full-width A, then a syllable
    assert out.normalized == "A\u1112\u1161\u11ab"
    assert out.alignments == [(0, 1), (1, 2), (1, 2), (1, 2)]
    assert normalizer_from_dict(norm.to_dict()).to_dict() == norm.to_dict()


def test_a_jamo_model_decodes_to_syllables():
    lines = ["철수는 치킨을 먹고 볶음밥을 먹고 있다"] * 5
    options = TrainOptions("bpe", vocab_size=40, normalizer="jamo", pre_tokenizer="metaspace")
    counts = pre_tokenize_lines(lines, options)
    assert all(not unicodedata.name(c, "").startswith("HANGUL SYLLABLE") for w in counts for c in w)
    tok = drain(train_from_counts(counts, options))
    enc = tok.encode(lines[0])
    assert tok.decode(enc.ids) == lines[0]
    # spans are whole syllables of the original text, in order and disjoint: a token that
    # ends inside a syllable gets an empty span there, the syllable goes to its last piece
    assert all(0 <= a <= b <= len(lines[0]) for a, b in enc.offsets)
    assert all(b <= c for (_, b), (c, _) in zip(enc.offsets, enc.offsets[1:]))
    covered = "".join(lines[0][a:b] for a, b in enc.offsets)
    assert covered == lines[0].replace(" ", "") or covered == lines[0]
