"""tiktoken rank files: reading, writing, the rank-based merge, and bad files."""

from __future__ import annotations

import base64
import inspect

import pytest

from core.errors import ConfigError, FormatError
from core.formats.tiktoken_ranks import load_tiktoken, looks_like_rank_file, read_ranks, write_ranks
from core.models.bpe.tiktoken import TiktokenBPE
from core.pre_tokenizers import (
    CL100K_PATTERN,
    O200K_PARTS,
    O200K_PATTERN,
    R50K_PATTERN,
    TiktokenSplit,
    resolve_pattern,
)

BYTES = {bytes([b]): b for b in range(256)}


def test_lowest_rank_merges_first_worked_example():
    # "abcd": pairs ab(258) bc(256) cd(257) -> bc first; then a+bc (none), bc+d -> "bcd"(259);
    # a + bcd -> no token. Result a | bcd.
    ranks = dict(BYTES) | {b"bc": 256, b"cd": 257, b"ab": 258, b"bcd": 259}
    m = TiktokenBPE(ranks)
    assert [(t.value, t.id) for t in m.tokenize("abcd")] == [("a", 97), ("bcd", 259)]


def test_whole_piece_that_is_a_token_is_one_token():
    # tiktoken looks the whole piece up first: "abc" (300) is used even though no merge
    # path leads to it (no "ab" or "bc" ranks).
    m = TiktokenBPE(dict(BYTES) | {b"abc": 300})
    assert [t.id for t in m.tokenize("abc")] == [300]
    assert [t.id for t in m.tokenize("abcd")] == [97, 98, 99, 100]


def test_ties_go_to_the_leftmost_pair():
    m = TiktokenBPE(dict(BYTES) | {b"aa": 256})
    assert [t.value for t in m.tokenize("aaa")] == ["aa", "a"]


def test_tokens_show_in_the_byte_alphabet_with_offsets_of_the_text(tmp_path):
    path = tmp_path / "r.tiktoken"
    write_ranks(dict(BYTES) | {" \xed".encode("latin-1"): 256}, path)
    tok = load_tiktoken(path, "gpt2")
    enc = tok.encode("a 한")
    assert enc.tokens == ["a", "Ġí", "ķ", "ľ"]
    # 한's three bytes are cut after the first: the token with its last byte owns it (tests/spans.py)
    assert enc.offsets == [(0, 1), (1, 2), (2, 2), (2, 3)]
    assert tok.decode(enc.ids) == "a 한"


def test_round_trip(tmp_path):
    ranks = dict(BYTES) | {"한국".encode(): 256, b" the": 257}
    path = tmp_path / "r.tiktoken"
    write_ranks(ranks, path)
    assert read_ranks(path) == ranks
    assert looks_like_rank_file(path)
    first = path.read_text().splitlines()[0]
    assert first == f"{base64.b64encode(bytes([0])).decode()} 0"


def test_patterns_are_openais():
    tiktoken_ext = pytest.importorskip("tiktoken_ext.openai_public")
    source = inspect.getsource(tiktoken_ext)
    assert R50K_PATTERN in source
    assert CL100K_PATTERN in source
    for part in O200K_PARTS:
        assert f'r"""{part}"""' in source
    assert O200K_PATTERN == "|".join(O200K_PARTS)


def test_split_pattern_by_name_or_regex():
    assert TiktokenSplit("cl100k_base").pattern == CL100K_PATTERN
    assert TiktokenSplit(r"\w+").split_words("ab cd") == ["ab", "cd"]
    assert resolve_pattern("o200k_base") == O200K_PATTERN
    with pytest.raises(ConfigError, match="neither a known name"):
        resolve_pattern("(unclosed")


@pytest.mark.parametrize(
    "content, words",
    [
        (b"YQ== 0\nYQ== 1\n", "already has rank"),
        (b"YQ== 0\nYg== 0\n", "duplicate id"),
        (b"YQ== zero\n", "not a whole number"),
        (b"!!!! 0\n", "not base64"),
        (b"YQ== 0 extra\n", "is not '<base64 token> <rank>'"),
        (b"", "empty rank file"),
    ],
)
def test_bad_rank_files(tmp_path, content, words):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=words) as e:
        read_ranks(path)
    assert "bad.tiktoken" in str(e.value)


def test_a_byte_without_a_rank_is_named_on_every_path():
    """A file that lacks a byte cannot encode it (tiktoken fails too): the one-piece, the
    batch and the raw-text batch (the ids path's) all say which byte."""
    ranks = {k: v for k, v in BYTES.items() if k != b"\xea"} | {b"ab": 256}
    m = TiktokenBPE(ranks)
    assert m.tokenize_raw_batch(["ab", "한"]) == [[256], [0xED, 0x95, 0x9C]]  # 한 is ED 95 9C
    with pytest.raises(ConfigError, match="byte 0xea has no rank"):
        m.tokenize_raw_batch(["ab", "가"])  # 가 is EA B0 80
    with pytest.raises(ConfigError, match="byte 0xea has no rank"):
        m.tokenize_ids_batch(["ab", "ê°Ģ"])  # 가 in the byte alphabet
    with pytest.raises(ConfigError, match="byte 0xea has no rank"):
        m.tokenize("ê°Ģ")


def test_a_long_piece_whose_pairs_cover_a_byte_without_a_rank_encodes_by_its_pairs():
    """A rank file without b"/" but with b"//": a long run of slashes is all pairs. The compiled
    merge needs every single byte ranked and gave up; the fallback re-tokenized other pieces and
    reached an assert (found by the fuzzing suite in CI)."""
    ranks = {k: v for k, v in BYTES.items() if k != b"/"} | {b"//": 256}
    m = TiktokenBPE(ranks)
    assert m.tokenize_raw_batch(["ab", "/" * 80]) == [[0x61, 0x62], [256] * 40]
    assert m.tokenize_ids_batch(["/" * 80]) == [[256] * 40]
    with pytest.raises(ConfigError, match="byte 0x2f has no rank"):
        m.tokenize_raw_batch(["/" * 81])
