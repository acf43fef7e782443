"""`subword train --algorithm wordpiece --wordpiece-score ...` and the vocab.txt it writes."""

from __future__ import annotations

import pytest

from core.cli import main
from core.formats.bert_vocab import load_bert_vocab


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "hug.txt"
    # the seeds' table: hug 10, pug 5, pun 12, bun 4, hugs 5
    path.write_text(
        "\n".join(["hug"] * 10 + ["pug"] * 5 + ["pun"] * 12 + ["bun"] * 4 + ["hugs"] * 5) + "\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "score, expected_first", [("likelihood", "##gs"), ("frequency", "##ug"), (None, "##gs")]
)
def test_train_writes_vocab_txt_with_the_chosen_score(capsys, tmp_path, corpus, score, expected_first):
    out = tmp_path / "out"
    argv = [
        "train",
        str(corpus),
        "--algorithm",
        "wordpiece",
        "--vocab-size",
        "40",
        "--output",
        str(out),
        "-q",
    ]
    if score:
        argv += ["--wordpiece-score", score]
    assert main(argv) == 0
    assert str(out / "vocab.txt") in capsys.readouterr().out
    model = load_bert_vocab(out / "vocab.txt")
    first_merged = sorted(model.get_vocab(), key=model.token_to_id)[model.min_vocab_size]
    assert first_merged == expected_first
    assert (out / "tokenizer.json").is_file()


def test_unknown_score_is_rejected(capsys, tmp_path, corpus):
    with pytest.raises(SystemExit):
        main(
            [
                "train",
                str(corpus),
                "-a",
                "wordpiece",
                "-v",
                "40",
                "-o",
                str(tmp_path),
                "--wordpiece-score",
                "x",
            ]
        )
    assert "invalid choice" in capsys.readouterr().err
