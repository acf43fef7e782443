"""A corpus is counted once: Train uses the Corpus panel's counts, a relaunch the kept ones.

The jobs run in worker processes, so a test cannot count calls to the counting function there;
it reads the job's events instead: every count yields ``Progress("count", ...)``, and each job
says where its counts came from (``jobs.CountsFrom``).
"""

from __future__ import annotations

import os
import pickle

from core.corpus import count_lines
from core.events import MergeEvent, Progress, drain
from core.options import TrainOptions
from core.training import train_from_counts
from subword_gui.background import counts_store, jobs

from .conftest import _make_window, make_lines

WAIT_MS = 60_000
OPTIONS = TrainOptions("bpe", vocab_size=150)


class Recorder:
    """The events of every job the window's Corpus and Training panels start from now on."""

    def __init__(self, window):
        self.corpus: list = []
        self.training: list = []
        cp, tp = window.corpus_panel, window.training_panel
        cp.busy_changed.connect(lambda busy: busy and cp.job.events.connect(self.corpus.extend))
        tp.training_started.connect(lambda: tp.job.events.connect(self.training.extend))

    @staticmethod
    def origins(events) -> list[str]:
        return [e.origin for e in events if isinstance(e, jobs.CountsFrom)]

    @staticmethod
    def counted(events) -> bool:
        return any(isinstance(e, Progress) and e.phase == "count" for e in events)

    def clear(self) -> None:
        self.corpus.clear()
        self.training.clear()


def open_corpus(qtbot, window, path) -> None:
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.corpus_panel.open_text(str(path))


def train(qtbot, window, options=OPTIONS):
    panel = window.training_panel
    panel.set_options(options)
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS) as blocker:
        window.train_action.trigger()
    return blocker.args[0]


