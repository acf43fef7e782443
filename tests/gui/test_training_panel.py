"""The Training panel and the vocab-size slider driven like a user: train, step, slide, cancel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QFileDialog, QStyle

from core.corpus import count_lines
from core.events import MergeEvent, UnigramRound, drain
from core.options import TrainOptions
from core.stats import encoding_stats
from core.training import train_from_counts
from subword_gui.background import jobs
from subword_gui.panels.item_models import MergeLogModel, UnigramRoundModel
from subword_gui.panels.training import available_algorithms
from tests.gui.conftest import train_in_window

WAIT_MS = 60_000


def engine_merges(counts: dict, options: TrainOptions) -> list[MergeEvent]:
    events: list = []
    drain(train_from_counts(counts, options), events.append)
    return [e for e in events if isinstance(e, MergeEvent)]


def test_merge_log_has_one_row_per_engine_merge(qtbot, loaded, small_corpus):
    window = loaded
    options = TrainOptions("bpe", vocab_size=150)
    tok = train_in_window(qtbot, window, options)
    # The counts trained on: every line but each 20th (held out), through the pipeline.
    lines = small_corpus.read_text(encoding="utf-8").splitlines()
    kept = [line for n, line in enumerate(lines) if n % jobs.HELD_OUT_EVERY != jobs.HELD_OUT_EVERY - 1]
    counts = count_lines(kept, options).words
    expected = engine_merges(counts, options)
    rows = window.training_panel.merge_model.rows
    assert len(rows) == len(expected) > 0
    assert [(e.step, e.left, e.right, e.new_token, e.count, e.tie) for e in rows] == [
        (e.step, e.left, e.right, e.new_token, e.count, e.tie) for e in expected
    ]
    model = window.training_panel.merge_model
    assert model.rowCount() == len(expected)
    last = expected[-1]
    assert model.index(len(expected) - 1, 3).data() == last.new_token
    assert model.index(len(expected) - 1, 4).data() == f"{last.count:,}"
    assert window.state.full_tokenizer is tok and tok.vocab_size == 150
    assert window.state.merge_events == rows
    assert "150 tokens" in window.model_fact.text()
    # The merge-count plot holds one point per merge.
    curve = window.training_panel.ensure_plots().merge_curve
    xs, ys = curve.xData, curve.yData  # as given (getData returns the log-scaled values)
    assert len(xs) == len(expected) and ys[0] == expected[0].count


def test_slider_cuts_the_model_and_greys_the_log(qtbot, loaded):
    window = loaded
    full = train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=140))
    slider = window.slider
    low = full.model.min_vocab_size
    assert (
        slider.slider.minimum() == low
        and slider.slider.maximum() == 140 == full.vocab_size
        and slider.slider.isEnabled()
    )
    seen = []
    window.state.tokenizer_changed.connect(seen.append)
    k = low + 10
    # a drag: many values before the event loop turns; the model is cut once, to the last
    for value in range(low + 40, k - 1, -3):
        slider.slider.setValue(value)
    slider.slider.setValue(k)
    assert slider.spin.value() == k  # the spin box follows at once
    qtbot.waitUntil(lambda: bool(seen), timeout=2000)
    qtbot.wait(20)
    shown = window.state.tokenizer
    assert len(seen) == 1 and seen[-1] is shown and shown is not full
    assert shown.model.vocab_size == k and window.state.vocab_size == k
    assert slider.spin.value() == k
    word = "토크나이저는"
    assert len(shown.encode(word).tokens) >= len(full.encode(word).tokens)
    assert shown.encode("영화 정말 재미있었어요").tokens != full.encode("영화 정말 재미있었어요").tokens
    model = window.training_panel.merge_model
    qtbot.waitUntil(lambda: model.cut == k, timeout=2000)  # the log follows the Segmentation
    cut_rows = [r for r in range(model.rowCount()) if model.is_cut(r)]
    assert cut_rows and all(model.rows[r].vocab_size > k for r in cut_rows)
    assert len(cut_rows) == sum(e.vocab_size > k for e in model.rows)
    assert model.index(cut_rows[0], 1).data(0x0009) is not None  # ForegroundRole: greyed
    # The log scrolled to the cut: the last merge kept is in the middle of the view.
    view = window.training_panel.merge_view
    assert view.isVisible()  # training raised the Training dock
    middle = view.indexAt(view.viewport().rect().center()).row()
    assert abs(middle - (cut_rows[0] - 1)) <= 1
    # The segmentation panel (if present) follows the shown tokenizer.
    seg = window.segmentation_panel
    if seg is not None and hasattr(seg, "set_text"):
        seg.set_text("영화 정말 재미있었어요")
        n_cut = len(seg.lines()[0].tokens) if hasattr(seg.lines()[0], "tokens") else None
        slider.spin.setValue(140)
        qtbot.waitUntil(lambda: window.state.tokenizer is full, timeout=2000)
        if n_cut is not None:
            assert len(seg.lines()[0].tokens) < n_cut
    # Back to the full size: nothing greyed.
    slider.set_vocab_size(140)
    qtbot.waitUntil(lambda: not any(model.is_cut(r) for r in range(model.rowCount())), timeout=2000)


def test_step_advances_one_merge_per_click_then_train_finishes(qtbot, loaded):
    window = loaded
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=120))
    with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
        panel.step_button.click()
    qtbot.wait(300)  # the worker waits: no second merge without a click
    assert panel.merge_model.rowCount() == 1
    for n in (2, 3):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
        assert panel.merge_model.rowCount() == n
    assert [e.step for e in panel.merge_model.rows] == [1, 2, 3]
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        panel.train_button.click()
    assert window.state.full_tokenizer.vocab_size == 120
    assert [e.step for e in panel.merge_model.rows] == list(range(1, len(panel.merge_model.rows) + 1))


def test_cancel_midway_keeps_the_previous_model(qtbot, window, monkeypatch, corpora_dir, tmp_path):
    big = tmp_path / "ko-part.txt"
    with open(corpora_dir / "ko-movie-reviews.txt", encoding="utf-8") as f:
        big.write_text("".join(next(f) for _ in range(20_000)), encoding="utf-8")
    window.corpus_panel.open_lines(["hug pug pun bun hugs", "hug hug pun"], "hug.txt")
    previous = train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=12))
    previous_rows = list(window.training_panel.merge_model.rows)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(big), ""))
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_corpus_action.trigger()
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=30_000))
    window.train_action.trigger()
    qtbot.waitUntil(lambda: panel.merge_model.rowCount() > 0, timeout=WAIT_MS)
    assert panel.busy and panel.cancel_button.isEnabled()
    with qtbot.waitSignal(panel.training_cancelled, timeout=5000):
        window.cancel_action.trigger()
    assert not panel.busy and panel.train_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert window.state.full_tokenizer is previous and window.state.tokenizer is previous
    assert panel.merge_model.rows == previous_rows
    # the boxes show the shown model's options again, not the cancelled run's (issue 29, item 7)
    assert panel.vocab_spin.value() == 12 and panel.options() == window.state.train_options
    # Still usable: a small run on the same corpus finishes.
    tok = train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=2100))  # the alphabet alone is ~1,900
    assert tok is window.state.full_tokenizer and tok.vocab_size == 2100


def test_held_out_curve(qtbot, loaded, small_corpus):
    window = loaded
    panel = window.training_panel
    with qtbot.waitSignal(panel.curve_ready, timeout=WAIT_MS) as blocker:
        train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=140))
    points = blocker.args[0]
    full = window.state.full_tokenizer
    sizes = [p.vocab_size for p in points]
    assert sizes == sorted(sizes) and sizes[0] == full.model.min_vocab_size and sizes[-1] == 140
    lines = small_corpus.read_text(encoding="utf-8").splitlines()
    held = [line for n, line in enumerate(lines) if n % jobs.HELD_OUT_EVERY == jobs.HELD_OUT_EVERY - 1]
    assert panel.held_out == held
    # A BPE model cut to fewer merges never needs fewer tokens.
    tpw = [p.tokens_per_word for p in points]
    assert all(a >= b for a, b in zip(tpw, tpw[1:])) and tpw[0] > tpw[-1]
    s = encoding_stats(full, held)
    assert points[-1].tokens_per_word == pytest.approx(s.tokens_per_word)
    assert points[-1].chars_per_token == pytest.approx(s.chars_per_token)


@pytest.mark.parametrize(
    "algorithm, vocab", [("bytelevel-bpe", 300), ("superbpe", 400), ("wordpiece", 150), ("unigram", 120)]
)
def test_other_algorithms_train_through_the_panel(qtbot, loaded, algorithm, vocab):
    if algorithm not in available_algorithms():
        pytest.skip(f"the {algorithm} trainer is not in this checkout")
    window = loaded
    tok = train_in_window(qtbot, window, TrainOptions(algorithm, vocab_size=vocab))
    assert tok is window.state.full_tokenizer
    assert tok.vocab_size <= vocab
    panel = window.training_panel
    if algorithm == "unigram":
        assert panel.round_model.rowCount() > 0
        assert len(panel.ensure_plots().loss_curve.getData()[0]) == panel.round_model.rowCount()
    else:
        assert panel.merge_model.rowCount() > 0
    assert tok.encode("영화 정말").tokens


def test_bad_options_are_reported_not_run(qtbot, loaded):
    window = loaded
    panel = window.training_panel
    panel.pre_tokenizer_box.setCurrentText("whitespace")
    i = panel.algorithm_box.findData("bytelevel-bpe")
    panel.algorithm_box.setCurrentIndex(i)
    panel.pre_tokenizer_box.setCurrentText("whitespace")  # byte-level needs bytelevel
    window.train_action.trigger()
    assert not panel.busy
    assert window.messages and "bytelevel" in window.messages[-1][1]


def test_log_models_pass_the_model_tester(qtmodeltester):
    log = MergeLogModel()
    log.append_events(
        [MergeEvent(1, "u", "g", "ug", 20, 9, 20.0), MergeEvent(2, "u", "n", "un", 16, 10, 16.0, tie=True)]
    )
    log.append_events([MergeEvent(3, "h", "ug", "hug", 15, 11, 15.0)])
    log.set_cut(10)
    qtmodeltester.check(log)
    assert log.rowCount(QModelIndex()) == 3 and log.is_cut(2) and not log.is_cut(1)
    assert log.index(1, 0).data() == "2 ="
    rounds = UnigramRoundModel()
    rounds.append_events(
        [UnigramRound("em", 1, 100, 1234.5), UnigramRound("prune", 1, 80, 1300.0, (("ab", 2.5),))]
    )
    qtmodeltester.check(rounds)
    assert rounds.index(1, 4).data().startswith("1: ab")


def test_retraining_reuses_the_counts_and_learns_the_same_merges(qtbot, loaded):
    window = loaded
    panel = window.training_panel
    train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=140))
    first = [(e.left, e.right, e.count) for e in panel.merge_model.rows]
    panel.set_options(TrainOptions("bpe", vocab_size=110))
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
        assert panel.status.text() == "Training…"  # counts came from the worker's cache
    assert [(e.left, e.right, e.count) for e in panel.merge_model.rows] == first[
        : len(panel.merge_model.rows)
    ]
    assert window.state.full_tokenizer.vocab_size == 110
    # Another pipeline is counted afresh.
    panel.set_options(TrainOptions("bpe", vocab_size=110, normalizer="nfkc,lowercase"))
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
        assert panel.status.text().startswith("Counting")


def test_worker_jobs_do_not_load_qt():
    """Worker processes import subword_gui.background.jobs: it must stay Qt-free (fast to spawn, no GUI state)."""
    import subprocess
    import sys

    code = "import sys, subword_gui.background.jobs; print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_cp949_corpus_trains_on_the_text_the_corpus_panel_shows(qtbot, window, monkeypatch, tmp_path):
    """Encoding "auto" detects CP949 for the Corpus panel; training must read the same
    Hangul, not U+FFFD replacements of undecodable UTF-8."""
    from tests.gui.conftest import make_lines

    path = tmp_path / "reviews-cp949.txt"
    lines = make_lines(200)
    path.write_bytes(("\n".join(lines) + "\n").encode("cp949"))
    window.corpus_panel.encoding_box.setCurrentText("auto")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_corpus_action.trigger()
    assert "cp949" in window.state.corpus.encoding
    tok = train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=120))
    vocab = tok.get_vocab()
    assert "\ufffd" not in "".join(vocab)
    assert any("가" <= c <= "힣" for token in vocab for c in token)
    # the merges are the engine's on the decoded lines (every 20th held out)
    kept = [line for n, line in enumerate(lines) if n % jobs.HELD_OUT_EVERY != jobs.HELD_OUT_EVERY - 1]
    expected = engine_merges(
        count_lines(kept, TrainOptions("bpe", vocab_size=120)).words, TrainOptions("bpe", vocab_size=120)
    )
    assert [(e.left, e.right) for e in window.training_panel.merge_model.rows] == [
        (e.left, e.right) for e in expected
    ]


def test_training_a_file_with_encoding_auto_detects_cp949(tmp_path):
    """The job itself, given encoding "auto" (as a caller without the Corpus panel's
    detected encoding passes it), reads CP949 as count_words does."""
    from tests.gui.conftest import make_lines

    path = tmp_path / "reviews-cp949.txt"
    path.write_bytes(("\n".join(make_lines(200)) + "\n").encode("cp949"))
    events: list = []
    drain(
        jobs.train_job(("file", str(path), "auto"), TrainOptions("bpe", vocab_size=120), curve=False),
        events.append,
    )
    tok = next(e for e in events if isinstance(e, jobs.Trained)).tokenizer
    vocab = tok.get_vocab()
    assert "\ufffd" not in "".join(vocab)
    assert any("가" <= c <= "힣" for token in vocab for c in token)


def test_events_cross_the_pipe_packed_and_come_back_equal():
    """Worker events travel as (class, values); every kind the trainers and jobs yield
    must come back equal and in order."""
    import pickle

    from core.events import Progress, TrainingStopped, UnigramRound, Warning_
    from subword_gui.background.workers import pack_events, unpack_events

    merges: list = []
    tok = drain(
        train_from_counts(
            {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, TrainOptions("bpe", vocab_size=11)
        ),
        merges.append,
    )
    rounds: list = []
    drain(
        train_from_counts({"▁hug": 10, "▁pug": 5, "▁pun": 12}, TrainOptions("unigram", vocab_size=8)),
        rounds.append,
    )
    events = (
        merges
        + rounds
        + [
            Progress("count", 1, 2),
            TrainingStopped("no more pairs", 9, 11),
            Warning_("w"),
            jobs.Trained(tok, ["hug"], "lines"),
            jobs.Chunk("pairs", [1, 2]),
        ]
    )
    assert any(isinstance(e, MergeEvent) for e in events) and any(isinstance(e, UnigramRound) for e in events)
    back = unpack_events(pickle.loads(pickle.dumps(pack_events(events))))
    assert [type(e) for e in back] == [type(e) for e in events]
    assert [e for e in back if not isinstance(e, jobs.Trained)] == [
        e for e in events if not isinstance(e, jobs.Trained)
    ]
    assert back[-2].tokenizer.get_vocab() == tok.get_vocab()


def test_the_slider_prepares_the_first_cut_after_the_model_lands(qtbot, loaded):
    """The cut tables are built in an idle turn after training, not on the first move."""
    from subword_gui.panels.slider import WARM_DELAY_MS

    full = train_in_window(qtbot, loaded, TrainOptions("bpe", vocab_size=140))
    assert "_cut_tables" not in full.model.__dict__
    qtbot.waitUntil(lambda: "_cut_tables" in full.model.__dict__, timeout=WARM_DELAY_MS + 3000)
    assert loaded.state.tokenizer is full  # warming cut nothing that is shown


def test_a_byte_level_merge_log_spells_tokens_like_the_other_panels():
    from subword_gui.panels.training import _style_of_options

    model = MergeLogModel()
    model.set_style(_style_of_options(TrainOptions("bytelevel-bpe", vocab_size=300)))
    model.append_events([MergeEvent(1, "Ġ", "c", "Ġc", count=11, vocab_size=258, score=11.0)])
    assert [model.data(model.index(0, c)) for c in (1, 2, 3)] == ["␣", "c", "␣c"]


def test_each_step_updates_the_segmentation_and_cancel_takes_it_back(qtbot, loaded):
    window = loaded
    panel, seg = window.training_panel, window.segmentation_panel
    panel.set_options(TrainOptions("bpe", vocab_size=120))
    for _ in range(3):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    first = panel.merge_model.rows[0]
    # the panels segment with the merges so far: the first merge's result is one token
    seg.set_text(f"{first.new_token}")
    assert seg.lines()[0].encoding.tokens == [first.new_token]
    assert window.state.tokenizer is not None and window.state.full_tokenizer is None
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        window.cancel_action.trigger()
    assert window.state.tokenizer is None  # nothing was shown before the stepped run
    assert seg.lines() == []


def test_stepping_wordpiece_updates_the_segmentation(qtbot, loaded):
    window = loaded
    panel, seg = window.training_panel, window.segmentation_panel
    panel.set_options(TrainOptions("wordpiece", vocab_size=400))
    for _ in range(4):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    assert window.state.tokenizer is not None and window.state.full_tokenizer is None
    word_start = next(e for e in panel.merge_model.rows if not e.left.startswith("##"))
    seg.set_text(word_start.new_token)
    assert seg.lines()[0].encoding.tokens == [word_start.new_token]
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        window.cancel_action.trigger()
    assert window.state.tokenizer is None


def test_plots_say_what_they_plot(qtbot, loaded):
    window = loaded
    panel = window.training_panel
    plots = panel.ensure_plots()
    # empty, on the first screen: a few plain ticks, not pyqtgraph's crowded default
    assert plots.merge_plot.getViewBox().viewRange()[1] == [0.0, 3.0]
    train_in_window(qtbot, window, TrainOptions("wordpiece", vocab_size=150))
    assert "Score" in plots.merge_plot.plotItem.titleLabel.text
    assert plots.merge_plot.getAxis("left").labelText == "score"
    assert panel.plot_tabs.tabText(0) == "Merge scores"  # the tab too, not "Merge counts"
    train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=150))
    assert panel.plot_tabs.tabText(0) == "Merge counts"
    train_in_window(qtbot, window, TrainOptions("unigram", vocab_size=150))
    xs = plots.loss_curve.getData()[0]
    em_rounds = [r.round for r in panel.round_model.rows if r.phase == "em"]
    # the x axis counts EM rounds as the table numbers them (prune steps in between)
    assert max(xs) <= max(em_rounds) + 0.5
    assert sorted(xs) == list(xs)
    bottom = plots.unigram_plot.getAxis("bottom")
    assert "x0.0" not in bottom.labelString()  # no SI-prefix scaling of round numbers


def test_a_lone_unigram_point_is_not_zoomed_in_on(qtbot, window):
    from core.events import UnigramRound

    panel = window.training_panel
    plots = panel.ensure_plots()
    panel._on_events([UnigramRound("seed", 0, 11104, 900.0)])
    lo, hi = plots.unigram_plot.getViewBox().viewRange()[0]
    assert hi - lo >= 4.0
    assert "x0.0" not in plots.unigram_plot.getAxis("bottom").labelString()


def test_a_corpus_rewritten_in_place_is_counted_again(qtbot, window, monkeypatch, tmp_path):
    """The audit's case: rewrite the file, reopen it, train again: the new words, not the old counts."""
    path = tmp_path / "corpus.txt"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    alphabets = []
    for words in ("alpha beta gamma", "zebra quux xylophone"):
        path.write_text((words + "\n") * 40, encoding="utf-8")
        with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
            window.open_corpus_action.trigger()
        tok = train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=30))
        alphabets.append({t for t in tok.get_vocab() if len(t) == 1})
    assert {"z", "q", "x", "y"} <= alphabets[1] and not {"g", "m"} & alphabets[1]


