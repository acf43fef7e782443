"""Counting a corpus with ko-morph: the same counts in one process and over byte ranges."""

from __future__ import annotations

from core import corpus
from core.corpus import count_words
from core.events import Progress, drain
from core.options import TrainOptions

LINES = ["철수는 치킨을 먹고 볶음밥을 먹고 있다", "영희는 hello 👋🏽 먹었다", "ㅋㅋㅋ 재밌어요"]


def test_two_processes_count_as_one(tmp_path, monkeypatch):
    path = tmp_path / "ko.txt"
    # ~40 KB: both ranges stay small; a low threshold makes the parallel path run on it
    path.write_text("\n".join(LINES * 400) + "\n", encoding="utf-8")
    monkeypatch.setattr("core.corpus_parallel.MIN_RANGE_BYTES", 1 << 10)
    options = TrainOptions("bpe", pre_tokenizer="ko-morph")
    assert corpus._parallel_min_bytes(options) < corpus._parallel_min_bytes(TrainOptions("bpe"))
    monkeypatch.setattr("core.morphemes.MorphemeSplit.parallel_min_bytes", 1 << 10)
    events: list = []
    parallel = drain(count_words(path, options, workers=2), events.append)
    single = drain(count_words(path, options, workers=1))
    assert parallel.words == single.words and parallel.lines == single.lines == 1200
    assert single.words["▁철수"] == 400 and single.words["는"] == 800
    assert any(isinstance(e, Progress) for e in events)
