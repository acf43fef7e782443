"""GPT-2 files (vocab.json + merges.txt): round trip, `tokenizers` reads ours, bad files."""

from __future__ import annotations

import json

import pytest

from core.errors import FormatError
from core.events import drain
from core.formats.gpt2 import MERGES_HEADER, load_gpt2, load_gpt2_tokenizer, save_gpt2
from core.models.bpe.model import BPE
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

LINES = ["철수는 치킨을 먹고 볶음밥을 먹고 있다", "hug pug pun bun hugs", "吾輩は猫である。😀"] * 4


def seed_model() -> BPE:
    vocab = {"<unk>": 0, "b": 1, "g": 2, "h": 3, "n": 4, "p": 5, "s": 6, "u": 7, "ug": 8, "un": 9, "hug": 10}
    return BPE(vocab, [("u", "g"), ("u", "n"), ("h", "ug")], unk_token="<unk>")


def test_files_look_like_the_seed(tmp_path):
    vocab_path, merges_path = save_gpt2(seed_model(), tmp_path)
    assert merges_path.read_text(encoding="utf-8") == f"{MERGES_HEADER}\nu g\nu n\nh ug\n"
    assert json.loads(vocab_path.read_text(encoding="utf-8"))["hug"] == 10


def test_round_trip(tmp_path):
    m = seed_model()
    save_gpt2(m, tmp_path)
    again = load_gpt2(tmp_path, unk_token="<unk>")
    assert again.get_vocab() == m.get_vocab() and again.merges == m.merges
    assert [t.value for t in again.tokenize("mug")] == ["<unk>", "ug"]
    assert load_gpt2(tmp_path / "vocab.json", tmp_path / "merges.txt").merges == m.merges


def test_byte_level_round_trip_and_tokenizers_reads_ours(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    opts = TrainOptions("bytelevel-bpe", vocab_size=320)
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, opts), opts))
    save_gpt2(tok.model, tmp_path)
    ours = load_gpt2_tokenizer(tmp_path)
    theirs = tokenizers.Tokenizer(
        tokenizers.models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt"))
    )
    theirs.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    for text in LINES + ["먹고 있다 🍗", " leading space", ""]:
        assert ours.encode(text).ids == tok.encode(text).ids == theirs.encode(text).ids
        assert ours.decode(ours.encode(text).ids) == text


def write(tmp_path, vocab_text: str, merges_text: str):
    (tmp_path / "vocab.json").write_text(vocab_text, encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges_text, encoding="utf-8")


@pytest.mark.parametrize(
    "vocab_text,merges_text,message",
    [
        ('{"a": 0, "b": 1', f"{MERGES_HEADER}\n", "not valid JSON"),  # truncated
        ('["a", "b"]', f"{MERGES_HEADER}\n", "JSON object"),
        ('{"a": 0, "b": "1"}', f"{MERGES_HEADER}\n", "id of 'b'"),
        ('{"a": 0, "b": 0}', f"{MERGES_HEADER}\n", "share the id 0"),
        ('{"a": 0, "b": 1, "ab": 2}', f"{MERGES_HEADER}\na b c\n", "line 2"),
        ('{"a": 0, "b": 1, "ab": 2}', f"{MERGES_HEADER}\na c\n", "'c'"),  # merge token missing
        ('{"a": 0, "b": 1}', f"{MERGES_HEADER}\na b\n", "'ab'"),  # merged token missing
    ],
)
def test_bad_files_raise_format_error(tmp_path, vocab_text, merges_text, message):
    write(tmp_path, vocab_text, merges_text)
    with pytest.raises(FormatError, match=message):
        load_gpt2(tmp_path)


