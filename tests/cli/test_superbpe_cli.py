"""``subword train -a superbpe --transition T``: listed in the help, trained, stage 2 announced,
and its options refused in one line where they do not apply."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import assert_one_line_error, run
from tests.conftest import CORPORA


@pytest.fixture
def corpus(tmp_path):
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:600]
    path = tmp_path / "c.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_help_lists_superbpe_and_its_options(capsys):
    with pytest.raises(SystemExit):
        run(["train", "--help"], capsys)
    out = capsys.readouterr().out
    assert "superbpe" in out and "--transition T" in out and "--max-words N" in out


def test_train_superbpe(tmp_path, corpus, capsys):
    code, out, err = run(
        ["train", corpus, "-a", "superbpe", "-v", 900, "--transition", 700, "-o", tmp_path / "o"], capsys
    )
    assert code == 0, err
    assert "stage 2: superwords" in err
    vocab = json.loads((tmp_path / "o" / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    assert len(vocab) == 900 and "ĠofĠthe" in vocab
    code, out, err = run(["encode", "-m", tmp_path / "o", "--json", "one of the best"], capsys)
    assert "ĠofĠthe" in json.loads(out)["tokens"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["-a", "bpe", "--transition", "700"], ["--transition is a superbpe option"]),
        (["-a", "superbpe", "--transition", "5000"], ["transition must be a vocabulary size"]),
        (["-a", "superbpe", "--max-words", "-2"], ["word limit"]),
        (["-a", "superbpe", "--pre-tokenizer", "whitespace"], ["superbpe or superbpe-unsplit"]),
    ],
)
def test_bad_superbpe_options(tmp_path, corpus, capsys, argv, words):
    code, out, err = run(["train", corpus, "-v", 900, "-o", tmp_path / "o", *argv], capsys)
    assert_one_line_error(code, err, *words)
    assert not (tmp_path / "o").exists()
