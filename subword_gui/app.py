"""``subword-explorer``: launch the desktop explorer, or render a screenshot of it and exit.

    $ subword-explorer                                   # the bundled sample corpus, ready to train
    $ subword-explorer reviews.txt                       # a corpus, word-count file or tokenizer
    $ QT_QPA_PLATFORM=offscreen subword-explorer --screenshot docs/training.png \\
          --train bpe:2000 --cut 900 --text "철수는 치킨을 먹고 있다" --panel training

With ``--screenshot`` the steps run in order (open the corpus, train to the
end, cut the vocabulary with the slider, type the text into the segmentation
panel, raise the panel), then the
whole window is saved as a PNG and the program exits 0 (1 with a message on
stderr if a step failed). Screenshots use fresh settings, so they do not
depend on (or change) the user's saved layout.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from core import __version__

STEP_TIMEOUT_S = 600.0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="subword-explorer", description="Train, inspect and compare subword tokenizers."
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument(
        "--install-desktop-entry",
        action="store_true",
        help="add Subword Explorer to the desktop's application menu (Linux) and exit",
    )
    p.add_argument("file", nargs="?", help="a corpus, word-count file or tokenizer to open")
    p.add_argument("--corpus", help="a corpus text file to open")
    p.add_argument("--counts", help="a word<TAB>count file to open")
    p.add_argument(
        "--train", metavar="ALGORITHM:VOCAB", help="train, e.g. bpe:2000, unigram:4000, wordpiece:3000"
    )
    p.add_argument("--cut", type=int, metavar="K", help="after training, move the vocab-size slider to K")
    p.add_argument("--text", help="text to type into the segmentation panel")
    p.add_argument(
        "--panel",
        help="panel to raise: corpus, training, vocab, segmentation, vocabulary, compare; or samples "
        "(the Segmentation panel's Samples tab)",
    )
    p.add_argument(
        "--screenshot", metavar="OUT.png", help="save a PNG of the window after the steps, then exit"
    )
    p.add_argument("--size", default="1400x900", help="window size for --screenshot (default 1400x900)")
    p.add_argument(
        "--language",
        choices=["en", "ko"],
        help="interface language for this run (default: View › Language, else the system locale)",
    )
    p.add_argument(
        "--theme",
        choices=("system", "light", "dark"),
        help="colour theme (default: as last chosen in View › Theme)",
    )
    return p


def _parse_train(spec: str):
    from core.errors import ConfigError
    from core.options import TrainOptions

    algo, _, size = spec.partition(":")
    try:
        vocab = int(size.replace(",", "").replace("_", ""))
    except ValueError:
        raise ConfigError(f"--train wants ALGORITHM:VOCAB (e.g. bpe:2000), not {spec!r}") from None
    return TrainOptions(algorithm=algo.strip().lower(), vocab_size=vocab)


class StepFailed(Exception):
    pass


def _wait_for(app, done_signals, fail_signals, timeout_s: float = STEP_TIMEOUT_S):
    """Run the event loop until one of ``done_signals`` fires (returns its args) or a fail signal
    fires (raises StepFailed with its message)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    outcome: dict = {}

    def ok(*args):
        outcome.setdefault("ok", args)
        loop.quit()

    def bad(*args):
        outcome.setdefault("fail", " ".join(str(a) for a in args) or "failed")
        loop.quit()

    for s in done_signals:
        s.connect(ok)
    for s in fail_signals:
        s.connect(bad)
    QTimer.singleShot(int(timeout_s * 1000), lambda: bad("timed out"))
    loop.exec()
    for s in list(done_signals) + list(fail_signals):
        try:
            s.disconnect(ok if s in done_signals else bad)
        except (RuntimeError, TypeError):
            pass
    if "fail" in outcome and "ok" not in outcome:
        raise StepFailed(outcome["fail"])
    return outcome.get("ok")