def test_the_progress_bar_is_painted_with_the_window_not_at_once(qtbot):
    # QProgressBar.setValue repaints synchronously, and with it everything waiting to be
    # painted in the window (the merge log, the plot): one slot did a whole-window paint
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from subword_gui.panels.progress import ProgressBar

    class PaintCounter(QObject):
        paints = 0

        def eventFilter(self, obj, event):  # noqa: N802
            if event.type() == QEvent.Type.Paint:
                self.paints += 1
            return False

    window = QWidget()
    bar = ProgressBar()
    QVBoxLayout(window).addWidget(bar)
    bar.setRange(0, 1000)
    window.resize(400, 60)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)  # its first paint is over
    counter = PaintCounter()
    bar.installEventFilter(counter)
    bar.setValue(500)
    assert counter.paints == 0 and bar.value() == 500
    qtbot.waitUntil(lambda: counter.paints > 0, timeout=5000)  # it is painted, later


def test_the_live_merge_plot_keeps_its_range_while_the_data_stays_inside_it():
    from subword_gui.panels.training import _live_range

    shown = _live_range(None, [1, 2], [5000.0, 3000.0], 28_000, log_y=True)
    (x0, x1), (y0, y1) = shown
    assert x0 <= 1 and x1 >= 28_000 and y0 <= 3 < 3.7 < y1  # log10 of the counts
    steps, counts = [1, 2], [5000.0, 3000.0]
    for step in range(3, 20_000, 500):  # counts fall as merging goes on
        steps.append(step)
        counts.append(max(2.0, 3000.0 / step))
        assert _live_range(shown, steps, counts, 28_000, log_y=True) == shown
    steps.append(40_000)  # past the hint (the run went further than expected): it grows
    counts.append(1.0)
    (_, grown_x1), (grown_y0, _) = _live_range(shown, steps, counts, 28_000, log_y=True)
    assert grown_x1 >= 40_000 and grown_y0 <= 0.0


