"""Inputs that never end, or are not there: /dev/zero, a sparse file, a line without end, standard
input or output closed, a scheduler address that is none. Each is one line at once, in bounded memory."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import core.encode_parallel
import core.limits
from core.events import drain
from core.formats.hf_json import save_tokenizer_json
from core.options import TrainOptions
from core.training import train_from_counts
from tests.cli_helpers import assert_one_line_error, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def model(tmp_path) -> Path:
    tok = drain(
        train_from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, TrainOptions("bpe", vocab_size=14))
    )
    path = tmp_path / "tokenizer.json"
    save_tokenizer_json(tok, path)
    return path


@pytest.mark.parametrize("ids", [[], ["--ids"]], ids=["tokens", "ids"])
def test_dev_zero_and_a_sparse_file_are_refused_at_once(tmp_path, model, capsys, ids):
    code, _, err = run(["encode", "-m", model, *ids, "--input", "/dev/zero"], capsys)
    assert_one_line_error(code, err, "/dev/zero is a character device, not a text file")
    sparse = tmp_path / "sparse.txt"
    with open(sparse, "wb") as f:
        f.truncate(2 << 30)  # 2 GB of NUL bytes, no newline, next to no disk
    code, _, err = run(["encode", "-m", model, *ids, "--input", sparse], capsys)
    assert_one_line_error(code, err, "contains NUL bytes")


@pytest.fixture
def small_bound(monkeypatch):
    monkeypatch.setattr(core.limits, "MAX_LINE_CHARS", 1000)
    monkeypatch.setattr(core.encode_parallel, "MAX_LINE_CHARS", 1000)
    return 1000


@pytest.mark.parametrize("ids", [[], ["--ids"]], ids=["tokens", "ids"])
def test_a_line_past_the_bound_on_standard_input_is_one_line(model, capsys, monkeypatch, small_bound, ids):
    read = []

    class Endless(io.StringIO):  # stands for `cat /dev/zero |`: a line that never ends
        def readline(self, size=-1):
            assert 0 < size <= small_bound + 1, "read a line without a bound"
            read.append(size)
            return "hug " * size if len(read) == 1 else ""

    monkeypatch.setattr(sys, "stdin", Endless())
    code, _, err = run(["encode", "-m", model, *ids, "--input", "-"], capsys)
    assert_one_line_error(code, err, "standard input: line 1 is longer than 1,000 characters")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_file_line_past_the_bound_is_one_line_with_any_number_of_workers(
    tmp_path, model, capsys, small_bound, workers
):
    path = tmp_path / "long.txt"
    path.write_text(("hug pug\n" * 10 + "hug " * 300 + "\n") * 2000, encoding="utf-8")  # 2.5 MB
    code, out, err = run(["encode", "-m", model, "--ids", "--workers", workers, "--input", path], capsys)
    assert_one_line_error(code, err, "is longer than 1,000 characters")
    endless = tmp_path / "endless.txt"
    endless.write_text("hug " * (1 << 20), encoding="utf-8")  # 4 MB, one line
    code, out, err = run(["encode", "-m", model, "--ids", "--workers", workers, "--input", endless], capsys)
    assert_one_line_error(code, err, "is longer than 1,000 characters")


@pytest.mark.parametrize("closed", ["<&-", ">&-"], ids=["stdin", "stdout"])
def test_standard_input_or_output_closed_is_one_line(model, closed):
    command = f"{sys.executable} -m core.cli encode -m {model} --ids --input - {closed}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("subword: error:") == 1
    assert ("standard input is closed" if closed == "<&-" else "standard output is closed") in done.stderr


def test_a_scheduler_address_that_is_none_is_one_line_at_once(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug pug\n", encoding="utf-8")
    code, _, err = run(["count", "--scheduler", "not a url", corpus, "-o", tmp_path / "c.tsv"], capsys)
    assert_one_line_error(code, err, "'not a url' is not a Dask scheduler address")
