"""Corpus and model paths that are not regular files get one clear line, at once (never a hang)."""

from __future__ import annotations

import os
import socket

import pytest

from core.corpus import count_words, read_word_counts
from core.errors import CorpusError, FormatError
from core.events import drain
from core.formats.detect import open_tokenizer


@pytest.fixture(params=["fifo", "socket", "device", "folder"])
def special(request, tmp_path):
    path = tmp_path / request.param
    if request.param == "fifo":
        os.mkfifo(path)
        yield path, "named pipe"
    elif request.param == "socket":
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(path))
        yield path, "socket"
        s.close()
    elif request.param == "device":
        yield "/dev/zero", "character device"
    else:
        path.mkdir()
        yield path, "directory"


def test_a_corpus_that_is_not_a_file_is_refused_before_opening(special):
    # subtle: opening the FIFO would block this test forever; pytest's own timeout is not needed
    path, kind = special
    with pytest.raises(CorpusError, match=f"{kind}.*, not a text file"):
        drain(count_words(path))
    with pytest.raises(CorpusError, match=kind):
        read_word_counts(path)


def test_a_model_path_that_is_a_special_file_is_refused(special):
    path, kind = special
    if kind == "directory":
        with pytest.raises(FormatError, match="no tokenizer found"):
            open_tokenizer(path)
        return
    with pytest.raises(FormatError, match=f"{kind}.*, not a tokenizer file"):
        open_tokenizer(path)
    with pytest.raises(FormatError, match=kind):
        open_tokenizer(path, format="hf-json")


def test_a_fifo_named_like_a_model_file_in_a_folder_is_not_opened(tmp_path):
    os.mkfifo(tmp_path / "tokenizer.json")
    with pytest.raises(FormatError, match="no tokenizer found"):
        open_tokenizer(tmp_path)
