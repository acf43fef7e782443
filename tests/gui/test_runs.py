"""The Runs list: every run kept for the session, shown again, compared, renamed, saved,
discarded; the shown one restored on relaunch; examples leave the user's options alone."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFileDialog

from core.errors import FormatError, SubwordError
from core.options import TrainOptions
from subword_gui.main_window import EXAMPLES_FILE, MainWindow
from subword_gui.runs import POINTER, RUNS_DIR, Run, load_last_run, save_last_run

WAIT_MS = 30_000
LINES = ["hug pug pun bun hugs", "hug hug pun bun", "low lower newest widest", "철수는 밥을 먹었다"]


def train(qtbot, window, options: TrainOptions):
    panel = window.training_panel
    panel.set_options(options)
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
    if panel.job is not None and panel.job.running:  # the held-out curve, measured after training
        with qtbot.waitSignal(panel.job.ended, timeout=WAIT_MS):
            pass
    return window.state.full_tokenizer


@pytest.fixture
def two_runs(qtbot, window):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    bpe = train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    unigram = train(qtbot, window, TrainOptions("unigram", vocab_size=40))
    return window, bpe, unigram


def test_every_finished_run_is_kept_with_its_facts(two_runs, qtmodeltester):
    window, bpe, unigram = two_runs
    runs = window.state.runs
    assert [r.tokenizer for r in runs] == [bpe, unigram]
    assert [r.algorithm for r in runs] == ["bpe", "unigram"]
    assert window.state.shown_run is runs[1]
    first = runs[0]
    assert first.options.vocab_size == 30 and first.corpus == "mixed.txt" and first.duration_s > 0
    assert first.corpus_words == window.state.corpus.n_words
    assert first.merge_events and first.merge_events[0].new_token  # its merge log, to show it again
    model = window.runs_panel.model
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    row = [model.index(1, c).data() for c in range(model.columnCount())]
    assert row[0].startswith("● ") and "Unigram" in row[1] and row[2] == f"{unigram.vocab_size:,}"
    assert model.index(1, 0).data(Qt.ItemDataRole.FontRole).bold()
    assert not model.index(0, 0).data().startswith("●")


def test_a_run_can_be_shown_again_and_the_panels_follow(qtbot, two_runs):
    window, bpe, unigram = two_runs
    panel = window.runs_panel
    panel.select(window.state.runs[0])
    panel.show_button.click()
    assert window.state.full_tokenizer is bpe and window.state.shown_run is window.state.runs[0]
    assert window.state.tokenizer.encode("hugs").tokens == bpe.encode("hugs").tokens
    # the merge log is the first run's again
    assert window.training_panel.merge_model.rows == window.state.runs[0].merge_events
    assert not panel.show_button.isEnabled()  # already shown


def test_showing_a_run_again_shows_its_own_log(qtbot, two_runs):
    window, _bpe, _unigram = two_runs
    panel, (first, second) = window.training_panel, window.state.runs
    third = train(qtbot, window, TrainOptions("unigram", vocab_size=35))
    assert second.round_events and window.state.runs[2].round_events != second.round_events
    window.state.show_run(second)  # another Unigram run: its own rounds, not the newest run's
    assert panel.round_model.rows == second.round_events and not panel.merge_model.rows
    window.state.show_run(first)  # a BPE run: its merge log, no rounds
    assert panel.merge_model.rows == first.merge_events and not panel.round_model.rows
    assert third is window.state.runs[2].tokenizer


def test_compare_chooses_any_run_of_the_session(qtbot, two_runs):
    window, bpe, unigram = two_runs
    window.finish_startup()
    compare = window.compare_panel
    column = compare.columns[0]
    labels = [column.source.itemText(i) for i in range(column.source.count())]
    assert [r.name for r in window.state.runs] == labels[-2:]
    column.source.setCurrentIndex(column.source.findData(f"run:{window.state.runs[0].id}"))
    assert column.tokenizer is bpe
    # the Runs panel's Compare button adds a column for the run (once)
    window.runs_panel.select(window.state.runs[1])
    n = len(compare.columns)
    window.runs_panel.compare_button.click()
    window.runs_panel.compare_button.click()
    assert len(compare.columns) == n + 1 and compare.columns[-1].tokenizer is unigram
    with qtbot.waitSignal(compare.compared, timeout=WAIT_MS):
        compare.compare()
    assert compare.stat(len(compare.columns) - 1, "vocab_size") == unigram.vocab_size


def test_rename_and_discard(qtbot, two_runs):
    window, bpe, _unigram = two_runs
    window.finish_startup()
    model = window.runs_panel.model
    first = window.state.runs[0]
    column = window.compare_panel.add_run_column(first)
    assert model.setData(model.index(0, 0), "  small BPE  ")
    assert first.name == "small BPE" and not model.setData(model.index(0, 0), "   ")
    assert column.source.currentText() == "small BPE"  # the Compare menu follows the rename
    menu = {a.text(): a for a in window.runs_panel.view.actions()}  # the right-click menu
    assert list(menu) == ["Show", "Compare", "Rename", "Save…", "Discard"]
    window.runs_panel.select(window.state.shown_run)
    assert not menu["Show"].isEnabled() and menu["Discard"].isEnabled()
    window.runs_panel.select(first)
    assert menu["Show"].isEnabled()
    menu["Discard"].trigger()
    assert first not in window.state.runs and len(window.state.runs) == 1
    assert column.source_key() == "shown" and column.tokenizer is window.state.tokenizer
    assert window.runs_panel.selected_run() is window.state.runs[0]


def test_save_a_run_uncut(qtbot, two_runs, monkeypatch, tmp_path):
    from core.formats.hf_json import load_tokenizer_json
    from subword_gui.file_dialogs import SAVE_FILTERS

    window, bpe, _unigram = two_runs
    window.slider.set_vocab_size(bpe.vocab_size - 5)  # cutting the shown model does not cut the saved run
    out = tmp_path / "first.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), SAVE_FILTERS[0][0]))
    window.runs_panel.select(window.state.runs[0])
    window.runs_panel.save_button.click()
    assert not window.messages
    assert load_tokenizer_json(out).get_vocab() == bpe.get_vocab()
    assert window.state.runs[0].saved_to == str(out)


def test_relaunch_restores_the_shown_run_its_cut_and_the_typed_text(qtbot, window, settings, tmp_path):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    tok = train(qtbot, window, TrainOptions("wordpiece", vocab_size=40))
    cut = tok.vocab_size - 4
    window.slider.set_vocab_size(cut)
    window.segmentation_panel.set_text("hugs 안녕 👋🏽\nlowest")
    expected = window.state.tokenizer.encode("hugs lowest 철수는").tokens
    window.close()  # writes the settings and the last run

    again = MainWindow(settings=settings, open_sample=False)
    again.messages = []
    again._show_message_box = lambda title, message: again.messages.append((title, message))
    qtbot.addWidget(again)
    again.show()
    with qtbot.waitSignal(again.run_restored, timeout=WAIT_MS):
        again.restore_last_run()
    assert not again.messages
    run = again.state.shown_run
    assert run is not None and run.restored and run.name == window.state.runs[0].name
    assert run.options.algorithm == "wordpiece" and run.corpus == "mixed.txt"
    assert again.state.vocab_size == cut
    assert again.state.tokenizer.encode("hugs lowest 철수는").tokens == expected
    assert again.segmentation_panel.text() == "hugs 안녕 👋🏽\nlowest"
    # the merge log, its plot and the held-out curve came back with it; the options follow it
    kept = window.state.runs[0]
    panel = again.training_panel
    assert run.merge_events == kept.merge_events and panel.merge_model.rows == kept.merge_events
    assert kept.curve and run.curve == kept.curve
    qtbot.waitUntil(lambda: panel.curve == kept.curve, timeout=5000)
    assert panel.algorithm == "wordpiece" and panel.vocab_spin.value() == 40
    assert "restored from the last session" in panel.status.text() and run.name in panel.status.text()
    assert again.save_last_run() is None  # unchanged since launch: not rewritten
    again.slider.set_vocab_size(cut - 1)
    assert again.save_last_run() is not None
    again.finish_startup()  # Compare, built after the first paint, follows the restored text
    again.raise_panel("compare")  # (a panel behind a tab takes the text when shown)
    qtbot.waitUntil(lambda: again.compare_panel.text() == "hugs 안녕 👋🏽\nlowest", timeout=5000)
    again.training_panel.shutdown()


def test_a_damaged_last_run_is_reported_in_one_line_and_changes_nothing(qtbot, window):
    (window.data_dir / RUNS_DIR).mkdir(parents=True)
    (window.data_dir / POINTER).write_text("{not json", encoding="utf-8")
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS) as blocker:
        window.restore_last_run()
    assert blocker.args == [None]
    assert len(window.messages) == 1 and POINTER in window.messages[0][1]
    assert window.state.full_tokenizer is None and not window.state.runs
    assert (window.data_dir / POINTER).read_text(encoding="utf-8") == "{not json"


def test_keeping_the_last_run_is_all_or_nothing(tmp_path, monkeypatch):
    from core.events import drain
    from core.formats import project
    from core.training import train_from_counts

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    tok = drain(train_from_counts(hug_pug, TrainOptions("bpe", vocab_size=11)))
    first = save_last_run(Run(1, "first", tok, TrainOptions("bpe", vocab_size=11)), tmp_path, 9)

    def broken(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(project, "save_tokenizer_json", broken, raising=False)
    monkeypatch.setattr("core.formats.hf_json.save_tokenizer_json", broken)
    with pytest.raises((OSError, SubwordError)):  # the project save may wrap it in its SaveError
        save_last_run(Run(2, "second", tok, TrainOptions("bpe", vocab_size=11)), tmp_path)
    assert [p.name for p in (tmp_path / RUNS_DIR).iterdir()] == [first.name]  # no half folder left
    run, shown = load_last_run(tmp_path)
    assert run.name == "first" and shown == 9 and run.tokenizer.get_vocab() == tok.get_vocab()
    assert load_last_run(tmp_path / "nothing-here") is None
    (tmp_path / POINTER).write_text(json.dumps({"folder": "gone"}), encoding="utf-8")
    with pytest.raises(FormatError, match="gone"):
        load_last_run(tmp_path)


def test_an_example_does_not_change_the_saved_options_or_the_reopened_corpus(
    qtbot, window, settings, small_corpus
):
    examples = [e for e in window.examples() if e.get("kind") == "counts"] if EXAMPLES_FILE.is_file() else []
    if not examples:
        pytest.skip("no word-count example is bundled")
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_path(str(small_corpus), "corpus")
    window.training_panel.set_options(TrainOptions("unigram", vocab_size=3000))
    mine = window.training_panel.options_dict()
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.load_example(examples[0])
    assert window.training_panel.vocab_spin.value() == int(examples[0]["vocab_size"])  # the example's
    window.write_settings()
    assert json.loads(settings.value("training/options")) == mine
    assert json.loads(settings.value("corpus/last")) == ["corpus", str(small_corpus)]
    # back to a real corpus: the user's options come back
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_path(str(small_corpus), "corpus")
    assert window.training_panel.options_dict() == mine


def test_a_restored_run_arriving_late_does_not_replace_a_newer_model(qtbot, window):
    from core.events import drain
    from core.training import train_from_counts

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    old = drain(train_from_counts(hug_pug, TrainOptions("bpe", vocab_size=11)))
    save_last_run(Run(1, "yesterday", old, TrainOptions("bpe", vocab_size=11)), window.data_dir, 9)
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    new = train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS):
        window.restore_last_run()
    assert window.state.full_tokenizer is new and window.state.shown_run.tokenizer is new
    assert [r.name for r in window.state.runs][-1] == "yesterday"


def test_an_opened_tokenizer_file_is_what_a_relaunch_restores(qtbot, window, settings, tmp_path):
    from core.events import drain
    from core.formats.hf_json import save_tokenizer_json
    from core.training import train_from_counts

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    path = tmp_path / "hug.json"
    save_tokenizer_json(drain(train_from_counts(hug_pug, TrainOptions("bpe", vocab_size=11))), path)
    window.open_tokenizer(str(path))
    opened = window.state.full_tokenizer
    window.close()
    again = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.run_restored, timeout=WAIT_MS) as blocker:
        again.restore_last_run()
    run = blocker.args[0]
    assert run.name == "hug.json" and run.options is None
    assert again.state.full_tokenizer.get_vocab() == opened.get_vocab()
    again.training_panel.shutdown()


def test_loading_an_example_says_it_set_its_own_options(qtbot, window):
    examples = [e for e in window.examples() if e.get("kind") == "counts"] if EXAMPLES_FILE.is_file() else []
    if not examples:
        pytest.skip("no word-count example is bundled")
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.load_example(examples[0])
    assert "its own training options" in window.statusBar().currentMessage()


def test_discarding_the_kept_run_means_the_next_launch_starts_without_it(qtbot, window, settings):
    from core.events import drain
    from core.training import train_from_counts

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    old = drain(train_from_counts(hug_pug, TrainOptions("bpe", vocab_size=11)))
    save_last_run(Run(1, "yesterday", old, TrainOptions("bpe", vocab_size=11)), window.data_dir, 9)
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS):
        window.restore_last_run()
    window.runs_panel.select(window.state.runs[0])
    window.runs_panel.discard_button.click()
    window.close()
    assert load_last_run(window.data_dir) is None
    # quitting with nothing discarded and nothing shown keeps what the data dir holds
    save_last_run(Run(1, "kept", old, TrainOptions("bpe", vocab_size=11)), window.data_dir)
    again = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(again)
    again.close()
    assert load_last_run(again.data_dir)[0].name == "kept"


def test_the_training_panel_follows_the_shown_run(qtbot, two_runs):
    window, bpe, _unigram = two_runs
    panel, (first, second) = window.training_panel, window.state.runs
    assert panel.algorithm == "unigram"
    window.runs_panel.select(first)
    window.runs_panel.show_button.click()
    qtbot.waitUntil(lambda: panel.algorithm == "bpe", timeout=5000)
    assert panel.vocab_spin.value() == 30 and panel.options().to_dict() == first.options.to_dict()
    assert panel.curve == first.curve and first.curve != second.curve
    assert first.name in panel.status.text() and "trained this session" in panel.status.text()


def test_a_run_kept_by_an_older_version_opens_without_its_log_and_says_so(qtbot, window):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    folder = window.save_last_run()
    assert (folder / "merges.jsonl").is_file()
    (folder / "merges.jsonl").unlink()  # what an older version kept
    sidecar = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    del sidecar["extra"]["curve"]
    (folder / "training.json").write_text(json.dumps(sidecar), encoding="utf-8")
    window.state.discard_run(window.state.runs[0])
    window.state.full_tokenizer = None
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS) as blocker:
        window.restore_last_run()
    run = blocker.args[0]
    assert run.restored and not run.merge_events and not run.curve and not window.messages
    panel = window.training_panel
    qtbot.waitUntil(lambda: "without its log" in panel.status.text(), timeout=5000)
    assert not panel.merge_model.rows and panel.algorithm == "bpe"


def test_an_opened_tokenizer_file_says_where_it_came_from(qtbot, window, tmp_path):
    from core.events import drain
    from core.formats.hf_json import save_tokenizer_json
    from core.training import train_from_counts

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    path = tmp_path / "hug.json"
    save_tokenizer_json(drain(train_from_counts(hug_pug, TrainOptions("wordpiece", vocab_size=14))), path)
    panel = window.training_panel
    assert panel.algorithm != "wordpiece"
    window.open_tokenizer(str(path))
    qtbot.waitUntil(lambda: "hug.json" in panel.status.text(), timeout=5000)
    assert "opened from a file" in panel.status.text()
    assert (
        panel.algorithm == "wordpiece" and panel.vocab_spin.value() == window.state.full_tokenizer.vocab_size
    )
    assert not panel.merge_model.rows and not panel.curve


def test_an_opened_file_restored_at_launch_is_not_said_to_have_lost_a_log(qtbot, window, tmp_path):
    """It read "kept without its log by an older version": a tokenizer file never had one."""
    from core.events import drain
    from core.formats.hf_json import save_tokenizer_json
    from core.training import train_from_counts

    path = tmp_path / "hug.json"
    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    save_tokenizer_json(drain(train_from_counts(hug_pug, TrainOptions("wordpiece", vocab_size=14))), path)
    window.open_tokenizer(str(path))
    assert window.save_last_run() is not None
    window.state.full_tokenizer = None
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS) as blocker:
        window.restore_last_run()
    run = blocker.args[0]
    assert run.restored and run.options is None
    panel = window.training_panel
    qtbot.waitUntil(lambda: "opened from a file" in panel.status.text(), timeout=5000)
    assert "older version" not in panel.status.text()
    assert "older version" not in window.runs_panel.model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_a_new_run_is_numbered_after_the_highest_kept_one(qtbot, window):
    """A run restored at launch keeps its name ("Run 8: ..."); the next run is Run 9, not Run 2."""
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    (first,) = window.state.runs
    assert first.name.startswith("Run 1: ")
    window.state.rename_run(first, "Run 8: BPE 30")  # as the last session's run comes back
    train(qtbot, window, TrainOptions("bpe", vocab_size=32))
    assert window.state.runs[-1].name.startswith("Run 9: ")
    window.state.rename_run(window.state.runs[-1], "my favourite")
    train(qtbot, window, TrainOptions("bpe", vocab_size=34))
    assert window.state.runs[-1].name.startswith("Run 9: ")  # "Run 8" is still the highest kept


def test_what_sets_two_runs_apart_stays_in_view_at_1280(qtbot, window):
    """Two BPE runs of the same size, one on whitespace and one on metaspace, are named
    "Run 1: BPE 30" and "Run 2: BPE 30": the Options column that told them apart was elided in
    a 1280-wide window. The name cell says it on a second line, the Options column puts it
    first, and a Compare column's title says it; the tooltips give the whole name."""
    window.resize(1280, 800)
    window.reset_layout()
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    train(qtbot, window, TrainOptions("bpe", vocab_size=30, pre_tokenizer="whitespace"))
    train(qtbot, window, TrainOptions("bpe", vocab_size=30, pre_tokenizer="metaspace"))
    window.finish_startup()
    first, second = window.state.runs
    assert first.name.split(":")[1] == second.name.split(":")[1]  # the same algorithm and size
    model, view = window.runs_panel.model, window.runs_panel.view
    name_lines = [model.index(r, 0).data().split("\n") for r in range(2)]
    assert [lines[1] for lines in name_lines] == ["whitespace", "metaspace"]
    assert name_lines[1][0].endswith(second.name)
    assert model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole).startswith(second.name)
    assert model.index(1, model.OPTIONS).data().startswith("metaspace · ")
    # the second line is whole in its cell: the row grew to hold it, the column is wide enough
    fm = view.fontMetrics()
    assert view.rowHeight(1) >= 2 * fm.height()
    assert view.columnWidth(0) >= fm.horizontalAdvance("metaspace")
    column = window.compare_panel.columns[0]
    column.source.setCurrentIndex(column.source.findData(f"run:{second.id}"))
    assert column.title.text().endswith("· metaspace")
    assert column.source.toolTip() == f"{second.name} · metaspace"
    # the Name column grows to a long name (bold: the shown run), up to a cap
    from PySide6.QtGui import QFontMetrics

    from subword_gui.panels.runs import NAME_MAX_WIDTH

    window.state.rename_run(second, "Run 2: WordPiece 32,000 on reviews")
    bold = QFont(view.font())
    bold.setBold(True)
    wanted = QFontMetrics(bold).horizontalAdvance("● " + second.name)
    assert wanted > 160  # wider than the column's first width
    assert view.columnWidth(0) >= min(wanted, NAME_MAX_WIDTH)
    # one run alone has nothing to be told apart from
    window.state.discard_run(first)
    assert "\n" not in model.index(0, 0).data()


