"""WordPiece encoder: greedy longest match, whole-word unknown, limits, bad vocabularies."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.errors import ConfigError, FormatError
from core.models.base import Model
from core.models.wordpiece.model import WordPiece

# The vocabulary the hug/pug example ends with after ##gs, hu, hugs, hug (see the trainer test).
VOCAB = {
    t: i
    for i, t in enumerate(["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hugs", "hug"])
}


def values(model, piece):
    return [t.value for t in model.tokenize(piece)]


def test_is_a_model():
    assert isinstance(WordPiece(VOCAB), Model)


@pytest.mark.parametrize(
    "piece, expected",
    [
        ("hugs", ["hugs"]),  # whole word in the vocabulary
        ("hug", ["hug"]),
        ("hugh", ["[UNK]"]),  # "h" after "hug" would need "##h": not there
        ("pug", ["p", "##u", "##g"]),  # no "pu": one character at a time
        ("bugs", ["b", "##u", "##gs"]),  # longest first: ##gs beats ##g
        ("hugug", ["hug", "##u", "##g"]),
        ("huh", ["[UNK]"]),
    ],
)
def test_longest_match_first(piece, expected):
    assert values(WordPiece(VOCAB), piece) == expected


def test_unmatched_part_makes_the_whole_word_unknown():
    wp = WordPiece(VOCAB)
    # "mug": nothing starts with "m", so the word is one [UNK]; "pugm": p ##u ##g matched,
    # then "##m" fails, and the whole word (not only "m") becomes [UNK], as BERT does.
    for piece in ("mug", "pugm"):
        tokens = wp.tokenize(piece)
        assert [(t.value, t.id, t.start, t.end) for t in tokens] == [("[UNK]", 0, 0, len(piece))]


def test_offsets_index_the_piece():
    tokens = WordPiece(VOCAB).tokenize("bugs")
    assert [(t.start, t.end) for t in tokens] == [(0, 1), (1, 2), (2, 4)]


def test_max_input_chars_per_word():
    wp = WordPiece({"[UNK]": 0, "a": 1, "##a": 2}, max_input_chars_per_word=3)
    assert values(wp, "aaa") == ["a", "##a", "##a"]
    assert values(wp, "aaaa") == ["[UNK]"]  # 4 > 3 characters
    assert WordPiece({"[UNK]": 0, "a": 1}).max_input_chars_per_word == 100


def test_vocab_token_longer_than_the_word():
    wp = WordPiece({"[UNK]": 0, "hugging": 1, "h": 2, "##u": 3, "##g": 4})
    assert values(wp, "hug") == ["h", "##u", "##g"]
    assert values(wp, "hugging") == ["hugging"]


def test_empty_piece_gives_no_tokens():
    assert WordPiece(VOCAB).tokenize("") == []


def test_korean_and_custom_prefix():
    wp = WordPiece(
        {"<unk>": 0, "먹": 1, "먹고": 2, "@@싶": 3, "@@다": 4},
        unk_token="<unk>",
        continuing_subword_prefix="@@",
    )
    assert values(wp, "먹고싶다") == ["먹고", "@@싶", "@@다"]


def test_explain_lists_matches_and_failure():
    wp = WordPiece(VOCAB)
    assert wp.explain("bugs") == [(0, 1, "b"), (1, 2, "##u"), (2, 4, "##gs")]
    assert wp.explain("pugm") == [(0, 1, "p"), (1, 2, "##u"), (2, 3, "##g"), (3, 4, None)]
    assert WordPiece(VOCAB, max_input_chars_per_word=2).explain("hug") == [(0, 3, None)]


def test_truncated_keeps_first_ids_and_unk():
    wp = WordPiece(VOCAB)
    assert wp.min_vocab_size == 8  # [UNK], b h p, ##g ##n ##s ##u
    small = wp.truncated(10)
    assert sorted(small.get_vocab(), key=small.token_to_id) == list(VOCAB)[:10]
    assert values(small, "hugs") == ["hu", "##gs"]
    assert wp.truncated(1).vocab_size == wp.min_vocab_size
    assert wp.truncated(1000) is wp
    late_unk = WordPiece({"a": 0, "##b": 1, "ab": 2, "[UNK]": 3})
    assert late_unk.truncated(2).get_vocab() == late_unk.get_vocab()  # unk is at id 3: nothing can go


def test_min_vocab_size_for_trained_like_vocab():
    vocab = {t: i for i, t in enumerate(["[UNK]", "a", "b", "##a", "##b", "ab", "##ab", "aba"])}
    assert WordPiece(vocab).min_vocab_size == 5


def test_dict_round_trip_in_tokenizers_shape():
    d = WordPiece(VOCAB, max_input_chars_per_word=50).to_dict()
    assert d["type"] == "WordPiece" and d["max_input_chars_per_word"] == 50
    assert d["unk_token"] == "[UNK]" and d["continuing_subword_prefix"] == "##"
    back = WordPiece.from_dict(d)
    assert back.get_vocab() == VOCAB and back.max_input_chars_per_word == 50


@pytest.mark.parametrize("vocab", [{}, {"a": 0, "##b": 1}])
def test_bad_vocabularies_are_config_errors(vocab):
    with pytest.raises(ConfigError):
        WordPiece(vocab)


def test_duplicate_ids_are_rejected():
    with pytest.raises(ConfigError):
        WordPiece({"[UNK]": 0, "a": 0})


@pytest.mark.parametrize(
    "d",
    [
        {"type": "BPE", "vocab": {"[UNK]": 0}},
        {"type": "WordPiece", "vocab": {}},
        {"type": "WordPiece", "vocab": {"a": 0}},
        {"type": "WordPiece", "vocab": []},
    ],
)
def test_from_dict_bad_input_is_a_format_error(d):
    with pytest.raises(FormatError):
        WordPiece.from_dict(d)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
@example("##s")
def test_tokenize_never_raises_and_rejoins(piece):
    wp = WordPiece({**VOCAB, "가": 12, "##나": 13, "##🙂": 14})
    tokens = wp.tokenize(piece)
    if tokens and tokens[0].value == "[UNK]":
        assert len(tokens) == 1 and (tokens[0].start, tokens[0].end) == (0, len(piece))
    else:
        assert "".join(piece[t.start : t.end] for t in tokens) == piece
        # the first token is the text itself; each later one the text after the ## prefix
        # (subtle: a word "##s" is the vocabulary's "##s" whole, as tokenizers reads it)
        assert all(t.value == ("##" if i else "") + piece[t.start : t.end] for i, t in enumerate(tokens))
    assert wp.tokenize(piece) == tokens  # cached answer is the same


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_whole_pipeline_never_raises_and_offsets_point_into_the_text(text):
    from core.pre_tokenizers import BertPreTokenizer
    from core.tokenizer import Tokenizer

    tok = Tokenizer(WordPiece({**VOCAB, "가": 12, "##나": 13}), pre_tokenizer=BertPreTokenizer())
    enc = tok.encode(text)
    assert len(enc.tokens) == len(enc.offsets) == len(enc.ids)
    for (start, end), token in zip(enc.offsets, enc.tokens):
        assert 0 <= start < end <= len(text)
        if token != "[UNK]":
            assert text[start:end] == token.removeprefix("##")
