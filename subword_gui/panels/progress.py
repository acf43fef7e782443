"""A progress bar that repaints with the rest of the window, never on its own.

    >>> bar = ProgressBar(); bar.setRange(0, 1000)
    >>> bar.setValue(500)      # returns at once; the bar is painted on the next paint of the window

Why: ``QProgressBar.setValue`` repaints *synchronously* whenever the new value moves
the bar by a pixel, and a synchronous repaint paints everything else waiting to be
painted in the window as well (the merge log with the rows just inserted, the plot).
Called from the slot that receives a batch of training events, that made one
event-loop turn do the batch and a whole-window paint: 100-160 ms on a busy machine.
Here the new value only schedules a paint (``update``), which Qt does in a turn of
its own, merged with the window's other updates.
"""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar


class ProgressBar(QProgressBar):
    def setValue(self, value: int) -> None:  # noqa: N802 (Qt's name)
        if value == self.value():
            return
        # with updates disabled QProgressBar skips its repaint(); enabling them again
        # schedules an ordinary update()
        self.setUpdatesEnabled(False)
        try:
            super().setValue(value)
        finally:
            self.setUpdatesEnabled(True)