def test_quitting_while_stepping_keeps_the_shown_run_where_its_slider_stood(qtbot, window):
    """The stepped run's preview (a few merges) set the slider: the next launch showed the kept
    model cut to its alphabet."""
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    train(qtbot, window, TrainOptions("bpe", vocab_size=60))
    full = window.state.full_tokenizer.vocab_size  # (the corpus may hold fewer merges than asked)
    window.slider.set_vocab_size(full - 3)
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=60))
    for _ in range(2):
        with qtbot.waitSignal(panel.merge_model.rowsInserted, timeout=WAIT_MS):
            panel.step_button.click()
    qtbot.waitUntil(panel.shows_step_preview, timeout=WAIT_MS)
    assert window.state.vocab_size < full - 3  # the preview is what the panels show now
    window.save_last_run()
    panel.shutdown()
    run, shown = load_last_run(window.data_dir)
    assert run.vocab_size == full and shown == full - 3


def test_renaming_in_the_list_does_not_reset_it_under_the_editor(qtbot, two_runs):
    """Typing a name and pressing Return reset the whole list while the name editor was still
    committing: Qt then warned "commitData called with an editor that does not belong to this
    view" (seen on quitting after a rename). A rename changes one row's data, nothing more."""
    from PySide6.QtWidgets import QLineEdit

    window, _bpe, _unigram = two_runs
    window.finish_startup()
    window.raise_panel("runs")
    panel, first = window.runs_panel, window.state.runs[0]
    resets, changes = [], []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.model.dataChanged.connect(lambda *_: changes.append(1))
    panel.select(first)
    panel.rename_selected()
    editor = panel.view.findChild(QLineEdit)
    editor.setText("mine")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: first.name == "mine", timeout=2000)
    assert panel.model.data(panel.model.index(0, 0)).startswith("mine")
    assert not resets and changes
    column = window.compare_panel.add_run_column(first)
    window.state.rename_run(first, "ours")  # a rename from elsewhere still refreshes every view
    assert column.source.currentText() == "ours" and resets


