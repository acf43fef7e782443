"""BERT vocab.txt: round trip, tokenizers reads our file the same way, clear errors, atomic save."""

from __future__ import annotations

import pytest

from core.errors import ConfigError, FormatError
from core.formats.bert_vocab import load_bert_vocab, read_bert_vocab, save_bert_vocab
from core.models.wordpiece.model import WordPiece

VOCAB = {
    t: i
    for i, t in enumerate(
        ["[PAD]", "[UNK]", "h", "p", "먹", "##u", "##g", "##s", "##고", "hu", "hug", "먹고"]
    )
}


def test_round_trip(tmp_path):
    path = tmp_path / "vocab.txt"
    save_bert_vocab(WordPiece(VOCAB), path)
    assert path.read_text(encoding="utf-8").splitlines() == list(VOCAB)
    model = load_bert_vocab(path)
    assert model.get_vocab() == VOCAB
    assert [t.value for t in model.tokenize("hugs")] == ["hug", "##s"]


def test_crlf_trailing_space_and_bom_are_tolerated(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes("\ufeff[UNK]\r\nh \r\n##u\r\n".encode("utf-8"))
    assert read_bert_vocab(path) == {"[UNK]": 0, "h": 1, "##u": 2}


def test_tokenizers_reads_our_file_and_encodes_as_we_do(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    path = tmp_path / "vocab.txt"
    save_bert_vocab(VOCAB, path)
    theirs = tokenizers.models.WordPiece.from_file(str(path), unk_token="[UNK]")
    ours = load_bert_vocab(path)
    for word in ["hug", "hugs", "pug", "먹고", "먹고s", "x", "hu", "phug"]:

        def chars(
            byte_offset: int, word: str = word
        ) -> int:  # the model-level tokenizers API counts UTF-8 bytes
            return len(word.encode("utf-8")[:byte_offset].decode("utf-8"))

        assert [(t.id, t.value, tuple(map(chars, t.offsets))) for t in theirs.tokenize(word)] == [
            (t.id, t.value, (t.start, t.end)) for t in ours.tokenize(word)
        ], word


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"[UNK]\n\x00\x01\x02\n", "binary"),
        (b"[UNK]\nh\nh\n", "repeats"),
        (b"[UNK]\n\nh\n", "empty line"),
        (b"h\n##u\n", "unknown token"),
        (b"[UNK]\n\xff\xfe\n", "UTF-8"),
    ],
)
def test_bad_files_are_format_errors(tmp_path, content, message):
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=message):
        load_bert_vocab(path)


def test_missing_file_is_a_format_error(tmp_path):
    with pytest.raises(FormatError):
        read_bert_vocab(tmp_path / "nope.txt")


def test_other_unk_token(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("<unk>\na\n", encoding="utf-8")
    assert load_bert_vocab(path, unk_token="<unk>").unk_token == "<unk>"


@pytest.mark.parametrize(
    "vocab",
    [
        {},
        {"[UNK]": 0, "a": 2},
        {"[UNK]": 0, "a\nb": 1},
        {"[UNK]": 0, "a ": 1},
        {"[UNK]": 0, "a\rb": 1},
        {"[UNK]": 0, "": 1},
        {"[UNK]": 0, "a\n": 1},
        {"a": 1, "[UNK]": 2},
    ],
)
def test_unsavable_vocab_changes_nothing(tmp_path, vocab):
    path = tmp_path / "vocab.txt"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        save_bert_vocab(vocab, path)
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["vocab.txt"]  # no temp file left behind


def test_truncated_model_saves_when_ids_are_contiguous(tmp_path):
    path = tmp_path / "vocab.txt"
    save_bert_vocab(WordPiece(VOCAB).truncated(10), path)
    assert read_bert_vocab(path) == {t: i for t, i in VOCAB.items() if i < 10}


def test_a_vocabulary_out_of_id_order_is_written_in_id_order(tmp_path):
    path = tmp_path / "vocab.txt"
    save_bert_vocab({"b": 2, "[UNK]": 0, "a": 1}, path)
    assert path.read_text(encoding="utf-8") == "[UNK]\na\nb\n"
