"""The format table is the one place that lists formats: every row's module has the four
functions, and the command line and dialogs offer exactly the table's formats."""

from __future__ import annotations

import pytest

from core.errors import ConfigError, FormatError
from core.formats import registry
from core.formats.detect import detect_format, open_tokenizer, save_tokenizer


@pytest.mark.parametrize("fmt", registry.FORMATS, ids=lambda f: f.name)
def test_every_row_has_a_module_that_recognises_reads_and_writes(fmt):
    module = fmt.load_module()
    for function in ("find_in_folder", "sniff", "open_file"):
        assert callable(getattr(module, function, None)), f"{fmt.module} lacks {function}"
    assert callable(getattr(module, "save_file", None)) == fmt.saves


def test_names_are_unique_and_save_formats_are_rows():
    names = [f.name for f in registry.FORMATS]
    assert len(names) == len(set(names))
    assert set(registry.SAVE_FORMATS) == {f.name for f in registry.FORMATS if f.saves}
    assert registry.SAVE_FORMATS[0] == "hf-json"  # what a save dialog preselects


def test_a_file_name_decides_before_its_ending():
    assert registry.format_for_name("vocab.json").name == "gpt2"
    assert registry.format_for_name("other.json").name == "hf-json"
    assert registry.format_for_name("VOCAB.TXT").name == "bert"
    assert registry.format_for_name("corpus.txt") is None


def test_unknown_format_names_list_the_table(tmp_path):
    (tmp_path / "x.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigError, match="choose from " + ", ".join(registry.LOAD_FORMATS)):
        open_tokenizer(tmp_path / "x.json", format="no-such")
    with pytest.raises(ConfigError, match="choose from " + ", ".join(registry.SAVE_FORMATS)):
        save_tokenizer(None, tmp_path / "y", "sentencepiece-vocab")


def test_an_empty_folder_names_every_rows_file(tmp_path):
    with pytest.raises(FormatError) as e:
        detect_format(tmp_path)
    for fmt in registry.FORMATS:
        assert fmt.folder_hint in str(e.value)


def test_convert_offers_the_table(capsys):
    from core.cli import build_parser

    parser = build_parser()
    for flag, choices in (("--to", registry.SAVE_FORMATS), ("--from", registry.LOAD_FORMATS)):
        with pytest.raises(SystemExit):
            parser.parse_args(["convert", "a", "b", flag, "no-such"])
        err = capsys.readouterr().err
        for name in choices:
            assert repr(name) in err


def test_dialog_filters_cover_every_format():
    opened = registry.open_dialog_filters()
    assert opened[0].startswith("Tokenizers (") and opened[-1] == "All files (*)"
    for fmt in registry.FORMATS:
        for glob in fmt.globs:
            assert glob in opened[0]
    saved = registry.save_dialog_filters()
    assert [name for _, name in saved] == list(registry.SAVE_FORMATS)
    for label, name in saved:
        suffix = registry.format_named(name).save_suffix
        if suffix:
            assert registry.save_format_for_suffix("x" + suffix) == name
            assert f"*{suffix})" in label


@pytest.mark.parametrize("name", [f.name for f in registry.FORMATS if not f.saves])
def test_saving_in_a_format_we_only_read_says_so(name):
    with pytest.raises(ConfigError) as e:
        registry.format_named(name, saving=True)
    message = str(e.value)
    assert "reads but does not write" in message and "hf-json" in message and "\n" not in message


# A tokenizer each file format can hold (tiktoken wants bytes, vocab.txt an unknown token).
_HOLDS = {
    "hf-json": ("bpe", {}),
    "sentencepiece": ("unigram", {}),
    "bert": ("wordpiece", {"special_tokens": ["[UNK]"]}),
    "tiktoken": ("bytelevel-bpe", {}),
    "subword-nmt": ("bpe", {}),
}


@pytest.mark.parametrize(
    "fmt", [f for f in registry.FORMATS if f.saves and not f.saves_folder], ids=lambda f: f.name
)
def test_a_file_format_names_what_it_writes_into_a_folder_and_after_a_bare_name(fmt, tmp_path):
    """``subword convert uni/ uni-sp/ --to sentencepiece`` wrote a file named ``uni-sp`` (issue 29)."""
    from core.events import drain
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts

    algorithm, options = _HOLDS[fmt.name]
    lines = ["the cat sat on the mat", "hello world, the cats"] * 20
    train = TrainOptions(algorithm, vocab_size=60, **options)
    tok = drain(train_from_counts(pre_tokenize_lines(lines, train), train))
    folder = tmp_path / "out"
    folder.mkdir()
    save_tokenizer(tok, folder, fmt.name)
    assert [p.name for p in folder.iterdir() if p.is_file()] == [fmt.save_name]
    assert fmt.save_path(folder) == folder / fmt.save_name
    assert fmt.save_path(tmp_path / "uni-sp") == tmp_path / ("uni-sp" + fmt.save_suffix)
    assert fmt.save_path(tmp_path / "mine.bin") == tmp_path / "mine.bin"  # an ending the user chose
