"""The explorer opens every format of the format table: the open dialog offers each one's
file names, and a dropped file of each is taken for a tokenizer and opened."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QUrl
from tekken_files import write_tekken

from core.formats import registry
from subword_gui.file_dialogs import SAVE_FILTERS, tokenizer_filter
from subword_gui.main_window import detect_kind


@pytest.mark.parametrize("fmt", registry.FORMATS, ids=lambda f: f.name)
def test_the_open_dialog_and_drops_know_every_format(fmt, tmp_path):
    first = tokenizer_filter().split(";;")[0]
    for glob in fmt.globs:
        assert glob in first
        named = tmp_path / glob.replace("*", "x")
        # (JSON-looking content: a .json file of plain text is a corpus; see test_main_window)
        named.write_text("{}", encoding="utf-8")
        assert detect_kind(named) == "tokenizer", named.name
    assert fmt.dialog_filter in tokenizer_filter().split(";;")


def test_the_save_dialog_offers_every_writable_format():
    assert [name for _, name in SAVE_FILTERS] == list(registry.SAVE_FORMATS)


def test_a_corpus_is_still_a_corpus(small_corpus):
    assert detect_kind(small_corpus) == "corpus"


class _Drop:
    """What dropEvent reads of a QDropEvent."""

    def __init__(self, path):
        self._mime = QMimeData()
        self._mime.setUrls([QUrl.fromLocalFile(str(path))])
        self.accepted = False

    def mimeData(self):
        return self._mime

    def acceptProposedAction(self):
        self.accepted = True


def test_dropping_a_tekken_file_opens_it(window, tmp_path):
    path = write_tekken(tmp_path / "tekken.json")
    drop = _Drop(path)
    window.dropEvent(drop)
    assert drop.accepted
    assert window.messages == []
    assert window.state.full_tokenizer is not None
    assert window.state.full_tokenizer.encode("hi").ids == [2 + ord("h"), 2 + ord("i")]
    assert "(tekken)" in window.statusBar().currentMessage()


def test_a_failure_line_goes_once_a_tokenizer_opens_or_saves(window, tmp_path):
    """The status bar's ⚠ line came back after a later tokenizer opened fine (once the "Opened"
    message timed out), reading as that file's failure."""
    from core.formats.gpt2 import save_gpt2
    from core.models.bpe.model import BPE

    def failure_line_shown() -> bool:
        window.statusBar().clearMessage()  # a timed message hides the line only while it lasts
        return not window.error_label.isHidden()

    not_a_tokenizer = tmp_path / "notes.txt"
    not_a_tokenizer.write_text("just some prose\n", encoding="utf-8")
    window.open_tokenizer(str(not_a_tokenizer))
    assert failure_line_shown() and "notes.txt" in window.error_label.text()
    save_gpt2(BPE({"<unk>": 0, "u": 1, "g": 2, "ug": 3}, [("u", "g")], unk_token="<unk>"), tmp_path)
    window.open_tokenizer(str(tmp_path / "merges.txt"))
    assert not failure_line_shown()

    window.open_tokenizer(str(not_a_tokenizer))
    assert failure_line_shown()
    assert window._write_tokenizer(window.state.tokenizer, str(tmp_path / "t.json"), "hf-json", None, [])
    assert not failure_line_shown()


def test_saving_a_byte_level_model_as_vocab_txt_says_why_it_cannot(window, tmp_path):
    """Saved as vocab.txt, a byte-level BPE model could not be reopened ("no unknown token"):
    the save is refused with the reason and nothing is written."""
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    options = TrainOptions("bytelevel-bpe", vocab_size=270)
    tok = drain(train_from_counts({"Ġhug": 10, "Ġpug": 5, "Ġhugs": 5}, options))
    assert not window._write_tokenizer(tok, str(tmp_path / "vocab.txt"), "bert", options, [])
    assert window.messages and "unknown token" in window.messages[-1][1]
    assert list(tmp_path.iterdir()) == []
