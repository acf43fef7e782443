"""`subword convert IN OUT --to FORMAT` and `subword encode --model ANY`, through core.cli.main."""

from __future__ import annotations

import json

import pytest
from conftest import CORPORA

from core.cli import main

spm = pytest.importorskip("sentencepiece")


@pytest.fixture(scope="module")
def sp_model(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    corpus = d / "c.txt"
    corpus.write_text(
        "\n".join((CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:400]),
        encoding="utf-8",
    )
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(d / "m"), vocab_size=400, model_type="bpe", minloglevel=2
    )
    return d / "m.model"


def test_convert_reports_losses_and_writes_a_loadable_file(sp_model, tmp_path, capsys):
    out = tmp_path / "gpt2"
    assert main(["convert", str(sp_model), str(out), "--to", "gpt2"]) == 0
    printed = capsys.readouterr().out
    assert "(sentencepiece)" in printed and "gpt2 loses:" in printed
    assert "no normalizer is stored" in printed
    assert (out / "vocab.json").is_file() and (out / "merges.txt").is_file()


def test_convert_to_project_keeps_everything_and_encodes_as_sentencepiece(sp_model, tmp_path, capsys):
    out = tmp_path / "proj"
    assert main(["convert", str(sp_model), str(out), "--to", "project"]) == 0
    assert "project keeps everything" in capsys.readouterr().out
    text = "  Hello,   ｶﾞ world "
    assert main(["encode", "--model", str(out), text, "--json"]) == 0
    ids = json.loads(capsys.readouterr().out)["ids"]
    assert ids == spm.SentencePieceProcessor(model_file=str(sp_model)).encode(text)


def test_encode_opens_a_sentencepiece_model_directly(sp_model, capsys):
    text = "I am a cat."
    assert main(["encode", "--model", str(sp_model), text, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    sp = spm.SentencePieceProcessor(model_file=str(sp_model))
    assert got["ids"] == sp.encode(text)
    assert got["tokens"] == sp.encode(text, out_type=str)


def test_encode_tiktoken_with_a_pattern(tmp_path, capsys):
    from core.formats.tiktoken_ranks import write_ranks

    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    write_ranks(ranks, tmp_path / "r.tiktoken")
    assert (
        main(["encode", "--model", str(tmp_path / "r.tiktoken"), "--pattern", "gpt2", "abc ab", "--json"])
        == 0
    )
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ids"] == [256, 99, 32, 256]
    assert captured.err == ""  # the pattern was given: no "assumed cl100k_base" warning


def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "half.model"
    bad.write_bytes(b"\x0a\x20\x0a\x05<unk>")
    assert main(["convert", str(bad), str(tmp_path / "out"), "--to", "hf-json"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("subword: error: ") and "half.model" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_impossible_target_is_an_error(sp_model, tmp_path, capsys):
    assert main(["convert", str(sp_model), str(tmp_path / "r.tiktoken"), "--to", "tiktoken"]) == 1
    assert "not byte-level" in capsys.readouterr().err
    assert not (tmp_path / "r.tiktoken").exists()
