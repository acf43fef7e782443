"""Encode long lines on a helper thread, the latest request first, so typing never waits.

    >>> from PySide6.QtCore import QEventLoop
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> encoder, cache, loop = LineEncoder(), {}, QEventLoop()
    >>> _ = encoder.encoded.connect(lambda tok, text, line: (cache.update({text: line}), loop.quit()))
    >>> _ = encoder.failed.connect(loop.quit)
    >>> text = "hugs " * 20_000                  # 100,000 characters
    >>> encoder.request(hug_bpe, text)           # returns at once; ``encoded`` follows
    >>> loop.exec(); cache[text].encoding.tokens[:4]   # delivered by the GUI thread's event loop
    0
    ['hug', 's', 'hug', 's']

The Segmentation panel hands over every line of ``LONG_LINE`` characters or more
(a pasted 100,000-character word takes the engine seconds to encode). One thread
works through the requests; a request for a text already asked for is dropped,
and while one is being encoded only the newest waiting request per ``key`` (the
panel's line number) is kept, so a burst of keystrokes in a long word costs one
encoding after the one under way, not one per key. ``encoded(tokenizer, text,
line)`` arrives on the GUI thread; the receiver checks the tokenizer is still the
one shown.

Why a thread and not a worker process (as training uses): the tokenizer would
have to be pickled across for every model the slider shows, and the result back;
a thread shares both. It holds the interpreter lock while it encodes, so the GUI
thread's Python calls wait up to the switch interval each (1 ms while it works,
instead of Python's 5): slower, never frozen. The garbage collector is paused while
a line is encoded, and the line's objects are then frozen out of its sight: a full
collection over them (200-600 ms) would hold the lock, and the window, throughout.

Leaves out: cancelling an encoding under way (the engine has no cancellation
point inside ``encode``); its result is simply not used when it is stale.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict

from PySide6.QtCore import QObject, Signal

from subword_gui.background.beside import collector_paused, gui_first
from subword_gui.tokens.token_view import segment_line


class LineEncoder(QObject):
    """One helper thread encoding long lines into ``LineTokens``, newest request per key."""

    encoded = Signal(object, str, object)  # tokenizer, text, LineTokens
    failed = Signal(object, str, str)  # tokenizer, text, message

    def __init__(self, parent: QObject | None = None, prepare=None):
        """``prepare(tokenizer, line)``, if given, also runs on the helper thread once a line is
        encoded (the panel counts its tokens and builds its first chips there)."""
        super().__init__(parent)
        self._prepare = prepare
        self._lock = threading.Lock()
        self._waiting: OrderedDict[object, tuple[object, str]] = OrderedDict()  # key -> (tokenizer, text)
        self._running: tuple[object, str] | None = None
        self._thread: threading.Thread | None = None

    def request(self, tokenizer, text: str, key: object = None) -> None:
        """Encode ``text`` with ``tokenizer`` on the helper thread (replacing a request for ``key``
        that has not started yet)."""
        with self._lock:
            job = (tokenizer, text)
            if self._running is not None and self._running[0] is tokenizer and self._running[1] == text:
                return
            self._waiting.pop(key, None)
            self._waiting[key] = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="line-encoder", daemon=True)
                self._thread.start()

    def busy(self) -> bool:
        """Whether a request is waiting or being encoded."""
        with self._lock:
            return self._running is not None or bool(self._waiting)

    def forget(self) -> None:
        """Drop the requests not started yet (the tokenizer changed, or the text was replaced)."""
        with self._lock:
            self._waiting.clear()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._running = None
                    self._thread = None
                    return
                _key, job = self._waiting.popitem(last=False)
                self._running = job
            tokenizer, text = job
            try:
                # subtle: encoding a 100,000-character word makes hundreds of thousands of
                # objects; with the collector on, each of its full collections (hundreds of ms)
                # held the interpreter lock and froze the window. The objects are acyclic.
                with collector_paused(), gui_first():
                    line = segment_line(tokenizer, text)
                    line.starts()  # build the bisection table here, not on the GUI thread
                    if self._prepare is not None:
                        self._prepare(tokenizer, line)
                    # ... and once it is on again, its first collection would scan them all
                    # (100-300 ms): they are moved out of its sight, as big worker results are
                    # (refcounting still frees them when the line is dropped)
                    gc.freeze()
                result = ("encoded", (tokenizer, text, line))
            except Exception as e:  # noqa: BLE001 - reported to the panel, never lost in a thread
                result = ("failed", (tokenizer, text, f"{type(e).__name__}: {e}"))
            try:
                getattr(self, result[0]).emit(*result[1])
            except RuntimeError:  # the window closed while this line was being encoded
                return
