"""Properties of the text pipeline (core.normalizers, core.pre_tokenizers), and parity with
`tokenizers` on hypothesis strings and on every line of the three real corpora.

The properties are the contract the GUI relies on to colour spans of the *original* text:
pieces carry spans that lie in the text, in order, without overlap, and each span's original
text maps (by the stage's own mapping) to exactly its piece.
"""

from __future__ import annotations

import functools
import unicodedata

import pytest
from conftest import CORPUS_FILES
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import PreTokenizedString, Regex
from tokenizers import normalizers as hf_norm
from tokenizers import pre_tokenizers as hf_pre

from core import normalizers as ours_norm
from core import pre_tokenizers as ours_pre
from core.bytelevel import chars_to_bytes
from core.normalizers import normalizer_from_names
from core.pre_tokenizers import PRE_TOKENIZER_NAMES, pre_tokenizer_from_name
from core.text import NormalizedString

# --- strings that exercise the pipeline ------------------------------------------------------

_PIECES = [
    *"가나다라먹고는을를이가은한국어",  # Hangul syllables
    "\u1100\u1161",
    "\u1100\u1161\u11a8",
    "ㄱ",
    "ㅋㅋ",
    "ㅏ",  # conjoining and compatibility jamo
    *"abcXYZ",
    "hello",
    "HELLO",
    "İ",
    "ß",
    "Σ",
    "ﬁ",
    "Ａ",
    "①",
    "½",
    "é",
    "e\u0301",
    "\u0301",
    "a\u0323\u0302",
    "\u212b",
    "\u1e9b\u0323",  # combining marks, canonical reordering, Å sign
    "😀",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "🇰🇷",  # emoji: astral, modifiers, ZWJ, flags
    "吾輩",
    "は",
    "カタカナ",
    "ｶﾀｶﾅ",  # Japanese, half-width kana
    " ",
    "  ",
    "\t",
    "\u3000",
    "\xa0",
    "\u2028",
    "\x1c",
    "\x85",
    "\u200b",
    ",",
    ".",
    "!",
    "?",
    "'s",
    "'ll",
    "’",
    "(",
    ")",
    "-",
    "$",
    "%",
    "~",
    "…",
    "「",
    "」",
    "、",
    "0",
    "123",
    "٣",
    "²",
    "_",
    "▁",
    "Ġ",
]
MIXED_TEXT = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)
# subtle: code points unassigned in Python's Unicode database (Cn) are left out: the `regex`
# module, Python's unicodedata and Rust each follow their own Unicode version, and disagree
# on which of them are letters. That is a version skew, not a pipeline property.
# The same holds for characters newer than one side's tables (U+08CF has a combining class in
# Python's Unicode 14 and none in `tokenizers`' tables): only characters both agree on are drawn.
# And punctuation: `tokenizers`' Punctuation and BERT pre-tokenizers take it from older tables
# (U+11660, punctuation since Unicode 9, is not punctuation to them), so only punctuation that
# already was in Unicode 3.2 (Python's `unicodedata.ucd_3_2_0`) is drawn.


@functools.cache
def _same_in_both_unicode_tables(char: str) -> bool:
    if unicodedata.category(char).startswith("P") and unicodedata.ucd_3_2_0.category(
        char
    ) != unicodedata.category(char):
        return False
    probes = [f"a{char}\u0300", f"a{char}\u0316", char]
    return all(
        unicodedata.normalize(form, t) == hf_form().normalize_str(t)
        for t in probes
        for form, hf_form in (("NFD", hf_norm.NFD), ("NFKC", hf_norm.NFKC))
    )


ANY_TEXT = st.text(
    st.characters(blacklist_categories=["Cs", "Cn"]).filter(_same_in_both_unicode_tables), max_size=40
)
TEXTS = st.one_of(MIXED_TEXT, ANY_TEXT)

