"""Seconds from opening a corpus in the explorer to its training's first merge (issue 29, item 5).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_open_and_train.py big.txt [--launches 2]

Each launch is a new window (offscreen) over the same cache folder: open the file in the Corpus
panel, wait for its counts, press Train (BPE, 8,000), wait for the first merge, cancel. The first
launch starts with an empty cache; later ones show what a relaunch costs. Settings, data and cache
live in a temporary folder.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--launches", type=int, default=2)
    parser.add_argument("--vocab-size", type=int, default=8000)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="bench-open-train-")
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[name] = os.path.join(home, name.lower())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from core.options import TrainOptions
    from subword_gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    settings = QSettings(os.path.join(home, "explorer.ini"), QSettings.Format.IniFormat)
    keyword = {"cache_dir": os.path.join(home, "cache")}
    if "cache_dir" not in inspect.signature(MainWindow).parameters:  # before the counts were kept
        keyword = {}

    def wait_until(done, timeout_s: float = 1800) -> None:
        end = time.monotonic() + timeout_s
        loop = QEventLoop()
        while not done():
            if time.monotonic() > end:
                raise TimeoutError
            QTimer.singleShot(20, loop.quit)
            loop.exec()

    for launch in range(1, args.launches + 1):
        window = MainWindow(
            settings=settings, open_sample=False, data_dir=os.path.join(home, "data"), **keyword
        )
        window._show_message_box = lambda title, message: print(f"  message: {title}: {message}")
        window.show()
        loaded: list = []
        window.corpus_panel.loaded.connect(loaded.append)
        panel = window.training_panel
        start = time.monotonic()
        window.corpus_panel.open_text(str(Path(args.corpus)))
        wait_until(lambda loaded=loaded: bool(loaded))
        opened = time.monotonic()
        panel.set_options(TrainOptions("bpe", vocab_size=args.vocab_size))
        window.train_action.trigger()
        wait_until(lambda panel=panel: panel.merge_model.rowCount() > 0)
        first_merge = time.monotonic()
        panel.cancel()
        wait_until(lambda panel=panel: not panel.busy, 30)
        panel.shutdown()
        window.close()
        print(
            f"launch {launch}: open {opened - start:.1f} s, Train to first merge {first_merge - opened:.1f} s, "
            f"total {first_merge - start:.1f} s  (load average {os.getloadavg()[0]:.1f})",
            flush=True,
        )
        del window
    app.processEvents()


if __name__ == "__main__":
    main()
