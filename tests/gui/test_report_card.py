"""The Compare panel's report card: every measure per column in the background, best marked,
parity / alignment / Rényi plots, and the HTML export."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from core.events import Progress, drain
from core.measures import report
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from subword_gui.panels.compare import ComparePanel
from subword_gui.panels.report_card import BEST_ROLE, guess_language_code
from subword_gui.state import AppState

from .conftest import make_lines

WAIT_MS = 120_000
LINES = make_lines(300)


@pytest.fixture(scope="module")
def bpe():
    options = TrainOptions("bpe", vocab_size=260, pre_tokenizer="metaspace", special_tokens=["<unk>"])
    return drain(train_from_counts(pre_tokenize_lines(LINES, options), options))


@pytest.fixture
def panel(qtbot, bpe):
    state = AppState()
    state.set_full_tokenizer(bpe)
    state.corpus_source = ("lines", LINES)
    panel = ComparePanel(state)
    qtbot.addWidget(panel)
    panel.resize(1100, 800)
    panel.show()
    panel.bottom_tabs.setCurrentWidget(panel.report_card)
    return panel


def computed(qtbot, card):
    with qtbot.waitSignal(card.computed, timeout=WAIT_MS):
        assert card.compute()
    return card.result.report


def test_every_measure_for_every_column_with_the_best_marked(qtbot, panel, bpe):
    card = panel.report_card
    panel.resize(640, 800)  # a dock's width in a 1280x800 window
    a, b = panel.columns  # A: the whole model, B: cut half-way
    assert card.export_button.isEnabled() is False
    rep = computed(qtbot, card)
    assert [t.name for t in rep.tokenizers] == ["A", "B"]
    # the same figures as the engine's report over the same lines and tokenizers
    direct = drain(report({"A": a.tokenizer, "B": b.tokenizer}, LINES))
    assert [t.compression.tokens for t in rep.tokenizers] == [t.compression.tokens for t in direct.tokenizers]
    assert rep.language == "ko" and rep.alignment_lines > 0  # Korean enough: aligned with kiwipiepy
    labels = [card.table.verticalHeaderItem(i).text().strip() for i in range(card.table.rowCount())]
    for label in (
        "tokens / word",
        "baseline: characters, tokens / word",
        "baseline: words at this vocab size, unknown",
        "Rényi efficiency",
        "Shannon efficiency",
        "unknown tokens",
        "boundary precision",
        "boundary recall",
        "boundary F1",
        "unreachable",
        "never used on the corpus",
        "intermediate-only",
        "byte pieces",
    ):
        assert label in labels
    assert card.cell("tokens / word", "A") == f"{rep.tokenizers[0].compression.tokens_per_word:.3f}"
    # the whole model needs fewer tokens per word than its cut: its cell is marked, bold
    best = card.best_cells()
    assert best["tokens / word"] == ["A"] and best["bytes / token"] == ["A"]
    row = labels.index("tokens / word")
    assert card.table.item(row, 0).font().bold() and card.table.item(row, 0).data(BEST_ROLE)
    assert not card.table.item(row, 1).font().bold()
    # alignment F1 per column, and Rényi efficiency of the trained model at a few sizes
    assert card.f1_bars == [t.alignment.f1 for t in rep.tokenizers]
    sizes = [k for k, _ in card.result.curve]
    assert len(sizes) >= 3 and sizes[-1] == bpe.vocab_size and sizes == sorted(sizes)
    assert len(card.curve_plot.listDataItems()) == 1
    assert card.export_button.isEnabled()


def test_parallel_files_give_premium_bars_per_language(qtbot, panel, tmp_path):
    ko, en = tmp_path / "par.ko.txt", tmp_path / "par.en.txt"
    ko.write_text("철수는 치킨을 먹고 있다\n영화 정말 재미 있었어요\n", encoding="utf-8")
    en.write_text("the tokenizer cuts text\ninto pieces\n", encoding="utf-8")
    card = panel.report_card
    card.add_parallel(guess_language_code(str(ko)), str(ko))
    card.add_parallel(guess_language_code(str(en)), str(en))
    assert "ko, en" in card.parallel_button.text()
    rep = computed(qtbot, card)
    assert rep.pivot == "en" and rep.parallel_lines == 2
    labels = [card.table.verticalHeaderItem(i).text().strip() for i in range(card.table.rowCount())]
    assert "premium ko / en" in labels and "Gini across languages" in labels
    xs, heights = card.parity_bars
    assert len(xs) == 4  # two languages x two columns
    premiums = [t.parity.premiums[lang] for lang in ("ko", "en") for t in rep.tokenizers]
    assert heights == premiums and heights[2:] == [1.0, 1.0]  # the pivot is 1 by definition
    card.clear_parallel_files()
    assert card.parallel == {} and card.parallel_button.text() == "Parallel file…"


def test_export_writes_one_html_file_and_never_replaces_one_silently(qtbot, panel, tmp_path, monkeypatch):
    card = panel.report_card
    computed(qtbot, card)
    out = tmp_path / "card.html"
    assert card.export_to(out)
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "boundary F1" in page and "Rényi efficiency" in page  # the table
    assert "<svg" in page and "against vocab size" in page  # the plots, the Rényi curve among them
    assert "PySide6" in page and "kiwipiepy" in page  # the versions
    assert "Rényi α" in page  # the options
    assert [p.name for p in tmp_path.iterdir()] == ["card.html"]  # no temporary file left
    # an existing file: replaced only when the user says so
    out.write_text("mine", encoding="utf-8")
    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.No
    )
    assert not card.export_to(out)
    assert asked and out.read_text(encoding="utf-8") == "mine"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert card.export_to(out) and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_card_computes_in_the_background_with_progress_and_can_be_cancelled(qtbot, panel):
    card = panel.report_card
    before = card.minimumSizeHint().width()
    assert card.compute()
    # showing the progress bar does not widen the panel (a 640-px dock re-arranged the window)
    assert card.minimumSizeHint().width() <= before
    # the job runs in a worker process: the panel answers at once, the buttons say so
    assert card.running and not card.compute_button.isEnabled() and card.cancel_button.isEnabled()
    assert card.progress.isVisibleTo(card)
    card._on_events([Progress("encode", 50, 100)])  # noqa: SLF001 (what the job's events do)
    assert card.progress.value() == 500 and "column A" in card.status.text()
    with qtbot.waitSignal(card.job.cancelled, timeout=10_000):
        card.cancel()
    qtbot.waitUntil(lambda: card.compute_button.isEnabled(), timeout=5000)
    assert card.status.text() == "Cancelled." and card.result is None
    assert not card.progress.isVisibleTo(card)


def test_without_a_tokenizer_nothing_starts(qtbot):
    panel = ComparePanel(AppState())
    qtbot.addWidget(panel)
    assert not panel.report_card.compute()
    assert panel.report_card.job is None