def test_the_merge_plot_fits_its_data_once_the_run_is_over(qtbot, loaded):
    # while training it keeps a range reaching to the target (see _live_range); a run that
    # stops short of it (the small corpus runs out of pairs) is then shown whole and no wider
    window = loaded
    panel = window.training_panel
    plots = panel.ensure_plots()
    train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=5000))
    last_step = panel.merge_model.rows[-1].step
    assert last_step < 2000  # it stopped early: a range to the target would be mostly empty

    def fitted():
        lo, hi = plots.merge_plot.getViewBox().viewRange()[0]
        return lo <= 1 and last_step <= hi < 1.5 * last_step

    qtbot.waitUntil(fitted, timeout=WAIT_MS)


def test_the_first_cut_is_prepared_on_a_helper_thread(qtbot, loaded, monkeypatch):
    # at 32 k merges the cut tables take 60-140 ms: one event-loop turn that long froze the window
    import threading

    from core.models.bpe.model import BPE

    on_gui_thread = []
    real = BPE.truncated

    def recording(self, vocab_size):
        on_gui_thread.append(threading.current_thread() is threading.main_thread())
        return real(self, vocab_size)

    monkeypatch.setattr(BPE, "truncated", recording)
    full = train_in_window(qtbot, loaded, TrainOptions("bpe", vocab_size=140))
    qtbot.waitUntil(lambda: "_cut_tables" in full.model.__dict__, timeout=WAIT_MS)
    assert on_gui_thread and not any(on_gui_thread)