def test_missing_and_directory_and_binary(tmp_path):
    with pytest.raises(FormatError, match="does not exist"):
        load_gpt2(tmp_path)
    (tmp_path / "vocab.json").mkdir()
    with pytest.raises(FormatError, match="directory"):
        load_gpt2(tmp_path / "vocab.json", tmp_path / "merges.txt")
    (tmp_path / "v.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FormatError, match="UTF-8"):
        load_gpt2(tmp_path / "v.json", tmp_path / "merges.txt")


@pytest.mark.parametrize("odd", [" ", "\n", "\r"])
def test_refuses_tokens_with_spaces_and_leaves_old_files_alone(tmp_path, odd):
    save_gpt2(seed_model(), tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    spaced = BPE({"a": 0, "b": 1, odd: 2, "b" + odd: 3, "ab" + odd: 4}, [("b", odd), ("a", "b" + odd)])
    with pytest.raises(FormatError, match="tokenizer.json"):
        save_gpt2(spaced, tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_vocab_json_in_id_order_and_no_merges(tmp_path):
    save_gpt2(BPE({"b": 1, "a": 0, "ab": 2}, [("a", "b")]), tmp_path)
    assert list(json.loads((tmp_path / "vocab.json").read_text(encoding="utf-8"))) == ["a", "b", "ab"]
    save_gpt2(BPE({"a": 0}, []), tmp_path)
    assert (tmp_path / "merges.txt").read_text(encoding="utf-8") == "#version: 0.2\n"


def test_failed_write_leaves_no_temp_files(tmp_path):
    missing = tmp_path / "not-there"
    with pytest.raises(OSError):
        save_gpt2(seed_model(), missing)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lines", [LINES, ["hug pug pun bun hugs", "the tokens cut text"] * 4])
def test_a_whitespace_bpe_comes_back_as_it_was_saved(tmp_path, lines):
    """A whitespace BPE (not byte-level) saved as GPT-2 files was reopened as byte-level: the
    Korean, the emoji and every capital letter were left out of the encoding with no unknown
    token (issue 29, item 2). It comes back as what it was, its unknowns kept as <unk>; the
    save says what other readers will make of it. (An English-only vocabulary is all in the
    byte alphabet, but it never writes a space as Ġ.)"""
    from core.formats.detect import open_tokenizer, save_tokenizer

    opts = TrainOptions("bpe", vocab_size=60)
    tok = drain(train_from_counts(pre_tokenize_lines(lines, opts), opts))
    losses = save_tokenizer(tok, tmp_path / "g", "gpt2")
    assert any("GPT2Tokenizer" in loss and "character-level" in loss for loss in losses)
    loaded = open_tokenizer(tmp_path / "g")
    assert any("not byte-level" in w and "'<unk>'" in w for w in loaded.warnings)
    for text in ["Hello world, 철수는 치킨을 먹고 👩🏽‍💻", *lines]:
        want, got = tok.encode(text), loaded.tokenizer.encode(text)
        assert (got.tokens, got.ids, got.offsets) == (want.tokens, want.ids, want.offsets), text
    assert "<unk>" in loaded.tokenizer.encode("Hello 👩🏽‍💻").tokens


def test_a_byte_level_bpe_still_opens_byte_level(tmp_path):
    from core.formats.detect import open_tokenizer, save_tokenizer
    from core.formats.gpt2 import is_byte_level_vocab

    opts = TrainOptions("bytelevel-bpe", vocab_size=320)
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, opts), opts))
    assert is_byte_level_vocab(tok.get_vocab())
    save_tokenizer(tok, tmp_path / "g", "gpt2")
    back = open_tokenizer(tmp_path / "g")
    assert any("byte-level pre-tokenizer" in w for w in back.warnings)
    for text in LINES:
        assert back.tokenizer.encode(text).ids == tok.encode(text).ids


def test_endoftext_is_the_special_token_gpt2s_readers_take_it_for(tmp_path):
    """transformers' GPT2Tokenizer makes <|endoftext|> its bos/eos/unknown token: text that spells
    it is that one id; we read it as bytes (13 ids), and the save called it 'not marked'."""
    from core.formats.detect import open_tokenizer, save_tokenizer

    transformers = pytest.importorskip("transformers")
    opts = TrainOptions("bytelevel-bpe", vocab_size=300, special_tokens=["<|endoftext|>"])
    tok = drain(train_from_counts(pre_tokenize_lines(["the cat sat on the mat 철수는"] * 20, opts), opts))
    assert save_tokenizer(tok, tmp_path / "g", "gpt2") == []
    text = "the cat<|endoftext|>철수는"
    theirs = transformers.GPT2Tokenizer(
        str(tmp_path / "g" / "vocab.json"), str(tmp_path / "g" / "merges.txt")
    )
    ours = open_tokenizer(tmp_path / "g").tokenizer
    assert ours.encode(text).ids == theirs.encode(text) == tok.encode(text).ids
    assert tok.token_to_id("<|endoftext|>") in ours.encode(text).ids