# Our pre-tokenizer name -> the `tokenizers` component it must match.
HF_PRE_TOKENIZERS = {
    "whitespace": lambda: hf_pre.Whitespace(),
    "whitespace-split": lambda: hf_pre.WhitespaceSplit(),
    "bert": lambda: hf_pre.BertPreTokenizer(),
    "gpt2": lambda: hf_pre.Split(Regex(ours_pre.GPT2_PATTERN), behavior="isolated"),
    "bytelevel": lambda: hf_pre.ByteLevel(add_prefix_space=False),
    "metaspace": lambda: hf_pre.Metaspace(),
    "punctuation": lambda: hf_pre.Punctuation(),
    "digits": lambda: hf_pre.Digits(individual_digits=False),
    # SuperBPE's stage 2, as its reference writes it in tokenizer.json
    "superbpe": lambda: hf_pre.Sequence(
        [
            hf_pre.Split(Regex(ours_pre.SUPERBPE_STAGE2_PATTERN), behavior="isolated"),
            hf_pre.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    ),
    "superbpe-unsplit": lambda: hf_pre.ByteLevel(add_prefix_space=False, use_regex=False),
}
OURS_EXTRA = {"bytelevel-prefix": lambda: ours_pre.ByteLevel(add_prefix_space=True)}
HF_EXTRA = {"bytelevel-prefix": lambda: hf_pre.ByteLevel(add_prefix_space=True)}
PARITY_NAMES = sorted(HF_PRE_TOKENIZERS) + sorted(OURS_EXTRA)


def ours(name):
    return OURS_EXTRA[name]() if name in OURS_EXTRA else pre_tokenizer_from_name(name)


def theirs(name):
    return HF_EXTRA[name]() if name in HF_EXTRA else HF_PRE_TOKENIZERS[name]()


# Normalizers by our name -> `tokenizers`.
HF_NORMALIZERS = {
    "nfc": lambda: hf_norm.NFC(),
    "nfd": lambda: hf_norm.NFD(),
    "nfkc": lambda: hf_norm.NFKC(),
    "nfkd": lambda: hf_norm.NFKD(),
    "lowercase": lambda: hf_norm.Lowercase(),
    "nfkc,lowercase": lambda: hf_norm.Sequence([hf_norm.NFKC(), hf_norm.Lowercase()]),
    "nfd,lowercase,nfc": lambda: hf_norm.Sequence([hf_norm.NFD(), hf_norm.Lowercase(), hf_norm.NFC()]),
}


# --- pre-tokenizer properties ----------------------------------------------------------------


def _check_spans(name: str, pre, text: str) -> None:
    pieces = pre.pre_tokenize_str(text)
    # the fast path used for counting gives exactly the same pieces
    assert pre.split_words(text) == [p for p, _ in pieces]
    previous_end = 0
    prefixed = isinstance(pre, ours_pre.ByteLevel) and pre.add_prefix_space and text and text[0] != " "
    for i, (piece, (start, end)) in enumerate(pieces):
        assert piece, "no empty pieces"
        original = text[start:end]
        if prefixed and i == 0 and piece == "Ġ":
            # subtle: a prefix space alone (before "\t…") spans text[0], as in `tokenizers`,
            # so the next piece's span overlaps it; it is the one piece not in the text.
            assert (start, end) == (0, 1)
            continue
        assert previous_end <= start <= end <= len(text), (pieces, text)
        previous_end = end
        if isinstance(pre, ours_pre.ByteLevel) or name == "superbpe":
            # byte characters map back to the UTF-8 of the span; the prefix space spans text[0]
            decoded = chars_to_bytes(piece).decode("utf-8")
            assert decoded == original or (prefixed and i == 0 and decoded == " " + original)
        elif isinstance(pre, ours_pre.Metaspace):
            mapped = original.replace(" ", pre.replacement)
            assert piece == mapped or (start == 0 and piece == pre.replacement + mapped), (piece, original)
        else:
            assert piece == original
    # what lies between pieces is whitespace for the splitters that drop it, nothing for the others
    joined = "".join(p for p, _ in pieces)
    if name in ("whitespace", "whitespace-split", "bert"):
        gaps = _gaps(text, [span for _, span in pieces])
        assert all(ours_pre_is_space(g) for g in gaps), (gaps, text)
    elif name in ("gpt2", "punctuation", "digits", "none"):
        assert joined == text
    elif name.startswith(("bytelevel", "superbpe")):
        decoded = chars_to_bytes(joined).decode("utf-8")
        assert decoded == text or decoded == " " + text
    elif name == "metaspace":
        replaced = text.replace(" ", "▁")
        assert joined in (replaced, "▁" + replaced)


def _gaps(text: str, spans: list[tuple[int, int]]) -> list[str]:
    bounds = [0] + [x for span in spans for x in span] + [len(text)]
    return [text[a:b] for a, b in zip(bounds[::2], bounds[1::2])]


def ours_pre_is_space(s: str) -> bool:
    return all(ours_norm.is_rust_whitespace(c) for c in s)


# "sentencepiece" is spm_train's word count, which only counts a corpus for the sentencepiece-*
# trainers (the model they train has no pre-tokenizer); it is refused elsewhere (tested below)
ALL_NAMES = sorted(set(PRE_TOKENIZER_NAMES) - {"sentencepiece"}) + sorted(OURS_EXTRA)


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece", "unigram", "picky-bpe"])
def test_the_sentencepiece_word_count_is_refused_outside_its_trainers(algorithm):
    from core.errors import ConfigError
    from core.options import TrainOptions

    with pytest.raises(ConfigError, match="sentencepiece-bpe or sentencepiece-unigram"):
        TrainOptions(algorithm=algorithm, vocab_size=100, pre_tokenizer="sentencepiece")
    # its own trainers take it (their default)
    assert TrainOptions(algorithm="sentencepiece-bpe", vocab_size=100).pre_tokenizer == "sentencepiece"


@pytest.mark.parametrize("name", ALL_NAMES)
@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_pre_tokenizer_spans_cover_the_original_text(name, text):
    _check_spans(name, ours(name), text)


@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("text", ["", " ", "a", "한", "😀", "  \t ", "\u3000한국어\u3000", "e\u0301"])
def test_pre_tokenizer_edge_cases(name, text):
    _check_spans(name, ours(name), text)


@settings(max_examples=300, deadline=None)
@given(text=TEXTS | st.text(max_size=30))
def test_gpt2_pattern_in_tiktokens_spelling_is_the_same_split(text):
    # one GPT-2 split, two spellings: GPT2_PATTERN as GPT-2 and `tokenizers` write it, and
    # R50K_PATTERN as tiktoken writes it (kept: a rank file's tokenizer.json carries that text)
    assert ours_pre.TiktokenSplit("gpt2").split_raw(text) == ours_pre.GPT2Split().split_words(text)


# --- pre-tokenizer parity with tokenizers ----------------------------------------------------


def _hf(pre, text: str) -> list[tuple[str, tuple[int, int]]]:
    return [(p, tuple(o)) for p, o in pre.pre_tokenize_str(text)]


@pytest.mark.parametrize("name", PARITY_NAMES)
@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_pre_tokenizer_matches_tokenizers(name, text):
    assert ours(name).pre_tokenize_str(text) == _hf(theirs(name), text)


@pytest.mark.parametrize("name", ["whitespace", "bert", "bytelevel"])
@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(
        # every ASCII character, and often what the patterns treat specially
        st.one_of(
            st.characters(max_codepoint=0x7F),
            st.sampled_from(["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", " ", "  ", "\t", "\x0b", "\x1f"]),
            st.sampled_from(["a", "Z", "09", "_", "!?"]),
        ),
        max_size=20,
    ).map("".join)
)
def test_ascii_text_is_split_as_tokenizers_splits_it(name, text):
    # ASCII text takes split_words' `re` path (its own spelling of the pattern): every one of the
    # 128 characters, \x1c-\x1f (not White_Space, but str.isspace) and \x7f included.
    assert ours(name).split_words(text) == [p for p, _ in _hf(theirs(name), text)]


