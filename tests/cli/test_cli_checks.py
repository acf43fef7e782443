"""Options are checked before any work, and surprises are said even under --quiet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parents[2]
HUG_TEXT = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5


@pytest.fixture
def corpus(tmp_path) -> Path:
    path = tmp_path / "hug.txt"
    path.write_text(HUG_TEXT, encoding="utf-8")
    return path


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(code, err) -> str:
    assert code != 0 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("subword: error:")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    "flags, algorithm",
    [
        (["--shrinking-factor", "5"], "bpe"),
        (["--shrinking-factor", "0.5"], "wordpiece"),
        (["--max-piece-length", "4"], "bytelevel-bpe"),
        (["--unigram-textbook"], "bpe"),
        (["--wordpiece-score", "frequency"], "unigram"),
    ],
)
def test_an_option_of_another_algorithm_is_an_error(tmp_path, corpus, capsys, flags, algorithm):
    out = tmp_path / "out"
    code, _, err = run(["train", corpus, "-v", 40, "-o", out, "-a", algorithm, *flags], capsys)
    line = one_error_line(code, err)
    assert flags[0] in line and f"-a {algorithm} does not use it" in line
    assert not out.exists()


@pytest.mark.parametrize("value", ["5", "0", "nan"])
def test_a_bad_unigram_setting_fails_before_counting(tmp_path, corpus, capsys, value):
    code, _, err = run(
        ["train", corpus, "-v", 40, "-o", tmp_path / "o", "-a", "unigram", "--shrinking-factor", value],
        capsys,
    )
    assert "shrinking factor" in one_error_line(code, err)


def test_vocab_size_below_the_alphabet_is_said_even_when_quiet(tmp_path, corpus, capsys):
    code, _, err = run(["train", corpus, "-v", 1, "-o", tmp_path / "o", "-q"], capsys)
    assert code == 0
    assert "subword: warning:" in err and "not the 1 asked for" in err


@pytest.fixture
def unigram_model(tmp_path, corpus, capsys) -> Path:
    out = tmp_path / "uni"
    assert run(["train", corpus, "-v", 25, "-o", out, "-a", "unigram", "-q"], capsys)[0] == 0
    return out


@pytest.mark.parametrize("alpha", ["inf", "nan", "0", "-1"])
def test_sample_alpha_must_be_finite_and_positive(unigram_model, capsys, alpha):
    code, out, err = run(["encode", "-m", unigram_model, "--sample", "--alpha", alpha, "hug"], capsys)
    assert "--alpha must be a finite number greater than 0" in one_error_line(code, err) and out == ""


def test_alpha_without_sample_is_an_error(unigram_model, capsys):
    code, _, err = run(["encode", "-m", unigram_model, "--alpha", "0.5", "hug"], capsys)
    assert "--alpha only applies to --sample" in one_error_line(code, err)


def test_nbest_and_sample_together_is_an_error(unigram_model, capsys):
    code, _, err = run(["encode", "-m", unigram_model, "--sample", "--nbest", "2", "hug"], capsys)
    assert "one of --nbest and --sample" in one_error_line(code, err)


def test_a_fifo_corpus_fails_at_once_instead_of_blocking(tmp_path):
    fifo = tmp_path / "corpus"
    os.mkfifo(fifo)
    # a subprocess with a timeout: if the FIFO were opened, this would block forever
    r = subprocess.run(
        [sys.executable, "-m", "core.cli", "train", str(fifo), "-v", "20", "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 1 and "named pipe (FIFO), not a text file" in r.stderr


def test_an_unwritable_output_is_said_before_counting(tmp_path, corpus, capsys, monkeypatch):
    import core.corpus

    def must_not_count(*a, **k):
        raise AssertionError("counted before checking the output folder")

    monkeypatch.setattr(core.corpus, "count_words", must_not_count)
    code, _, err = run(["train", corpus, "-v", 40, "-o", "/proc/subword-out"], capsys)
    line = one_error_line(code, err)
    assert "/proc/subword-out" in line and "Errno" not in line


def test_a_full_disk_is_said_before_counting(tmp_path, corpus, capsys, monkeypatch):
    import core.atomic

    class Full:
        f_bavail, f_frsize = 10, 4096

    monkeypatch.setattr(core.atomic.os, "statvfs", lambda path: Full)
    code, _, err = run(["train", corpus, "-v", 40, "-o", tmp_path / "out"], capsys)
    assert "not enough space to save into" in one_error_line(code, err)
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="drops to the 'nobody' user")
def test_a_folder_without_write_permission_is_said_before_training(tmp_path, corpus):
    # as root every folder is writable, so the check runs as 'nobody' on a folder it cannot write
    out = tmp_path / "readonly"
    out.mkdir(mode=0o755)
    tmp_path.chmod(0o755)
    corpus.chmod(0o644)
    try:
        r = subprocess.run(
            [sys.executable, "-m", "core.cli", "train", str(corpus), "-v", "40", "-o", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
            user=65534,
            group=65534,
            env={**os.environ, "HOME": str(tmp_path)},
        )
    except PermissionError:
        pytest.skip("'nobody' cannot run this interpreter (it lives under a private home)")
    if "subword: error" not in r.stderr:
        pytest.skip(f"'nobody' cannot run this checkout: {r.stderr.strip()[-200:]}")
    assert r.returncode == 1 and r.stderr.startswith("subword: error: cannot write into"), r.stderr
    assert "Permission denied" in r.stderr


def test_subword_nmt_codes_that_are_a_fifo_fail_at_once(tmp_path, capsys):
    fifo = tmp_path / "codes"
    os.mkfifo(fifo)
    code, _, err = run(["encode", "--format", "subword-nmt", "--codes", fifo, "hug"], capsys)
    assert "named pipe (FIFO), not a codes file" in one_error_line(code, err)
