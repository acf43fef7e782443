"""MergeEvent keeps a frozen dataclass's manners although it is a named tuple (core/events.py says why)."""

from __future__ import annotations

import copy
import pickle

import pytest

from core.events import MergeEvent, Progress, TrainingStopped, UnigramRound, Warning_

FIELDS = ("step", "left", "right", "new_token", "count", "vocab_size", "score", "tie")


def _event(**changes) -> MergeEvent:
    values = dict(step=1, left="u", right="g", new_token="ug", count=20, vocab_size=12, score=20.0)
    values.update(changes)
    return MergeEvent(**values)


def test_fields_by_name_and_position_with_tie_defaulting_to_false():
    e = MergeEvent(3, "h", "ug", "hug", 15, 11, 15.0)
    assert (e.step, e.left, e.right, e.new_token, e.count, e.vocab_size, e.score, e.tie) == (
        3, "h", "ug", "hug", 15, 11, 15.0, False,
    )  # fmt: skip
    assert MergeEvent.__match_args__ == FIELDS
    assert _event(tie=True).tie is True


def test_immutable():
    e = _event()
    with pytest.raises(AttributeError):
        e.count = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        e.note = "x"  # type: ignore[attr-defined]


def test_equal_only_to_a_merge_event_with_the_same_fields():
    e = _event()
    assert e == _event() and not (e != _event())
    assert e != _event(tie=True) and not (e == _event(tie=True))
    plain = (1, "u", "g", "ug", 20, 12, 20.0, False)
    assert tuple(e) == plain  # its fields in order ...
    assert e != plain and plain != e and not (e == plain) and not (plain == e)  # ... but not a tuple's equal
    assert e != Progress("count", 1, 2) and e != 1
    assert [e, _event(step=2)] == [_event(), _event(step=2)]


def test_hash_follows_equality():
    assert hash(_event()) == hash(_event())
    assert len({_event(), _event(), _event(step=2)}) == 2


def test_no_ordering():
    with pytest.raises(TypeError):
        _event() < _event(step=2)  # noqa: B015
    with pytest.raises(TypeError):
        sorted([_event(step=2), _event()])


def test_repr_names_every_field():
    assert repr(_event()) == (
        "MergeEvent(step=1, left='u', right='g', new_token='ug', count=20, vocab_size=12, score=20.0, tie=False)"
    )


def test_pickle_and_copy_give_an_equal_event():
    e = _event(tie=True)
    for other in (pickle.loads(pickle.dumps(e)), copy.copy(e), copy.deepcopy(e)):
        assert type(other) is MergeEvent and other == e


# -- every event: the same manners --------------------------------------------------------------

EVENTS = [
    Progress("count", 1, 2),
    _event(),
    UnigramRound("prune", 1, 90, 12.5, (("ab", 0.25),)),
    TrainingStopped("reached the requested vocabulary size", 12, 12),
    Warning_("3 invalid byte(s) replaced"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_each_event_keeps_a_frozen_dataclass_manners(event):
    same = pickle.loads(pickle.dumps(event))
    assert type(same) is type(event) and same == event and not (same != event)
    assert hash(same) == hash(event)
    plain = tuple(event)
    assert event != plain and plain != event and not (event == plain)
    for other in EVENTS:
        if other is not event:
            assert event != other and not (event == other)
    with pytest.raises(TypeError):
        event < same  # noqa: B015
    with pytest.raises(TypeError):
        event >= same  # noqa: B015
    with pytest.raises(AttributeError):
        event.phase = "x"  # type: ignore[misc,union-attr]
    assert repr(event).startswith(type(event).__name__ + "(")


def test_the_unigram_round_and_stop_fields():
    assert UnigramRound("em", 2, 100, 3.5).removed == ()
    assert TrainingStopped("no more pairs", 90, 100).reached_target is False
    assert TrainingStopped("done", 100, 100).reached_target is True