def test_a_run_saved_as_a_project_folder_keeps_its_log_and_why_it_stopped(
    qtbot, two_runs, monkeypatch, tmp_path
):
    """Runs › Save… as a project folder writes what a relaunch keeps of the run: its merge log and
    a record with its size and why it stopped early, not the options alone."""
    from core.formats.project import load_project, load_training_log
    from subword_gui.file_dialogs import SAVE_FILTERS

    window, _bpe, _unigram = two_runs
    early = train(qtbot, window, TrainOptions("bpe", vocab_size=5000))  # the corpus runs out of pairs
    run = window.state.runs[-1]
    assert run.tokenizer is early and run.stop_reason
    window.slider.set_vocab_size(early.vocab_size - 5)  # the shown cut is not what the run saves
    project_filter = next(f for f, fmt in SAVE_FILTERS if fmt == "project")
    out = tmp_path / "early-run"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), project_filter))
    window.runs_panel.select(run)
    window.runs_panel.save_button.click()
    assert not window.messages
    record = json.loads((out / "training.json").read_text(encoding="utf-8"))
    assert record["stop_reason"] == run.stop_reason
    assert record["vocab_size"] == early.vocab_size and record["options"]["vocab_size"] == 5000
    tok, _record = load_project(out)
    assert tok.get_vocab() == early.get_vocab()
    assert load_training_log(out).merges == run.merge_events and run.merge_events
    assert run.saved_to == str(out)


