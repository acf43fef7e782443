"""``subword evaluate``: the report card of core.measures on the command line."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import assert_one_line_error, run
from measures_files import write_bpe

import core.cli as cli


@pytest.fixture
def models(tmp_path):
    """Two BPEs over a b c: "small" has the merge a+b only, "big" also ab+c (abc is one token)."""
    small = write_bpe(tmp_path / "small.json", {"a": 0, "b": 1, "c": 2, "ab": 3}, ["a b"])
    big = write_bpe(tmp_path / "big.json", {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}, ["a b", "ab c"])
    return small, big


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("abc ab\nabc c a\n", encoding="utf-8")  # small: ab c ab | ab c c a; big: abc ab | abc c a
    return path


def _row(out: str, label: str) -> list[str]:
    line = next(line for line in out.splitlines() if line.strip().startswith(label))
    return line[len(line) - len(line.lstrip()) + len(label) :].split()


def test_a_table_with_the_best_value_of_each_row_marked(models, corpus, capsys):
    code, out, err = run(["evaluate", "-m", models[0], "-m", models[1], "--corpus", corpus, "-q"], capsys)
    assert code == 0, err
    header = out.splitlines()[0].split()
    assert header == ["small.json", "big.json"]
    assert _row(out, "tokens / word") == ["1.400", "1.000*"]  # 7 / 5 and 5 / 5
    assert _row(out, "bytes / token") == ["1.857", "2.600*"]  # 13 bytes (spaces in)
    assert _row(out, "never used on the corpus") == ["1", "1"]  # b in both: a tie is not marked
    assert _row(out, "vocabulary size") == ["4", "5"]  # nothing to mark
    assert "Morphology" not in out and "Parity" not in out
    assert "2 lines, 5 words" in out
    assert err == ""  # --quiet: no progress


def test_json_and_html_files(models, corpus, tmp_path, capsys):
    html_out, json_out = tmp_path / "card.html", tmp_path / "card.json"
    argv = [
        "evaluate",
        "-m",
        models[0],
        "-m",
        models[1],
        "--corpus",
        corpus,
        "--html",
        html_out,
        "--json",
        json_out,
    ]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    data = json.loads(json_out.read_text(encoding="utf-8"))
    assert data["corpus"] == str(corpus) and data["options"]["alpha"] == 3.0
    assert data["versions"]["subword-explorer"]
    small, big = data["tokenizers"]
    assert (small["name"], small["tokens"], big["tokens"]) == ("small.json", 7, 5)
    assert small["format"] and small["path"] == str(models[0])
    assert big["hygiene"]["unused"] == [[1, "b"]]
    assert big["hygiene"]["intermediate_only"] == [[1, "b"]]
    assert big["measures"]["tokens / word"] == 1.0
    page = html_out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<svg" in page and "<table" in page and str(corpus) in page
    # self-contained: nothing fetched, no script
    assert not re.search(r"<script|<link|src=|href=|@import|url\(", page)
    assert '<td class="best">1.000</td>' in page


def test_parity_from_parallel_files(models, corpus, tmp_path, capsys):
    en, xx = tmp_path / "en.txt", tmp_path / "xx.txt"
    en.write_text("abc\nab\n", encoding="utf-8")  # big: 2 tokens
    xx.write_text("a b c\nabc abc\n", encoding="utf-8")  # big: 5 tokens
    argv = [
        "evaluate",
        "-m",
        models[1],
        "--corpus",
        corpus,
        "--parallel",
        f"xx={xx}",
        "--parallel",
        f"en={en}",
    ]
    code, out, err = run([*argv, "-q"], capsys)
    assert code == 0, err
    assert "Parity (pivot en, 2 parallel lines)" in out
    assert _row(out, "premium xx / en") == ["2.500"]
    assert _row(out, "Gini across languages") == ["0.214"]  # |5 - 2| · 2 / (2 · 4 · 3.5)
    page = tmp_path / "card.html"
    code, _, err = run([*argv, "-q", "--html", page], capsys)
    assert code == 0, err
    chart = (
        page.read_text(encoding="utf-8")
        .split('aria-label="token premium per language"')[1]
        .split("</svg>")[0]
    )
    assert ">xx</text>" in chart and ">2.50</text>" in chart and ">en</text>" in chart


def test_korean_alignment_rows(tmp_path, capsys):
    vocab = {s: i for i, s in enumerate("먹었고치킨을")} | {"먹었": 6, "치킨": 7}
    model = write_bpe(tmp_path / "ko.json", vocab, ["먹 었", "치 킨"])
    corpus = tmp_path / "ko.txt"
    corpus.write_text("먹었고 치킨을\n", encoding="utf-8")
    code, out, err = run(["evaluate", "-m", model, "--corpus", corpus, "-q"], capsys)
    assert code == 0, err
    assert "Morphology (ko, kiwipiepy, 1 lines)" in out
    assert _row(out, "boundary precision") == ["1.000"] and _row(out, "boundary F1") == ["0.800"]
    code, out, _ = run(["evaluate", "-m", model, "--corpus", corpus, "-q", "--language", "none"], capsys)
    assert code == 0 and "Morphology" not in out


def test_two_models_of_one_name_get_their_paths_as_names(tmp_path, corpus, capsys):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        write_bpe(tmp_path / folder / "tokenizer.json", {"a": 0, "b": 1, "c": 2}, [])
    argv = ["evaluate", "-m", tmp_path / "a" / "tokenizer.json", "-m", tmp_path / "b" / "tokenizer.json"]
    code, out, err = run([*argv, "-m", tmp_path / "b" / "tokenizer.json", "--corpus", corpus, "-q"], capsys)
    assert code == 0, err
    header = out.splitlines()[0].split()
    assert header == [
        "tokenizer.json",
        str(tmp_path / "b" / "tokenizer.json"),
        str(tmp_path / "b" / "tokenizer.json") + "'",
    ]


def test_progress_goes_to_stderr(models, corpus, capsys):
    code, out, err = run(["evaluate", "-m", models[0], "--corpus", corpus], capsys)
    assert code == 0
    assert "encode" in err and "hygiene" in err
    assert "encode" not in out


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--parallel", "en"], ["LANG=FILE"]),
        (["--parallel", "en=a", "--parallel", "en=b"], ["en twice"]),
        (["--pivot", "en"], ["--parallel"]),
        (["--alignment-lines", "-1"], ["--alignment-lines"]),
        (["--alpha", "-2"], ["Rényi order"]),
        (["--html", "nowhere/card.html"], ["--html", "folder does not exist"]),
    ],
)
def test_bad_options_are_one_line_and_write_nothing(
    models, corpus, tmp_path, capsys, monkeypatch, extra, words
):
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(["evaluate", "-m", models[0], "--corpus", corpus, "-q", *extra], capsys)
    assert_one_line_error(code, err, *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_bad_files_are_one_line(models, corpus, tmp_path, capsys):
    code, _, err = run(["evaluate", "-m", tmp_path / "none.json", "--corpus", corpus], capsys)
    assert_one_line_error(code, err, "none.json")
    code, _, err = run(["evaluate", "-m", models[0], "--corpus", tmp_path / "none.txt"], capsys)
    assert_one_line_error(code, err, "none.txt")
    (tmp_path / "empty.txt").write_text("\n \n", encoding="utf-8")
    code, _, err = run(["evaluate", "-m", models[0], "--corpus", tmp_path / "empty.txt"], capsys)
    assert_one_line_error(code, err, "no text")
    (tmp_path / "bad.txt").write_bytes(b"ab \xff\n")
    code, _, err = run(["evaluate", "-m", models[0], "--corpus", tmp_path / "bad.txt"], capsys)
    assert_one_line_error(code, err, "not UTF-8")
    short = tmp_path / "short.txt"
    short.write_text("a\n", encoding="utf-8")
    argv = [
        "evaluate",
        "-m",
        models[0],
        "--corpus",
        corpus,
        "--parallel",
        f"en={corpus}",
        "--parallel",
        f"xx={short}",
    ]
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, "same number of lines")


def test_the_parser_builds_evaluates_arguments_only_when_named():
    argv = [
        "evaluate",
        "-m",
        "a",
        "-m",
        "b",
        "--corpus",
        "c.txt",
        "--parallel",
        "en=e.txt",
        "--json",
        "o.json",
    ]
    only = cli._named_command(argv)
    assert only == "evaluate"
    assert vars(cli.build_parser(only=only).parse_args(argv)) == vars(cli.build_parser().parse_args(argv))


@pytest.mark.slow
def test_a_real_japanese_corpus(corpora_dir, tmp_path, capsys):
    """Two tokenizers trained on Wagahai wa neko de aru, measured on it with Sudachi's morphemes."""
    corpus = tmp_path / "ja.txt"
    corpus.write_text(
        "\n".join((corpora_dir / "ja-wagahaiwa.txt").read_text(encoding="utf-8-sig").splitlines()[:400])
        + "\n",
        encoding="utf-8",
    )
    for name, algorithm in (("bpe", "bytelevel-bpe"), ("uni", "unigram")):
        code, _, err = run(
            ["train", corpus, "-a", algorithm, "-v", 4000, "-o", tmp_path / name, "-q"], capsys
        )
        assert code == 0, err
    out_json = tmp_path / "card.json"
    argv = ["evaluate", "-m", tmp_path / "bpe", "-m", tmp_path / "uni", "--corpus", corpus]
    code, out, err = run([*argv, "--alignment-lines", 100, "--json", out_json, "-q"], capsys)
    assert code == 0, err
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["options"]["language"] == "ja" and data["options"]["alignment_lines"] == 100
    for tok in data["tokenizers"]:
        assert 0 < tok["measures"]["boundary F1"] < 1
        assert 0 < tok["measures"]["Rényi efficiency"] < 1
        assert tok["measures"]["tokens / character"] < 1
    assert "boundary F1" in out
