"""A regex pattern read from a file runs with a time bound: one that backtracks without end
stops in about a second with one line naming it (before: minutes on 61 characters)."""

from __future__ import annotations

import json
import time

import pytest
from tekken_files import tekken_document

from core import pre_tokenizers as P
from core.errors import FormatError
from core.formats.detect import open_tokenizer
from core.normalizers import Replace

EVIL = "(a|aa)+$"
TEXT = "a" * 60 + "!"
BOUND_S = 10  # the pattern's bound is ~1 s; the rest is a busy machine's slack


def _tekken(pattern: str) -> dict:
    return tekken_document(pattern=pattern)


def _refused(call) -> str:
    start = time.monotonic()
    with pytest.raises(FormatError) as caught:
        call()
    assert time.monotonic() - start < BOUND_S
    message = str(caught.value)
    assert repr(EVIL) in message and "\n" not in message
    return message


def test_a_tekken_files_pattern_is_bounded(tmp_path):
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(_tekken(pattern=EVIL)), encoding="utf-8")
    tok = open_tokenizer(path).tokenizer
    assert "split pattern '(a|aa)+$' ran past" in _refused(lambda: tok.encode(TEXT))


def test_a_tokenizer_json_split_and_replace_are_bounded():
    split = P.Split({"Regex": EVIL}, "Isolated")
    assert _refused(lambda: split.pre_tokenize_str(TEXT)).startswith("Split pattern '(a|aa)+$' ran past")
    replace = Replace({"Regex": EVIL}, "x")
    assert _refused(lambda: replace.normalize_str(TEXT)).startswith("Replace pattern")


def test_a_bounded_pattern_finds_what_the_pattern_finds():
    split = P.Split({"Regex": r"\s+|[.,!]"}, "Isolated")
    assert split.pre_tokenize_str("Hi, you!") == [
        ("Hi", (0, 2)),
        (",", (2, 3)),
        (" ", (3, 4)),
        ("you", (4, 7)),
        ("!", (7, 8)),
    ]


def test_published_patterns_run_unbounded():
    """A bounded call takes about three times as long: the patterns real files hold are known."""
    import regex

    from core.limits import PUBLISHED_PATTERNS, BoundedPattern

    for pattern in PUBLISHED_PATTERNS:
        assert not isinstance(P.Split({"Regex": pattern}, "Isolated")._re, BoundedPattern)
    assert isinstance(P.Split({"Regex": EVIL}, "Isolated")._re, BoundedPattern)
    assert isinstance(P.Split({"Regex": EVIL}, "Isolated")._re.findall("ab"), list)
    assert regex.compile(EVIL)  # a valid regex: refused only when it runs too long
