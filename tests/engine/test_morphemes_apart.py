"""Analysers loaded apart (core.morphemes.load_analysers_apart): the explorer's analysers run in
processes of their own, so loading Kiwi (~3 s holding its process's interpreter lock) never
freezes the window. The cuts must be exactly the in-process ones, a failing child must be
reported in one line and replaced, and the process that asked must never load the analyser."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import morphemes
from core.errors import ConfigError, SubwordError
from core.morphemes import MorphemeSplit, analyser_languages, analysers_ready, start_analysers
from core.normalizers import normalizer_from_names
from core.pre_tokenizers import Metaspace, Sequence, Whitespace

TEXTS = {
    "ko": [
        "철수는 치킨을 먹고 볶음밥을 먹고 있다",
        "했어요 hello,world 👋🏽 안녕하세요!!",
        "ㅋㅋㅋ 진짜 웃겨요ㅠㅠ 2024년",
        "",
        "  두 칸  띄어  쓴  문장  ",
        "가" * 3000,
    ],
    "ja": ["吾輩は猫である。名前はまだ無い。", "東京タワーtower 123 ありがとう", "あ" * 5000, ""],
}


@pytest.fixture
def apart(monkeypatch):
    """Turn this process's analysers apart for the test (the children end with it)."""
    monkeypatch.setattr(morphemes, "_loaded", {})
    monkeypatch.setattr(morphemes, "_apart_pid", None)
    before = len(morphemes._children)

    def go() -> None:
        morphemes._loaded.clear()
        morphemes.load_analysers_apart()

    yield go
    for child in morphemes._children[before:]:
        child.close()


@pytest.mark.parametrize("language", ["ko", "ja"])
def test_an_analyser_apart_cuts_exactly_as_the_one_in_process(apart, language):
    pre = MorphemeSplit(language)
    jamo = normalizer_from_names("jamo")
    texts = TEXTS[language] + ([jamo.normalize_str(t) for t in TEXTS["ko"]] if language == "ko" else [])
    expected = [pre.pre_tokenize_str(t) for t in texts]
    assert not isinstance(morphemes._loaded[language], morphemes._Apart)
    apart()
    assert [pre.pre_tokenize_str(t) for t in texts] == expected
    assert isinstance(morphemes._loaded[language], morphemes._Apart)


@pytest.fixture(scope="module")
def korean_pair():
    """Kiwi in this process and Kiwi apart."""
    child = morphemes._Apart("ko")
    yield morphemes.analyser("ko"), child
    child.close()


@settings(max_examples=60, deadline=None)
@given(
    st.text(
        st.sampled_from("가나다철수는을먹고 있다했어ㅋㅠab1 .!👋🏽\u3000\u00a0\n\ud7a3\U00020000"),
        max_size=60,
    )
)
def test_any_text_gets_the_same_boundaries_apart(korean_pair, text):
    here, there = korean_pair
    assert not isinstance(here, morphemes._Apart)
    assert there.boundaries(text) == here.boundaries(text)


def test_the_languages_a_pipeline_needs():
    assert analyser_languages(Sequence([Whitespace(), MorphemeSplit("ko")])) == ["ko"]
    nested = Sequence([MorphemeSplit("ja"), Sequence([MorphemeSplit("ko"), MorphemeSplit("ja")])])
    assert analyser_languages(nested) == ["ja", "ko"]
    assert analyser_languages(Metaspace()) == [] and analyser_languages(None) == []


def test_a_child_that_cannot_load_is_reported_in_one_line_where_it_is_used(apart):
    apart()
    child = morphemes._Apart("xx")  # no such analyser: the child says why and ends
    assert child.ready.wait(60)
    with pytest.raises(ConfigError, match="the xx morpheme analyser could not load: KeyError"):
        child.boundaries("가")
    child.close()


def test_a_child_that_dies_is_reported_and_the_next_analysis_starts_another(apart):
    apart()
    pre = MorphemeSplit("ja")
    start_analysers(["ja"])
    first = morphemes._loaded["ja"]
    assert isinstance(first, morphemes._Apart)
    expected = pre.pre_tokenize_str("吾輩は猫である")
    assert analysers_ready(["ja"])
    first._proc.kill()
    first._proc.wait()
    with pytest.raises(SubwordError, match="the ja morpheme analyser's process"):
        pre.pre_tokenize_str("名前はまだ無い")
    assert "ja" not in morphemes._loaded
    assert pre.pre_tokenize_str("吾輩は猫である") == expected
    assert morphemes._loaded["ja"] is not first


def test_a_short_text_never_waits_behind_a_long_one(apart):
    """A helper thread's long line goes down a channel of its own, answered by a thread of its
    own, so the window's next short analysis is answered while the long one is under way."""
    apart()
    pre = MorphemeSplit("ja")
    long_line = "吾輩は猫である。名前はまだ無い。" * 20_000  # 320,000 characters: seconds of Sudachi
    expected_short = pre.pre_tokenize_str("吾輩は猫である")
    done: list[str] = []
    worker = threading.Thread(target=lambda: (pre.pre_tokenize_str(long_line), done.append("long")))
    worker.start()
    apart_ja = morphemes._loaded["ja"]
    deadline = time.monotonic() + 60
    while not apart_ja._long.lock.locked() and time.monotonic() < deadline:
        time.sleep(0.001)  # until the long one is under way
    assert apart_ja._long.lock.locked()
    assert pre.pre_tokenize_str("吾輩は猫である") == expected_short
    done.append("short")
    worker.join()
    assert done == ["short", "long"]
    assert morphemes._children[-1] is apart_ja  # one process (one copy of the model) for both


# A process that loads apart, as the explorer does: it starts the analyser, keeps running while
# it loads, and never imports the analyser itself.
APART = r"""
import sys, time
from core import morphemes
from core.pre_tokenizers import pre_tokenizer_from_name
morphemes.load_analysers_apart()
pre = pre_tokenizer_from_name("ko-morph")
morphemes.start_analysers(["ko"])
print("at-once", morphemes.analysers_ready(["ko"]))
while not morphemes.analysers_ready(["ko"]):
    time.sleep(0.01)
print("cuts", "/".join(pre.split_words("철수는 치킨을 먹고")))
print("here", "kiwipiepy" in sys.modules)
"""


def test_the_process_that_loads_apart_never_loads_the_analyser_itself():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", APART],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    said = [line.split() for line in out.stdout.splitlines()]
    # the golden cuts of the Korean lesson (Park et al. 2020): noun + particle, stem + ending
    assert said == [["at-once", "False"], ["cuts", "▁철수/는/▁치킨/을/▁먹/고"], ["here", "False"]]
