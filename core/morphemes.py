"""Morpheme-aware pre-tokenization for Korean (``ko-morph``) and Japanese (``ja-morph``).

One verb, as every pre-tokenizer: ``pre_tokenize(NormalizedString) -> list[NormalizedString]``.
A real morphological analyser cuts each word into morphemes, so a model trained
on the pieces never learns a token that crosses a morpheme boundary (Park et al.
2020, "An Empirical Study of Tokenization Strategies for Various Korean NLP
Tasks", found BPE inside morphemes beat plain BPE on most tasks):

    >>> MorphemeSplit("ko").split_words("철수는 치킨을 먹고")
    ['▁철수', '는', '▁치킨', '을', '▁먹', '고']

**Word boundaries** are kept as SentencePiece and the ``metaspace`` pre-tokenizer
keep them: spaces become ``▁`` and each word's *first* piece starts with it;
morphemes inside a word carry no mark. The ``Metaspace`` decoder therefore
restores the spaces (``▁철수 는 ▁치킨 을`` -> ``철수는 치킨을``), and a
morpheme-aware model differs from a ``metaspace`` one only by the extra cuts.

**Offsets are exact**: pieces are slices of the text, never the analyser's
lemmas. Kiwi analyses 했 as 하 + 었; both share the one character, so no cut
falls there and 했 stays whole. A cut is made only where both neighbours are
non-space and one of them is in the language's script (Hangul for ``ko``; kana,
kanji and ``ー々`` for ``ja``), so text in other scripts (``hello,world``,
emoji, digits) passes through exactly as ``metaspace`` cuts it.

**Jamo**: after the ``jamo`` normalizer the text is conjoining jamo, which the
analysers do not read; the analyser is shown the text recomposed into
syllables (:func:`core.hangul.compose_spans`) and its cuts mapped back.

Analysers (runtime dependencies, see the README; nothing downloads at run time):

- ``ko``: kiwipiepy, whose model ships as the ``kiwipiepy_model`` package;
- ``ja``: SudachiPy with ``sudachidict_core``, split mode A (the shortest units).

Each process loads its analyser once, on first use (about three seconds for Kiwi,
its first analysis included). A process with a window to keep alive calls
:func:`load_analysers_apart` first: its analysers then run in child processes of
their own, loaded beside it (:func:`start_analysers`, :func:`analysers_ready`),
because Kiwi's loading holds the interpreter lock in one piece for 1.4-1.8 s.

If a package is missing, building the pre-tokenizer raises a ConfigError that
says which package to install.

Leaves out: part-of-speech tags (only the cuts are used), user dictionaries,
and `tokenizers` compatibility (it has no analyser; see ``core.formats.detect``).
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from core.errors import ConfigError, SubwordError
from core.hangul import compose_spans, is_conjoining_jamo, is_hangul
from core.lifeline import started_from_main_thread
from core.pre_tokenizers import Metaspace
from core.text import NormalizedString

# language -> (import name, what to install, what the analyser is called in messages)
ANALYSERS: dict[str, tuple[str, str, str]] = {
    "ko": ("kiwipiepy", "pip install kiwipiepy kiwipiepy_model", "kiwipiepy (Kiwi)"),
    "ja": ("sudachipy", "pip install sudachipy sudachidict_core", "SudachiPy (core dictionary)"),
}
# subtle: Sudachi refuses inputs over 49,149 bytes; longer lines are analysed in
# pieces of this many characters, cut after 。 or a space when there is one.
_JA_CHUNK_CHARS = 4000


def _is_japanese(c: str) -> bool:
    o = ord(c)
    return (
        0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0x31F0 <= o <= 0x31FF
        or 0xFF66 <= o <= 0xFF9F  # half-width katakana
        or 0x4E00 <= o <= 0x9FFF  # CJK ideographs
        or 0x3400 <= o <= 0x4DBF
        or 0xF900 <= o <= 0xFAFF
        or 0x20000 <= o <= 0x3134F
        or c in "々〆ヶ"
    )


_SCRIPT = {"ko": is_hangul, "ja": _is_japanese}


def in_script(language: str, c: str) -> bool:
    """Whether ``c`` is in the script ``language``'s analyser cuts (Hangul for ``ko``; kana,
    kanji and ``ー々`` for ``ja``): a morpheme boundary is looked for only beside one.

    >>> in_script("ko", "철"), in_script("ja", "猫"), in_script("ko", "a")
    (True, True, False)
    """
    return _SCRIPT[language](c)


class _Kiwi:
    def __init__(self) -> None:
        from kiwipiepy import Kiwi

        self._kiwi = Kiwi()  # one thread: the corpus counter runs processes, not threads

    def another(self) -> _Kiwi:
        """One to use from a second thread at the same time: this one (Kiwi's analysis is
        read-only; kiwipiepy's own worker threads share one model the same way)."""
        return self

    def boundaries(self, text: str) -> set[int]:
        out: set[int] = set()
        for t in self._kiwi.tokenize(text):
            out.add(t.start)
            out.add(t.start + t.len)
        return out


class _Sudachi:
    def __init__(self) -> None:
        from sudachipy import Dictionary, SplitMode

        dictionary = Dictionary(dict="core")
        # SudachiPy 0.7 renamed create() to tokenizer() (and deprecated the old name)
        make = getattr(dictionary, "tokenizer", None)
        self._tok = make(mode=SplitMode.A) if make is not None else dictionary.create(SplitMode.A)
        self._dictionary = dictionary

    def another(self) -> _Sudachi:
        """One to use from a second thread at the same time: a tokenizer of its own over the
        same dictionary (a Sudachi tokenizer keeps state between calls)."""
        twin = object.__new__(_Sudachi)
        make = getattr(self._dictionary, "tokenizer", None)
        from sudachipy import SplitMode

        twin._dictionary = self._dictionary
        twin._tok = make(mode=SplitMode.A) if make is not None else self._dictionary.create(SplitMode.A)
        return twin

    def boundaries(self, text: str) -> set[int]:
        out: set[int] = set()
        start = 0
        while start < len(text):
            end = min(len(text), start + _JA_CHUNK_CHARS)
            if end < len(text):
                cut = max(text.rfind("。", start, end), text.rfind(" ", start, end))
                if cut > start:
                    end = cut + 1
            for m in self._tok.tokenize(text[start:end]):
                out.add(start + m.begin())
                out.add(start + m.end())
            start = end
        return out


class _Cutter(Protocol):  # what analyses: an analyser, or one apart
    def boundaries(self, text: str) -> set[int]: ...


class _Analyser(_Cutter, Protocol):
    def another(self) -> _Analyser: ...


_LOADERS: dict[str, Callable[[], _Analyser]] = {"ko": _Kiwi, "ja": _Sudachi}
_loaded: dict[str, _Cutter] = {}
_lock = threading.Lock()


def check_analyser(language: str) -> None:
    """Raise a ConfigError naming the package to install if ``language``'s analyser is missing."""
    import importlib.util

    module, install, name = ANALYSERS[language]
    missing = [m for m in (module, "kiwipiepy_model" if language == "ko" else "sudachidict_core")]
    if any(importlib.util.find_spec(m) is None for m in missing):
        raise ConfigError(
            f"the {language}-morph pre-tokenizer needs the {name} analyser, which is not installed: {install}"
        )


def analyser(language: str) -> _Cutter:
    """The process's analyser for ``language``, loaded on first use (started, if apart)."""
    found = _loaded.get(language)
    if found is None:
        with _lock:
            found = _loaded.get(language)
            if found is None:
                check_analyser(language)
                apart = _apart_pid == os.getpid()
                found = _loaded[language] = _Apart(language) if apart else _LOADERS[language]()
    return found


# -- analysers in processes of their own --------------------------------------------------
# The process that asked for them; a child it spawns (a training job) loads its own in-process.
_apart_pid: int | None = None


def load_analysers_apart() -> None:
    """From now on, this process's analysers run in child processes of their own.

    For a process that must never stop answering (the explorer): loading Kiwi holds the
    interpreter lock for 1.4-1.8 s in one piece, and its first analysis another ~1.5 s, so
    no helper thread could keep a window painting meanwhile. Apart, each analysis is one
    round trip down a pipe (its wait releases the lock), and the cuts are the same.
    """
    global _apart_pid
    _apart_pid = os.getpid()


def analysers_apart() -> bool:
    """Whether this process's analysers run in processes of their own."""
    return _apart_pid == os.getpid()


def analyser_languages(pre_tokenizer) -> list[str]:
    """The languages whose analyser ``pre_tokenizer`` (or a Sequence holding it) uses.

    >>> from core.pre_tokenizers import Sequence, Whitespace
    >>> analyser_languages(Sequence([Whitespace(), MorphemeSplit("ko")]))
    ['ko']
    """
    found: list[str] = []
    for p in getattr(pre_tokenizer, "pre_tokenizers", None) or [pre_tokenizer]:
        if p is not pre_tokenizer:
            found += [lang for lang in analyser_languages(p) if lang not in found]
        elif isinstance(p, MorphemeSplit) and p.language not in found:
            found.append(p.language)
    return found


def start_analysers(languages: Iterable[str]) -> None:
    """Begin loading these analysers without waiting for them, if they load apart (a
    process in which they load in-process loads each on first use, as ever)."""
    if _apart_pid == os.getpid():
        for language in languages:
            analyser(language)


def analysers_ready(languages: Iterable[str]) -> bool:
    """Whether analysing with each of ``languages`` would start at once (loaded, or failed
    to load: that error is then raised by the analysis itself)."""
    for language in languages:
        found = _loaded.get(language)
        if found is None or (isinstance(found, _Apart) and not found.ready.is_set()):
            return False
    return True


def wait_for_analysers(languages: Iterable[str]) -> None:
    """Load these analysers and wait until they answer (apart: without holding the lock)."""
    for language in languages:
        found = analyser(language)
        if isinstance(found, _Apart):
            found.ready.wait()


class _Apart:
    """``language``'s analyser in a child process (``python -m core.morphemes LANGUAGE ...``).

    One JSON line per request (a list of texts) and one per answer (their boundaries), on
    two channels: one for short texts (the child's stdin and stdout) and one for long ones
    (``LONG_TEXT`` characters or more, a pipe pair of its own), each answered by a thread of
    the child. A helper thread's 100,000-character line (Kiwi reads ~0.2 MB/s: ~0.6 s) then
    never keeps the window's next keystroke waiting behind it, and Kiwi's model (~500 MB) is
    loaded once. The child says ``{"ready": true}`` once its analyser has loaded and analysed
    its warm-up texts.
    """

    def __init__(self, language: str) -> None:
        self.language = language
        self.ready = threading.Event()
        self._error: str | None = None
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)  # where ``core`` is importable from
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        long_in, to_long = os.pipe()
        from_long, long_out = os.pipe()
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "core.morphemes", language, str(long_in), str(long_out)]
            + [str(os.getpid()), str(int(started_from_main_thread()))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            pass_fds=(long_in, long_out),
        )
        os.close(long_in)
        os.close(long_out)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._short = _Channel(self._proc.stdin, self._proc.stdout)
        self._long = _Channel(os.fdopen(to_long, "wb"), os.fdopen(from_long, "rb"))
        _children.append(self)
        threading.Thread(target=self._await_ready, name=f"{language} analyser", daemon=True).start()

    def _await_ready(self) -> None:
        try:
            said = self._short.read(self.language)
            if "error" in said:
                self._error = said["error"]
        except SubwordError as e:
            self._error = str(e)
        self.ready.set()

    def boundaries(self, text: str) -> set[int]:
        self.ready.wait()
        try:
            if self._error is not None:
                raise ConfigError(self._error)
            channel = self._long if len(text) >= LONG_TEXT else self._short
            said = channel.ask(self.language, text)
        except SubwordError:
            if _loaded.get(self.language) is self:  # the next analysis starts a new process
                del _loaded[self.language]
            raise
        if "error" in said:
            raise SubwordError(said["error"])
        return set(said["boundaries"][0])

    def close(self) -> None:
        """End the child (it ends at the end of its input; killed if it does not within 1 s)."""
        for channel in (self._short, self._long):
            channel.close()
        try:
            self._proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


