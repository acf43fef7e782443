"""BPE encoder: merges by rank, unknown characters, the slider's truncation, explain, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ConfigError, FormatError
from core.events import drain
from core.models.base import Model
from core.models.bpe.model import BPE
from core.models.bpe.trainer import train_bpe
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
SAMPLE = [
    "철수는 치킨을 먹고 볶음밥을 먹고 있다",
    "the quick brown fox jumps over the lazy dog, the end.",
    "吾輩は猫である。名前はまだ無い。",
    "먹고 또 먹고 🍗 치킨은 맛있다!! 😀",
] * 3


def seed_model() -> BPE:
    # The seed's vocab.json / merges.txt, written out by hand.
    vocab = {"<unk>": 0, "b": 1, "g": 2, "h": 3, "n": 4, "p": 5, "s": 6, "u": 7, "ug": 8, "un": 9, "hug": 10}
    return BPE(vocab, [("u", "g"), ("u", "n"), ("h", "ug")], unk_token="<unk>")


def values(model, piece):
    return [t.value for t in model.tokenize(piece)]


def test_is_a_model():
    assert isinstance(seed_model(), Model)


def test_seed_tokenization_with_offsets():
    m = seed_model()
    assert values(m, "pug") == ["p", "ug"]
    assert values(m, "mug") == ["<unk>", "ug"]
    assert values(m, "hugs") == ["hug", "s"]
    assert [(t.start, t.end, t.id) for t in m.tokenize("hugs")] == [(0, 3, 10), (3, 4, 6)]
    assert m.tokenize("") == []


def test_unknown_characters_fuse_or_vanish():
    vocab = {"<unk>": 0, "a": 1}
    assert values(BPE(vocab, [], unk_token="<unk>"), "xya") == ["<unk>", "<unk>", "a"]
    fused = BPE(vocab, [], unk_token="<unk>", fuse_unk=True)
    assert [(t.value, t.start, t.end) for t in fused.tokenize("xya")] == [("<unk>", 0, 2), ("a", 2, 3)]
    assert values(BPE({"a": 0}, []), "xya") == ["a"]  # no unknown token: dropped, as tokenizers does


def test_byte_fallback():
    vocab = {"<unk>": 0, "a": 1, "<0xED>": 2, "<0x95>": 3, "<0x9C>": 4}
    m = BPE(vocab, [], unk_token="<unk>", byte_fallback=True)
    assert values(m, "a한b") == ["a", "<0xED>", "<0x95>", "<0x9C>", "<unk>"]


def test_rank_order_not_left_to_right():
    # b c has the better rank, so "abc" becomes a + bc although a b is also a merge.
    vocab = {c: i for i, c in enumerate(["a", "b", "c", "bc", "ab"])}
    m = BPE(vocab, [("b", "c"), ("a", "b")])
    assert values(m, "abc") == ["a", "bc"]
    assert values(m, "abab") == ["ab", "ab"]


def test_duplicate_merge_later_rank_wins():
    vocab = {c: i for i, c in enumerate(["a", "b", "c", "ab", "bc"])}
    m = BPE(vocab, [("a", "b"), ("b", "c"), ("a", "b")])
    assert values(m, "abc") == ["a", "bc"]
    assert m.ranked_merges() == [("b", "c"), ("a", "b")]


def test_explain_lists_steps_in_order():
    m = seed_model()
    steps = m.explain("hugs")
    assert [(s.rank, s.left, s.right, s.merged, s.position) for s in steps] == [
        (0, "u", "g", "ug", 1),
        (2, "h", "ug", "hug", 0),
    ]
    assert steps[-1].symbols == ("hug", "s")
    assert [s.index for s in steps] == [1, 0]
    unk_steps = m.explain("mugs")  # <unk> is one symbol but 1 char; ug sits at index 1
    assert [(s.merged, s.position, s.index) for s in unk_steps] == [("ug", 1, 1)]
    assert m.explain("s") == []


def test_merge_parts():
    m = seed_model()
    assert m.merge_parts("hug") == ("h", "ug")
    assert m.merge_parts("h") is None
    assert m.merge_parts("nope") is None


@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe"])
def test_truncated_equals_training_with_fewer_merges(algorithm):
    opts = TrainOptions(algorithm, vocab_size=330 if algorithm == "bytelevel-bpe" else 90)
    counts = pre_tokenize_lines(SAMPLE, opts)
    full = drain(train_bpe(counts, opts))
    assert full.min_vocab_size < full.vocab_size
    for size in range(full.min_vocab_size - 1, full.vocab_size + 1):
        small = drain(train_bpe(counts, TrainOptions(algorithm, vocab_size=max(size, 1))))
        cut = full.truncated(size)
        assert cut.merges == small.merges, size
        assert cut.get_vocab() == small.get_vocab(), size
    assert full.truncated(full.min_vocab_size).merges == []
    assert full.truncated(full.vocab_size + 5) is full


def test_truncated_encodes_like_a_smaller_model():
    full = drain(train_bpe(HUG, TrainOptions("bpe", vocab_size=11)))
    cut = full.truncated(9)
    assert cut.merges == [("u", "g")] and "un" not in cut.get_vocab()
    assert values(cut, "pun") == ["p", "u", "n"]
    assert values(full, "pun") == ["p", "un"]


def test_dict_round_trip_and_both_merge_layouts():
    m = seed_model()
    d = m.to_dict()
    assert d["type"] == "BPE" and d["merges"] == [["u", "g"], ["u", "n"], ["h", "ug"]]
    again = BPE.from_dict(d)
    assert again.get_vocab() == m.get_vocab() and again.merges == m.merges
    d_old = dict(d, merges=["u g", "u n", "h ug"])
    assert BPE.from_dict(d_old).merges == m.merges


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", "b"]]},  # b not in vocab
        {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]]},  # ab not in vocab
        {"type": "BPE", "vocab": {"a": 0}, "merges": ["a"]},
        {"type": "BPE", "vocab": ["a"], "merges": []},
        {"type": "WordPiece", "vocab": {"a": 0}},
    ],
)
def test_from_dict_rejects_bad_models(bad):
    with pytest.raises(FormatError):
        BPE.from_dict(bad)


def test_duplicate_ids_rejected():
    with pytest.raises(ConfigError):
        BPE({"a": 0, "b": 0}, [])


@pytest.mark.parametrize(
    "vocab, merges, prefix, message",
    [
        ({"u": 0, "g": 1}, [("u", "g")], None, "merge 1 (u g) uses 'ug'"),
        ({"g": 0, "xg": 1}, [("x", "g")], None, "merge 1 (x g) uses 'x'"),  # its result is there
        ({"u": 0, "g": 1, "ug": 2}, [("u", "g"), ("x", "g")], None, "merge 2 (x g) uses 'x'"),
        ({"u": 0, "g": 1, "ug": 2}, [("u", "g"), ("ug", "y")], None, "merge 2 (ug y) uses 'y'"),
        (
            {"u": 0, "##g": 1, "ug": 2, "h": 3},
            [("u", "##g"), ("h", "##ug")],
            "##",
            "merge 2 (h ##ug) uses '##ug'",
        ),
        (
            {"u": 0, "##g": 1, "ug": 2, "##ug": 3},
            [("u", "##g"), ("h", "##ug")],
            "##",
            "merge 2 (h ##ug) uses 'h'",
        ),
    ],
)
def test_a_merge_outside_the_vocabulary_is_named_when_the_model_is_made(vocab, merges, prefix, message):
    with pytest.raises(ConfigError) as raised:
        BPE(vocab, merges, continuing_subword_prefix=prefix)
    assert str(raised.value) == f"{message}, which is not in the vocabulary"


def test_rank_tables_are_built_on_first_use_and_travel_with_a_pickle():
    import pickle

    model = seed_model()
    assert "_ranks" not in vars(model) and "_made_by" not in vars(model)  # a trained and saved model
    copy = pickle.loads(pickle.dumps(model))  # the explorer's worker sends its model: tables and all
    assert vars(copy)["_ranks"] == {(7, 2): (0, 8), (7, 4): (1, 9), (3, 8): (2, 10)}
    assert vars(copy)["_made_by"] == {"ug": 0, "un": 1, "hug": 2}
    fresh = seed_model()
    assert values(fresh, "hugs") == ["hug", "s"] and "_ranks" in vars(fresh)
    assert fresh.min_vocab_size == 8 and "_made_by" in vars(fresh)


def test_a_model_read_from_a_file_has_its_rank_tables_at_once(tmp_path):
    from core.formats.gpt2 import load_gpt2, save_gpt2

    model = seed_model()
    assert "_ranks" in vars(BPE.from_dict(model.to_dict()))  # tokenizer.json
    save_gpt2(model, tmp_path)
    assert "_ranks" in vars(load_gpt2(tmp_path))  # vocab.json + merges.txt


@pytest.fixture(scope="module")
def char_tokenizer():
    return drain(
        train_from_counts(pre_tokenize_lines(SAMPLE, TrainOptions("bpe")), TrainOptions("bpe", vocab_size=80))
    )


@pytest.fixture(scope="module")
def byte_tokenizer():
    opts = TrainOptions("bytelevel-bpe", vocab_size=300)
    return drain(train_from_counts(pre_tokenize_lines(SAMPLE, opts), opts))


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_byte_level_round_trip(byte_tokenizer, text):
    enc = byte_tokenizer.encode(text)
    assert "<unk>" not in enc.tokens
    assert byte_tokenizer.decode(enc.ids) == text


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_encode_never_raises(char_tokenizer, text):
    enc = char_tokenizer.encode(text)
    assert len(enc.ids) == len(enc.tokens) == len(enc.offsets)
    for start, end in enc.offsets:
        assert 0 <= start <= end <= len(text)


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=30))
def test_explain_agrees_with_tokenize(text):
    model = drain(train_bpe(HUG | {"ugh": 3, "한국": 2}, TrainOptions("bpe", vocab_size=20)))
    steps = model.explain(text)
    final = [t.value for t in model.tokenize(text)]
    if steps:
        assert list(steps[-1].symbols) == final
        assert "".join(steps[-1].symbols) == "".join(final)
    else:
        assert len(final) == len(text)  # nothing merged: one token per character
