"""`subword train --pre-tokenizer ko-morph|ja-morph --normalizer jamo`, and encoding with the result."""

from __future__ import annotations

import json

from core.cli import main

KO = "철수는 치킨을 먹고 볶음밥을 먹고 있다\n영희는 볶음밥을 먹고 철수는 치킨을 먹었다\n" * 5
JA = "吾輩は猫である。名前はまだ無い。\n" * 5


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_train_and_encode_with_ko_morph_and_jamo(tmp_path, capsys):
    corpus = tmp_path / "ko.txt"
    corpus.write_text(KO, encoding="utf-8")
    out = tmp_path / "out"
    args = [
        "train",
        corpus,
        "-v",
        "80",
        "-o",
        out,
        "-q",
        "--pre-tokenizer",
        "ko-morph",
        "--normalizer",
        "jamo",
    ]
    code, _, err = run(args, capsys)
    assert code == 0, err
    text = "철수는 치킨을 먹었다"
    code, stdout, err = run(["encode", "-m", out, "--json", text], capsys)
    assert code == 0, err
    enc = json.loads(stdout)
    # no token crosses the morpheme cut between 치킨 and 을 (offsets index the original text)
    assert all(not (a < 6 < b) for a, b in enc["offsets"])
    assert "".join(text[a:b] for a, b in enc["offsets"]).replace(" ", "") == text.replace(" ", "")


def test_train_with_ja_morph(tmp_path, capsys):
    corpus = tmp_path / "ja.txt"
    corpus.write_text(JA, encoding="utf-8")
    code, _, err = run(
        ["train", corpus, "-v", "40", "-o", tmp_path / "o", "-q", "--pre-tokenizer", "ja-morph"], capsys
    )
    assert code == 0, err
    code, stdout, err = run(["encode", "-m", tmp_path / "o", "--json", "吾輩は猫"], capsys)
    offsets = json.loads(stdout)["offsets"]
    assert all(not (a < 2 < b) for a, b in offsets)  # 吾輩 | は


def test_unknown_pre_tokenizer_lists_the_morpheme_ones(tmp_path, capsys):
    corpus = tmp_path / "ko.txt"
    corpus.write_text(KO, encoding="utf-8")
    code, _, err = run(
        ["train", corpus, "-v", "80", "-o", tmp_path / "o", "--pre-tokenizer", "ko-morf"], capsys
    )
    assert code != 0 and "ko-morph" in err and "Traceback" not in err