# -- issue 29, item 4: runs survive quitting ------------------------------------------------------


def _relaunch(qtbot, settings):
    again = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.run_restored, timeout=WAIT_MS):
        again.restore_last_run()
    return again


def test_every_run_comes_back_after_quitting_and_the_selection_is_the_shown_run(qtbot, window, settings):
    """After Ctrl+Q and a relaunch only the shown run came back (a language restart kept all);
    the blue selection stayed on Run 1 while ● marked the newest run."""
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    sizes = (24, 28, 32)
    for size in sizes:
        train(qtbot, window, TrainOptions("bpe", vocab_size=size))
        assert window.runs_panel.selected_run() is window.state.shown_run  # the new run, both
    window.runs_panel.select(window.state.runs[0])
    window.runs_panel.show_selected()
    names = [r.name for r in window.state.runs]
    window.close()

    again = _relaunch(qtbot, settings)
    assert sorted(r.name for r in again.state.runs) == sorted(names)
    assert again.state.shown_run.name == names[0]
    assert again.runs_panel.selected_run() is again.state.shown_run
    assert sorted(r.options.vocab_size for r in again.state.runs) == list(sizes)
    again.training_panel.shutdown()


def test_the_oldest_runs_are_dropped_past_the_size_set_and_the_next_launch_says_which(
    qtbot, window, settings
):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    for size in (24, 28, 32):
        train(qtbot, window, TrainOptions("bpe", vocab_size=size))
    names = [r.name for r in window.state.runs]
    window.runs_panel.keep_box.setValue(0)  # keep only the shown run
    window.close()
    assert settings.value("runs/keep_mb") in (0, "0")

    again = _relaunch(qtbot, settings)
    assert [r.name for r in again.state.runs] == [names[-1]]
    said = again.statusBar().currentMessage()
    assert names[0] in said and names[1] in said and "Runs panel" in said
    assert again.runs_panel.keep_box.value() == 0
    again.training_panel.shutdown()