def test_whole_number_axes_show_no_fractional_ticks(qtbot, loaded):
    from subword_gui.panels.training import whole_number_ticks

    assert whole_number_ticks([(0.5, [0.5, 1.0, 1.5, 2.0]), (0.1, [0.6, 0.7])]) == [(1.0, [1.0, 2.0])]
    panel = loaded.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=400))
    for _ in range(3):  # three merges: pyqtgraph alone labels 1.5, 2.5 on the merge-step axis
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    plots = panel.ensure_plots()
    for plot in (plots.merge_plot, plots.unigram_plot, plots.curve_plot):
        axis = plot.getAxis("bottom")
        low, high = plot.getViewBox().viewRange()[0]
        ticks = [v for _spacing, values in axis.tickValues(low, high, 400) for v in values]
        assert ticks and all(float(v).is_integer() for v in ticks)
    panel.cancel()


def test_stepping_shows_the_merges_made_so_far_not_the_way_to_the_target(qtbot, loaded):
    panel = loaded.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=2000))
    plots = panel.ensure_plots()
    for _ in range(4):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    last_step = panel.merge_model.rows[-1].step

    def shown_range():
        return plots.merge_plot.getViewBox().viewRange()[0]

    low, high = shown_range()
    assert low <= 1 and last_step <= high <= 3 * last_step  # each step shown, not out to the ~1,900th
    panel.cancel()


