"""JSON a colleague's folder may hold that only breaks readers: nested past Python's parser,
fields of the wrong type, numbers past a float. Each is one line; nothing else is read wrong."""

from __future__ import annotations

import json

import pytest
from tekken_files import write_tekken

from core.errors import FormatError
from core.events import MergeEvent
from core.formats.detect import convert, open_tokenizer
from core.formats.merge_log import merge_log_jsonl
from core.formats.project import TrainingLog, TrainingRecord, load_training_log, save_project
from core.models.bpe.model import BPE
from core.tokenizer import Tokenizer
from tests.cli_helpers import assert_one_line_error, run

DEEP = 100_000


def _nested(inner: str = "") -> str:
    return "[" * DEEP + inner + "]" * DEEP


def _tokenizer() -> Tokenizer:
    return Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]))


@pytest.mark.parametrize("name", ["tokenizer.json", "tekken.json", "vocab.json"])
def test_json_nested_past_the_parser_is_one_line(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_text('{"model": ' + _nested() + "}", encoding="utf-8")
    if name == "vocab.json":
        (tmp_path / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
        path = tmp_path
    with pytest.raises(FormatError, match="JSON nested deeper than"):
        open_tokenizer(path)
    code, _, err = run(["encode", "-m", path, "ab"], capsys)
    assert_one_line_error(code, err, "nested deeper than")


def test_components_nested_too_deep_for_the_builders_are_one_line(tmp_path):
    normalizer: dict = {"type": "Lowercase"}
    for _ in range(450):  # (parses: 900 levels; each Sequence is several frames to build)
        normalizer = {"type": "Sequence", "normalizers": [normalizer]}
    d = {"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "normalizer": normalizer}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(FormatError, match="its normalizer nests deeper than 64 levels"):
        open_tokenizer(path)


def _project(tmp_path, log: TrainingLog | None = None):
    folder = tmp_path / "project"
    save_project(_tokenizer(), folder, TrainingRecord(corpus=["c.txt"], options={"algorithm": "bpe"}), log)
    return folder


def test_a_training_json_nested_past_the_parser_is_one_line(tmp_path):
    folder = _project(tmp_path)
    (folder / "training.json").write_text('{"format": ' + _nested() + "}", encoding="utf-8")
    with pytest.raises(FormatError, match="training.json: JSON nested deeper than"):
        open_tokenizer(folder)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("corpus", 5),
        ("corpus", [1]),
        ("options", [1]),
        ("date", 5),
        ("engine_version", None),
        ("stop_reason", 5),
        ("vocab_size", "300"),
        ("requested_vocab_size", 1.5),
        ("extra", 5),
        ("extra", None),
    ],
)
def test_training_json_fields_of_the_wrong_type_are_one_line(tmp_path, key, value):
    folder = _project(tmp_path)
    sidecar = folder / "training.json"
    d = json.loads(sidecar.read_text(encoding="utf-8"))
    d[key] = value
    sidecar.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(FormatError, match=f'training.json: "{key}" must be'):
        convert(folder, tmp_path / "out", "project")  # (a save used the record's extra: a traceback)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("field", ["count", "step", "vocab_size"])
def test_a_merge_log_number_past_a_float_is_one_line(tmp_path, field):
    event = MergeEvent(1, "a", "b", "ab", 3, 3, 3.0, False)
    folder = _project(tmp_path, TrainingLog([event]))
    log = folder / "merges.jsonl"
    assert log.read_text(encoding="utf-8") == merge_log_jsonl([event])
    row = json.loads(log.read_text(encoding="utf-8"))
    log.write_text(json.dumps(row).replace(f'"{field}": {row[field]}', f'"{field}": 1e400') + "\n")
    with pytest.raises(FormatError, match="merges.jsonl: not a merge log"):
        load_training_log(folder)


@pytest.mark.parametrize(
    "decoder",
    [
        {"type": "Metaspace", "replacement": 5},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": ["always"]},
        {"type": "BPEDecoder", "suffix": 1},
        {"type": "WordPiece", "prefix": {"#": 1}},
        {"type": "Strip", "content": " ", "start": "1", "stop": 0},
        {"type": "ByteLevel", "add_prefix_space": "yes"},
    ],
)
def test_a_decoder_field_of_the_wrong_type_is_one_line_at_load(decoder):
    """A Metaspace decoder whose replacement was an int loaded, then every decode raised TypeError
    (found by the fuzzing suite)."""
    from core.decoders import decoder_from_dict
    from core.errors import ConfigError

    with pytest.raises(ConfigError, match="must be"):
        decoder_from_dict(decoder)


@pytest.mark.parametrize("token_str", [1000000000000, None, ["<s>"], ""])
def test_a_tekken_special_token_that_is_not_text_is_one_line(tmp_path, token_str):
    """A special token whose token_str was the number 10**12 ended in TypeError (the fuzzing suite)."""
    path = write_tekken(tmp_path / "tekken.json", n_special=1, specials=[token_str])
    with pytest.raises(FormatError, match="special_tokens is not a list"):
        open_tokenizer(path)
