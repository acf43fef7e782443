"""Encoding a file to ids with worker processes gives exactly what one process gives.

The files here are small; the range sizes are lowered (``RANGE_BYTES`` and the cut's
``MIN_RANGE_BYTES`` of 64 bytes) so that each is cut into dozens of ranges. Besides
agreeing with the single-process writer, each line's ids are checked against
``Tokenizer.encode(line).ids`` on the lines Python itself reads from the file.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import core.corpus_parallel as cut
import core.encode_parallel as par
from core.corpus import count_words
from core.errors import CorpusError
from core.events import Progress, drain
from core.options import TrainOptions
from core.tokenizer import Tokenizer
from core.training import train_from_counts

LINES = [
    "철수는 치킨을 먹고 볶음밥을 먹고 있다",
    "영희는 학교에 갔다가 집에 왔다 👋🏽",
    "hug pug pun bun hugs zzz",
    "",
    "\ufeff inside a line is text",
    "한" * 300,  # longer than a range
]


@pytest.fixture(autouse=True)
def small_ranges(monkeypatch):
    monkeypatch.setattr(par, "RANGE_BYTES", 64)
    monkeypatch.setattr(cut, "MIN_RANGE_BYTES", 64)


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory) -> Tokenizer:
    corpus = tmp_path_factory.mktemp("corpus") / "c.txt"
    corpus.write_text("\n".join(LINES[:3]) + "\n", encoding="utf-8")
    options = TrainOptions("bpe", vocab_size=60)
    return drain(train_from_counts(drain(count_words(corpus, options, workers=1)).words, options))


def _write_with_workers(tokenizer, path, workers: int, **kwargs) -> str:
    out = io.StringIO()
    par.encode_file_ids(tokenizer, path, out.write, workers, **kwargs)
    return out.getvalue()


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_write_what_one_process_writes(tmp_path, tokenizer, monkeypatch, method):
    if method == "fork" and method not in par.multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this system")
    monkeypatch.setattr(par, "start_method", lambda: method)
    path = tmp_path / "in.txt"
    # a BOM at the start, CRLF and lone CR line ends, no line end at the very end
    body = "\r\n".join(LINES * 7) + "\rlast"
    path.write_bytes(("\ufeff" + body).encode("utf-8"))
    one = "".join(par.ids_lines(tokenizer, iter(open(path, encoding="utf-8-sig"))))
    events: list[Progress] = []
    many = _write_with_workers(tokenizer, path, 2, on_progress=events.append)
    assert many == one
    with open(path, encoding="utf-8-sig") as f:
        want = [tokenizer.encode(line.removesuffix("\n")).ids for line in f]
    got = [[int(i) for i in row.split()] for row in many.split("\n")[:-1]]
    assert got == want and len(got) == 7 * len(LINES) + 1
    sizes = [e.done for e in events]
    assert len(sizes) > 10 and sizes == sorted(sizes) and sizes[-1] == path.stat().st_size


def test_an_empty_file_writes_nothing(tmp_path, tokenizer):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert _write_with_workers(tokenizer, path, 2) == ""


def test_bad_bytes_in_a_later_range_name_the_file(tmp_path, tokenizer):
    path = tmp_path / "bad.txt"
    path.write_bytes(("hug pug\n" * 50).encode("utf-8") + b"\xff\xfe pug\n" + b"hug\n" * 50)
    with pytest.raises(CorpusError, match="bad.txt is not UTF-8 text"):
        _write_with_workers(tokenizer, path, 2)


def test_default_workers_keep_small_files_in_one_process():
    assert par.default_workers(100) == 1
    assert par.default_workers(par.PARALLEL_MIN_BYTES) == cut.available_cpus()


def _big_file(tmp_path) -> Path:
    path = tmp_path / "big.txt"
    path.write_text("hug pug\n" * 20_000, encoding="utf-8")
    return path


@pytest.mark.skipif("fork" not in par.multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_worker_that_dies_is_an_error_not_a_hang(tmp_path, tokenizer, monkeypatch):
    """A worker process gone mid-way (killed, out of memory) ends the run with a clear error
    and stops the others; nothing waits for it."""
    import os

    monkeypatch.setattr(par, "start_method", lambda: "fork")
    monkeypatch.setattr(par, "RANGE_BYTES", 4096)
    encode_range = par._encode_range

    def dying(job):
        if job[1] >= 3 * 4096:  # a later range
            os._exit(3)
        return encode_range(job)

    monkeypatch.setattr(par, "_encode_range", dying)
    path = _big_file(tmp_path)
    written: list[str] = []
    with pytest.raises(CorpusError, match="worker process ended unexpectedly"):
        par.encode_file_ids(tokenizer, path, written.append, 2)
    whole = "".join(par.ids_lines(tokenizer, iter(open(path, encoding="utf-8"))))
    assert written and whole.startswith("".join(written)) and len("".join(written)) < len(whole) / 2
    assert not par.multiprocessing.active_children()


def test_an_interrupt_stops_every_worker(tmp_path, tokenizer, monkeypatch):
    monkeypatch.setattr(par, "RANGE_BYTES", 4096)

    def interrupted(text: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        par.encode_file_ids(tokenizer, _big_file(tmp_path), interrupted, 2)
    assert not par.multiprocessing.active_children()


def test_the_error_named_is_the_first_range_that_has_one(tmp_path, tokenizer, monkeypatch):
    """Two ranges with bad bytes: whichever worker finishes first, the error names the earlier
    range, as one process reading the file would meet it (and what was written stops before it)."""
    monkeypatch.setattr(par, "RANGE_BYTES", 4096)
    path = tmp_path / "bad.txt"
    good = ("hug pug\n" * 600).encode("utf-8")
    path.write_bytes(b"hug\xff\n" + good + b"pug\xfe\n" + good)
    for _ in range(3):
        written: list[str] = []
        with pytest.raises(CorpusError, match=r"bad.txt is not UTF-8 text \(in bytes 0–"):
            par.encode_file_ids(tokenizer, path, written.append, 2)
        assert written == []