def test_a_long_status_message_does_not_widen_the_panel(qtbot, loaded):
    panel = loaded.training_panel
    panel.status.setText("Ready")
    qtbot.wait(50)  # layouts are redone on a posted event
    before = panel.minimumSizeHint().width()
    panel.status.setText(
        "Trained BPE: 3,075 tokens (stopped early: the alphabet alone is larger than the requested "
        "vocabulary of 2000; Showing wp-tokenizer.json, opened from a file: a tokenizer file keeps no log)"
    )
    qtbot.wait(50)
    assert panel.minimumSizeHint().width() <= before + 10  # it wraps instead


def test_a_log_count_axis_labels_only_decades(qtbot, loaded):
    plot = loaded.training_panel.ensure_plots().merge_plot
    plot.setLogMode(x=False, y=True)
    axis = plot.getAxis("left")
    majors = axis.tickStrings([0.0, 1.0, 2.0], 1.0, 1.0)
    minors = axis.tickStrings([1.30103, 1.47712], 1.0, None)  # 20 and 30
    assert all(majors) and minors == ["", ""]


def test_stepping_says_so_in_the_slider_and_finishes_at_the_size_asked_for(qtbot, loaded):
    window = loaded
    panel = window.training_panel
    train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=140))  # a full model the slider cuts
    panel.set_options(TrainOptions("bpe", vocab_size=10_000))
    with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
        panel.step_button.click()
    first = panel.merge_model.rows[0].vocab_size
    qtbot.waitUntil(lambda: "stepping" in window.slider.range_label.text(), timeout=WAIT_MS)
    assert not window.slider.slider.isEnabled()
    assert window.slider.spin.text() == "–"  # not the size of the model trained before
    assert "stepping" in window.model_fact.text() and "cut from" not in window.model_fact.text()
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        panel.cancel()
    qtbot.waitUntil(lambda: window.slider.slider.isEnabled(), timeout=WAIT_MS)  # the full model's again
    assert "stepping" not in window.slider.range_label.text()
    assert window.slider.spin.text() == f"{window.state.vocab_size:,}"

    panel.set_options(TrainOptions("bpe", vocab_size=first + 1))  # two merges to go
    with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
        panel.step_button.click()
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):  # no third click
        panel.step_button.click()
    assert panel.merge_model.rows[-1].vocab_size == first + 1


