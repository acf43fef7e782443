"""Merge-log export: CSV and JSON lines from a real training run, read back, written atomically."""

from __future__ import annotations

import csv
import json

import pytest

from core.errors import ConfigError, FormatError
from core.events import MergeEvent, drain
from core.formats.merge_log import COLUMNS, load_merge_log, merge_log_csv, save_merge_log
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts


@pytest.fixture(scope="module")
def events():
    lines = ['철수는 밥을 먹고, "hug" pug', "hug hugs, bun 먹고 철수"] * 3
    options = TrainOptions("bpe", vocab_size=40, special_tokens=["<unk>"])
    got = []
    drain(train_from_counts(pre_tokenize_lines(lines, options), options), got.append)
    merges = [e for e in got if isinstance(e, MergeEvent)]
    assert merges
    return merges


@pytest.mark.parametrize("name", ["log.csv", "log.jsonl"])
def test_round_trip(tmp_path, events, name):
    path = tmp_path / name
    save_merge_log(events, path)
    assert load_merge_log(path) == events


def test_csv_is_readable_by_the_csv_module(tmp_path, events):
    path = tmp_path / "log.csv"
    save_merge_log(events, path)
    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert tuple(rows[0]) == COLUMNS
    assert len(rows) == len(events)
    assert [r["new_token"] for r in rows] == [e.new_token for e in events]
    assert path.read_bytes().startswith("\ufeff".encode())  # BOM: spreadsheets read Korean right


def test_tokens_with_commas_and_quotes_survive(tmp_path):
    tricky = [
        MergeEvent(1, ",", '"', ',"', 3, 10, 3.0, True),
        MergeEvent(2, "a\nb", "철", "a\nb철", 2, 11, 2.0),
    ]
    for name in ("t.csv", "t.jsonl"):
        save_merge_log(tricky, tmp_path / name)
        assert load_merge_log(tmp_path / name) == tricky
    lines = (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["right"] == "철"


def test_worked_csv_line():
    text = merge_log_csv([MergeEvent(1, "u", "g", "ug", 20, 12, 20.0)])
    assert text.splitlines() == [
        "step,left,right,new_token,count,score,vocab_size,tie",
        "1,u,g,ug,20,20.0,12,false",
    ]


def test_bad_format_changes_nothing(tmp_path, events):
    path = tmp_path / "log.csv"
    save_merge_log(events[:2], path)
    before = path.read_bytes()
    with pytest.raises(ConfigError):
        save_merge_log(events, path, format="xml")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["log.csv"]  # no temp file left behind


def test_reading_something_else_is_a_format_error(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(FormatError, match="not a merge log"):
        load_merge_log(path)
