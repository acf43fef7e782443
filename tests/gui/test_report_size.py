"""The report dialog is sized to its report (issue 29): a fixed 640x320 showed two of the five
things a vocab.txt save does not keep, the rest behind a scroll bar, at 1280x800."""

from __future__ import annotations

import pytest

from core.events import drain
from core.formats.detect import save_tokenizer
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts
from subword_gui import language
from subword_gui.engine_text import localize
from subword_gui.report import ReportDialog
from tests.gui.conftest import make_lines


def _vocab_txt_losses(tmp_path) -> list[str]:
    """What a save of a whitespace BPE to BERT's vocab.txt does not keep (five items)."""
    opts = TrainOptions("bpe", vocab_size=300)
    tok = drain(train_from_counts(pre_tokenize_lines(make_lines(100), opts), opts))
    losses = save_tokenizer(tok, tmp_path / "vocab.txt", "bert")
    assert len(losses) == 5
    return losses


def _shown(qtbot, dialog: ReportDialog) -> None:
    qtbot.waitExposed(dialog)
    qtbot.wait(20)  # (the layout settles)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_typical_report_is_read_whole_without_scrolling(qtbot, qapp, tmp_path, lang):
    language.install_translators(qapp, lang)
    try:
        # a save's report, twice over: more than the old 320 px hold in any font, less than a screen
        items = [localize(loss) for loss in _vocab_txt_losses(tmp_path)] * 2
        dialog = ReportDialog()
        qtbot.addWidget(dialog)
        dialog.show_report("Saved vocab.txt", "Saved vocab.txt (bert). The file does not keep:", items)
        _shown(qtbot, dialog)
        free = dialog.screen().availableGeometry()
        assert dialog.height() > 320 and dialog.height() <= free.height()
        assert dialog.width() <= free.width()
        assert dialog.body.verticalScrollBar().maximum() == 0  # every item in view
        assert dialog.body.horizontalScrollBar().maximum() == 0
    finally:
        language.install_translators(qapp, "en")


def test_a_long_report_stays_on_the_screen_and_scrolls(qtbot, tmp_path):
    items = _vocab_txt_losses(tmp_path) * 20
    dialog = ReportDialog()
    qtbot.addWidget(dialog)
    dialog.show_report("Saved", "Saved:", items)
    _shown(qtbot, dialog)
    free = dialog.screen().availableGeometry()
    assert dialog.frameGeometry().height() <= free.height() and dialog.width() <= free.width()
    assert dialog.body.verticalScrollBar().maximum() > 0
    # and a short one after it does not keep the long one's height
    dialog.show_report("Opened", "Opened:", items[:1])
    qtbot.wait(20)
    assert dialog.height() < free.height() / 2
    assert dialog.body.verticalScrollBar().maximum() == 0
