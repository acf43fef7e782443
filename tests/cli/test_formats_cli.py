"""`subword encode` on the tokenizer files of issue 10: --nbest/--sample on a SentencePiece
unigram .model, --allow-special on rank-file and tekken tokenizers; `subword convert --from`."""

from __future__ import annotations

import json

import pytest
from tekken_files import write_tekken

from core.cli import main

spm = pytest.importorskip("sentencepiece")

from conftest import CORPORA  # noqa: E402


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def unigram_model(tmp_path_factory):
    d = tmp_path_factory.mktemp("spm")
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:2000]
    (d / "c.txt").write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(d / "c.txt"), model_prefix=str(d / "m"), vocab_size=400, minloglevel=2
    )
    return d / "m.model"


def test_nbest_on_a_sentencepiece_unigram_model(unigram_model, capsys):
    sp = spm.SentencePieceProcessor(model_file=str(unigram_model))
    code, out, err = run(["encode", "--model", unigram_model, "--nbest", "3", "--json", "I am a cat"], capsys)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 3
    assert rows[0]["tokens"] == sp.encode("I am a cat", out_type=str)
    assert rows[0]["score"] >= rows[1]["score"] >= rows[2]["score"]


def test_sample_on_a_sentencepiece_unigram_model(unigram_model, capsys):
    code, out, err = run(["encode", "--model", unigram_model, "--sample", "--json", "I am a cat"], capsys)
    assert code == 0, err
    assert "".join(json.loads(out)["tokens"]) == "▁I▁am▁a▁cat"


def test_nbest_still_refuses_a_bpe_model(tmp_path, capsys):
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:500]
    (tmp_path / "c.txt").write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(tmp_path / "c.txt"),
        model_prefix=str(tmp_path / "b"),
        vocab_size=300,
        model_type="bpe",
        minloglevel=2,
    )
    code, _, err = run(["encode", "--model", tmp_path / "b.model", "--nbest", "2", "x"], capsys)
    assert code != 0 and "need a Unigram model" in err


def _rank_file(tmp_path):
    """A tiny rank file: the 256 bytes, then 'ab' (ids 0..256)."""
    import base64

    ranks = [bytes([b]) for b in range(256)] + [b"ab"]
    path = tmp_path / "r.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(ranks)), "ascii")
    return path


def test_allow_special_on_a_tekken_file(tmp_path, capsys):
    path = write_tekken(tmp_path / "tekken.json", n_special=3, specials=["<unk>", "<s>", "</s>"])
    code, out, err = run(["encode", "--model", path, "--json", "<s>"], capsys)
    assert code == 0, err
    assert json.loads(out)["ids"] == [3 + ord(c) for c in "<s>"]  # as text: one byte each
    code, out, err = run(["encode", "--model", path, "--json", "--allow-special", "<s>"], capsys)
    assert json.loads(out)["ids"] == [1]


def test_convert_from_names_the_input_format(tmp_path, capsys):
    path = _rank_file(tmp_path)
    code, out, err = run(
        ["convert", path, tmp_path / "out.json", "--to", "hf-json", "--from", "tiktoken"], capsys
    )
    assert code == 0, err
    assert "(tiktoken)" in out
    code, _, err = run(["convert", path, tmp_path / "x.json", "--to", "hf-json", "--from", "bert"], capsys)
    assert code != 0 and "not a BERT vocab.txt" in err  # read as asked, not as detected


def test_convert_to_a_bare_name_writes_the_formats_ending_and_says_where(unigram_model, tmp_path, capsys):
    """``subword convert uni/ uni-sp/ --to sentencepiece`` wrote a file named ``uni-sp`` (issue 29)."""
    code, _, err = run(["convert", unigram_model, tmp_path / "uni", "--to", "project"], capsys)
    assert code == 0, err
    code, out, err = run(
        ["convert", f"{tmp_path / 'uni'}/", f"{tmp_path / 'uni-sp'}/", "--to", "sentencepiece"], capsys
    )
    assert code == 0, err
    assert (tmp_path / "uni-sp.model").is_file() and not (tmp_path / "uni-sp").exists()
    assert f"-> {tmp_path / 'uni-sp.model'} (sentencepiece)" in out
    (tmp_path / "into").mkdir()
    code, out, err = run(["convert", tmp_path / "uni", tmp_path / "into", "--to", "sentencepiece"], capsys)
    assert code == 0, err
    assert (tmp_path / "into" / "tokenizer.model").is_file()
    assert f"-> {tmp_path / 'into' / 'tokenizer.model'} (sentencepiece)" in out


def test_convert_to_a_folder_format_refuses_an_output_named_like_a_file(tmp_path, capsys):
    """``subword convert ranks out.json --to gpt2`` made a folder named out.json (vocab.json and
    merges.txt inside): a folder format refuses a file-like OUTPUT and writes nothing; a file format
    (hf-json) takes out.json as the file it is."""
    path = _rank_file(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    code, _, err = run(["convert", path, tmp_path / "out.json", "--to", "gpt2", "--from", "tiktoken"], capsys)
    assert code != 0 and "Traceback" not in err
    assert f"OUTPUT {tmp_path / 'out.json'} looks like a file name" in err and f"{tmp_path / 'out'}/" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    code, _, err = run(["convert", path, tmp_path / "out", "--to", "gpt2", "--from", "tiktoken"], capsys)
    assert code == 0, err
    assert (tmp_path / "out" / "merges.txt").is_file()
