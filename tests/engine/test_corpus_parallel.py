"""Counting a large file with worker processes gives exactly the single-process counts.

The files here are small; the thresholds are lowered so that they are cut into
several byte ranges (``MIN_RANGE_BYTES`` of 64 bytes: dozens of ranges for a few KB).
Besides agreeing with ``workers=1``, the words are checked against an independent
reference: ``core.options.pre_tokenize_lines`` on the lines Python itself decodes.
"""

from __future__ import annotations

import codecs
import os
import re
from collections import Counter
from pathlib import Path

import pytest

import core.corpus_parallel as par
from core.corpus import count_words
from core.errors import ConfigError
from core.events import Progress, Warning_, drain
from core.options import TrainOptions, pre_tokenize_lines

LINES = [
    "철수는 치킨을 먹고 볶음밥을 먹고 있다",
    "영희는 학교에 갔다가 집에 왔다 👋🏽",
    "hug pug pun bun hugs",
    "",
    "  spaces   before and after  ",
    "\ufeff inside a line is text",
]


@pytest.fixture(autouse=True)
def small_ranges(monkeypatch):
    monkeypatch.setattr(par, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(par, "MIN_RANGE_BYTES", 64)


def both(path: Path, options=None, encoding="auto"):
    """(single-process counts, parallel counts, parallel warnings)."""
    single = drain(count_words(path, options, encoding, workers=1))
    events: list = []
    parallel = drain(count_words(path, options, encoding, workers=3), events.append)
    return single, parallel, [e.message for e in events if isinstance(e, Warning_)]


def assert_same(a, b) -> None:
    for name in ("words", "chars", "lines", "characters", "n_words", "replaced_bytes", "encoding", "preview"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.bytes_read == b.bytes_read


def reference_words(text: str, options) -> Counter:
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return Counter(pre_tokenize_lines(lines, options))


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe", "wordpiece", "unigram"])
def test_same_counts_as_one_process(tmp_path, line_end, algorithm):
    text = line_end.join(LINES * 40) + line_end
    path = tmp_path / "corpus.txt"
    path.write_bytes(codecs.BOM_UTF8 + text.encode("utf-8"))
    options = TrainOptions(algorithm)
    single, parallel, _ = both(path, options)
    assert_same(single, parallel)
    assert parallel.words == reference_words(text, options)
    assert parallel.lines == len(LINES) * 40


def test_parallel_counting_can_skip_the_character_counts(tmp_path):
    text = "\n".join(LINES * 40) + "\n"
    path = tmp_path / "corpus.txt"
    path.write_text(text, encoding="utf-8")
    single = drain(count_words(path, workers=1))
    parallel = drain(count_words(path, workers=3, characters=False))
    assert parallel.chars == {} and single.chars
    for name in ("words", "lines", "characters", "n_words"):
        assert getattr(parallel, name) == getattr(single, name), name


def test_byte_order_mark_only_at_the_start_of_the_file(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes(codecs.BOM_UTF8 + ("word\n" + "\ufeffword\n" * 299).encode("utf-8"))
    single, parallel, _ = both(path)
    assert_same(single, parallel)
    assert parallel.words == {"word": 1, "\ufeffword": 299}


def test_invalid_bytes_are_counted_once(tmp_path):
    good = "먹고 있다\n".encode()
    data = (good + b"bad \xe0\x80 byte\n" + good + b"cut \xed\n") * 100 + b"last line \xff"
    path = tmp_path / "corpus.txt"
    path.write_bytes(data)
    single, parallel, warnings = both(path)
    assert_same(single, parallel)
    decoded = data.decode("utf-8", "replace")
    # Every invalid sequence here is one byte long, so Python's U+FFFD count is the byte count.
    assert parallel.replaced_bytes == decoded.count("\ufffd") == 301
    assert parallel.words == Counter(decoded.split())
    assert len(warnings) == 1 and "301 invalid byte(s)" in warnings[0]


def test_cp949_file_is_detected_and_cut_safely(tmp_path):
    text = "\r\n".join(["철수는 치킨을 먹고", "영희는 학교에 갔다"] * 200) + "\r\n"
    path = tmp_path / "euc-kr.txt"
    path.write_bytes(text.encode("cp949"))
    single, parallel, _ = both(path)
    assert_same(single, parallel)
    assert parallel.encoding == "cp949"
    assert parallel.words == Counter(text.split())


def test_utf16_is_counted_in_one_process(tmp_path):
    text = "\n".join(LINES * 30) + "\n"
    path = tmp_path / "utf16.txt"
    path.write_bytes(text.encode("utf-16"))
    single, parallel, _ = both(path)
    assert_same(single, parallel)
    assert parallel.words == Counter(text.split())


def test_lone_carriage_returns_and_no_final_line_end(tmp_path):
    text = "\r".join(LINES * 30)
    path = tmp_path / "mac.txt"
    path.write_bytes(text.encode("utf-8"))
    single, parallel, _ = both(path)
    assert_same(single, parallel)
    assert parallel.lines == len(LINES) * 30


def test_several_files_big_and_small(tmp_path):
    paths = []
    for i, n in enumerate([200, 1, 50]):
        p = tmp_path / f"part{i}.txt"
        p.write_text("\n".join(LINES[i:] * n) + "\n", encoding="utf-8")
        paths.append(p)
    single, parallel, _ = both(paths, TrainOptions("unigram"))
    assert_same(single, parallel)


def test_progress_is_one_bar_in_bytes_up_to_the_total(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(LINES * 100) + "\n", encoding="utf-8")
    events: list = []
    drain(count_words(path, None, workers=2), events.append)
    progress = [e for e in events if isinstance(e, Progress)]
    assert {e.phase for e in progress} == {"count"}
    assert all(e.total == path.stat().st_size for e in progress)
    assert [e.done for e in progress] == sorted(e.done for e in progress)


def _children() -> set[int]:
    pid = os.getpid()
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(c) for c in (task / "children").read_text().split())
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_cancelling_stops_the_workers(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(LINES * 2000) + "\n", encoding="utf-8")
    before = _children()
    gen = count_words(path, None, workers=2)
    assert isinstance(next(gen), Progress)
    assert len(_children() - before) == 2
    gen.close()
    assert _children() == before


def test_split_at_line_ends(tmp_path, monkeypatch):
    monkeypatch.setattr(par, "MIN_RANGE_BYTES", 1)
    path = tmp_path / "corpus.txt"
    path.write_bytes(b"ab\ncd\nef\n")
    assert par.split_at_line_ends(path, 9, 2) == [(0, 6), (6, 9)]
    assert par.split_at_line_ends(path, 9, 9) == [(0, 3), (3, 6), (6, 9)]
    path.write_bytes(b"no line end at all")
    assert par.split_at_line_ends(path, 18, 4) == [(0, 18)]


def test_zero_workers_is_a_clear_error(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("hug\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="at least 1"):
        drain(count_words(path, None, workers=0))


def test_a_relative_path_is_counted_from_where_the_user_stands(tmp_path):
    """Workers start in the engine's folder: `subword count README.md` from another folder must
    count that folder's README.md, not the engine's own (before: the project's README was
    counted silently). Run as a new process standing in the corpus folder, as a user would."""
    import subprocess
    import sys

    data = tmp_path / "data"
    data.mkdir()
    (data / "README.md").write_text("zebra quokka\n" * 400, encoding="utf-8")
    program = (
        "import sys, core.corpus_parallel as par\n"
        "par.PARALLEL_MIN_BYTES, par.MIN_RANGE_BYTES = 0, 64\n"
        "from core.cli import main\n"
        "sys.exit(main(['count', 'README.md', '--workers', '2', '-o', 'counts.tsv', '-q']))\n"
    )
    root = str(Path(par.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=data, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    rows = dict(line.split("\t") for line in (data / "counts.tsv").read_text(encoding="utf-8").splitlines())
    assert {word: int(n) for word, n in rows.items() if not word.startswith("#")} == {
        "zebra": 400,
        "quokka": 400,
    }
