"""Help › User guide on F1, Esc cancels, Ctrl+S saves again, Edit › Copy tokens / ids."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from core.options import TrainOptions
from subword_gui.guide import GuideDialog, replay_merges, work_examples

WAIT_MS = 30_000


def test_worked_examples_reach_the_textbook_results():
    examples = work_examples()
    # the Hugging Face course's hug/pug table: u g (20), u n (16), h ug (15); m was never seen
    assert [(e.left, e.right, e.count) for e in examples["bpe"].merges] == [
        ("u", "g", 20),
        ("u", "n", 16),
        ("h", "ug", 15),
    ]
    assert dict((t, tokens) for t, tokens, _ids in examples["bpe"].encoded)["pug bug mug"] == [
        "p",
        "ug",
        "b",
        "ug",
        "<unk>",
        "ug",
    ]
    # seed 001's Korean counts: the first merge is 먹 고 (11)
    first = examples["korean"].merges[0]
    assert (first.left, first.right, first.count) == ("먹", "고", 11)
    # byte-level BPE never needs an unknown token: the emoji and Hangul decode back whole
    bytelevel = examples["bytelevel"]
    _text, _tokens, ids = bytelevel.encoded[1]
    assert bytelevel.tokenizer.decode(ids) == "안녕 👋🏽"


def test_replay_applies_merges_in_rank_order():
    steps = replay_merges("hugs", [("u", "g"), ("u", "n"), ("h", "ug")])
    assert [(rank, symbols) for rank, _l, _r, symbols in steps] == [(1, ["h", "ug", "s"]), (3, ["hug", "s"])]
    assert replay_merges("", [("a", "b")]) == [] and replay_merges("x", []) == []


def test_f1_opens_the_guide_with_every_section_and_the_examples(qtbot, window):
    assert window.guide_action.shortcut().toString() == "F1"
    assert "User guide" in [
        a.text().replace("&", "") for a in window.menuBar().actions()[-1].menu().actions()
    ]
    GuideDialog._cache = None
    window.guide_action.trigger()
    guide = window.guide
    assert guide is not None and guide.isVisible()
    with qtbot.waitSignal(guide.examples_ready, timeout=WAIT_MS):
        pass
    assert guide.failed is None
    text = guide.browser.toPlainText()
    for heading in (
        "The main flow",
        "The panels",
        "BPE",
        "WordPiece",
        "Unigram",
        "Byte-level BPE",
        "why view",
    ):
        assert heading in text
    assert "Working the example out" not in text
    assert "Sennrich" in text and "GPT-2 paper" in text and "Park et al." in text
    # the why view itself, drawn offscreen: a BPE word and a Unigram lattice
    assert set(guide.browser.images) == {"why-bpe.png", "why-unigram.png"}
    for image in guide.browser.images.values():
        # sampled over the whole picture: which row holds the chips depends on fonts and theme
        grid = {image.pixel(x, y) for x in range(0, image.width(), 4) for y in range(0, image.height(), 4)}
        assert not image.isNull() and len(grid) > 3
    assert "why-bpe.png" in guide.browser.toHtml()
    guide.show_section("unigram")
    window.guide_action.trigger()  # a second F1 raises the same window
    assert window.guide is guide


def test_the_guide_names_each_report_card_measure_with_its_source(qapp):
    from subword_gui.guide import guide_html

    page = guide_html(None)
    assert "<a name='measures'>" in page and "href='#measures'" in page
    for measure, source in [
        ("Rényi efficiency", "Zouhar et al. 2023"),
        ("premium and Gini", "Petrov et al. 2023"),
        ("boundary precision, recall, F1", "MorphScore"),
        ("unreachable, undecodable", "Land & Bartolo 2024"),
        ("intermediate-only", "PickyBPE"),
        ("tokens / word, character, byte", "Rust et al. 2021"),
    ]:
        assert measure in page and source in page


def test_esc_cancels_only_while_there_is_work(qtbot, window, small_corpus):
    assert QKeySeq(window) == ["Esc", "Ctrl+."]
    assert not window.cancel_action.isEnabled()  # Esc is left to popups and editors
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_path(str(small_corpus), "corpus")
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=400))
    panel.step()  # a stepped run waits for the next click: still busy
    qtbot.waitUntil(lambda: panel.merge_model.rowCount() > 0, timeout=WAIT_MS)
    assert window.cancel_action.isEnabled()
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.cancel_action.isEnabled()


def QKeySeq(window) -> list[str]:  # noqa: N802
    return [k.toString() for k in window.cancel_action.shortcuts()]


def test_ctrl_s_saves_again_where_the_shown_tokenizer_was_saved(qtbot, window, monkeypatch, tmp_path):
    from subword_gui.file_dialogs import SAVE_FILTERS

    window.corpus_panel.open_lines(["hug pug pun bun hugs", "hug hug pun"], "hug.txt")
    window.training_panel.set_options(TrainOptions("bpe", vocab_size=12))
    with qtbot.waitSignal(window.training_panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
    assert window.save_action.shortcut().toString() == "Ctrl+S"
    out = tmp_path / "tok.json"
    asked = []

    def ask(*a, **k):
        asked.append(a)
        return str(out), SAVE_FILTERS[0][0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    window.save_action.trigger()  # never saved: asks where
    assert len(asked) == 1 and out.is_file()
    out.unlink()
    window.save_action.trigger()  # the same tokenizer: saved again without asking
    assert len(asked) == 1 and out.is_file() and not window.messages
    window.slider.set_vocab_size(10)  # another (cut) tokenizer is shown: ask again
    window.save_action.trigger()
    assert len(asked) == 2


def test_edit_menu_copies_tokens_and_ids(qtbot, window):
    edit = window.menuBar().actions()[1].menu()
    names = [a.text().replace("&", "") for a in edit.actions() if not a.isSeparator()]
    assert names[-2:] == ["Copy tokens", "Copy ids"]
    QApplication.clipboard().setText("before")
    assert window.copy_encoding("tokens") == ""  # no model yet: the clipboard is left alone
    assert QApplication.clipboard().text() == "before"
    window.corpus_panel.open_lines(["hug pug pun bun hugs", "hug hug pun"], "hug.txt")
    window.training_panel.set_options(TrainOptions("bpe", vocab_size=12))
    with qtbot.waitSignal(window.training_panel.training_finished, timeout=WAIT_MS):
        window.train_action.trigger()
    window.segmentation_panel.set_text("hugs pun\nbun")
    tok = window.state.tokenizer
    window.copy_tokens_action.trigger()
    rows = [json.loads(line) for line in QApplication.clipboard().text().split("\n")]
    assert rows == [tok.encode("hugs pun").tokens, tok.encode("bun").tokens]
    window.copy_ids_action.trigger()
    rows = [json.loads(line) for line in QApplication.clipboard().text().split("\n")]
    assert rows == [tok.encode("hugs pun").ids, tok.encode("bun").ids]


def test_edit_menu_undoes_pastes_and_selects_in_the_text_box(qtbot, window):
    edit = window.menuBar().actions()[1].menu()
    by_name = {a.text().replace("&", ""): a for a in edit.actions() if not a.isSeparator()}
    assert {"Undo", "Redo", "Cut", "Copy", "Paste", "Select all"} <= set(by_name)
    editor = window.segmentation_panel.editor
    window.segmentation_panel.set_text("hug")
    editor.setFocus()
    by_name["Select all"].trigger()
    assert editor.textCursor().selectedText() == "hug"
    QApplication.clipboard().setText("철수는 👋🏽")
    by_name["Paste"].trigger()
    assert window.segmentation_panel.text() == "철수는 👋🏽"
    by_name["Undo"].trigger()
    assert window.segmentation_panel.text() == "hug"
    by_name["Redo"].trigger()
    assert window.segmentation_panel.text() == "철수는 👋🏽"


@pytest.mark.parametrize("how", ["F2", "Rename button"])
def test_esc_while_renaming_a_run_during_training_ends_the_edit_only(qtbot, window, small_corpus, how):

    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        window.open_path(str(small_corpus), "corpus")
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=300))
    with qtbot.waitSignal(panel.training_finished, timeout=WAIT_MS):
        panel.train()
    panel.step()  # a second run, stepped: busy until cancelled
    qtbot.waitUntil(lambda: panel.merge_model.rowCount() > 0, timeout=WAIT_MS)
    assert window.cancel_action.isEnabled()
    cancelled = []
    panel.training_cancelled.connect(lambda: cancelled.append(True))
    window.activateWindow()
    window.raise_panel("runs")
    runs = window.runs_panel
    runs.select(window.state.runs[0])
    if how == "F2":
        runs.view.setFocus()
        qtbot.keyClick(runs.view, Qt.Key.Key_F2)
    else:
        runs.rename_button.setFocus()
        runs.rename_button.click()
    qtbot.waitUntil(lambda: runs.view.isAncestorOf(QApplication.focusWidget()), timeout=5000)
    editor = QApplication.focusWidget()
    assert editor is not runs.view
    editor.setText("renamed, then Esc")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.wait(50)
    assert not cancelled and panel.busy  # training goes on
    assert runs.view.state() != runs.view.State.EditingState  # the edit ended
    assert window.state.runs[0].name != "renamed, then Esc"  # Esc reverts
    # outside an editor Esc still cancels
    runs.view.setFocus()
    with qtbot.waitSignal(panel.training_cancelled, timeout=WAIT_MS):
        qtbot.keyClick(runs.view, Qt.Key.Key_Escape)


def test_the_newer_algorithms_have_illustrated_sections():
    """SuperBPE, PickyBPE, BPE-dropout and byte fallback each get a paragraph naming its paper and
    an illustration the engine worked out: a superword, a removed token, differing samples, bytes."""
    from subword_gui.guide import guide_html

    examples = work_examples()
    # SuperBPE: stage 2 starts at t and its first merge spans a space
    stages = [e for e in examples["superbpe"].events if type(e).__name__ == "StageStarted"]
    assert [s.stage for s in stages] == [1, 2]
    after = [e for e in examples["superbpe"].merges if e.step > stages[1].after_step]
    assert after and "Ġ" in after[0].new_token[1:]
    _text, tokens, _ids = examples["superbpe"].encoded[0]
    assert any("Ġ" in t[1:] for t in tokens)  # the sentence is cut into superwords
    # PickyBPE: the merges made some tokens redundant (IoS >= tau) and they were removed
    removed = [e for e in examples["picky"].events if type(e).__name__ == "TokenRemoved"]
    assert removed and all(e.ios >= 0.9 for e in removed)
    # byte fallback spells the unseen Korean and emoji in bytes; without it they are unknown
    _text, with_bytes, _ids = examples["byte-fallback"].encoded[0]
    _text, without, _ids = examples["no-fallback"].encoded[0]
    assert "<0xED>" in with_bytes and "<unk>" not in with_bytes
    assert "<unk>" in without and not any(t.startswith("<0x") for t in without)
    page = guide_html(examples)
    for anchor, source in (
        ("superbpe", "Liu et al., 2025"),
        ("picky", "Chizhov et al., 2024"),
        ("samples", "Provilkov et al., 2020"),
        ("bytefallback", "Kudo and Richardson, 2018"),
    ):
        section = page[page.index(f"name='{anchor}'") :]
        assert source in section[:3000], anchor
    assert "stage 2 starts" in page and "(removed)" in page and "sample 4 (p = 0.5)" in page
    # the dropout samples are not all the deterministic cut (seeded, so this is stable)
    assert "more tokens on average" in page and "These samples have 0% more" not in page
