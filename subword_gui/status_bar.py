"""The main window's status bar: a message too long for it is elided in the middle, never clipped.

    >>> bar = StatusBar(); bar.resize(300, 24)     # a narrow window
    >>> message = "Cannot open /home/me/corpora/2024/ko-wiki-2024.txt: no such file or folder"
    >>> bar.showMessage(message)
    >>> shown = bar.shown_text()          # what the bar draws: start and end kept
    >>> shown.startswith("Cannot open /home/"), "…" in shown, shown.endswith("such file or folder")
    (True, True, True)
    >>> len(shown) < len(message), bar.currentMessage() == message
    (True, True)
    >>> bar.toolTip()                     # the whole message, wrapped, on hovering the bar
    '<p>Cannot open /home/me/corpora/2024/ko-wiki-2024.txt: no such file or folder</p>'
    >>> bar.resize(1280, 24); bar.shown_text() == message       # room for it all: not elided
    True

Qt's status bar draws a timed message on one line and cuts what does not fit at the
right edge, so the end of an opened file's warnings or of a failure (usually the reason)
could not be read. Here the message keeps its start and its end with "…" in the middle
(most long messages are long because of a path, which sits in the middle), and the
bar's tooltip holds the whole text, wrapped as a paragraph. ``currentMessage()`` is
still the whole message. A failure line (:class:`ElidedLabel`) is elided the same way
and keeps its whole text as its own tooltip.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QStatusBar, QStyle, QStyleOption, QWidget

MARGIN = 6  # where QStatusBar draws a message from either edge


def wrapped_tooltip(text: str) -> str:
    """``text`` as a tooltip Qt wraps (rich text wraps; plain text stays one line as wide as
    the screen): ``"a < b"`` -> ``"<p>a &lt; b</p>"``; empty stays empty."""
    return f"<p>{html.escape(text)}</p>" if text else ""


def elide_middle(metrics: QFontMetrics, text: str, width: int) -> str:
    """``text`` elided in the middle to at most ``width`` pixels as ``metrics`` measures it.

    Qt's ``elidedText`` measures in fractional pixels and can return a text one pixel wider
    than ``horizontalAdvance`` (which rounds) says fits (772 for 771 on CI's fonts): its last
    pixel would be clipped. Elide again, a pixel narrower each time, until it fits.
    """
    room = width
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, room)
    while room > 0 and metrics.horizontalAdvance(shown) > width:
        room -= 1
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, room)
    return shown


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self.messageChanged.connect(self._on_message)

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 (Qt's name)
        self._permanent.append(widget)
        super().addPermanentWidget(widget, stretch)

    def _on_message(self, text: str) -> None:
        self.setToolTip(wrapped_tooltip(text))

    def message_width(self) -> int:
        """The room for a message: from the left margin to the first permanent widget shown."""
        right = self.width() - 2 * MARGIN
        for w in self._permanent:
            if w.isVisible():
                right = min(right, w.x() - 2)
        return max(0, right - MARGIN)

    def shown_text(self) -> str:
        """The current message as the bar draws it: whole if it fits, else elided in the middle."""
        return elide_middle(self.fontMetrics(), self.currentMessage(), self.message_width())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self.currentMessage():
            super().paintEvent(event)
            return
        # QStatusBar's own painting, with the message elided instead of clipped
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        for w in self._permanent:
            if w.isVisible():
                option.rect = w.geometry().adjusted(-1, -1, 1, 1)
                self.style().drawPrimitive(
                    QStyle.PrimitiveElement.PE_FrameStatusBarItem, option, painter, self
                )
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            MARGIN,
            0,
            self.message_width(),
            self.height(),
            int(Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine),
            self.shown_text(),
        )


class ElidedLabel(QLabel):
    """A one-line label that gives up width rather than widening the window: text that does
    not fit is elided in the middle; the whole text is its tooltip (set by the caller)."""

    def minimumSizeHint(self):  # noqa: N802 (Qt's name)
        hint = super().minimumSizeHint()
        hint.setWidth(0)
        return hint

    def shown_text(self) -> str:
        return elide_middle(self.fontMetrics(), self.text(), self.contentsRect().width())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self.contentsRect(),
            int(Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine),
            self.shown_text(),
        )