def test_a_vocab_size_the_alphabet_alone_fills_is_flagged_before_training(qtbot, loaded):
    panel = loaded.training_panel
    n = sum(1 for c in loaded.state.corpus.chars if not c.isspace())  # spaces are no letters
    panel.set_options(TrainOptions("bpe", vocab_size=n + 500))
    assert panel.room_hint.isHidden()
    panel.set_options(TrainOptions("bpe", vocab_size=n))
    assert not panel.room_hint.isHidden() and f"{n:,}" in panel.room_hint.text()
    panel.set_options(TrainOptions("bytelevel-bpe", vocab_size=n))  # starts from 256 bytes
    assert panel.room_hint.isHidden()


def test_runs_show_their_figures_before_the_corpus_and_options():
    from subword_gui.panels.runs import RunsModel

    names = list(RunsModel.COLUMNS)
    assert names.index("Tokens/word") < names.index("Corpus") and names.index("Chars/token") < names.index(
        "Corpus"
    )
    assert names[-1] == "Options" and names[RunsModel.CORPUS] == "Corpus"


def test_an_alphabet_larger_than_the_size_asked_for_is_said(qtbot, window):
    window.corpus_panel.open_lines(["hug pug pun bun hugs 토크나이저"] * 3, "small.txt")
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=5))
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        panel.train()
    assert not panel.merge_model.rows
    assert "already fill the requested vocabulary of 5" in panel.status.text()
    assert "already fill" in window.state.runs[-1].stop_reason


def test_a_merge_plot_within_one_decade_still_labels_its_axis(qtbot, window):
    """The hug/pug example's three merges (counts 20, 16, 15) sit within one decade: the
    count axis labels only decades, so it showed no number at all; the plot spans whole
    decades and at least one tick is labelled."""
    words = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    window.corpus_panel.open_lines([w for w, n in words.items() for _ in range(n)], "hug-pug.txt")
    panel = window.training_panel
    plots = panel.ensure_plots()
    train_in_window(qtbot, window, TrainOptions("bpe", vocab_size=11))
    if panel.job is not None and panel.job.running:  # the held-out curve, then the final fit
        with qtbot.waitSignal(panel.job.ended, timeout=WAIT_MS):
            pass
    qtbot.wait(50)
    assert [e.count for e in panel.merge_model.rows] == [20, 16, 15]  # by hand: the HF course
    axis = plots.merge_plot.getAxis("left")

    plots.merge_plot.resize(500, 150)  # as small as it is at 1280x800
    view = plots.merge_plot.getViewBox()
    view.updateAutoRange()  # as the next paint would (pyqtgraph autoranges lazily)
    # the labels pyqtgraph would draw (it leaves a level too dense to read unlabelled)
    image = QImage(500, 150, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    assert [text for _rect, _flags, text in texts]


def test_an_opened_file_shows_the_options_it_really_applies(window, tmp_path):
    """An opened uncased BERT vocab.txt is encoded lowercased, but the panel read Normalizer "none"."""
    english = tmp_path / "en" / "vocab.txt"
    english.parent.mkdir()
    english.write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\nhug\n##s\n", encoding="utf-8")
    window.open_tokenizer(str(english))
    panel = window.training_panel
    panel.follow_shown_model()
    assert window.state.full_tokenizer.encode("HUGS").tokens == ["hug", "##s"]
    assert panel.algorithm == "wordpiece"
    assert panel.normalizer_box.currentText() == "bert"
    assert panel.pre_tokenizer_box.currentText() == "bert"
    assert panel.special_edit.text() == "[PAD],[UNK],[CLS],[SEP]"
    assert panel.prefix_edit.text() == "##"
    # Hangul in the vocabulary: lowercased, accents (and so syllables) kept; no choice is exactly that
    korean = tmp_path / "ko" / "vocab.txt"
    korean.parent.mkdir()
    korean.write_text("[UNK]\n안녕\n##하세요\n", encoding="utf-8")
    window.open_tokenizer(str(korean))
    panel.follow_shown_model()
    assert panel.normalizer_box.currentText() == "lowercase"
    assert "BertNormalizer" in panel.status.text()


def test_the_merge_log_numbers_fit_their_columns(window):
    """At 1280x800 WordPiece scores read "0.0008…" and "8.088e…": a number must be read whole."""
    panel = window.training_panel
    model, view = panel.merge_model, panel.merge_view
    model.clear()
    model.append_events(
        [
            MergeEvent(29999, "##n", "##obli", "##nobli", 1_827_403, 31_999, 8.0881e-05, tie=True),
            MergeEvent(30000, "p", "##robably", "probably", 10, 32_000, 0.00080813),
            MergeEvent(30001, "P", "##robably", "Probably", 8, 32_001, 0.010342),
        ]
    )
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    for row in range(3):
        for col in (0, 4, 5, 6):
            text = model.data(model.index(row, col))
            assert "…" not in text and "e-0" not in text, text
            width = view.fontMetrics().horizontalAdvance(text) + margin
            assert width <= view.horizontalHeader().sectionSize(col), (text, col)
    assert model.data(model.index(1, 5)) == "0.000808"  # three significant figures


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_a_stepped_runs_preview_knows_only_the_characters_it_trains_on(
    qtbot, window, monkeypatch, tmp_path, algorithm
):
    # Every 20th line is held out of training; here only those hold Greek letters, so the trainer
    # never sees them. The preview used the whole corpus's characters: the slider read "852 tokens
    # so far" beside the merge log's vocab 844 on the bundled sample, and Ω was a known token.
    from tests.gui.conftest import make_lines

    lines = make_lines(60)
    for n in range(jobs.HELD_OUT_EVERY - 1, len(lines), jobs.HELD_OUT_EVERY):
        lines[n] = "ΩΨΦ αβγ " + lines[n]
    corpus = tmp_path / "held-out-greek.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(corpus), ""))
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_corpus_action.trigger()
    panel = window.training_panel
    panel.set_options(TrainOptions(algorithm, vocab_size=5_000))
    for _ in range(2):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    qtbot.waitUntil(lambda: "stepping" in window.slider.range_label.text(), timeout=WAIT_MS)
    rows = panel.merge_model.rows
    assert window.state.tokenizer.vocab_size == rows[-1].vocab_size
    assert f"{rows[-1].vocab_size:,} tokens so far" in window.slider.range_label.text()
    assert window.state.tokenizer.encode("Ω").ids == window.state.tokenizer.encode("ж").ids  # both unknown
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        panel.cancel()


def test_picky_bpe_trains_with_its_tau_and_the_slider_cuts_it(qtbot, loaded):
    if "picky-bpe" not in available_algorithms():
        pytest.skip("the picky-bpe trainer is not in this checkout")
    from subword_gui.panels.runs import algorithm_label

    window = loaded
    panel = window.training_panel
    i = panel.algorithm_box.findData("picky-bpe")
    panel.algorithm_box.setCurrentIndex(i)
    assert panel.tau_spin.isVisibleTo(panel) and panel.tau_spin.value() == pytest.approx(0.9)
    panel.tau_spin.setValue(0.8)
    panel.vocab_spin.setValue(400)
    assert panel.options().extra == {"tau": 0.8}
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS) as blocker:
        window.train_action.trigger()
    tok = blocker.args[0]
    model = tok.model
    assert type(model).__name__ == "PickyBPE" and model.tau == 0.8 and model.removals
    assert len(panel.merge_model.rows) == len(model.merges)
    assert panel.merge_model.rowCount() == len(model.merges) + len(model.removals)  # a row per removal
    run = window.state.runs[-1]
    assert algorithm_label(run) == "PickyBPE τ=0.8"
    # the slider's cut is the model after the first step that reaches the size, not a prefix
    assert jobs.can_truncate(tok)  # (the slider said "this model cannot be cut" once models declared it)
    size = (jobs.min_vocab_size(tok) + model.vocab_size) // 2
    cut = jobs.truncate_tokenizer(tok, size)
    assert cut.model.vocab_size == size
    assert cut.model.merges == model.merges[: model.step_for_size(size)]
    assert cut.encode("영화 정말").tokens
    # other algorithms do not show τ
    panel.algorithm_box.setCurrentIndex(panel.algorithm_box.findData("bpe"))
    assert not panel.tau_spin.isVisibleTo(panel)