def _corpus_lines(corpora_dir, name: str) -> list[str]:
    with open(corpora_dir / name, encoding="utf-8-sig", newline=None) as f:
        return f.read().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPUS_FILES)
@pytest.mark.parametrize("name", PARITY_NAMES)
def test_pre_tokenizer_matches_tokenizers_on_every_corpus_line(corpora_dir, corpus, name):
    mine, hf = ours(name), theirs(name)
    lines = _corpus_lines(corpora_dir, corpus)
    # Line by line, as a corpus is counted: every line of en-botchan and ja-wagahaiwa; every
    # 10th line (23,747 lines) of ko-movie-reviews, to stay in the CI time budget
    # (`tokenizers`' own per-call overhead dominates: ~20 s per pre-tokenizer for all lines).
    step = 10 if len(lines) > 100_000 else 1
    for i in range(0, len(lines), step):
        line = lines[i]
        expected = _hf(hf, line)
        assert mine.split_words(line) == [p for p, _ in expected], (i, line)
        assert mine.pre_tokenize_str(line) == expected, (i, line)


# --- normalizers -----------------------------------------------------------------------------


def _check_alignments(norm, text: str) -> None:
    out = norm.normalize(NormalizedString.from_str(text))
    assert out.normalized == norm.normalize_str(text)
    assert len(out.alignments) == len(out.normalized)
    assert out.original_length == len(text)
    previous = (0, 0)
    for a, b in out.alignments:
        assert 0 <= a <= b <= len(text)
        assert a >= previous[0] and b >= previous[1], (out.alignments, text)  # monotone
        previous = (a, b)
    if out.normalized == text:
        assert out.alignments == [(i, i + 1) for i in range(len(text))]


