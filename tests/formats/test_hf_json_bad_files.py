"""Bad tokenizer.json files: each gives one FormatError naming the file and the problem."""

from __future__ import annotations

import json

import pytest

from core.errors import FormatError
from core.formats.hf_json import load_tokenizer_json

GOOD_BPE = {
    "version": "1.0",
    "truncation": None,
    "padding": None,
    "added_tokens": [],
    "normalizer": None,
    "pre_tokenizer": {"type": "Whitespace"},
    "post_processor": None,
    "decoder": None,
    "model": {
        "type": "BPE",
        "dropout": None,
        "unk_token": "<unk>",
        "continuing_subword_prefix": None,
        "end_of_word_suffix": None,
        "fuse_unk": False,
        "byte_fallback": False,
        "ignore_merges": False,
        "vocab": {"<unk>": 0, "a": 1, "b": 2, "ab": 3},
        "merges": [["a", "b"]],
    },
}


def _write(tmp_path, obj, name="tokenizer.json"):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return path


def _variant(**changes):
    d = json.loads(json.dumps(GOOD_BPE))
    for key, value in changes.items():
        if key.startswith("model_"):
            d["model"][key[len("model_") :]] = value
        else:
            d[key] = value
    return d


def _error(path) -> str:
    with pytest.raises(FormatError) as info:
        load_tokenizer_json(path)
    msg = str(info.value)
    assert str(path) in msg, msg
    return msg


def test_truncated_json(tmp_path):
    text = json.dumps(GOOD_BPE)
    msg = _error(_write(tmp_path, text[: len(text) // 2]))
    assert "truncated" in msg


def test_not_json(tmp_path):
    assert "not valid JSON" in _error(_write(tmp_path, "vocab: hello\n"))


def test_binary_file(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_bytes(bytes(range(256)))
    assert "UTF-8" in _error(path)


def test_missing_file(tmp_path):
    assert "cannot read" in _error(tmp_path / "nope.json")


def test_no_model(tmp_path):
    assert "model" in _error(_write(tmp_path, {"version": "1.0"}))


def test_unknown_model_type(tmp_path):
    msg = _error(_write(tmp_path, _variant(model_type="CharLevel")))  # no such model in `tokenizers` either
    assert "'CharLevel'" in msg and "does not implement" in msg


def test_unknown_normalizer(tmp_path):
    msg = _error(
        _write(
            tmp_path,
            _variant(
                normalizer={"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "FancyNorm"}]}
            ),
        )
    )
    assert "normalizer 'FancyNorm'" in msg and "does not implement" in msg


def test_unknown_pre_tokenizer(tmp_path):
    msg = _error(_write(tmp_path, _variant(pre_tokenizer={"type": "Foo"})))
    assert "pre-tokenizer 'Foo'" in msg and "does not implement" in msg


def test_duplicate_ids(tmp_path):
    msg = _error(_write(tmp_path, _variant(model_vocab={"<unk>": 0, "a": 1, "b": 1, "ab": 3})))
    assert "duplicate id 1" in msg and "'a'" in msg and "'b'" in msg


def test_duplicate_token_key(tmp_path):
    text = json.dumps(GOOD_BPE).replace('"b": 2', '"b": 2, "a": 4')
    assert "'a' appears twice" in _error(_write(tmp_path, text))


def test_merge_part_missing_from_vocab(tmp_path):
    msg = _error(_write(tmp_path, _variant(model_merges=[["a", "c"]])))
    assert "merge 1" in msg and "'c'" in msg and "not in the vocab" in msg


def test_merge_result_missing_from_vocab(tmp_path):
    msg = _error(
        _write(tmp_path, _variant(model_vocab={"<unk>": 0, "a": 1, "b": 2, "ba": 3}, model_merges=["a b"]))
    )
    assert "'ab'" in msg and "not in the vocab" in msg


def test_added_token_id_clashes(tmp_path):
    added = [{"id": 5, "content": "<s>", "special": True}, {"id": 5, "content": "</s>", "special": True}]
    assert "duplicate id 5" in _error(_write(tmp_path, _variant(added_tokens=added)))


def test_bad_option_of_a_known_component_is_not_called_unimplemented(tmp_path):
    pre = {"type": "Split", "pattern": {"String": " "}, "behavior": "Sideways", "invert": False}
    msg = _error(_write(tmp_path, _variant(pre_tokenizer=pre)))
    assert "Sideways" in msg and "does not implement" not in msg


def test_unknown_pre_tokenizer_inside_a_sequence(tmp_path):
    pre = {"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "SyllableSplit"}]}
    assert "pre-tokenizer 'SyllableSplit'" in _error(_write(tmp_path, _variant(pre_tokenizer=pre)))


def test_bad_regex(tmp_path):
    pre = {"type": "Split", "pattern": {"Regex": "(unclosed"}, "behavior": "Isolated", "invert": False}
    assert "(unclosed" in _error(_write(tmp_path, _variant(pre_tokenizer=pre)))


def test_bad_precompiled_charsmap(tmp_path):
    norm = {"type": "Precompiled", "precompiled_charsmap": "not base64 at all!!"}
    msg = _error(_write(tmp_path, _variant(normalizer=norm)))
    assert "normalizer" in msg and "base64" in msg