def test_superbpe_takes_its_transition_from_the_panel_and_keeps_it(qtbot, loaded):
    """SuperBPE's t (issue: the option was on the command line only)."""
    from subword_gui.panels.runs import algorithm_label

    window = loaded
    panel = window.training_panel
    panel.algorithm_box.setCurrentIndex(panel.algorithm_box.findData("superbpe"))
    assert panel.transition_spin.isVisibleTo(panel) and panel.transition_spin.value() == 90
    assert not panel.tau_spin.isVisibleTo(panel)
    panel.vocab_spin.setValue(400)
    panel.transition_spin.setValue(75)
    assert panel.options().extra == {"transition": 300}
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
    assert algorithm_label(window.state.runs[-1]) == "SuperBPE t=300"
    saved = panel.options_dict()
    panel.set_options(TrainOptions("superbpe", vocab_size=1000, extra={"transition": 500}))
    assert panel.transition_spin.value() == 50
    panel.apply_options_dict(saved)
    assert panel.transition_spin.value() == 75
    panel.algorithm_box.setCurrentIndex(panel.algorithm_box.findData("bpe"))
    assert not panel.transition_spin.isVisibleTo(panel) and "transition" not in panel.options().extra


def test_the_room_hint_describes_the_corpus_the_training_will_use(qtbot, window, tmp_path):
    """The hint counts the loaded corpus's characters under the normalizer in the box (the
    training counts it so: jamo makes 600 syllables a few dozen letters), names the file, and
    follows a corpus opened after it."""
    syllables = [chr(0xAC00 + 17 * k) for k in range(600)]  # 600 distinct syllables
    many = tmp_path / "many-syllables.txt"
    many.write_text("\n".join(" ".join(syllables[i : i + 10]) for i in range(0, 600, 10)) + "\n", "utf-8")
    few = tmp_path / "few-letters.txt"
    few.write_text("hug pug bun\n" * 20, encoding="utf-8")
    panel = window.training_panel
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.corpus_panel.open_text(str(many))
    panel.set_options(TrainOptions("bpe", vocab_size=500))
    assert not panel.room_hint.isHidden()
    assert "many-syllables.txt" in panel.room_hint.text() and "600" in panel.room_hint.text()
    panel.set_options(TrainOptions("bpe", vocab_size=500, normalizer="jamo"))  # ~40 letters
    assert panel.room_hint.isHidden()
    panel.set_options(TrainOptions("bpe", vocab_size=500))
    assert not panel.room_hint.isHidden()
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.corpus_panel.open_text(str(few))
    assert panel.room_hint.isHidden()
    panel.set_options(TrainOptions("bpe", vocab_size=6))  # h u g p b n
    assert not panel.room_hint.isHidden()
    assert "few-letters.txt" in panel.room_hint.text() and "many-syllables" not in panel.room_hint.text()


