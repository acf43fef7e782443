"""Bad tekken.json files: one FormatError naming the file and the problem."""

from __future__ import annotations

import json

import pytest
from tekken_files import tekken_document

from core.errors import FormatError
from core.formats.detect import open_tokenizer


def _tekken(**changes) -> dict:
    d = tekken_document(merged=[b"ab"])
    for key, value in changes.items():
        if key in d["config"]:
            d["config"][key] = value
        elif value is None:
            del d[key]
        else:
            d[key] = value
    return d


def _open(tmp_path, d):
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(d) if isinstance(d, dict) else d, encoding="utf-8")
    return open_tokenizer(path)


def test_a_good_file_fills_special_tokens_up_to_their_number(tmp_path):
    tok = _open(tmp_path, _tekken()).tokenizer
    assert tok.id_to_token(1) == "<SPECIAL_1>"
    assert tok.encode("ab").ids == [2 + 256]


BAD = {
    "truncated": ('{"config": {', "not valid JSON"),
    "no config": (_tekken(config=None), '"config"'),
    "v13 without special tokens": (_tekken(special_tokens=None), "must list its special tokens"),
    "bad version": (_tekken(version="7"), "version"),
    "ranks out of order": (
        _tekken(vocab=[{"rank": 1, "token_bytes": "AA==", "token_str": None}] * 300),
        "has rank 1",
    ),
    "too few entries": (_tekken(default_vocab_size=2 + 400), "fewer than"),
    "too many special tokens": (
        _tekken(default_num_special_tokens=0, default_vocab_size=257),
        "special tokens",
    ),
    "pattern not text": (_tekken(pattern=5), "split pattern must be text"),
    "pattern a list": (_tekken(pattern=[r"\S+"]), "split pattern must be text"),
    "not base64": (
        _tekken(vocab=[{"rank": 0, "token_bytes": "!!", "token_str": None}] * 300),
        "base64",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_say_what_is_wrong(tmp_path, case):
    d, words = BAD[case]
    with pytest.raises(FormatError) as e:
        _open(tmp_path, d)
    assert "tekken.json" in str(e.value) and words in str(e.value)
