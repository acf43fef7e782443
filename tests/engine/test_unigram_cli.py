"""`subword train --algorithm unigram` options and `subword encode --nbest/--sample`."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.models.unigram.reference import TEXTBOOK_CORPUS


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(TEXTBOOK_CORPUS) + "\n", encoding="utf-8")
    return path


def _train(tmp_path, corpus, *flags):
    out = tmp_path / "model"
    code = main(
        [
            "train",
            str(corpus),
            "--algorithm",
            "unigram",
            "--vocab-size",
            "100",
            "--output",
            str(out),
            "--quiet",
            *flags,
        ]
    )
    assert code == 0
    return out


def test_textbook_flag_reproduces_the_seed(tmp_path, corpus, capsys):
    out = _train(tmp_path, corpus, "--unigram-textbook")
    capsys.readouterr()
    assert main(["encode", "--model", str(out), "This is the Hugging Face course"]) == 0
    tokens = capsys.readouterr().out.splitlines()[0].split()[1:]
    # the seed's final tokenization of these words (its printed figure)
    assert tokens == ["▁This", "▁is", "▁the", "▁Hugging", "▁Face", "▁", "c", "ou", "r", "s", "e"]


def test_nbest_and_sample(tmp_path, corpus, capsys):
    out = _train(tmp_path, corpus, "--unigram-textbook")
    capsys.readouterr()
    assert main(["encode", "--model", str(out), "--nbest", "3", "--json", "This course"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 3
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert rows[0]["tokens"] == ["▁This", "▁", "c", "ou", "r", "s", "e"]
    assert all("".join(r["tokens"]) == "▁This▁course" for r in rows)
    assert main(["encode", "--model", str(out), "--sample", "--alpha", "0.5", "--json", "This course"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert "".join(row["tokens"]) == "▁This▁course"


def test_training_flags_reach_the_trainer(tmp_path, corpus, capsys):
    out = _train(tmp_path, corpus, "--max-piece-length", "3", "--shrinking-factor", "0.6")
    capsys.readouterr()
    vocab = json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    assert vocab[0][0] == "<unk>"
    assert max(len(p) for p, _ in vocab[1:]) <= 3


def test_bad_flags_give_one_line_errors(tmp_path, corpus, capsys):
    out = tmp_path / "m"
    assert (
        main(
            [
                "train",
                str(corpus),
                "-a",
                "unigram",
                "-v",
                "100",
                "-o",
                str(out),
                "-q",
                "--shrinking-factor",
                "2",
            ]
        )
        == 1
    )
    assert "shrinking factor" in capsys.readouterr().err
    model = _train(tmp_path, corpus, "--unigram-textbook")
    capsys.readouterr()
    assert main(["encode", "--model", str(model), "--nbest", "0", "x"]) == 1
    assert "--nbest" in capsys.readouterr().err
