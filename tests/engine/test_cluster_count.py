"""Counting as a Dask job gives exactly the counts of ``core.corpus.count_words``.

The job runs on a ``LocalCluster`` of two worker processes on the loopback
interface, reached through its scheduler address (as a real cluster would be),
with ranges of a few hundred bytes so that each file is cut into many tasks.
"""

from __future__ import annotations

import codecs
from collections import Counter

import pytest

distributed = pytest.importorskip("distributed")

from core.cluster_count import count_words_on_cluster
from core.corpus import count_words
from core.errors import CorpusError
from core.events import Progress, Warning_, drain
from core.options import TrainOptions, pre_tokenize_lines

LINES = [
    "철수는 치킨을 먹고 볶음밥을 먹고 있다",
    "영희는 학교에 갔다가 집에 왔다 👋🏽",
    "Hug pug pun bun hugs, ＡＢＣ",
    "",
    "  spaces   before and after  ",
]


@pytest.fixture(scope="module")
def scheduler():
    import logging

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    ) as cluster:
        yield cluster.scheduler_address


def on_cluster(paths, options, scheduler, encoding="auto"):
    events: list = []
    job = count_words_on_cluster(paths, options, encoding, scheduler=scheduler, range_bytes=300)
    return drain(job, events.append), events


def assert_same(a, b) -> None:
    for name in ("words", "chars", "lines", "characters", "n_words", "replaced_bytes", "encoding", "preview"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.bytes_read == b.bytes_read


@pytest.mark.parametrize(
    "options",
    [
        None,
        TrainOptions("bpe", normalizer="nfkc,lowercase"),
        TrainOptions("bytelevel-bpe"),
        TrainOptions("wordpiece"),
        TrainOptions("unigram"),
    ],
    ids=["plain", "bpe-nfkc-lowercase", "bytelevel", "wordpiece", "unigram"],
)
def test_same_counts_as_one_process(tmp_path, scheduler, options):
    paths = []
    for i, (n, end) in enumerate([(60, "\n"), (1, "\n"), (45, "\r\n")]):
        p = tmp_path / f"part{i}.txt"
        p.write_bytes(codecs.BOM_UTF8 * (i == 0) + (end.join(LINES[i:] * n) + end).encode("utf-8"))
        paths.append(p)
    local = drain(count_words(paths, options, workers=1))
    remote, events = on_cluster(paths, options, scheduler)
    assert_same(local, remote)
    if options is not None:
        lines = [line for p in paths for line in p.read_text(encoding="utf-8-sig").splitlines()]
        assert remote.words == Counter(pre_tokenize_lines(lines, options))
    progress = [e for e in events if isinstance(e, Progress)]
    assert progress[-1].done == progress[-1].total == sum(p.stat().st_size for p in paths)


def test_cp949_invalid_bytes_and_an_empty_file_warn_alike(tmp_path, scheduler):
    korean = tmp_path / "euc-kr.txt"
    korean.write_bytes(("철수는 치킨을 먹고\n영희는 \n" * 50).encode("cp949"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes("먹고 있다\n".encode() * 50 + b"bad \xff byte\n")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"  \n")
    local_events: list = []
    local = drain(count_words([korean, bad, empty], None, workers=1), local_events.append)
    remote, events = on_cluster([korean, bad, empty], None, scheduler)
    assert_same(local, remote)
    assert remote.encoding == "cp949, utf-8"
    assert [e for e in events if isinstance(e, Warning_)] == [
        e for e in local_events if isinstance(e, Warning_)
    ]
    assert remote.replaced_bytes == 1


def test_an_empty_corpus_is_one_clear_error(tmp_path, scheduler):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"\n\n")
    with pytest.raises(CorpusError, match="empty"):
        on_cluster([empty], None, scheduler)


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hug\n", encoding="utf-8")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        with pytest.raises(CorpusError, match="cannot reach the Dask scheduler"):
            drain(count_words_on_cluster([corpus], None, scheduler="tcp://127.0.0.1:1"))
