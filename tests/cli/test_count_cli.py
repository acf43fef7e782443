"""`subword count`: word-count files from many files or a glob, and training on them.

The honest check: training on the counts file gives the same merges as training
on the text itself (the same pipeline applied once, in either place).
"""

from __future__ import annotations

import sys

import pytest
from cli_helpers import assert_one_line_error, run

from core.corpus import read_word_counts

LINES = [
    "철수는 치킨을 먹고 볶음밥을 먹고 있다",
    "영희는 학교에 갔다가 집에 왔다",
    "hug pug pun bun hugs 👋🏽",
]


@pytest.fixture
def shards(tmp_path):
    folder = tmp_path / "shards" / "deeper"
    folder.mkdir(parents=True)
    for i in range(5):
        (folder / f"part-{i}.txt").write_text("\n".join(LINES[i % 3 :] * (i + 1)) + "\n", encoding="utf-8")
    return tmp_path / "shards"


@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe", "wordpiece", "unigram"])
def test_training_on_the_counts_equals_training_on_the_text(tmp_path, shards, capsys, algorithm):
    counts = tmp_path / "counts.tsv"
    code, out, err = run(["count", f"{shards}/**/part-*.txt", "-o", counts, "-a", algorithm, "-q"], capsys)
    assert code == 0, err
    assert out.strip() == str(counts)
    assert read_word_counts(counts).counted_with["pre_tokenizer"] is not None
    texts = sorted(shards.glob("**/*.txt"))
    for name, inputs in [("from-text", texts), ("from-counts", [counts, "--counts"])]:
        code, _, err = run(["train", *inputs, "-a", algorithm, "-v", 60, "-o", tmp_path / name, "-q"], capsys)
        assert code == 0, err
    assert (tmp_path / "from-text" / "tokenizer.json").read_text(encoding="utf-8") == (
        tmp_path / "from-counts" / "tokenizer.json"
    ).read_text(encoding="utf-8")


def test_counts_of_another_pipeline_are_refused(tmp_path, shards, capsys):
    counts = tmp_path / "counts.tsv"
    assert run(["count", *sorted(shards.glob("**/*.txt")), "-o", counts, "-q"], capsys)[0] == 0
    code, _, err = run(["train", counts, "--counts", "-a", "unigram", "-v", 60, "-o", tmp_path / "m"], capsys)
    assert_one_line_error(code, err, "--pre-tokenizer whitespace", "--pre-tokenizer metaspace")


def test_a_glob_that_matches_nothing(tmp_path, capsys):
    code, _, err = run(["count", tmp_path / "nothing-*.txt", "-o", tmp_path / "c.tsv"], capsys)
    assert_one_line_error(code, err, "no file matches")
    assert not (tmp_path / "c.tsv").exists()


def test_output_is_a_directory(tmp_path, shards, capsys):
    code, _, err = run(["count", f"{shards}/**/*.txt", "-o", tmp_path], capsys)
    assert_one_line_error(code, err, "is a directory")


def test_without_dask_the_cluster_option_names_the_package(tmp_path, shards, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code, _, err = run(
        ["count", f"{shards}/**/*.txt", "-o", tmp_path / "c.tsv", "--scheduler", "local"], capsys
    )
    assert_one_line_error(code, err, "dask[distributed]")


def test_local_dask_cluster_writes_the_same_file(tmp_path, shards, capsys):
    pytest.importorskip("distributed")
    files = sorted(shards.glob("**/*.txt"))
    one, cluster = tmp_path / "one.tsv", tmp_path / "cluster.tsv"
    assert run(["count", *files, "-o", one, "-q", "--workers", 1], capsys)[0] == 0
    code, _, err = run(["count", *files, "-o", cluster, "-q", "--scheduler", "local"], capsys)
    assert code == 0, err
    assert cluster.read_bytes() == one.read_bytes()


def test_a_damaged_pipeline_line_is_one_clear_error(tmp_path, capsys):
    counts = tmp_path / "counts.tsv"
    counts.write_text("#counted-with\t{not json\nhug\t3\n", encoding="utf-8")
    code, _, err = run(["train", counts, "--counts", "-v", 20, "-o", tmp_path / "m"], capsys)
    assert_one_line_error(code, err, "line 1", "#counted-with")
