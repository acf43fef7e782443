"""``subword encode --dropout P [--seed N]``: BPE-dropout from the command line, and ``--seed``
for Unigram's ``--sample``."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import assert_one_line_error, run
from tests.conftest import CORPORA

TEXT = "something thought everything " * 10


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("models")
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:800]
    (d / "c.txt").write_text("\n".join(lines), encoding="utf-8")
    from core.cli import main

    assert main(["train", str(d / "c.txt"), "-v", "600", "-o", str(d / "bpe"), "-q"]) == 0
    assert main(["train", str(d / "c.txt"), "-v", "300", "-o", str(d / "uni"), "-a", "unigram", "-q"]) == 0
    return d


def tokens(capsys, *argv) -> list[str]:
    code, out, err = run(["encode", *argv, "--json", TEXT], capsys)
    assert code == 0, err
    return json.loads(out)["tokens"]


def test_dropout_is_seeded_and_varies(models, capsys):
    bpe = models / "bpe"
    plain = tokens(capsys, "-m", bpe)
    a = tokens(capsys, "-m", bpe, "--dropout", "0.3", "--seed", "7")
    assert a == tokens(capsys, "-m", bpe, "--dropout", "0.3", "--seed", "7")
    assert a != tokens(capsys, "-m", bpe, "--dropout", "0.3", "--seed", "8")
    assert a != plain and "".join(a) == "".join(plain)  # same text, other cuts
    assert len(set(a)) > len(set(plain))  # the repeated words are cut differently each time
    assert tokens(capsys, "-m", bpe, "--dropout", "0") == plain
    assert tokens(capsys, "-m", bpe, "--dropout", "1") == list(TEXT.replace(" ", ""))


def test_dropout_with_ids(models, capsys):
    code, out, err = run(
        ["encode", "-m", models / "bpe", "--ids", "--dropout", "1", "--seed", "1", "the"], capsys
    )
    assert code == 0, err
    assert len(out.split()) == 3


def test_seed_makes_unigram_samples_repeat(models, capsys):
    uni = models / "uni"
    a = tokens(capsys, "-m", uni, "--sample", "--seed", "3")
    assert a == tokens(capsys, "-m", uni, "--sample", "--seed", "3")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--dropout", "1.5"], ["--dropout must be a probability"]),
        (["--dropout", "nan"], ["--dropout must be a probability"]),
        (["--seed", "3"], ["--seed only applies"]),
        (["--dropout", "0.1", "--sample"], ["--dropout cannot be combined"]),
        (["--dropout", "0.1", "--ids", "--workers", "2", "--input", "c.txt"], ["--workers must be 1"]),
    ],
)
def test_bad_dropout_options(models, capsys, argv, words):
    argv = [str(models / a) if a == "c.txt" else a for a in argv]
    code, out, err = run(
        ["encode", "-m", models / "bpe", *argv] + ([] if "--input" in argv else ["x"]), capsys
    )
    assert_one_line_error(code, err, *words)
    assert out == ""


def test_dropout_needs_a_bpe_model(models, capsys):
    code, out, err = run(["encode", "-m", models / "uni", "--dropout", "0.1", "x"], capsys)
    assert_one_line_error(code, err, "--dropout needs a BPE model")
