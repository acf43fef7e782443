"""The engine's records (core.records) keep a frozen dataclass's manners: Token, AddedToken, MergeStep."""

from __future__ import annotations

import pickle

import pytest

from core.models.base import Token
from core.models.bpe import MergeStep
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
