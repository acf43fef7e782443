"""subword-nmt codes and vocabulary files: round trips, subword-nmt reads ours, clear errors."""

from __future__ import annotations

import pytest

from core.errors import ConfigError, FormatError
from core.formats.subword_nmt_codes import (
    Codes,
    load_codes,
    load_vocabulary,
    read_vocabulary,
    save_codes,
    save_vocabulary,
)
from core.models.bpe.subword_nmt import SubwordNmt

MERGES = [("u", "g</w>"), ("u", "n</w>"), ("h", "ug</w>"), ("먹", "고</w>"), ("p", "u")]


def test_codes_round_trip(tmp_path):
    path = tmp_path / "codes.bpe"
    save_codes(path, MERGES)
    assert path.read_text(encoding="utf-8").splitlines()[:2] == ["#version: 0.2", "u g</w>"]
    assert load_codes(path) == Codes((0, 2), MERGES)
    assert load_codes(path, max_merges=2).merges == MERGES[:2]


def test_version_01_and_crlf(tmp_path):
    path = tmp_path / "codes.bpe"
    path.write_bytes(b"u g\r\nug </w>\r\n")
    assert load_codes(path) == Codes((0, 1), [("u", "g"), ("ug", "</w>")])
    path.write_bytes(b"#version: 0.2.0\r\nu g</w>\r\n")
    assert load_codes(path) == Codes((0, 2), [("u", "g</w>")])


def test_subword_nmt_reads_our_codes_and_segments_as_we_do(tmp_path):
    apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")
    path = tmp_path / "codes.bpe"
    save_codes(path, MERGES)
    with open(path, encoding="utf-8") as f:
        theirs = apply_bpe.BPE(f)
    ours = SubwordNmt(**vars(load_codes(path)))
    for line in ["hug pug pun\n", "먹고 먹었고 hugs", "  bun\r\n"]:
        assert ours.segment_line(line) == theirs.process_line(line)


def test_vocabulary_round_trip_and_threshold(tmp_path):
    path = tmp_path / "vocab.txt"
    save_vocabulary(path, {"b@@": 3, "a": 7, "먹고": 3})
    assert path.read_text(encoding="utf-8") == "a 7\nb@@ 3\n먹고 3\n"
    assert read_vocabulary(path) == {"a": 7, "b@@": 3, "먹고": 3}
    assert load_vocabulary(path, threshold=4) == {"a"}
    assert load_vocabulary(path) == {"a", "b@@", "먹고"}


def test_threshold_above_every_count_is_a_config_error(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a 7\nb 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="largest is 7"):
        load_vocabulary(path, threshold=8)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "no merges"),
        (b"#version: 0.2\n", "no merges"),
        (b"#version: 0.2\nu g</w>\nu g h\n", "line 3"),
        (b"#version: 0.2\nu g</w>\nlonely\n", "line 3"),
        (b"#version: 0.3\nu g\n", "not supported"),
        (b"#version: x.y\nu g\n", "version"),
        (b"u g\n\x00\x00\n", "binary"),
        (b"u \xff\n", "UTF-8"),
    ],
)
def test_bad_codes_files(tmp_path, content, message):
    path = tmp_path / "codes.bpe"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=message):
        load_codes(path)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"a 3\nb\n", "line 2"),
        (b"a three\n", "whole number"),
        (b"a 3\n\x00", "binary"),
    ],
)
def test_bad_vocabulary_files(tmp_path, content, message):
    path = tmp_path / "vocab.txt"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=message):
        read_vocabulary(path)


@pytest.mark.parametrize("merges", [[], [("a b", "c")], [("a", "")], [("a", "b", "c")]])
def test_unsavable_codes_change_nothing(tmp_path, merges):
    path = tmp_path / "codes.bpe"
    path.write_text("#version: 0.2\nold one\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        save_codes(path, merges)
    assert path.read_text(encoding="utf-8") == "#version: 0.2\nold one\n"
    assert [p.name for p in tmp_path.iterdir()] == ["codes.bpe"]


def test_opened_codes_saved_as_a_project_keep_their_unknown_characters(tmp_path):
    """tokenizer.json cannot say that a character the codes never mention keeps its text: a
    project (what the explorer keeps for a relaunch) keeps the codes beside it, and reads them
    back (a relaunch showed '<unk>' for the comma and the emoji)."""
    from core.formats.detect import open_tokenizer
    from core.formats.project import load_project, save_project

    path = tmp_path / "bpe.codes"
    save_codes(path, MERGES)
    opened = open_tokenizer(path).tokenizer
    text = "hug, 먹고 👩🏽‍💻"
    assert "<unk>" not in opened.encode(text).tokens
    folder = save_project(opened, tmp_path / "proj")
    assert (folder / "source-bpe.codes").read_bytes() == path.read_bytes()
    again, _record = load_project(folder)
    assert again.encode(text).tokens == opened.encode(text).tokens
    assert again.encode(text).ids == opened.encode(text).ids
