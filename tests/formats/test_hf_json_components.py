"""Every normalizer and pre-tokenizer, written by us and read by `tokenizers`, cuts and aligns
text exactly as `tokenizers` does: same normalized text, same pieces, same offsets.

The model is a test-only "every character is unknown" model, so each normalized
character becomes one token whose offsets are exactly its alignment, and
``word_ids`` show the pieces. `tokenizers` gets the same model as a BPE with an
empty vocabulary (``fuse_unk`` off), built from the very tokenizer.json we write.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

tokenizers = pytest.importorskip("tokenizers")

from spans import sentencepiece_spans

from core import normalizers as N
from core import pre_tokenizers as P
from core.formats.hf_json import tokenizer_from_dict, tokenizer_to_dict
from core.models.base import ModelBase, Token
from core.text import NormalizedString
from core.tokenizer import AddedToken, Tokenizer


class CharModel(ModelBase):
    """Every character is the unknown token (id 0)."""

    unk_token = "<unk>"

    def tokenize(self, piece: str) -> list[Token]:
        return [Token(0, "<unk>", i, i + 1) for i in range(len(piece))]

    def token_to_id(self, token):
        return 0 if token == "<unk>" else None

    def id_to_token(self, id):
        return "<unk>" if id == 0 else None

    def get_vocab(self):
        return {"<unk>": 0}

    @property
    def vocab_size(self):
        return 1

    def to_dict(self):
        return {
            "type": "BPE",
            "dropout": None,
            "unk_token": "<unk>",
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,
            "vocab": {"<unk>": 0},
            "merges": [],
        }


def _pair(normalizer=None, pre_tokenizer=None, added=(), post_processor=None):
    ours = Tokenizer(
        CharModel(),
        normalizer=normalizer,
        pre_tokenizer=pre_tokenizer,
        added_tokens=list(added),
        post_processor=post_processor,
    )
    theirs = tokenizers.Tokenizer.from_str(json.dumps(tokenizer_to_dict(ours)))
    return ours, theirs


def _assert_same(ours, theirs, text):
    a, b = ours.encode(text), theirs.encode(text)
    assert a.offsets == sentencepiece_spans(b.offsets), (text, a.offsets, b.offsets)  # see tests/spans.py
    # our added tokens have no word id (None) but take a word index, so the others match
    assert len(a.word_ids) == len(b.word_ids), text
    added = {t.id for t in ours.added_tokens}
    for ours_w, theirs_w, i in zip(a.word_ids, b.word_ids, b.ids):
        assert ours_w == (None if i in added else theirs_w), (text, a.word_ids, b.word_ids)
    assert a.tokens == b.tokens, text
    assert a.ids == b.ids, text
    if ours.normalizer is not None:
        assert ours.normalizer.normalize_str(text) == theirs.normalizer.normalize_str(text), text
    if ours.pre_tokenizer is not None and ours.normalizer is None:
        assert ours.pre_tokenizer.pre_tokenize_str(text) == [
            (p, tuple(o)) for p, o in theirs.pre_tokenizer.pre_tokenize_str(text)
        ], text


TRICKY = [
    "",
    " ",
    "a",
    "  leading and trailing  ",
    "Hello, World! It's 2024.",
    "철수는 밥을 먹었다. ㅋㅋㅋ ㅋㅏ ᄀ ᅡ 가나다",
    "\u1100\u1161\u11a8 각",
    "吾輩は猫である。名前はまだ無い。",
    "e\u0301 é ñ Å Å ﬁ ① ２３ ｶﾞ",
    "a\u0323\u0301\u0300x",
    "İstanbul ΣΑΣ Straße",
    "tab\there\nnew\r\nline\x0bv\x0cf\x1cfs\x85nel\xa0nb\u3000ideo\u200bzw",
    "emoji 😀👍🏽 🇰🇷 done",
    "1,234.56 and ٣٤ and Ⅻ ½",
    "\x00nul\ufffdrep\u200e\ue000pua\ufae7cjk-unassigned",
    "marks: \u093e\u20dd\u0301 हिन्दी",
    "don't  stop---now!!",
    "▁already ▁ metaspace",
    "中文字符和한국어 mixed",
    "a\u0301\u0301\u0301b",
    "ＡＢＣ ｱｲｳ",
]

_ALPHABET = st.sampled_from(
    list("ab Z.,!'-1٣½ ̣́ \t\n\x0b\x1c\x85\xa0\u3000가각ㄱㅏᄀ\u1161\u11a8吾ﬁ①Ａｶﾞ😀İΣßé\u200d\x00\ufffd▁")
)
RANDOM_TEXT = st.lists(_ALPHABET, max_size=24).map("".join)

NORMALIZERS = {
    "NFC": N.NFC(),
    "NFD": N.NFD(),
    "NFKC": N.NFKC(),
    "NFKD": N.NFKD(),
    "Lowercase": N.Lowercase(),
    "StripAccents": N.StripAccents(),
    "Strip": N.Strip(),
    "Strip-left": N.Strip(True, False),
    "Prepend": N.Prepend("▁"),
    "Replace-str": N.Replace(" ", "▁"),
    "Replace-multi": N.Replace("ab", "xyz"),
    "Replace-regex": N.Replace({"Regex": r"\s+"}, " "),
    "Replace-delete": N.Replace({"Regex": "[a-c]"}, ""),
    "Bert": N.BertNormalizer(),
    "Bert-cased": N.BertNormalizer(lowercase=False),
    "Bert-strip": N.BertNormalizer(strip_accents=True, lowercase=False),
    "Sequence": N.Sequence([N.NFKC(), N.Lowercase()]),
    "Sequence-nfd": N.Sequence([N.NFD(), N.StripAccents(), N.Lowercase()]),
}

PRE_TOKENIZERS = {
    "Whitespace": P.Whitespace(),
    "WhitespaceSplit": P.WhitespaceSplit(),
    "Bert": P.BertPreTokenizer(),
    "ByteLevel": P.ByteLevel(add_prefix_space=False),
    "ByteLevel-prefix": P.ByteLevel(add_prefix_space=True),
    "ByteLevel-noregex": P.ByteLevel(add_prefix_space=True, use_regex=False),
    "Metaspace": P.Metaspace(),
    "Metaspace-first": P.Metaspace(prepend_scheme="first"),
    "Metaspace-never": P.Metaspace(prepend_scheme="never"),
    "Metaspace-nosplit": P.Metaspace(split=False),
    "GPT2": P.GPT2Split(),
    "Punctuation": P.Punctuation(),
    "Punctuation-next": P.Punctuation("MergedWithNext"),
    "Digits": P.Digits(),
    "Digits-individual": P.Digits(True),
    "CharDelimiter": P.CharDelimiterSplit("-"),
    **{f"Split-{b}": P.Split({"Regex": r"\s+|[.,!]"}, b) for b in P.BEHAVIORS},
    **{f"Split-{b}-invert": P.Split({"String": "a"}, b, invert=True) for b in P.BEHAVIORS},
    "Sequence": P.Sequence([P.WhitespaceSplit(), P.Digits(True), P.Punctuation()]),
    "Sequence-meta": P.Sequence([P.Split({"Regex": r"\d"}, "Isolated"), P.Metaspace(prepend_scheme="first")]),
}


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_normalizer_matches_tokenizers(name):
    ours, theirs = _pair(normalizer=NORMALIZERS[name])
    for text in TRICKY:
        _assert_same(ours, theirs, text)


@pytest.mark.parametrize("name", list(PRE_TOKENIZERS))
def test_pre_tokenizer_matches_tokenizers(name):
    ours, theirs = _pair(pre_tokenizer=PRE_TOKENIZERS[name])
    for text in TRICKY:
        _assert_same(ours, theirs, text)


@settings(max_examples=150, deadline=None)
@given(RANDOM_TEXT, st.sampled_from(list(NORMALIZERS)), st.sampled_from(list(PRE_TOKENIZERS)))
def test_random_pipelines_match_tokenizers(text, norm, pre):
    ours, theirs = _pair(normalizer=NORMALIZERS[norm], pre_tokenizer=PRE_TOKENIZERS[pre])
    _assert_same(ours, theirs, text)


BYTE_LEVEL_POST = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}


@pytest.mark.parametrize("prefix", [False, True])
def test_byte_level_trim_offsets_match_tokenizers(prefix):
    post = dict(BYTE_LEVEL_POST, add_prefix_space=prefix)
    ours, theirs = _pair(pre_tokenizer=P.ByteLevel(add_prefix_space=prefix), post_processor=post)
    for text in TRICKY:
        _assert_same(ours, theirs, text)


ADDED = [
    AddedToken("<s>", 1, special=True),
    AddedToken("</s>", 2, special=True),
    AddedToken("[MASK]", 3, special=True, lstrip=True, rstrip=True),
    AddedToken("cat", 4, special=False, normalized=True, single_word=True),
    AddedToken("ab", 5, special=False, normalized=True),
    AddedToken("<s>x", 6, special=True),
]
ADDED_TEXTS = [
    "<s>hello world</s>",
    "a <s>  b",
    "x [MASK]  y",
    "[MASK]",
    "cat concat cat. CAT",
    "abab <s>x<s>",
    "<s><s>",
    "  [MASK]  [MASK]  ",
    "Ab cAt",
    "철수<s>는 cat",
]


@pytest.mark.parametrize("pre", ["Whitespace", "ByteLevel-prefix", "Metaspace", "Metaspace-first"])
@pytest.mark.parametrize("norm", [None, "Lowercase", "NFKC"])
def test_added_tokens_match_tokenizers(pre, norm):
    ours, theirs = _pair(normalizer=NORMALIZERS.get(norm), pre_tokenizer=PRE_TOKENIZERS[pre], added=ADDED)
    for text in ADDED_TEXTS + TRICKY:
        _assert_same(ours, theirs, text)
        # (special_tokens_mask differs on purpose: `tokenizers` marks only tokens a
        # post-processor adds; ours marks special tokens found in the text)


def test_components_round_trip_through_dicts():
    for comp in list(NORMALIZERS.values()):
        d = comp.to_dict()
        again = N.normalizer_from_dict(json.loads(json.dumps(d)))
        assert type(again) is type(comp) and again.to_dict() == d
    for comp in list(PRE_TOKENIZERS.values()):
        d = comp.to_dict()
        again = P.pre_tokenizer_from_dict(json.loads(json.dumps(d)))
        assert type(again) is type(comp) and again.to_dict() == d


def test_whole_tokenizer_dict_round_trips():
    ours, _ = _pair(normalizer=NORMALIZERS["Sequence"], pre_tokenizer=PRE_TOKENIZERS["Sequence"], added=ADDED)
    d = tokenizer_to_dict(ours)
    again = tokenizer_to_dict(_rebuild(d))
    assert again == d


def _rebuild(d):
    from core.models import factory

    saved = dict(factory.MODELS)
    factory.MODELS["BPE"] = f"{__name__}:_CharModelFactory"
    try:
        return tokenizer_from_dict(d)
    finally:
        factory.MODELS.clear()
        factory.MODELS.update(saved)


class _CharModelFactory:
    @staticmethod
    def from_dict(d):
        return CharModel()


# -- decoders ------------------------------------------------------------------------

from core import decoders as D  # noqa: E402

DECODERS = {
    "ByteLevel": D.ByteLevel(),
    "WordPiece": D.WordPiece(),
    "WordPiece-raw": D.WordPiece("##", cleanup=False),
    "Metaspace": D.Metaspace(),
    "Metaspace-never": D.Metaspace(prepend_scheme="never"),
    "BPEDecoder": D.BPEDecoder(),
    "ByteFallback": D.ByteFallback(),
    "Fuse": D.Fuse(),
    "Strip": D.Strip(" ", 1, 1),
    "Strip-many": D.Strip("▁", 2, 3),
    "Replace": D.Replace("▁", " "),
    "Replace-regex": D.Replace({"Regex": "#+"}, "-"),
    "Sequence-sp": D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)]),
}

TOKEN_LISTS = [
    [],
    ["a"],
    ["íķľ", "Ġa", "Ġ", "Ċ"],
    ["un", "##aff", "##able", ".", "do", "n't", "##"],
    ["▁▁a", "▁b▁", "c"],
    ["lo", "w</w>", "er</w>"],
    ["<0xED>", "<0x95>", "<0x9C>", "x", "<0xFF>", "<0xe4>", "<0x0A>", "<0xZZ>"],
    ["<0xED>", "<0x95>"],
    ["  a  ", "▁▁▁x▁▁▁▁", " "],
    ["aĠ한", "<s>", "\u00ff\u0100"],
    ["Ġ", "ĠĠ", "íķ"],
    ["hello", "world", " ?", "it", "'s", "##s", "#"],
]


@pytest.mark.parametrize("name", list(DECODERS))
def test_decoder_matches_tokenizers(name):
    ours = Tokenizer(CharModel(), decoder=DECODERS[name])
    theirs = tokenizers.Tokenizer.from_str(json.dumps(tokenizer_to_dict(ours)))
    compared = 0
    for tokens in TOKEN_LISTS:
        try:
            expected = theirs.decoder.decode(tokens)
        except BaseException as e:  # noqa: BLE001 - a Rust panic (e.g. Strip cutting past a short token)
            if type(e).__name__ != "PanicException":
                raise
            continue
        assert ours.decoder.decode(tokens) == expected, tokens
        compared += 1
    assert compared >= len(TOKEN_LISTS) - 3


def test_decoders_round_trip_through_dicts():
    for comp in DECODERS.values():
        d = comp.to_dict()
        again = D.decoder_from_dict(json.loads(json.dumps(d)))
        assert type(again) is type(comp) and again.to_dict() == d


# -- post-processors -------------------------------------------------------------------

_TEMPLATE = {
    "type": "TemplateProcessing",
    "single": [
        {"SpecialToken": {"id": "<s>", "type_id": 0}},
        {"Sequence": {"id": "A", "type_id": 0}},
        {"SpecialToken": {"id": "</s>", "type_id": 0}},
    ],
    "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
    "special_tokens": {
        "<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]},
        "</s>": {"id": "</s>", "ids": [2], "tokens": ["</s>"]},
    },
}
POST_PROCESSORS = {
    "Template": _TEMPLATE,
    "Bert": {"type": "BertProcessing", "sep": ["</s>", 2], "cls": ["<s>", 1]},
    "Roberta": {
        "type": "RobertaProcessing",
        "sep": ["</s>", 2],
        "cls": ["<s>", 1],
        "trim_offsets": True,
        "add_prefix_space": True,
    },
    "Roberta-untrimmed": {
        "type": "RobertaProcessing",
        "sep": ["</s>", 2],
        "cls": ["<s>", 1],
        "trim_offsets": False,
        "add_prefix_space": True,
    },
    "Sequence": {"type": "Sequence", "processors": [BYTE_LEVEL_POST, _TEMPLATE]},
}


@pytest.mark.parametrize("name", list(POST_PROCESSORS))
def test_post_processor_matches_tokenizers(name):
    ours, theirs = _pair(
        pre_tokenizer=P.ByteLevel(add_prefix_space=True),
        added=ADDED[:2],
        post_processor=POST_PROCESSORS[name],
    )
    for text in ADDED_TEXTS + TRICKY:
        for special in (True, False):
            a, b = (
                ours.encode(text, add_special_tokens=special),
                theirs.encode(text, add_special_tokens=special),
            )
            assert (a.ids, a.tokens, a.offsets) == (b.ids, b.tokens, sentencepiece_spans(b.offsets)), (
                text,
                special,
            )
            if special and text:
                assert a.tokens[0] == "<s>" and a.tokens[-1] == "</s>" and a.special_tokens_mask[-1] == 1


_ADDED_CONTENT = st.lists(
    st.sampled_from(["<s>", "[M]", "ab", "a", " b", "한", "<"]), min_size=1, max_size=2
).map("".join)
_ADDED_FLAGS = st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
_ADDED_TEXT = st.lists(st.sampled_from(list("ab <>[]/ s한\t") + ["<s>", "[M]", "ab"]), max_size=12).map(
    "".join
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_ADDED_CONTENT, _ADDED_FLAGS), min_size=1, max_size=4, unique_by=lambda t: t[0]),
    st.sampled_from([None, "Lowercase", "NFKC"]),
    st.sampled_from(["Whitespace", "ByteLevel-prefix", "Metaspace", "Metaspace-first"]),
    st.lists(_ADDED_TEXT, min_size=1, max_size=5),
)
def test_random_added_tokens_match_tokenizers(specs, norm, pre, texts):
    added = [
        AddedToken(
            content,
            i + 1,
            special=special,
            normalized=normalized,
            single_word=single,
            lstrip=lstrip,
            rstrip=rstrip,
        )
        for i, (content, (special, normalized, single, lstrip, rstrip)) in enumerate(specs)
    ]
    ours, theirs = _pair(normalizer=NORMALIZERS.get(norm), pre_tokenizer=PRE_TOKENIZERS[pre], added=added)
    for text in texts:
        _assert_same(ours, theirs, text)


@settings(max_examples=200, deadline=None)
@given(RANDOM_TEXT)
def test_cheap_previews_agree_with_the_aligned_pipeline(text):
    # normalize_str / split_words are the fast paths used to count corpora: same text as the full stage
    for n in NORMALIZERS.values():
        assert n.normalize_str(text) == n.normalize(NormalizedString.from_str(text)).normalized
    for p in PRE_TOKENIZERS.values():
        pieces = p.pre_tokenize(NormalizedString.from_str(text))
        assert p.split_words(text) == [q.normalized for q in pieces]
        assert p.pre_tokenize_str(text) == [(q.normalized, q.offsets) for q in pieces]
        # pieces come in order and never overlap in the original text
        spans = [q.offsets for q in pieces]
        assert all(a[1] <= b[0] or a == b for a, b in zip(spans, spans[1:])), spans


def test_normalized_added_tokens_follow_a_swapped_normalizer():
    tok = Tokenizer(CharModel(), added_tokens=[AddedToken("cat", 1, special=False, normalized=True)])
    assert 1 not in tok.encode("CAT").ids
    tok.normalizer = N.Lowercase()
    assert tok.encode("a CAT").ids == [0, 0, 1]
