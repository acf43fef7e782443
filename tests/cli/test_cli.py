"""The `subword` command line: train, encode, reload, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import assert_one_line_error, run

from core.formats.hf_json import load_tokenizer_json

ROOT = Path(__file__).resolve().parents[2]
HUG_TEXT = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5


@pytest.fixture
def hug_corpus(tmp_path) -> Path:
    path = tmp_path / "hug.txt"
    # CRLF line ends and a BOM, as real files have; the words are the seed's table.
    path.write_bytes(("\ufeff" + HUG_TEXT.strip().replace("hugs hugs", "hugs\r\nhugs")).encode("utf-8"))
    return path


def test_train_writes_the_seed_files_and_encode_prints_tokens(tmp_path, hug_corpus, capsys):
    out_dir = tmp_path / "model"
    code, out, err = run(["train", hug_corpus, "--vocab-size", 11, "--output", out_dir], capsys)
    assert code == 0, err
    assert (out_dir / "merges.txt").read_text(encoding="utf-8") == "#version: 0.2\nu g\nu n\nh ug\n"
    assert len(json.loads((out_dir / "vocab.json").read_text(encoding="utf-8"))) == 11
    assert "reached the requested vocabulary size" in err

    code, out, _ = run(["encode", "--model", out_dir, "pug bug mug"], capsys)
    assert code == 0
    assert out.splitlines()[0].split()[1:] == ["p", "ug", "b", "ug", "<unk>", "ug"]
    assert out.splitlines()[2].split()[1:] == ["0:1", "1:3", "4:5", "5:7", "8:9", "9:11"]


def test_encode_json_lines_from_a_file(tmp_path, hug_corpus, capsys):
    out_dir = tmp_path / "m"
    assert run(["train", hug_corpus, "-v", 11, "-o", out_dir, "-q"], capsys)[0] == 0
    lines = tmp_path / "in.txt"
    lines.write_text("pug\nmug hug\n", encoding="utf-8")
    code, out, _ = run(["encode", "--model", out_dir / "tokenizer.json", "--input", lines, "--json"], capsys)
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["tokens"] for r in rows] == [["p", "ug"], ["<unk>", "ug", "hug"]]
    assert rows[1]["offsets"] == [[0, 1], [1, 3], [4, 7]]
    assert rows[1]["ids"] == [0, 8, 10]


def test_encode_ids_streams_the_ids_of_json(tmp_path, capsys, monkeypatch):
    corpus = tmp_path / "c.txt"
    corpus.write_text("Hug HUG hug, Pug pun!\n철수는 치킨을 먹고 볶음밥을 먹고 있다\n" * 3, encoding="utf-8")
    out_dir = tmp_path / "m"
    assert run(["train", corpus, "-v", 60, "-o", out_dir, "-q", "--normalizer", "nfkc"], capsys)[0] == 0
    lines = tmp_path / "in.txt"
    # a BOM, CRLF and a lone CR, an empty line, text outside the vocabulary, and more
    # lines than one batch, so batches join in order
    body = "\r\n".join(["hug pug", "", "철수는 먹고 😀", "zzz\rHUG"] * 700)
    lines.write_bytes(("\ufeff" + body + "\n").encode("utf-8"))
    monkeypatch.setattr("core.encode_parallel.BATCH_LINES", 64)
    code, out, err = run(["encode", "-m", out_dir, "--input", lines, "--json"], capsys)
    assert code == 0, err
    want = [json.loads(row)["ids"] for row in out.splitlines()]
    code, out, err = run(["encode", "-m", out_dir, "--input", lines, "--ids"], capsys)
    assert code == 0 and err == ""  # stderr is not a terminal: no progress bar unless asked
    got = [[int(i) for i in row.split()] for row in out.split("\n")[:-1]]
    assert got == want and len(got) == 3500 and got[1] == []  # a lone CR ends a line too
    code, _, err = run(["encode", "-m", out_dir, "--input", lines, "--ids", "--progress"], capsys)
    assert code == 0 and err.startswith("encode") and "100.0%" in err
    code, out, _ = run(["encode", "-m", out_dir, "--ids", "철수는 먹고"], capsys)
    assert out == " ".join(map(str, want[2][:-1])) + "\n"  # the same line without its emoji's <unk>


def test_encode_ids_with_workers_writes_the_same_lines(tmp_path, hug_corpus, capsys, monkeypatch):
    monkeypatch.setattr("core.encode_parallel.RANGE_BYTES", 64)  # dozens of ranges for a small file
    monkeypatch.setattr("core.corpus_parallel.MIN_RANGE_BYTES", 64)
    out_dir = tmp_path / "m"
    assert run(["train", hug_corpus, "-v", 11, "-o", out_dir, "-q"], capsys)[0] == 0
    lines = tmp_path / "in.txt"
    lines.write_text("hug pug\n\n철수는 먹고\r\nzzz hugs\n" * 40, encoding="utf-8")
    code, one, err = run(["encode", "-m", out_dir, "--input", lines, "--ids", "--workers", "1"], capsys)
    assert code == 0, err
    code, two, err = run(
        ["encode", "-m", out_dir, "--input", lines, "--ids", "--workers", "2", "--progress"], capsys
    )
    assert code == 0 and two == one and one.count("\n") == 160
    assert "100.0%" in err
    code, _, err = run(["encode", "-m", out_dir, "--input", lines, "--ids", "--workers", "0"], capsys)
    assert_one_line_error(code, err, "--workers")
    code, _, err = run(["encode", "-m", out_dir, "--input", lines, "--json", "--workers", "2"], capsys)
    assert_one_line_error(code, err, "--workers")


def test_encode_ids_errors_are_one_line(tmp_path, hug_corpus, capsys):
    out_dir = tmp_path / "m"
    assert run(["train", hug_corpus, "-v", 11, "-o", out_dir, "-q"], capsys)[0] == 0
    code, _, err = run(["encode", "-m", out_dir, "--ids", "--json", "hug"], capsys)
    assert_one_line_error(code, err, "--ids")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"hug\n" * 3 + b"\xff\xfe pug\n")
    code, out, err = run(["encode", "-m", out_dir, "--input", bad, "--ids"], capsys)
    assert_one_line_error(code, err, "UTF-8")
    code, _, err = run(["encode", "-m", out_dir, "--input", tmp_path / "missing.txt", "--ids"], capsys)
    assert_one_line_error(code, err, "missing.txt")


def test_counts_files(tmp_path, capsys):
    counts = tmp_path / "counts.tsv"
    counts.write_text("hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n", encoding="utf-8")
    out_dir = tmp_path / "m"
    code, _, err = run(["train", counts, "--counts", "-v", 11, "-o", out_dir], capsys)
    assert code == 0, err
    assert (out_dir / "merges.txt").read_text(encoding="utf-8").splitlines()[1:] == ["u g", "u n", "h ug"]


def test_tokenizer_json_reloads_the_whole_pipeline(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("Hug HUG hug, Pug pun!\n철수는 치킨을 먹고 볶음밥을 먹고 있다\n" * 3, encoding="utf-8")
    out_dir = tmp_path / "m"
    code, _, err = run(
        [
            "train",
            corpus,
            "-v",
            40,
            "-o",
            out_dir,
            "--normalizer",
            "nfkc,lowercase",
            "--pre-tokenizer",
            "whitespace-split",
            "--special-tokens",
            "<unk>,<s>",
            "--end-of-word-suffix",
            "</w>",
        ],
        capsys,
    )
    assert code == 0, err
    tok = load_tokenizer_json(out_dir / "tokenizer.json")
    enc = tok.encode("HUG, 먹고")
    # lowercased, split on whitespace only (so "hug," is one piece), suffix on the last symbol
    assert "".join(enc.tokens).replace("</w>", "") == "hug,먹고"
    assert enc.tokens[-1].endswith("</w>")
    assert tok.token_to_id("<s>") == 1
    assert tok.decode(enc.ids) == "hug, 먹고"


def test_byte_level_round_trip_through_files(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("먹고 또 먹고 🍗 치킨은 맛있다!! 😀\nthe cat sat\n" * 5, encoding="utf-8")
    out_dir = tmp_path / "m"
    assert run(["train", corpus, "-a", "bytelevel-bpe", "-v", 270, "-o", out_dir, "-q"], capsys)[0] == 0
    text = "새로운 문장 🦊 with émoji"
    code, out, _ = run(["encode", "--model", out_dir, text, "--json"], capsys)
    assert code == 0
    ids = json.loads(out)["ids"]
    assert load_tokenizer_json(out_dir / "tokenizer.json").decode(ids) == text


@pytest.mark.parametrize(
    "case",
    [
        "missing",
        "directory",
        "empty",
        "binary",
        "vocab0",
        "normalizer",
        "pre_tokenizer",
        "bad_counts",
        "output_is_file",
        "alphabet",
    ],
)
def test_train_errors_are_one_line(tmp_path, hug_corpus, capsys, case):
    out_dir = tmp_path / "out"
    argv = ["train", hug_corpus, "-v", 11, "-o", out_dir]
    expect = []
    if case == "missing":
        argv[1] = tmp_path / "nope.txt"
        expect = ["nope.txt"]
    elif case == "directory":
        argv[1] = tmp_path
    elif case == "empty":
        (tmp_path / "e.txt").write_bytes(b"")
        argv[1] = tmp_path / "e.txt"
        expect = ["empty"]
    elif case == "binary":
        (tmp_path / "b.bin").write_bytes(bytes(range(256)) * 50)
        argv[1] = tmp_path / "b.bin"
        expect = ["binary"]
    elif case == "vocab0":
        argv[3] = 0
        expect = ["vocab size"]
    elif case == "normalizer":
        argv += ["--normalizer", "nfc,shout"]
        expect = ["shout"]
    elif case == "pre_tokenizer":
        argv += ["--pre-tokenizer", "words"]
        expect = ["words"]
    elif case == "bad_counts":
        (tmp_path / "c.tsv").write_text("hug\t10\npug five\n", encoding="utf-8")
        argv[1] = tmp_path / "c.tsv"
        argv.append("--counts")
        expect = ["line 2"]
    elif case == "output_is_file":
        out_dir.write_text("x")
        expect = ["not a directory"]
    elif case == "alphabet":
        # not an error: training stops at the alphabet and says why
        argv[3] = 3
        code, _, err = run(argv, capsys)
        assert code == 0 and "already fill" in err
        return
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err, *expect)
    if case != "output_is_file":
        assert not out_dir.exists()  # nothing written on error


@pytest.mark.parametrize("case", ["missing_model", "empty_dir", "both", "neither", "bad_json"])
def test_encode_errors_are_one_line(tmp_path, capsys, case):
    argv = ["encode", "--model", tmp_path / "nope", "hi"]
    if case == "empty_dir":
        argv[2] = tmp_path
    elif case == "both":
        argv += ["--input", tmp_path / "x.txt"]
    elif case == "neither":
        argv = argv[:3]
    elif case == "bad_json":
        (tmp_path / "tokenizer.json").write_text('{"model": {"type": "BPE", "vocab": {', encoding="utf-8")
        argv[2] = tmp_path / "tokenizer.json"
    code, _, err = run(argv, capsys)
    assert_one_line_error(code, err)


def test_installed_entry_point_runs_in_a_subprocess(tmp_path, hug_corpus):
    out_dir = tmp_path / "m"
    exe = [sys.executable, "-m", "core.cli"]
    done = subprocess.run(
        exe + ["train", str(hug_corpus), "-v", "11", "-o", str(out_dir)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        exe + ["encode", "-m", str(out_dir), "pug bug mug", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert json.loads(done.stdout)["tokens"] == ["p", "ug", "b", "ug", "<unk>", "ug"]
    done = subprocess.run(
        exe + ["encode", "-m", str(tmp_path / "none"), "x"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert (
        done.returncode == 1 and done.stderr.startswith("subword: error:") and "Traceback" not in done.stderr
    )


def test_progress_on_stderr_shows_the_merges_phase_unless_quiet(tmp_path, hug_corpus, capsys):
    code, _, err = run(["train", hug_corpus, "-v", 11, "-o", tmp_path / "a"], capsys)
    assert code == 0, err
    merges = [line for line in err.splitlines() if line.startswith("merges ")]
    assert merges == ["merges          [##############################] 100.0% 11 / 11"], err
    code, _, err = run(["train", hug_corpus, "-v", 11, "-o", tmp_path / "b", "-q"], capsys)
    assert code == 0 and err == ""


@pytest.mark.parametrize("name", ["bl.json", "BL.JSON", "tok.model", "vocab.txt", "bl.vocab"])
def test_train_refuses_an_output_named_like_a_file_before_counting(
    tmp_path, hug_corpus, capsys, monkeypatch, name
):
    """``-o bl.json`` made a folder named bl.json. A user who ends --output in .json (tokenizer.json),
    .model (SentencePiece), .txt (vocab.txt, merges.txt) or .vocab (SentencePiece's vocabulary) means
    the file, not a folder: refused before the corpus is counted, and nothing written."""
    import core.cli

    def counted(*args, **kwargs):
        raise AssertionError("the corpus was counted before --output was checked")

    monkeypatch.setattr(core.cli, "_count_corpus", counted)
    out = tmp_path / name
    code, _, err = run(["train", hug_corpus, "-v", 11, "-o", out], capsys)
    folder = out.with_suffix("")
    assert_one_line_error(code, err, f"--output {out} looks like a file name", f"such as {folder}/")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["hug.txt"]


def test_train_into_an_existing_folder_with_a_file_like_name_is_not_refused(tmp_path, hug_corpus, capsys):
    """A folder that already exists is what the user named, whatever its ending."""
    out = tmp_path / "models.v1.json"
    out.mkdir()
    code, _, err = run(["train", hug_corpus, "-v", 11, "-o", out], capsys)
    assert code == 0, err
    assert (out / "tokenizer.json").is_file()