def type_text(window, text: str) -> bool:
    """Put ``text`` into the segmentation panel's editor, as a user typing it would."""
    panel = window.segmentation_panel
    if panel is None:
        return False
    for name in ("set_text", "setText", "setPlainText"):
        if callable(getattr(panel, name, None)):
            getattr(panel, name)(text)
            return True
    from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

    for cls in (QPlainTextEdit, QTextEdit):
        for editor in panel.findChildren(cls):
            if not editor.isReadOnly():
                editor.setPlainText(text)
                return True
    return False


def run_steps(app, window, args) -> None:
    """Open, train, type and raise as the switches say (each step waits for the previous)."""
    from subword_gui.main_window import SAMPLE_CORPUS, detect_kind

    window.finish_startup()
    panel = window.corpus_panel
    corpus = args.corpus
    counts = args.counts
    if args.file:
        kind = detect_kind(args.file)
        if kind == "tokenizer":
            window.open_tokenizer(args.file)
            if window.last_error:
                raise StepFailed(window.last_error[1])
        elif kind == "counts":
            counts = counts or args.file
        else:
            corpus = corpus or args.file
    if counts:
        panel.open_word_counts(counts)
    elif corpus or args.train or not args.file:
        panel.open_text(corpus or str(SAMPLE_CORPUS))
    if panel.busy:
        # counting a large corpus takes a while: its progress is on the Corpus panel
        if args.file or args.corpus or args.counts:
            window.raise_panel("corpus")
        _wait_for(app, [panel.loaded], [panel.failed])
    if args.train:
        options = _parse_train(args.train)
        window.training_panel.set_options(options)
        tp = window.training_panel
        tp.train()
        _wait_for(app, [tp.training_finished], [tp.training_failed, tp.training_cancelled])
        if tp.job is not None and tp.job.running:  # the held-out curve, measured after training
            _wait_for(app, [tp.job.ended], [], timeout_s=300)
    if args.cut is not None:
        if window.state.full_tokenizer is None:
            raise StepFailed("--cut needs a model: add --train ALGORITHM:VOCAB or open a tokenizer")
        window.slider.set_vocab_size(args.cut)
    if args.text is not None and not type_text(window, args.text):
        print("subword-explorer: no segmentation panel to type into", file=sys.stderr)
    if args.panel == "samples":  # the Segmentation panel's Samples tab
        window.raise_panel("segmentation")
        window.segmentation_panel.show_samples()
    elif args.panel and not window.raise_panel(args.panel):
        raise StepFailed(f"no panel named {args.panel!r}; choose from {', '.join(window.docks)}")


def _settle(app, ms: int = 300) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


# Qt platform notices that say nothing to a user: the offscreen and minimal plugins
# cannot pass size hints to a window manager they do not have.
QUIET_QT_MESSAGES = ("This plugin does not support propagateSizeHints()",)


def _quiet_platform_notices() -> None:
    """Drop Qt's notices listed in QUIET_QT_MESSAGES; every other message goes to stderr."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if not message.startswith(QUIET_QT_MESSAGES):
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def no_display_message(environ=None, platform: str | None = None) -> str | None:
    """The one line to print when there is no display to open a window on, else None.

    Without a display (no ``DISPLAY`` nor ``WAYLAND_DISPLAY``, as over ssh or in a container)
    and with no platform chosen (``QT_QPA_PLATFORM``), Qt aborts in its xcb plugin with a
    message about ``libxcb-cursor0`` (exit 134) even when that library is installed.

    >>> no_display_message({}, "linux").startswith("subword-explorer: no display found")
    True
    >>> no_display_message({"DISPLAY": "localhost:10.0"}, "linux") is None
    True

    The same abort follows a ``DISPLAY`` of this machine on which no X server listens (a
    display that was closed, a stale variable): said as plainly.
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None  # macOS and Windows always have their own window system
    offscreen = "or without a window as QT_QPA_PLATFORM=offscreen subword-explorer --screenshot out.png [--train bpe:2000 ...]"
    if environ.get("WAYLAND_DISPLAY") or environ.get("QT_QPA_PLATFORM"):
        return None
    display = environ.get("DISPLAY")
    if display:
        if _local_x_server_missing(display):
            return f"subword-explorer: no display found (no X server listens on DISPLAY={display}): run it on a desktop, {offscreen}"
        return None
    return f"subword-explorer: no display found (DISPLAY and WAYLAND_DISPLAY are unset): run it on a desktop, {offscreen}"


