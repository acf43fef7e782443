"""Acceptance: a bare BERT ``vocab.txt`` is read lowercased unless its vocabulary shows it is
cased, as `tokenizers`' ``BertWordPieceTokenizer`` reads it by default: an uncased vocabulary
holding a capital without a lowercase form (``ℝ``, as the standard uncased BERT vocabulary
does) is still uncased. The guess is said in the load's warning; ``--lowercase``/``--cased``
override it."""

from __future__ import annotations

import pytest

tokenizers = pytest.importorskip("tokenizers")

from cli_helpers import assert_one_line_error, run  # noqa: E402

from core.formats.detect import open_tokenizer  # noqa: E402

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = ["hello", "world", "the", "token", "##s", "##izer", "cut", "##ting", "철수", "##는", ",", "!"]
UNCASED = SPECIALS + WORDS + ["ℝ", "##ℝ", "Ⅻ"]
CASED = SPECIALS + WORDS + ["Hello", "World", "The", "Token", "Cut", "H", "##W"]
TEXTS = ["Hello world", "The tokenizers cutting, 철수는!", "ℝ hello WORLD", "Ⅻ"]


def _write(tmp_path, tokens):
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(tokens) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("tokens, lowercase", [(UNCASED, True), (CASED, False)], ids=["uncased", "cased"])
def test_the_guess_encodes_as_bert_word_piece_tokenizer(tmp_path, tokens, lowercase):
    path = _write(tmp_path, tokens)
    loaded = open_tokenizer(path)
    # (accents kept: the vocabulary holds Hangul syllables, which stripping would take apart)
    theirs = tokenizers.BertWordPieceTokenizer(str(path), lowercase=lowercase, strip_accents=False)
    for text in TEXTS:
        assert loaded.tokenizer.encode(text).ids == theirs.encode(text, add_special_tokens=False).ids, text
    if lowercase:  # the libraries' default, for a vocabulary that does not show its case
        default = tokenizers.BertWordPieceTokenizer(str(path))
        assert loaded.tokenizer.encode("Hello world").ids == default.encode("Hello world").ids[1:-1]
        assert loaded.tokenizer.encode("Hello world").tokens == ["hello", "world"]
    assert any(f"lowercase={lowercase}" in w and "--cased" in w for w in loaded.warnings)


@pytest.mark.parametrize("flag, lowercase", [("--cased", False), ("--lowercase", True)])
def test_the_command_line_overrides_the_guess(tmp_path, capsys, flag, lowercase):
    path = _write(tmp_path, UNCASED if not lowercase else CASED)
    theirs = tokenizers.BertWordPieceTokenizer(str(path), lowercase=lowercase)
    code, out, err = run(["encode", "--model", path, flag, "--json", "Hello world"], capsys)
    assert code == 0, err
    import json

    assert json.loads(out)["ids"] == theirs.encode("Hello world", add_special_tokens=False).ids
    assert f"lowercase={lowercase}" in err and "as asked" in err


def test_casing_flags_on_a_file_that_records_its_normalizer_are_one_line(tmp_path, capsys):
    from core.events import drain
    from core.formats.detect import save_tokenizer
    from core.options import TrainOptions
    from core.training import train_from_counts

    tok = drain(train_from_counts({"hug": 5, "pug": 3}, TrainOptions("bpe", vocab_size=8)))
    save_tokenizer(tok, tmp_path / "tokenizer.json", "hf-json")
    code, _, err = run(["encode", "--model", tmp_path / "tokenizer.json", "--cased", "hug"], capsys)
    assert_one_line_error(code, err, "--lowercase/--cased")
