"""The explorer says at once what is wrong with a FIFO or a device, and never hangs on one."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QFileDialog

WAIT_MS = 15_000


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_opening_a_special_file_as_corpus_is_one_clear_line(qtbot, window, monkeypatch, tmp_path, kind):
    path = tmp_path / "corpus.txt"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would block until someone writes
    else:
        path = "/dev/zero"  # reading it would never end
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    with qtbot.waitSignal(window.error_reported, timeout=WAIT_MS) as blocker:
        window.open_corpus_action.trigger()
    title, message = blocker.args
    expected = "named pipe (FIFO)" if kind == "fifo" else "character device"
    assert expected in message and "not a text file" in message and "Errno" not in message


def test_saving_over_proc_version_names_the_file_not_a_temp_file(qtbot, window, tmp_path):
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    tok = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=8)))
    with qtbot.waitSignal(window.error_reported, timeout=WAIT_MS) as blocker:
        assert window._write_tokenizer(tok, "/proc/version", "hf-json", None, []) is False
    message = blocker.args[1]
    assert (
        message.startswith("cannot write /proc/version: ")
        and ".tmp" not in message
        and "Errno" not in message
    )
