"""The explorer's morpheme analysers load apart (subword_gui.background.analysers): a
morpheme-aware model reaches the panels only once its analyser answers from its own process,
the window keeps answering meanwhile, and the window's process never loads the analyser
itself (Kiwi's loading held its interpreter lock ~3 s in one piece: a relaunch froze)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer

from core import morphemes
from core.events import drain
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from subword_gui.main_window import MainWindow
from subword_gui.runs import Run, save_last_run

WAIT_MS = 60_000
LINES = ["철수는 치킨을 먹고 볶음밥을 먹고 있다", "영화가 정말 재미있었어요", "hug pug pun bun"] * 5
TEXT = "철수는 영화를 먹고 있었다 hug"


@pytest.fixture
def morph_model():
    """A ko-morph BPE model trained in this process, and its segmentation of TEXT."""
    options = TrainOptions("bpe", vocab_size=60, pre_tokenizer="ko-morph", special_tokens=["<unk>"])
    tok = drain(train_from_counts(pre_tokenize_lines(LINES, options), options))
    return tok, options, tok.encode(TEXT).tokens


@pytest.fixture
def apart(monkeypatch):
    """From here on, analysers load apart, as in the launched explorer; loading one in this
    process fails the test."""

    def in_this_process():
        raise AssertionError("a morpheme analyser was loaded in the window's process")

    before = len(morphemes._children)
    monkeypatch.setattr(morphemes, "_loaded", {})
    monkeypatch.setattr(morphemes, "_LOADERS", {"ko": in_this_process, "ja": in_this_process})
    monkeypatch.setattr(morphemes, "_apart_pid", None)
    morphemes.load_analysers_apart()
    yield
    for child in morphemes._children[before:]:
        child.close()


def test_a_relaunch_on_a_morpheme_aware_run_shows_it_once_its_analyser_answers(
    qtbot, window, settings, morph_model, apart
):
    tok, options, expected = morph_model
    save_last_run(Run(1, "morphemes", tok, options, corpus="ko.txt"), window.data_dir)
    again = MainWindow(settings=settings, open_sample=False)
    qtbot.addWidget(again)
    again.show()
    said, turns, at_restore = [], [], []
    again.state.status_message.connect(said.append)
    again.run_restored.connect(lambda run: at_restore.append(morphemes.analysers_ready(["ko"])))

    panel_said = []

    def turn():  # the window's event loop turning while the analyser loads
        if not at_restore:
            turns.append(1)
            if again.state.analysers_loading:
                panel_said.append(again.segmentation_panel.counts.text())
            QTimer.singleShot(20, turn)

    QTimer.singleShot(0, turn)
    with qtbot.waitSignal(again.run_restored, timeout=WAIT_MS):
        again.restore_last_run()
    assert at_restore == [True]
    assert any("Loading the morpheme analyser kiwipiepy (Kiwi)" in m for m in said)
    assert len(turns) >= 10  # the loading took seconds, and the window answered throughout
    # the panel, with no model yet, said what it waits for, and stopped saying it
    assert panel_said and "Loading the morpheme analyser kiwipiepy (Kiwi)" in panel_said[-1]
    assert again.state.analysers_loading == []
    assert "Loading" not in again.segmentation_panel.counts.text()
    run = again.state.shown_run
    assert run is not None and run.name == "morphemes" and again.state.full_tokenizer is run.tokenizer
    again.segmentation_panel.set_text(TEXT)
    qtbot.waitUntil(lambda: [ln.encoding.tokens for ln in again.segmentation_panel.lines()] == [expected])
    again.training_panel.shutdown()


def test_a_model_handed_over_while_another_waits_for_its_analyser_wins(qtbot, window, morph_model, apart):
    tok, options, _ = morph_model
    plain = TrainOptions("bpe", vocab_size=40)
    other = drain(train_from_counts(pre_tokenize_lines(LINES, plain), plain))
    window.state.set_full_tokenizer(tok, options)
    assert window.state.full_tokenizer is not tok  # still loading: nothing shown yet
    window.state.set_full_tokenizer(other, plain)
    assert window.state.full_tokenizer is other
    qtbot.waitUntil(lambda: morphemes.analysers_ready(["ko"]), timeout=WAIT_MS)
    qtbot.wait(200)  # the waiting model's poll has come and gone
    assert window.state.full_tokenizer is other
    window.state.set_full_tokenizer(tok, options)  # loaded now: shown at once
    assert window.state.full_tokenizer is tok


def test_a_morpheme_aware_training_lands_once_the_windows_analyser_answers(qtbot, window, apart, monkeypatch):
    answers = [False]  # the analyser apart is held "loading" until the test lets it answer
    real = morphemes.analysers_ready
    monkeypatch.setattr(morphemes, "analysers_ready", lambda languages: answers[0] and real(languages))
    window.corpus_panel.open_lines(LINES, "ko.txt")
    panel = window.training_panel
    panel.set_options(TrainOptions("bpe", vocab_size=60, pre_tokenizer="ko-morph", special_tokens=["<unk>"]))
    landed = []
    panel.training_finished.connect(landed.append)
    before = window.state.full_tokenizer
    window.train_action.trigger()
    qtbot.waitUntil(lambda: getattr(panel, "_landing", None) is not None, timeout=WAIT_MS)  # trained
    qtbot.wait(300)
    assert not landed and window.state.full_tokenizer is before
    qtbot.waitUntil(lambda: real(["ko"]), timeout=WAIT_MS)
    answers[0] = True
    qtbot.waitUntil(lambda: bool(landed), timeout=5000)
    tok = window.state.full_tokenizer
    assert landed == [tok] and window.state.shown_run is not None and window.state.shown_run.tokenizer is tok
    window.segmentation_panel.set_text(TEXT)
    # the same cuts as the engine's own analysis, which here is the analyser apart
    qtbot.waitUntil(
        lambda: [ln.encoding.tokens for ln in window.segmentation_panel.lines()] == [tok.encode(TEXT).tokens]
    )
    assert isinstance(morphemes._loaded["ko"], morphemes._Apart)
