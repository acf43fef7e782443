"""The training job's counts cache on disk: a stale or foreign file is counted again, never a crash.

A pickle names the module and class of everything it holds, so a cache written before a class
moved (``core.trainers`` became ``core.models.<algorithm>``) no longer loads where it points."""

from __future__ import annotations

import pickle
import sys
import types

import pytest

from core.events import drain
from core.options import TrainOptions
from subword_gui.background import jobs

LINES = ["hug pug hug", "pun bun hug"]


def _pickle_at(module: str, name: str, monkeypatch) -> bytes:
    """A cache whose third item is an instance of ``module.name``, as if that class had been
    there when the cache was written; afterwards ``module`` is gone again."""
    moved = type(name, (), {"__module__": module})
    where = types.ModuleType(module)
    setattr(where, name, moved)
    monkeypatch.setitem(sys.modules, module, where)
    data = pickle.dumps(({"hug": 3}, ["hug"], moved()), protocol=pickle.HIGHEST_PROTOCOL)
    monkeypatch.delitem(sys.modules, module)
    return data


@pytest.mark.parametrize(
    "stale",
    [
        "a module that moved away",  # ModuleNotFoundError
        "a class that is no longer in its module",  # AttributeError
        "a pickle of another shape",
        "a torn file",  # EOFError
    ],
)
def test_a_stale_counts_cache_is_counted_again_and_replaced(tmp_path, monkeypatch, stale):
    if stale == "a module that moved away":
        data = _pickle_at("core.trainers.bpe", "BPE", monkeypatch)
    elif stale == "a class that is no longer in its module":
        data = _pickle_at("subword_explorer_test_models", "BPE", monkeypatch)
        # the module is there again, without the class
        monkeypatch.setitem(
            sys.modules, "subword_explorer_test_models", types.ModuleType("subword_explorer_test_models")
        )
    elif stale == "a pickle of another shape":
        data = pickle.dumps(["hug", "pug"])
    else:
        data = pickle.dumps(({"hug": 3}, ["hug"], "training lines"))[:-5]
    cache = tmp_path / "counts.pickle"
    cache.write_bytes(data)

    assert jobs._load_cache(str(cache)) is None
    events: list = []
    options = TrainOptions("bpe", vocab_size=12)
    drain(jobs.train_job(("lines", LINES), options, cache_path=str(cache), curve=False), events.append)

    tokenizer = next(e for e in events if isinstance(e, jobs.Trained)).tokenizer
    assert "hug" in tokenizer.get_vocab()  # trained on the lines, not on the stale file
    counts, held_out, kind = jobs._load_cache(str(cache))  # and the cache written afresh
    assert counts["hug"] == 3 and held_out == LINES and kind == "training lines"