def merges_counted(path, options=OPTIONS) -> list[tuple[str, str]]:
    """The engine's merges on the file's training lines (every 20th held out), counted afresh."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = [line for n, line in enumerate(lines) if n % jobs.HELD_OUT_EVERY != jobs.HELD_OUT_EVERY - 1]
    events: list = []
    drain(train_from_counts(count_lines(kept, options).words, options), events.append)
    return [(e.left, e.right) for e in events if isinstance(e, MergeEvent)]


def relaunch(qtbot, settings, window):
    """A new window with the same cache folder, as after quitting and starting again."""
    window.training_panel.shutdown()
    again = _make_window(qtbot, settings, record=True)
    assert again.cache_dir == window.cache_dir
    return again


def test_train_after_opening_a_corpus_does_not_count_it_again(qtbot, window, small_corpus):
    seen = Recorder(window)
    open_corpus(qtbot, window, small_corpus)
    assert seen.origins(seen.corpus) == ["counted"] and seen.counted(seen.corpus)
    train(qtbot, window)
    assert seen.origins(seen.training) == ["corpus"]  # the Corpus panel's words, cut under the pipeline
    assert not seen.counted(seen.training)
    # and they are the counts a fresh count gives: the same merges
    assert [(e.left, e.right) for e in window.training_panel.merge_model.rows] == merges_counted(small_corpus)
    # the same options again: kept, not even cut again
    seen.clear()
    train(qtbot, window, OPTIONS._replace(vocab_size=120))
    assert seen.origins(seen.training) == ["kept"] and not seen.counted(seen.training)
    # another pipeline counts the file (nfkc may turn a character into a space)
    seen.clear()
    train(qtbot, window, OPTIONS._replace(normalizer="nfkc"))
    assert seen.origins(seen.training) == ["counted"] and seen.counted(seen.training)


def test_a_relaunch_does_not_count_again(qtbot, window, settings, small_corpus):
    open_corpus(qtbot, window, small_corpus)
    train(qtbot, window)
    shown = window.corpus_panel.fact_labels["distinct_words"].text()
    again = relaunch(qtbot, settings, window)
    seen = Recorder(again)
    open_corpus(qtbot, again, small_corpus)
    assert seen.origins(seen.corpus) == ["kept"] and not seen.counted(seen.corpus)
    assert again.corpus_panel.fact_labels["distinct_words"].text() == shown
    assert again.corpus_panel.word_model.rowCount() > 0
    train(qtbot, again)
    assert seen.origins(seen.training) == ["kept"] and not seen.counted(seen.training)
    assert [(e.left, e.right) for e in again.training_panel.merge_model.rows] == merges_counted(small_corpus)
    again.training_panel.shutdown()


def test_a_changed_file_is_counted_again(qtbot, window, settings, small_corpus):
    open_corpus(qtbot, window, small_corpus)
    train(qtbot, window)
    # rewritten in place: same size, same modification time, other words
    before = small_corpus.stat()
    text = small_corpus.read_text(encoding="utf-8")
    changed = text.replace("hugs", "pugs").replace("the", "thy")
    assert changed != text and len(changed.encode()) == len(text.encode())
    small_corpus.write_text(changed, encoding="utf-8")
    os.utime(small_corpus, ns=(before.st_atime_ns, before.st_mtime_ns))
    seen = Recorder(window)
    open_corpus(qtbot, window, small_corpus)
    assert seen.origins(seen.corpus) == ["counted"]
    assert "pugs" in window.state.corpus.words and "hugs" not in window.state.corpus.words
    train(qtbot, window)
    assert seen.origins(seen.training) == ["corpus"]  # not the old file's kept counts
    assert [(e.left, e.right) for e in window.training_panel.merge_model.rows] == merges_counted(small_corpus)
    # a newer modification time alone, after a relaunch, counts again too
    os.utime(small_corpus, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
    again = relaunch(qtbot, settings, window)
    seen = Recorder(again)
    open_corpus(qtbot, again, small_corpus)
    assert seen.origins(seen.corpus) == ["counted"]
    again.training_panel.shutdown()


def test_damaged_kept_counts_are_counted_again_without_a_traceback(qtbot, window, settings, small_corpus):
    open_corpus(qtbot, window, small_corpus)
    train(qtbot, window)
    folder = window.cache_dir / "counts"
    entries = sorted(folder.glob("*" + counts_store.SUFFIX))
    assert len(entries) == 2  # the Corpus panel's words, the training's pre-tokens
    entries[0].write_bytes(b"not a pickle at all")
    entries[1].write_bytes(entries[1].read_bytes()[:-40])  # torn
    again = relaunch(qtbot, settings, window)
    seen = Recorder(again)
    failures: list = []
    again.corpus_panel.failed.connect(lambda *a: failures.append(a))
    again.training_panel.training_failed.connect(failures.append)
    open_corpus(qtbot, again, small_corpus)
    train(qtbot, again)
    assert failures == [] and again.last_error is None and again.messages == []
    assert seen.origins(seen.corpus) == ["counted"]
    assert seen.origins(seen.training) == ["corpus"]
    assert [(e.left, e.right) for e in again.training_panel.merge_model.rows] == merges_counted(small_corpus)
    # both written afresh, whole
    assert all(counts_store.load_counts(folder, k) is not None for k in _keys(small_corpus))
    again.training_panel.shutdown()


def _keys(path) -> list[tuple]:
    return [
        jobs._file_key(str(path), "utf-8", "corpus", None),
        jobs._file_key(str(path), "utf-8", "training", jobs._training_pipeline(OPTIONS)),
    ]


def test_the_corpus_panels_words_give_the_counts_a_count_gives(tmp_path):
    """Cut from the Corpus panel's words, a training's counts are a fresh count's, for every
    pipeline that cuts words only: line ends of three kinds, a byte order mark, odd spaces."""
    import random

    from core.corpus import count_words

    rng = random.Random(1)
    pieces = [
        "hug",
        "pug,",
        "철수는",
        "치킨을!",
        "👩🏽‍💻",
        "a.b",
        "\u00a0",
        "\u3000",
        "x\ty",
        "don't",
        "(먹고)",
        "",
    ]
    lines = [" ".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(3000)]
    text = (
        "\ufeff"
        + "\r\n".join(lines[:1000])
        + "\n"
        + "\r".join(lines[1000:2000])
        + "\n"
        + "\n".join(lines[2000:])
    )
    path = tmp_path / "mixed.txt"
    path.write_bytes(text.encode("utf-8"))
    words = drain(count_words([path], None)).words
    for pre in ("whitespace", "whitespace-split", "bert"):
        options = TrainOptions("bpe", pre_tokenizer=pre)
        assert jobs.cuts_words_only(options)
        counted = drain(jobs.count_file_for_training(str(path), "utf-8", options))
        assert drain(jobs.training_counts_from_words(words, str(path), "utf-8", options)) == counted
    assert not jobs.cuts_words_only(TrainOptions("bpe", normalizer="nfkc"))
    assert not jobs.cuts_words_only(TrainOptions("unigram"))


def test_the_counts_folder_keeps_to_its_size_dropping_the_oldest(tmp_path):
    folder = tmp_path / "counts"
    big = {f"w{i}": i for i in range(2000)}
    keys = [("k", i) for i in range(4)]
    size = len(pickle.dumps((counts_store.FORMAT_VERSION, keys[0], big)))
    for n, key in enumerate(keys):
        counts_store.save_counts(folder, key, big, max_bytes=3 * size + 100)
        path = counts_store.entry_path(folder, key)
        os.utime(path, ns=(10**18 + n * 10**9, 10**18 + n * 10**9))  # in order, a second apart
    counts_store.trim(folder, 3 * size + 100)
    assert [counts_store.load_counts(folder, k) is not None for k in keys] == [False, True, True, True]
    # an entry of another format version, or another key that hashed alike, is not taken
    path = counts_store.entry_path(folder, keys[1])
    path.write_bytes(pickle.dumps((counts_store.FORMAT_VERSION + 1, keys[1], big)))
    assert counts_store.load_counts(folder, keys[1]) is None
    path.write_bytes(pickle.dumps((counts_store.FORMAT_VERSION, ("other",), big)))
    assert counts_store.load_counts(folder, keys[1]) is None


def test_training_counts_a_large_file_with_every_core(tmp_path, monkeypatch):
    """A file as large as the Corpus panel counts in parallel is counted in parallel for training
    too, whatever the pre-tokenizer (it took one process unless a morpheme analyser asked)."""
    from core import corpus_parallel

    path = tmp_path / "c.txt"
    path.write_text("\n".join(make_lines(300)) + "\n", encoding="utf-8")
    monkeypatch.setattr(corpus_parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(corpus_parallel, "available_cpus", lambda: 2)
    assert jobs._worth_processes(str(path), TrainOptions("bpe"))
    assert jobs._worth_processes(str(path), TrainOptions("unigram"))
    monkeypatch.setattr(corpus_parallel, "available_cpus", lambda: 1)
    assert not jobs._worth_processes(str(path), TrainOptions("bpe"))
