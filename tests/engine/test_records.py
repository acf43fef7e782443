"""The engine's records (core.records) keep a frozen dataclass's manners (Token, AddedToken, MergeStep)
or a plain one's (TrainOptions, CorpusCounts, NormalizedString: core.records.Record)."""

from __future__ import annotations

import pickle

import pytest

from core.models.base import Token
from core.models.bpe.model import MergeStep
from core.tokenizer import AddedToken

RECORDS = [
    Token(3, "ug", 1, 3),
    AddedToken("<unk>", 0),
    MergeStep(0, "u", "g", "ug", 1, ("h", "ug", "s"), 1),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_each_record_keeps_a_frozen_dataclass_manners(record):
    same = pickle.loads(pickle.dumps(record))
    assert type(same) is type(record) and same == record and not (same != record)
    assert hash(same) == hash(record)
    plain = tuple(record)
    assert record != plain and plain != record and not (record == plain)
    for other in RECORDS:
        if other is not record:
            assert record != other
    with pytest.raises(TypeError):
        record < same  # noqa: B015
    with pytest.raises(AttributeError):
        record.id = 9  # type: ignore[misc,union-attr]
    assert repr(record).startswith(type(record).__name__ + "(")


def test_fields_and_defaults():
    t = Token(3, "ug", 1, 3)
    assert (t.id, t.value, t.start, t.end) == (3, "ug", 1, 3)
    a = AddedToken("[CLS]", 1)
    assert (a.special, a.normalized, a.single_word, a.lstrip, a.rstrip) == (True, False, False, False, False)
    assert a.to_dict()["content"] == "[CLS]"
    step = MergeStep(0, "u", "g", "ug", 1, ("ug",))
    assert step.index == -1 and step.symbols == ("ug",)
    assert {Token(1, "a", 0, 1): "x"}[Token(1, "a", 0, 1)] == "x"


def _mutable_records():
    from core.corpus import CorpusCounts
    from core.options import TrainOptions
    from core.text import NormalizedString

    return [
        TrainOptions("wordpiece", vocab_size=300, extra={"score": "frequency", "alphabet_order": ["a", "b"]}),
        CorpusCounts({"hug": 2}, {"h": 2}, lines=1, paths=[], preview=["hug hug"]),
        NormalizedString("ab", [(0, 1), (1, 2)], 2),
    ]


@pytest.mark.parametrize("index", range(3), ids=["TrainOptions", "CorpusCounts", "NormalizedString"])
def test_each_mutable_record_keeps_a_plain_dataclass_manners(index):
    record, other = _mutable_records()[index], _mutable_records()[(index + 1) % 3]
    same = pickle.loads(pickle.dumps(record))  # (the explorer's worker processes pass them)
    assert type(same) is type(record) and same == record and not (same != record)
    assert record != other and not (record == other)
    with pytest.raises(TypeError):
        hash(record)  # mutable: unhashable, as a dataclass with eq and not frozen
    first = record._fields[0]
    setattr(same, first, "changed")
    assert same != record
    shown = repr(record)
    assert shown.startswith(type(record).__name__ + "(") and all(f"{f}=" in shown for f in record._fields)
    copy = record._replace()
    assert copy == record and copy is not record
    with pytest.raises(TypeError, match="no field 'nope'"):
        record._replace(nope=1)


def test_train_options_replace_checks_again_and_to_dict_copies_all_the_way_down():
    from core.errors import ConfigError
    from core.options import TrainOptions

    options = TrainOptions("wordpiece", vocab_size=300, extra={"alphabet_order": ["a", "b"]})
    assert options._replace(vocab_size=16000).vocab_size == 16000
    assert options.vocab_size == 300
    with pytest.raises(ConfigError):
        options._replace(vocab_size=0)
    with pytest.raises(ConfigError):
        options._replace(algorithm="bytelevel-bpe")  # its pre-tokenizer must be bytelevel
    saved = options.to_dict()
    assert TrainOptions(**saved) == options  # what a saved run is rebuilt from
    saved["special_tokens"].append("[CLS]")
    saved["extra"]["alphabet_order"].append("c")
    assert options.special_tokens == ["[UNK]"] and options.extra == {"alphabet_order": ["a", "b"]}
    assert list(saved) == list(options._fields)
    assert TrainOptions().extra is not TrainOptions().extra  # each its own dict


def test_a_records_fields_are_its_init_parameters_in_order():
    # Named once, in __init__: a parameter added there is compared, shown and replaced too.
    from core.records import Record

    class Span(Record):
        def __init__(self, start: int, end: int = 0, label: str = "") -> None:
            local = start + end  # (a local variable is not a field)
            self.start, self.end, self.label = start, end, label
            del local

    assert Span._fields == ("start", "end", "label")
    assert Span(1, 2, "a") != Span(1, 2, "b")
    assert repr(Span(1)) == "Span(start=1, end=0, label='')"
    assert Span(1, 2)._replace(label="x") == Span(1, 2, "x")
