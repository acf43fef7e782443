"""The Segmentation panel's Chat tab and the Vocabulary panel's added-token marks, on a model folder
with a chat template (built in the test)."""

from __future__ import annotations

import pytest
from chat_folders import GEMMA, QWEN, SPECIALS, family_config, train_tokenizer, write_folder
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextCursor

from core.chat import encode_chat
from core.formats.detect import open_tokenizer
from subword_gui.panels.segmentation import CHAT_TAB, SegmentationPanel
from subword_gui.panels.vocabulary import VocabModel
from subword_gui.state import AppState

pytest.importorskip("tokenizers", reason="tokenizers trains the test tokenizer")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("chat")
    trained = train_tokenizer()
    plain = train_tokenizer([s for s in SPECIALS if s not in ("<|im_start|>", "<|im_end|>")], False)
    return {
        "qwen": write_folder(root / "qwen", family_config(QWEN), trained),
        "gemma": write_folder(root / "gemma", family_config(GEMMA), trained),
        "none": write_folder(root / "none", {}, trained),
        "split": write_folder(
            root / "split", family_config(QWEN, eos_token="<|im_end|>", split_special_tokens=True), plain
        ),
    }


@pytest.fixture
def panel(qtbot):
    state = AppState()
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    return state, panel


def test_the_chat_tab_shows_only_with_a_template_and_renders_the_turns(panel, folders, qtbot):
    state, panel = panel
    state.set_tokenizer(open_tokenizer(folders["none"]).tokenizer)
    assert not panel.mode.isTabVisible(CHAT_TAB)
    tok = open_tokenizer(folders["qwen"]).tokenizer
    state.set_tokenizer(tok)
    assert panel.mode.isVisible() and panel.mode.isTabVisible(CHAT_TAB)
    panel.show_chat()
    assert panel.pages.currentWidget() is panel.chat
    chat = panel.chat
    chat.set_messages([{"role": "user", "content": "Hi 😀"}])
    with qtbot.waitSignal(chat.rendered_changed, timeout=2000):
        chat.generation_prompt.setChecked(False)
    expected = encode_chat(tok, [{"role": "user", "content": "Hi 😀"}], add_generation_prompt=False)
    assert chat.rendered.toPlainText() == expected.text
    assert len(chat.strip.chips()) == len(expected.encoding.ids) > 0

    # special tokens are loud: bold in the rendered text
    def weight_at(pos):
        cursor = QTextCursor(chat.rendered.document())
        cursor.setPosition(pos)
        return cursor.charFormat().fontWeight()

    assert expected.text.startswith("<|im_start|>system")
    assert weight_at(1) == QFont.Weight.Bold and weight_at(len("<|im_start|>s") + 1) != QFont.Weight.Bold
    assert "no BOS" in chat.warnings.text()  # the tokenizer adds <s> to plain text, the template writes none
    # edit a turn in the table: the rendering follows
    with qtbot.waitSignal(chat.rendered_changed, timeout=2000):
        chat.turns.item(0, 1).setText("Bye")
    assert "user\nBye<|im_end|>" in chat.rendered.toPlainText()
    # back to a tokenizer without a template: the text tab again
    panel.set_tokenizer(open_tokenizer(folders["none"]).tokenizer)
    assert panel.pages.currentWidget() is panel.splitter and not panel.mode.isTabVisible(CHAT_TAB)


def test_a_refusing_template_and_split_specials_are_listed(panel, folders, qtbot):
    state, panel = panel
    panel.set_tokenizer(open_tokenizer(folders["gemma"]).tokenizer)
    panel.show_chat()
    chat = panel.chat
    chat.set_messages([{"role": "system", "content": "x"}, {"role": "user", "content": "y"}])
    chat.render()
    assert "System role not supported" in chat.warnings.text() and chat.rendered.toPlainText() == ""
    panel.set_tokenizer(open_tokenizer(folders["split"]).tokenizer)
    chat.set_messages([{"role": "user", "content": "y"}])
    chat.render()
    assert "split into pieces" in chat.warnings.text()


def test_the_vocabulary_marks_added_tokens_with_their_flags(qtbot, folders):
    tok = open_tokenizer(folders["qwen"]).tokenizer
    model = VocabModel()
    model.set_tokenizer(tok)
    while model.canFetchMore():
        model.fetchMore()
    rows = {model.index(r, 0).data(): r for r in range(model.rowCount())}
    eos = rows[str(tok.token_to_id("</s>"))]
    tip = model.index(eos, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert "added token (special)" in tip and "eos_token" in tip
    assert model.index(eos, 1).data(Qt.ItemDataRole.ForegroundRole) is not None  # dark, as special
    plain = rows[str(tok.token_to_id("Hello") or 300)]
    assert model.index(plain, 1).data(Qt.ItemDataRole.FontRole) is None
    assert model.index(plain, 1).data(Qt.ItemDataRole.ToolTipRole).count("\n") == 1  # no flags line