def test_runs_kept_within_a_bound_drop_the_oldest_first(tmp_path):
    from core.events import drain
    from core.training import train_from_counts
    from subword_gui.runs import save_restart_runs, take_kept_runs

    hug_pug = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    runs = [
        Run(0, f"Run {n}", drain(train_from_counts(hug_pug, TrainOptions("bpe", vocab_size=8 + n))))
        for n in (1, 2, 3)
    ]
    save_restart_runs(runs[-1:], tmp_path / "probe")
    one = sum(p.stat().st_size for p in (tmp_path / "probe").rglob("*") if p.is_file())
    assert save_restart_runs(runs, tmp_path, limit_bytes=2 * one + one // 2) == ["Run 1"]
    kept, dropped = take_kept_runs(tmp_path)
    assert [r.name for r in kept] == ["Run 2", "Run 3"] and dropped == ["Run 1"]
    assert take_kept_runs(tmp_path) == ([], [])  # taken once


def test_an_identical_retrain_shows_the_run_again_instead_of_adding_a_copy(qtbot, window):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    first = train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    train(qtbot, window, TrainOptions("bpe", vocab_size=28))
    train(qtbot, window, TrainOptions("bpe", vocab_size=30))  # the first again
    runs = window.state.runs
    assert len(runs) == 2
    assert window.state.shown_run is runs[0] and window.state.full_tokenizer is first
    assert runs[0].name in window.statusBar().currentMessage()
    assert "instead of adding a copy" in window.statusBar().currentMessage()
    assert window.runs_panel.selected_run() is runs[0]


def test_a_kept_run_whose_merge_log_is_damaged_comes_back_without_it_and_says_so(qtbot, window):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    tok = train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    folder = window.save_last_run()
    log = folder / "merges.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[-1])
    lines[-1] = json.dumps(row).replace(f'"count": {row["count"]}', '"count": 1e400')  # (read as inf)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    window.state.discard_run(window.state.runs[0])
    window.state.full_tokenizer = None
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS) as blocker:
        window.restore_last_run()
    run = blocker.args[0]
    assert run is not None and run.tokenizer.get_vocab() == tok.get_vocab() and not run.merge_events
    assert len(window.messages) == 1 and "merges.jsonl" in window.messages[0][1]
    assert "restored without its log" in window.messages[0][1]