# Texts this long go down the long channel (see _Apart): Kiwi takes ~15 ms for 2,000 characters.
LONG_TEXT = 2000


class _Channel:
    """One request at a time down a pipe, one answer back."""

    def __init__(self, to_child, from_child) -> None:
        self.lock = threading.Lock()
        self._to, self._from = to_child, from_child

    def read(self, language: str):
        line = self._from.readline()
        if not line:
            raise SubwordError(f"the {language} morpheme analyser's process ended unexpectedly")
        return json.loads(line)

    def ask(self, language: str, text: str):
        with self.lock:
            try:
                self._to.write(json.dumps([text]).encode("ascii") + b"\n")
                self._to.flush()
                return self.read(language)
            except (OSError, SubwordError) as e:
                raise SubwordError(f"the {language} morpheme analyser's process failed: {e}") from None

    def close(self) -> None:
        try:
            self._to.close()
        except OSError:  # it has ended already (a request it never read is being flushed)
            pass


_children: list[_Apart] = []


@atexit.register
def _end_children() -> None:
    for child in _children:
        child.close()


# What a child analyses before it says ready, so that the window's first real text does not
# pay for tables built on first use (measured with Kiwi 0.24: "가나다" 1.6 s, then the first
# sentence of several words 29 ms; after this paragraph such sentences take ~0.5 ms).
_WARM_UP = {
    "ko": (
        "가나다",
        "철수는 학교에 가서 친구들과 함께 점심을 먹었습니다. 오늘은 날씨가 정말 좋네요! "
        "영화가 생각보다 재미있었어요. 배우들의 연기도 훌륭했고 음악도 좋았습니다. "
        "그런데 내일은 비가 올까요? 저는 집에서 책을 읽을 거예요. 123개의 토큰, ㅋㅋㅋ ㅠㅠ",
    ),
    "ja": ("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",),
}