@pytest.mark.parametrize("names", sorted(HF_NORMALIZERS))
@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
def test_normalizer_matches_tokenizers_and_aligns(names, text):
    norm = normalizer_from_names(names)
    assert norm.normalize_str(text) == HF_NORMALIZERS[names]().normalize_str(text)
    _check_alignments(norm, text)


def _hf_pipeline(norm_names: str, pre_name: str, text: str):
    pts = PreTokenizedString(text)
    hf_n = HF_NORMALIZERS[norm_names]()
    pts.normalize(lambda ns: hf_n.normalize(ns))
    theirs(pre_name).pre_tokenize(pts)
    return [(p, tuple(o)) for p, o, _ in pts.get_splits(offset_referential="original", offset_type="char")]


def _our_pipeline(norm_names: str, pre_name: str, text: str):
    ns = normalizer_from_names(norm_names).normalize(NormalizedString.from_str(text))
    return [(p.normalized, p.offsets) for p in ours(pre_name).pre_tokenize(ns)]


@pytest.mark.parametrize("norm_names", ["nfkc,lowercase", "nfd", "nfd,lowercase,nfc"])
@pytest.mark.parametrize("pre_name", ["whitespace", "bert", "bytelevel", "metaspace"])
@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_normalized_spans_map_to_the_original_as_tokenizers_does(norm_names, pre_name, text):
    # After normalization, spans still point into the *original* text: the GUI colours those.
    assert _our_pipeline(norm_names, pre_name, text) == _hf_pipeline(norm_names, pre_name, text)


@pytest.mark.slow
@pytest.mark.parametrize("corpus", CORPUS_FILES)
def test_normalizers_match_tokenizers_on_every_corpus_line(corpora_dir, corpus):
    lines = _corpus_lines(corpora_dir, corpus)
    text = "\n".join(lines)
    big = len(lines) > 100_000
    # On the big corpus, two sequences that between them run NFKC, NFD, Lowercase, NFC.
    names = ["nfkc,lowercase", "nfd,lowercase,nfc"] if big else list(HF_NORMALIZERS)
    for name in names:
        # Normalizers never act across "\n", so the whole text at once is every line.
        assert normalizer_from_names(name).normalize_str(text) == HF_NORMALIZERS[name]().normalize_str(
            text
        ), name
    # Alignments and pipeline spans line by line (every 25th line of the big corpus).
    for i in range(0, len(lines), 25 if big else 1):
        line = lines[i]
        _check_alignments(normalizer_from_names("nfkc,lowercase"), line)
        assert _our_pipeline("nfkc,lowercase", "whitespace", line) == _hf_pipeline(
            "nfkc,lowercase", "whitespace", line
        ), (i, line)