def test_a_kept_run_whose_sidecar_has_a_field_of_the_wrong_type_is_one_line(qtbot, window):
    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    train(qtbot, window, TrainOptions("bpe", vocab_size=30))
    folder = window.save_last_run()
    sidecar = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    sidecar["extra"]["duration_s"] = [1]
    (folder / "training.json").write_text(json.dumps(sidecar), encoding="utf-8")
    window.state.discard_run(window.state.runs[0])
    window.state.full_tokenizer = None
    with qtbot.waitSignal(window.run_restored, timeout=WAIT_MS) as blocker:
        window.restore_last_run()
    assert blocker.args == [None]
    assert len(window.messages) == 1 and "training.json: a field of the wrong type" in window.messages[0][1]


def test_in_a_narrow_tab_the_figures_and_time_need_no_horizontal_scroll(two_runs, qtbot):
    """At 1280x800 the Runs tab needed a horizontal scroll to reach the Time column, and a
    run's description under its name was elided (issue 29, item 7)."""
    from subword_gui.panels.runs import RunsModel, RunsPanel

    window, bpe, unigram = two_runs
    panel = RunsPanel(window.state)  # the same runs, in a tab as wide as a 1280-wide window's
    qtbot.addWidget(panel)
    panel.model._reset()
    panel.resize(520, 500)
    panel.show()
    view = panel.view
    qtbot.waitUntil(lambda: view.horizontalScrollBar().maximum() == 0)
    header = view.horizontalHeader()
    time_right = header.sectionViewportPosition(5) + header.sectionSize(5)
    assert time_right <= view.viewport().width()
    assert view.wordWrap()
    assert header.isSectionHidden(RunsModel.CORPUS) and header.isSectionHidden(RunsModel.OPTIONS)
    assert "mixed.txt" in panel.model.data(panel.model.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    panel.resize(1600, 500)  # room again: Corpus and Options come back
    qtbot.waitUntil(lambda: not header.isSectionHidden(RunsModel.OPTIONS))


def test_a_launch_that_opens_a_file_brings_the_run_history_back_too(
    qtbot, window, settings, monkeypatch, tmp_path
):
    """`subword-explorer corpus.txt` (or a file opened from the file manager) skipped the last
    session's runs, and its quit then kept only its own: the history was gone."""
    import subword_gui.app as app_module
    import subword_gui.main_window as main_window_module

    window.corpus_panel.open_lines(LINES * 5, "mixed.txt")
    for size in (24, 28):
        train(qtbot, window, TrainOptions("bpe", vocab_size=size))
    names = sorted(r.name for r in window.state.runs)
    data_dir = window.data_dir
    window.close()

    made = {}

    class Launched(Exception):
        pass

    def record(**kwargs):
        made.update(kwargs)
        raise Launched

    monkeypatch.setattr(main_window_module, "MainWindow", record)
    corpus = tmp_path / "other.txt"
    corpus.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    with pytest.raises(Launched):
        app_module.main([str(corpus)])
    assert made["open_sample"] is False and made["restore_runs"] is True
    monkeypatch.undo()

    # as that launch makes it (main() names the application, which moves the default data folder)
    again = MainWindow(settings=settings, open_sample=False, restore_runs=True, data_dir=data_dir)
    qtbot.addWidget(again)
    with qtbot.waitSignal(again.run_restored, timeout=WAIT_MS):
        pass
    assert sorted(r.name for r in again.state.runs) == names
    again.training_panel.shutdown()