def _serve(language: str, long_in: int, long_out: int, parent: int, by_signal: bool) -> None:
    """The child's side of :class:`_Apart`: load, say ready, then answer both channels until
    stdin ends (or at once when the parent dies: :func:`core.lifeline.exit_with_parent`)."""
    from core.lifeline import exit_with_parent

    exit_with_parent(parent, by_signal)  # subtle: loading Kiwi holds the interpreter lock for ~3 s
    out = os.fdopen(os.dup(1), "w", encoding="ascii")
    os.dup2(2, 1)  # anything the analyser prints goes to stderr, never into the answers
    sys.stdout = sys.stderr
    try:
        found = _LOADERS[language]()
        for text in _WARM_UP[language]:  # Kiwi's first analyses build tables: 1.6 s, then 30 ms
            found.boundaries(text)
        beside = found.another()
    except Exception as e:  # noqa: BLE001 - reported to the parent, which raises it where it is used
        _answer_line(
            out, {"error": f"the {language} morpheme analyser could not load: {type(e).__name__}: {e}"}
        )
        return
    _answer_line(out, {"ready": True})
    long_channel = (os.fdopen(long_in, "rb"), os.fdopen(long_out, "w", encoding="ascii"))
    threading.Thread(target=_answer, args=(language, beside, *long_channel), daemon=True).start()
    _answer(language, found, sys.stdin.buffer, out)


