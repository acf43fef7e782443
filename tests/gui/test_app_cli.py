"""``subword-explorer`` switches: --screenshot renders the window with the steps done and exits 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from subword_gui.app import _parse_train, main

from .conftest import make_lines


def run_app(*args: str, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "subword_gui.app", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def distinct_colours(image: QImage, step: int = 7) -> int:
    return len(
        {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}
    )


def test_screenshot_after_training_and_typing(tmp_path, small_corpus):
    out = tmp_path / "shots" / "training.png"
    done = run_app(
        "--screenshot",
        str(out),
        "--corpus",
        str(small_corpus),
        "--train",
        "bpe:120",
        "--text",
        "철수는 치킨을 먹고 있다",
        "--panel",
        "training",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "propagateSizeHints" not in done.stderr  # Qt's offscreen notice means nothing to a user
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)
    assert distinct_colours(image) > 20  # a drawn window, not a blank rectangle
    # the run it trained is not kept as the user's last run (conftest points XDG_DATA_HOME here)
    assert not (tmp_path / "xdg-data").exists()


def test_screenshot_of_a_word_count_file_given_as_file(tmp_path):
    counts = tmp_path / "hug.tsv"
    counts.write_text("hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n", encoding="utf-8")
    out = tmp_path / "corpus.png"
    done = run_app(
        str(counts), "--screenshot", str(out), "--panel", "corpus", "--size", "1200x860", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (QImage(str(out)).width(), QImage(str(out)).height()) == (1200, 860)


def test_bad_switches_fail_with_a_message(tmp_path, small_corpus):
    out = tmp_path / "x.png"
    done = run_app(
        "--screenshot", str(out), "--corpus", str(small_corpus), "--train", "bpe:lots", cwd=tmp_path
    )
    assert done.returncode == 1 and "ALGORITHM:VOCAB" in done.stderr and not out.exists()
    done = run_app("--screenshot", str(out), "--corpus", str(tmp_path / "missing.txt"), cwd=tmp_path)
    assert done.returncode == 1 and "missing.txt" in done.stderr and not out.exists()
    done = run_app(
        "--screenshot", str(out), "--corpus", str(small_corpus), "--panel", "nowhere", cwd=tmp_path
    )
    assert done.returncode == 1 and "nowhere" in done.stderr


def test_parse_train():
    opts = _parse_train("unigram:8,000")
    assert (opts.algorithm, opts.vocab_size) == ("unigram", 8000)


def test_main_in_process_screenshot(qapp, tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(make_lines(60)), encoding="utf-8")
    out = tmp_path / "inproc.png"
    assert (
        main(
            [
                "--screenshot",
                str(out),
                "--corpus",
                str(corpus),
                "--train",
                "bpe:90",
                "--cut",
                "80",
                "--panel",
                "vocab",
            ]
        )
        == 0
    )
    assert QImage(str(out)).width() == 1400


def test_cut_without_a_model_fails(qapp, tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(make_lines(30)), encoding="utf-8")
    out = tmp_path / "cut.png"
    assert main(["--screenshot", str(out), "--corpus", str(corpus), "--cut", "50"]) == 1
    assert "--cut needs a model" in capsys.readouterr().err and not out.exists()


def _without_display() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(name, None)
    return env


def test_without_a_display_one_line_says_so_and_how_to_run_offscreen(tmp_path):
    """The launcher aborted with Qt's xcb message about libxcb-cursor0 (exit 134) (issue 29, item 8)."""
    done = subprocess.run(
        [sys.executable, "-m", "subword_gui.app"],
        cwd=tmp_path,
        env=_without_display(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "no display found" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]
    assert "--screenshot" in lines[0] and "xcb" not in done.stderr


def test_python_dash_m_subword_gui_launches_and_says_there_is_no_display(tmp_path):
    """``python -m subword_gui`` failed: the package had no __main__.py (issue 29, item 8)."""
    env = _without_display()
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])  # this tree's package, from tmp_path
    done = subprocess.run(
        [sys.executable, "-m", "subword_gui"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "no display found" in done.stderr and "QT_QPA_PLATFORM=offscreen" in done.stderr


def test_a_display_on_which_no_x_server_listens_is_said_as_plainly(tmp_path):
    """Seen when a real window's X server had not started yet: with ``DISPLAY=:143`` set but
    nothing listening, Qt aborted (exit 134) asking for libxcb-cursor0, which is installed."""
    env = _without_display()
    env["DISPLAY"] = ":9731"  # (no X server on this machine has that number)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])  # this tree's package, from tmp_path
    done = subprocess.run(
        [sys.executable, "-m", "subword_gui.app"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display found" in lines[0] and "DISPLAY=:9731" in lines[0], done.stderr
    assert "QT_QPA_PLATFORM=offscreen" in lines[0] and "xcb" not in done.stderr


def test_a_local_display_with_a_listening_server_is_taken(tmp_path):
    import socket

    from subword_gui.app import _local_x_server_missing

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / "X7"))
    server.listen(1)
    try:
        assert not _local_x_server_missing(":7", sockets=str(tmp_path))
        assert not _local_x_server_missing(":7.0", sockets=str(tmp_path))
        assert _local_x_server_missing(":8", sockets=str(tmp_path))
    finally:
        server.close()


def test_a_screenshot_without_a_display_renders_offscreen(tmp_path):
    counts = tmp_path / "words.tsv"
    counts.write_text("hug\t10\npug\t5\n", encoding="utf-8")
    out = tmp_path / "shot.png"
    done = subprocess.run(
        [sys.executable, "-m", "subword_gui.app", str(counts), "--screenshot", str(out)],
        cwd=tmp_path,
        env=_without_display(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert out.is_file()
