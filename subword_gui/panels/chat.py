"""The Segmentation panel's Chat tab: a conversation rendered with the tokenizer's chat template.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.tokenizer import AddedToken
    >>> from core.training import train_from_counts
    >>> chatml = drain(train_from_counts({"user": 3, "Hi": 2}, TrainOptions("bpe", vocab_size=20)))
    >>> for special in ("<|im_start|>", "<|im_end|>"):
    ...     chatml.add_token(AddedToken(special, chatml.vocab_size))
    >>> chatml.extra["chat_template"] = (        # ChatML, as Qwen's tokenizer_config.json has it
    ...     "{% for m in messages %}<|im_start|>{{ m.role }}\\n{{ m.content }}<|im_end|>\\n{% endfor %}"
    ...     "{% if add_generation_prompt %}<|im_start|>assistant\\n{% endif %}")
    >>> view = ChatView(); view.set_tokenizer(chatml); view.set_messages([{"role": "user", "content": "Hi"}])
    >>> view.render()                        # an edit renders after a short pause; this renders now
    >>> view.rendered.toPlainText()
    '<|im_start|>user\\nHi<|im_end|>\\n<|im_start|>assistant\\n'

Top to bottom: the turns (a table of role and content, rows added and removed with the
buttons), *add generation prompt* and the template to use (when there are several); the
rendered text coloured token by token as the Text tab colours it (``span_formats``: special
tokens dark and bold); the tokens as chips (the Text tab's strip); and the warnings of
:func:`core.chat.encode_chat`, or the template's one-line error. Rendering follows each edit
after a short pause, on the GUI thread: :mod:`core.chat` stops a template after 2 s.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.chat import ROLES, ChatTemplateError, chat_templates, encode_chat
from core.errors import SubwordError
from subword_gui.tokens.render import style_for
from subword_gui.tokens.token_view import TokenStrip, chips_for_lines, segment_line, span_formats

RENDER_DELAY_MS = 150
DEFAULT_CONVERSATION = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "안녕하세요! What does 토큰화 mean?"},
    {"role": "assistant", "content": "It means tokenization: cutting text into tokens."},
]


class ChatView(QWidget):
    """Turns in, the rendered and tokenized conversation out (see the module docstring)."""

    rendered_changed = Signal()  # text, tokens and warnings are up to date

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tokenizer = None
        self.chat = None  # the last core.chat.ChatEncoding
        self.error: str | None = None
        self._build()
        self._timer = QTimer(self, singleShot=True, interval=RENDER_DELAY_MS)
        self._timer.timeout.connect(self.render)
        self.set_messages(DEFAULT_CONVERSATION)

    def _build(self) -> None:
        self.turns = QTableWidget(0, 2)
        self.turns.setHorizontalHeaderLabels([self.tr("Role"), self.tr("Content")])
        self.turns.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.turns.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.turns.verticalHeader().setVisible(False)
        self.turns.itemChanged.connect(self._changed)
        self.add_turn = QPushButton(self.tr("Add turn"))
        self.add_turn.clicked.connect(self._add_turn)
        self.remove_turn = QPushButton(self.tr("Remove turn"))
        self.remove_turn.clicked.connect(self._remove_turn)
        self.generation_prompt = QCheckBox(self.tr("Add generation prompt"))
        self.generation_prompt.setChecked(True)
        self.generation_prompt.toggled.connect(self._changed)
        self.template = QComboBox()
        self.template.currentIndexChanged.connect(self._changed)
        self.template_label = QLabel(self.tr("Template:"))
        controls = QHBoxLayout()
        for w in (self.add_turn, self.remove_turn, self.generation_prompt):
            controls.addWidget(w)
        controls.addStretch(1)
        controls.addWidget(self.template_label)
        controls.addWidget(self.template)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.turns, 1)
        top_layout.addLayout(controls)

        self.rendered = QPlainTextEdit()
        self.rendered.setReadOnly(True)
        font = QFont(self.rendered.font())
        font.setPointSize(font.pointSize() + 2)
        self.rendered.setFont(font)
        self.strip = TokenStrip()
        self.strip_scroll = QScrollArea()
        self.strip_scroll.setWidget(self.strip)
        self.strip_scroll.setWidgetResizable(True)
        self.strip_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.summary = QLabel()
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.RichText)
        self.warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.summary)
        bottom_layout.addWidget(self.warnings)
        bottom_layout.addWidget(self.rendered, 3)
        bottom_layout.addWidget(self.strip_scroll, 2)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([220, 480])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    # -- public ------------------------------------------------------------------
    def set_tokenizer(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        names = list(chat_templates(tokenizer)) if tokenizer is not None else []
        self.template.blockSignals(True)
        self.template.clear()
        self.template.addItems(names)
        if "default" in names:
            self.template.setCurrentText("default")
        self.template.blockSignals(False)
        several = len(names) > 1
        self.template.setVisible(several)
        self.template_label.setVisible(several)
        self.render()

    def set_messages(self, messages: list[dict]) -> None:
        self.turns.blockSignals(True)
        self.turns.setRowCount(0)
        for m in messages:
            self._append_row(str(m.get("role", "user")), str(m.get("content", "")))
        self.turns.blockSignals(False)
        self._changed()

    def messages(self) -> list[dict]:
        out = []
        for row in range(self.turns.rowCount()):
            role, content = self.turns.cellWidget(row, 0), self.turns.item(row, 1)
            out.append(
                {"role": role.currentText() if role else "user", "content": content.text() if content else ""}
            )
        return out

    def render(self) -> None:
        """Render, encode and show now (edits call this after a pause)."""
        self._timer.stop()
        self.chat, self.error = None, None
        if self.tokenizer is None or not chat_templates(self.tokenizer):
            self._show(None, self.tr("This tokenizer has no chat template."))
            return
        name = self.template.currentText() or None
        try:
            self.chat = encode_chat(self.tokenizer, self.messages(), self.generation_prompt.isChecked(), name)
        except (ChatTemplateError, SubwordError) as e:
            self.error = str(e)
        self._show(self.chat, self.error)

    # -- internals ---------------------------------------------------------------
    def _append_row(self, role: str, content: str) -> None:
        row = self.turns.rowCount()
        self.turns.insertRow(row)
        combo = QComboBox()
        combo.setEditable(True)  # a template may know more roles (ipython, developer...)
        combo.addItems(list(ROLES))
        combo.setCurrentText(role)
        combo.currentTextChanged.connect(self._changed)
        self.turns.setCellWidget(row, 0, combo)
        self.turns.setItem(row, 1, QTableWidgetItem(content))

    def _add_turn(self) -> None:
        last = self.messages()[-1]["role"] if self.turns.rowCount() else "assistant"
        self._append_row("assistant" if last == "user" else "user", "")
        self._changed()

    def _remove_turn(self) -> None:
        row = self.turns.currentRow()
        if self.turns.rowCount() > 1:
            self.turns.removeRow(row if row >= 0 else self.turns.rowCount() - 1)
            self._changed()

    def _changed(self, *_) -> None:
        self._timer.start()

    def _show(self, chat, error: str | None) -> None:
        self.rendered.setPlainText(chat.text if chat is not None else "")
        if chat is None:
            self.strip.set_chips([])
            self.summary.setText("")
            self.warnings.setText(f"<span style='color:#D7191C'><b>{html.escape(error or '')}</b></span>")
            self.rendered_changed.emit()
            return
        line = segment_line(self.tokenizer, chat.text, encoded=(chat.encoding, []))
        cursor = QTextCursor(self.rendered.document())
        for start, length, fmt in span_formats(line):
            cursor.setPosition(line.to_qt(start))
            cursor.setPosition(line.to_qt(start + length), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(_loud(fmt) if _is_special(line, start) else fmt)
        chips, _ = chips_for_lines([line], style_for(self.tokenizer))
        self.strip.set_chips(chips)
        specials = sum(line.special)
        self.summary.setText(
            self.tr(
                "{template} template: {chars:,} characters, {tokens:,} tokens, {specials:,} special"
            ).format(
                template=chat.template_name,
                chars=len(chat.text),
                tokens=len(chat.encoding.ids),
                specials=specials,
            )
        )
        if chat.warnings:
            items = "".join(f"<li>{html.escape(w)}</li>" for w in chat.warnings)
            title = self.tr("Warnings")
            self.warnings.setText(f"<span style='color:#B35806'><b>{title}</b><ul>{items}</ul></span>")
        else:
            self.warnings.setText(self.tr("No warnings."))
        self.rendered_changed.emit()


def _is_special(line, start: int) -> bool:
    found = line.covering(start)
    return bool(found) and line.special[found[0]]


def _loud(fmt: QTextCharFormat) -> QTextCharFormat:
    loud = QTextCharFormat(fmt)
    loud.setFontWeight(QFont.Weight.Bold)
    return loud