def _local_x_server_missing(display: str, sockets: str = "/tmp/.X11-unix") -> bool:
    """Whether ``display`` names an X display of this machine (``:0``, ``:1.0``, ``unix:0``) on
    whose socket nothing listens; False for a display on another host (ssh's ``localhost:10.0``),
    which is not checked.

    >>> _local_x_server_missing("localhost:10.0")
    False
    """
    import re
    import socket

    found = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display)
    if found is None:
        return False
    path = f"{sockets}/X{found[1]}"
    # the socket's file, then the abstract name X servers on Linux also listen on
    for address in (path, "\0" + path):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            try:
                probe.connect(address)
            except OSError:
                continue
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.install_desktop_entry:
        missing = no_display_message()
        if missing is not None and args.screenshot:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a screenshot needs no screen
        elif missing is not None:
            print(missing, file=sys.stderr)
            return 2
    _quiet_platform_notices()
    if args.install_desktop_entry:
        from subword_gui.desktop import install_desktop_entry

        for path in install_desktop_entry():
            print(f"installed {path}")
        return 0
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from core.errors import SubwordError
    from core.morphemes import load_analysers_apart
    from subword_gui.language import chosen_language, install_translators
    from subword_gui.main_window import APP_NAME, MainWindow
    from subword_gui.style.theme import apply_theme

    app = QApplication.instance() or QApplication(sys.argv[:1])
    # Kiwi's loading holds the interpreter lock ~3 s in one piece: the window's analysers run apart
    load_analysers_apart()
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("SubwordExplorer")
    app.setDesktopFileName("subword-explorer")  # ties the window to the menu entry and its icon
    apply_theme(app)

    if args.screenshot:
        tmp = tempfile.TemporaryDirectory(prefix="subword-explorer-")
        settings = QSettings(str(Path(tmp.name) / "settings.ini"), QSettings.Format.IniFormat)
        install_translators(app, args.language or chosen_language(settings))
        if args.theme:
            settings.setValue("view/theme", args.theme)
        # its own data dir too: quitting a screenshot must not replace the user's kept run
        window = MainWindow(settings=settings, open_sample=False, data_dir=Path(tmp.name) / "data")
        try:
            w, h = (int(x) for x in args.size.lower().split("x"))
        except ValueError:
            w, h = 1400, 900
        window.resize(w, h)
        window._show_message_box = lambda title, message: None  # noqa: SLF001 - no dialogs in batch mode
        window._show_report = lambda *args, **kwargs: None  # noqa: SLF001
        window.show()
        try:
            run_steps(app, window, args)
        except (StepFailed, SubwordError) as exc:
            print(f"subword-explorer: {exc}", file=sys.stderr)
            window.training_panel.shutdown()
            return 1
        _settle(app)
        out = Path(args.screenshot)
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = window.grab().save(str(out))
        window.training_panel.shutdown()
        window.close()
        tmp.cleanup()
        if not ok:
            print(f"subword-explorer: could not write {out}", file=sys.stderr)
            return 1
        print(out)
        return 0

    install_translators(app, args.language or chosen_language())
    # subtle: a file named on the command line (or opened from the file manager) replaces the
    # last corpus, not the run history: without it, the next quit kept only this session's runs
    window = MainWindow(open_sample=not (args.file or args.corpus or args.counts), restore_runs=True)
    if args.theme:
        window.set_theme(args.theme)
    window.show()
    window.load_engine_beside()
    if args.file or args.corpus or args.counts or args.train or args.text or args.panel:
        from PySide6.QtCore import QTimer

        def later():
            reported = window.last_error
            try:
                run_steps(app, window, args)
            except (StepFailed, SubwordError) as exc:
                # a step the window already reported (a corpus that cannot be read) is not
                # reported again: the second box read "path path is not text"
                if window.last_error is reported:
                    window.report_error("Subword Explorer", str(exc))

        QTimer.singleShot(0, later)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