def _engine_events(options: TrainOptions) -> list:
    from tests.gui.conftest import make_lines

    counts = count_lines(make_lines(400), options).words
    events: list = []
    drain(train_from_counts(counts, options), events.append)
    return events


def _feed_one_by_one(panel, options: TrainOptions, events: list) -> list[tuple[object, int, str]]:
    """The panel's bar and label after each of ``events``, as a run of ``options`` sends them."""
    import time

    from subword_gui.panels.progress import TrainingProgress

    panel.set_options(options)
    panel._options, panel._phase, panel._stopped = options, "training", None
    panel._overall = TrainingProgress(options, counting=False, now=time.monotonic())
    out = []
    for e in events:
        panel._on_events([e])
        out.append((e, panel.progress.value(), panel.overall_label.text()))
    return out


@pytest.mark.parametrize("algorithm", ["unigram", "sentencepiece-unigram"])
def test_a_unigram_run_shows_one_overall_bar_across_its_phases(qtbot, window, algorithm):
    """Each phase (the seed, every EM and pruning round) went from 0 to 100 % on the bar; it is
    now the whole run's progress: it never goes back, and it is full only at the end."""
    options = TrainOptions(algorithm, vocab_size=300)
    events = _engine_events(options)
    shown = _feed_one_by_one(window.training_panel, options, events)
    values = [v for _, v, _ in shown]
    assert values == sorted(values)  # never back
    rounds = [k for k, (e, _, _) in enumerate(shown) if isinstance(e, UnigramRound)]
    assert len(rounds) >= 4
    assert values[rounds[-2]] < 1000  # not full before the last round
    assert values[rounds[-1]] >= 990
    assert all("%" in label for _, _, label in shown)


def test_the_overall_bar_says_the_time_left_and_superbpe_stage_2_moves_it(qtbot, window):
    """SuperBPE's stage 2 counts its pairs again before merging across spaces: the bar moves
    through that too (it stood still at the transition), and the label says the time left once
    there is a pace to go by."""
    from core.events import StageStarted

    options = TrainOptions("superbpe", vocab_size=600)
    events = _engine_events(options)
    panel = window.training_panel
    shown = _feed_one_by_one(panel, options, events)
    stage2 = next(k for k, (e, _, _) in enumerate(shown) if isinstance(e, StageStarted) and e.stage == 2)
    first_merge = next(k for k in range(stage2, len(shown)) if isinstance(shown[k][0], MergeEvent))
    assert shown[first_merge - 1][1] > shown[stage2][1]  # the preparation of stage 2 shows
    values = [v for _, v, _ in shown]
    assert values == sorted(values)
    panel._overall.started -= 60  # a minute gone at this pace
    panel._overall.best = 0.5
    panel._show_overall()
    assert panel.overall_label.text() == "50% · about 1 min 0 s left"


def test_the_overall_bar_keeps_its_width_as_the_time_left_shortens(qtbot, loaded):
    """The label beside the bar is as wide as its widest text from the start of a run: the bar
    shrank and grew as "3% · about 2 min 47 s left" became "25% · about 50 s left"."""
    import time

    from PySide6.QtWidgets import QApplication

    panel = loaded.training_panel
    panel.set_options(TrainOptions("unigram", vocab_size=300))
    panel.step()  # a stepped run waits after its first round: it stays busy while measured
    qtbot.waitUntil(lambda: bool(panel.round_model.rows), timeout=WAIT_MS)
    estimate = panel._overall
    widths = []
    for fraction, gone in ((0.03, 5.2), (0.25, 17)):  # (too early for a time left at 3 %)
        estimate.best, estimate.started = fraction, time.monotonic() - gone
        panel._show_overall()
        QApplication.processEvents()
        widths.append((panel.progress.width(), panel.overall_label.text()))
    assert widths[0][1] == "3%" and widths[1][1] == "25% · about 50 s left"
    assert widths[0][0] == widths[1][0]
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        panel.cancel()


def test_the_status_line_says_the_whole_runs_progress_not_the_phases(qtbot, window):
    """A long Unigram training's status line read "Forward pass… 100%" again and again (each
    phase's own progress) while the bar said 20 %: both say the whole run's progress."""
    from core.events import Progress

    options = TrainOptions("unigram", vocab_size=300)
    panel = window.training_panel
    _feed_one_by_one(panel, options, [])
    panel._on_events([Progress("count characters", 10, 10)])
    panel._on_events([Progress("seed", 10, 10)])  # the seed phase done: far from the whole run
    overall = panel._overall.fraction
    assert 0 < overall < 0.9
    assert panel.status.text().endswith(f"{overall:.0%}") and "100%" not in panel.status.text()


def test_the_time_left_waits_for_enough_progress_and_does_not_jump(qtbot):
    """Early estimates were rough (at 3 % a pace of the first seconds said minutes): the time
    left shows from 10 % on, and a sudden change of pace moves it gradually."""
    from subword_gui.panels.progress import TrainingProgress

    estimate = TrainingProgress(TrainOptions("unigram", vocab_size=300), counting=False, now=0.0)
    estimate.best = 0.05
    assert estimate.seconds_left(10.0) is None  # 5 % done: too early to say
    estimate.best = 0.10
    assert estimate.seconds_left(10.0) == pytest.approx(90.0)  # 100 s in all
    estimate.best = 0.40  # a burst: 40 % a second later (40 % at 11 s: 27.5 s in all)
    left = estimate.seconds_left(11.0)
    assert 27.5 - 11 < left < 90 - 1  # between the new pace's and the old one's
    assert left > 50  # a tenth of the way to the new pace: still near the old estimate