def _answer(language: str, found: _Analyser, requests, out) -> None:
    for line in requests:
        try:
            _answer_line(out, {"boundaries": [sorted(found.boundaries(t)) for t in json.loads(line)]})
        except Exception as e:  # noqa: BLE001 - one bad request must not end the analyser
            _answer_line(out, {"error": f"the {language} morpheme analyser failed: {type(e).__name__}: {e}"})


def _answer_line(out, obj) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


class MorphemeSplit(Metaspace):
    """``metaspace`` cutting, plus a cut at every morpheme boundary the analyser finds.

    ``language``: ``"ko"`` (kiwipiepy) or ``"ja"`` (SudachiPy). ``replacement`` and
    ``prepend_scheme`` are Metaspace's (a ``▁`` on each word's first piece).

        >>> MorphemeSplit("ko").pre_tokenize_str("했어요")
        [('▁했', (0, 1)), ('어요', (1, 3))]
    """

    # Counting a corpus is worth both cores from this size on (core.corpus): the analyser reads
    # ~0.1-0.3 MB/s per core, so a worker's start-up (Python + the model, ~1-2 s) pays off early.
    parallel_min_bytes = 2 << 20

    def __init__(self, language: str = "ko", replacement: str = "▁", prepend_scheme: str = "always"):
        if language not in ANALYSERS:
            raise ConfigError(f"no morpheme analyser for {language!r}; choose from {', '.join(ANALYSERS)}")
        super().__init__(replacement, prepend_scheme, split=True)
        self.language = language
        self._in_script = _SCRIPT[language]
        check_analyser(language)

    @property
    def name(self) -> str:
        return f"{self.language}-morph"

    # -- where to cut ---------------------------------------------------------------
    def morpheme_cuts(self, text: str) -> list[int]:
        """Positions in ``text`` where a morpheme boundary cuts a word: ``"먹고 있다"`` -> ``[1, 4]``."""
        if not any(self._in_script(c) for c in text):
            return []  # other scripts pass through untouched (and the analyser is not even loaded)
        if self.language == "ko" and any(is_conjoining_jamo(c) for c in text):
            spans = compose_spans(text)
            found = analyser(self.language).boundaries("".join(c for c, _, _ in spans))
            points = {spans[b][1] if b < len(spans) else len(text) for b in found}
        else:
            points = analyser(self.language).boundaries(text)
        return sorted(b for b in points if 0 < b < len(text) and self._allows_cut(text, b))

    def _allows_cut(self, text: str, b: int) -> bool:
        before, after = text[b - 1], text[b]
        if before.isspace() or after.isspace():
            return False  # spaces already end words (and a ▁ must stay on its word)
        return self._in_script(before) or self._in_script(after)

    # -- the verb and its cheap views ----------------------------------------------------
    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        cuts = self.morpheme_cuts(text.normalized)
        replaced = self._replaced(text, first_section)
        shift = len(replaced.normalized) - len(text.normalized)  # 1 if a ▁ was prepended
        return _cut(replaced, self.replacement, [c + shift for c in cuts])

    def split_words(self, text: str, first_section: bool = True) -> list[str]:
        # first_section: Metaspace's signature; a line of a corpus is always a first section here
        return self._pieces(text, self.morpheme_cuts(text))

    def split_lines(self, lines: Iterable[str]) -> list[str]:
        """The pieces of many lines at once (the corpus counter's path)."""
        out: list[str] = []
        for line in lines:
            out.extend(self._pieces(line, self.morpheme_cuts(line)))
        return out

    def _pieces(self, text: str, cuts: list[int]) -> list[str]:
        r = self.replacement
        s = text.replace(" ", r)
        shift = 0
        if s and not s.startswith(r) and self.prepend_scheme != "never":
            s, shift = r + s, 1
        bounds = sorted({i for i, c in enumerate(s) if c == r and i > 0} | {c + shift for c in cuts})
        bounds = [0, *bounds, len(s)]
        return [s[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]

    def to_dict(self) -> dict:
        return {
            "type": "MorphemeSplit",
            "language": self.language,
            "analyser": ANALYSERS[self.language][0],
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MorphemeSplit:
        return cls(d.get("language", "ko"), d.get("replacement", "▁"), d.get("prepend_scheme", "always"))

    def portable_dict(self) -> dict:
        """What ``tokenizer.json`` can hold instead: the Metaspace cutting without the analyser."""
        return Metaspace(self.replacement, self.prepend_scheme).to_dict()

    def __repr__(self) -> str:
        return f"MorphemeSplit({self.language!r})"


def _cut(text: NormalizedString, replacement: str, cuts: list[int]) -> list[NormalizedString]:
    s = text.normalized
    bounds = sorted({i for i, c in enumerate(s) if c == replacement and i > 0} | set(cuts))
    bounds = [0, *bounds, len(s)]
    return [text.slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


if __name__ == "__main__":
    _serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
