"""`subword encode --format subword-nmt`: the same lines as subword-nmt's apply-bpe command."""

from __future__ import annotations

import io

import pytest

from core.cli import main

CODES = "#version: 0.2\nu g</w>\nu n</w>\nh ug</w>\np u\n"


@pytest.fixture
def codes(tmp_path):
    path = tmp_path / "codes"
    path.write_text(CODES, encoding="utf-8")
    return path


def run(capsys, *argv):
    status = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


def test_text(capsys, codes):
    assert run(capsys, "encode", "--format", "subword-nmt", "--codes", codes, "hug pug pun") == (
        0,
        "hug p@@ ug p@@ un\n",
        "",
    )


def test_file_keeps_line_ends_and_edges(capsys, codes, tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes("hug  pug\r\n  1934USABUSA \n\n먹고".encode())
    status, out, _ = run(
        capsys,
        "encode",
        "--format",
        "subword-nmt",
        "--codes",
        codes,
        "--glossary",
        "USA",
        "[0-9]+",
        "--input",
        src,
    )
    assert status == 0
    assert out == "hug p@@ ug\r\n  1934@@ USA@@ B@@ USA \n\n먹@@ 고"


def test_same_as_apply_bpe_with_vocabulary_and_separator(capsys, codes, tmp_path):
    apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("h~ 5\nug 9\np~ 1\nun 3\n", encoding="utf-8")
    src = tmp_path / "in.txt"
    text = "hug pug pun hugs\n bun hun \n"
    src.write_text(text, encoding="utf-8")
    status, out, _ = run(
        capsys,
        "encode",
        "--format",
        "subword-nmt",
        "--model",
        codes,
        "--vocabulary",
        vocab,
        "--vocabulary-threshold",
        2,
        "--separator",
        "~",
        "--input",
        src,
    )
    with open(vocab, encoding="utf-8") as f:
        kept = apply_bpe.read_vocabulary(f, 2)
    theirs = apply_bpe.BPE(io.StringIO(CODES), -1, "~", kept)
    assert status == 0
    assert out == "".join(theirs.process_line(line) for line in text.splitlines(keepends=True))
    assert out.startswith("h~ ug ")  # "hug" is not in the vocabulary: h + ug</w> undone


@pytest.mark.parametrize(
    "argv, message",
    [
        (["encode", "--format", "subword-nmt", "x"], "--codes"),
        (["encode", "x"], "--model"),
    ],
)
def test_missing_files_are_one_line_errors(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 1 and message in err and "Traceback" not in err


def test_threshold_above_every_count(capsys, codes, tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("ug 9\n", encoding="utf-8")
    status, out, err = run(
        capsys,
        "encode",
        "--format",
        "subword-nmt",
        "--codes",
        codes,
        "--vocabulary",
        vocab,
        "--vocabulary-threshold",
        10,
        "hug",
    )
    assert status == 1 and "above every count" in err and out == ""


def test_threshold_without_vocabulary(capsys, codes):
    status, _, err = run(
        capsys, "encode", "--format", "subword-nmt", "--codes", codes, "--vocabulary-threshold", 3, "hug"
    )
    assert status == 1 and "--vocabulary" in err


def test_bad_codes_file(capsys, tmp_path):
    bad = tmp_path / "codes"
    bad.write_text("#version: 0.2\nu g h\n", encoding="utf-8")
    status, _, err = run(capsys, "encode", "--format", "subword-nmt", "--codes", bad, "hug")
    assert status == 1 and "line 2" in err


def test_file_output_equals_the_apply_bpe_command(capsys, codes, tmp_path):
    # Odd line boundaries (\x0b, \x85, lone \r) and a BOM: the file is read as apply-bpe reads it.
    import subprocess
    import sys

    pytest.importorskip("subword_nmt")
    src, expected = tmp_path / "in.txt", tmp_path / "expected.txt"
    src.write_bytes("\ufeffhug pug\x0bpun\x85 bun\rhugs\r\n\n  x USA\n".encode("utf-8"))
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from subword_nmt.subword_nmt import main; main()",
            "apply-bpe",
            "-c",
            str(codes),
            "-i",
            str(src),
            "-o",
            str(expected),
            "--glossaries",
            "USA",
        ],
        check=True,
    )
    status, out, _ = run(
        capsys, "encode", "--format", "subword-nmt", "--codes", codes, "--glossary", "USA", "--input", src
    )
    assert status == 0
    assert out.encode("utf-8") == expected.read_bytes()
