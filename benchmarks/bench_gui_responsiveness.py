"""How responsive the explorer stays: event-loop gaps while training, keystroke and slider latency, cold start.

    $ QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui_responsiveness.py [--corpus PATH] [--vocab 32000]

What it measures (targets from the issue in brackets):
1. the longest gap between two event-loop iterations while BPE trains on the
   Korean review corpus at vocab 32000 (a 0-ms QTimer records the time between
   its firings) [< 100 ms]; the same while the corpus is being opened, for context;
2. keystroke to repainted segmentation with 2,000 characters of Korean in the
   editor: a key press, the panel's ``segmented`` signal, then a synchronous
   repaint of the editor and token strip [< 50 ms];
3. slider move to repainted segmentation: ``setValue(k)`` on the slider until the
   panel's ``segmented`` signal and a synchronous repaint, at sizes not seen before
   (no cache) [< 50 ms]; the Vocabulary table follows later, off this path;
4. cold start to a shown window: a fresh interpreter, from launch until the window
   has been shown and painted once [< 1.5 s];
5. one pasted word of 100,000 characters (the corpus's Hangul syllables with
   everything else left out: one pre-token under every pipeline): paste to
   repainted editor and to tokens shown, then keystrokes in its middle: key to
   repainted editor [< 100 ms] and key to tokens shown (the engine re-encodes the
   word on a helper thread), and the longest event-loop gap throughout [the window
   never freezes]. ``--tokenizer FILE`` measures only this, with that tokenizer
   instead of training one (quicker, for work on the views).
6. ``--morph-relaunch`` measures only a relaunch whose last run was morpheme-aware
   (``ko-morph``: Kiwi loads for ~3 s holding its process's interpreter lock): a fresh
   process per run shows the window, restores that run and segments text typed at once;
   the longest event-loop gap from the window shown until the restored model's tokens are
   shown, with the analyser apart (as the launcher does) and, for comparison, loaded in the
   window's process [the window never freezes: < 50 ms].

Offscreen rendering is used (what CI has); on a desktop the paint costs differ.
Prints what it measures; it does not assert the targets.
"""

from __future__ import annotations

import argparse
import collections
import compileall
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"

START_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QSettings
app = QApplication(sys.argv[:1])
from subword_gui.style.theme import apply_theme
from subword_gui.main_window import MainWindow
apply_theme(app)
window = MainWindow(settings=QSettings(sys.argv[1], QSettings.Format.IniFormat))
window.show()
app.processEvents()
window.repaint()
print("shown", time.perf_counter() - t0, flush=True)
"""


RELAUNCH_SCRIPT = r"""
import sys, time
sys.path.insert(0, sys.argv[4])
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from bench_gui_responsiveness import GapMeter, settle, wait_for
app = QApplication(sys.argv[:1])
from subword_gui.style.theme import apply_theme
from subword_gui.main_window import MainWindow
from core.morphemes import load_analysers_apart
apply_theme(app)
if sys.argv[3] == "apart":
    load_analysers_apart()  # as subword_gui/app.py does
window = MainWindow(settings=QSettings(sys.argv[1], QSettings.Format.IniFormat), open_sample=False,
                    data_dir=sys.argv[2])
window.resize(1400, 900)
window.show()
window.load_engine_beside()
settle(app, 0.3)
meter = GapMeter()
t0 = time.perf_counter()
meter.start()
window.restore_last_run()
text = "철수는 치킨을 먹고 볶음밥을 먹고 있다 영화가 정말 재미있었어요"
window.segmentation_panel.set_text(text)  # typed at once, as a user does
run = wait_for(app, window.run_restored, 120)[0]
shown = lambda: [ln.encoding.tokens for ln in window.segmentation_panel.lines()] == [run.tokenizer.encode(text).tokens]
while not shown():
    settle(app, 0.01)
done = time.perf_counter() - t0
settle(app, 0.5)
meter.stop()
print(f"tokens {done:.2f}", flush=True)
meter.report("gaps")
# keystrokes at the end of a line of Korean (the line is analysed again at each key)
import statistics
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
seg, editor = window.segmentation_panel, window.segmentation_panel.editor
cursor = editor.textCursor()
cursor.movePosition(cursor.MoveOperation.End)
editor.setTextCursor(cursor)
editor.setFocus()
keys = []
for i in range(30):
    got = []
    seg.segmented.connect(lambda got=got: got.append(1))
    t = time.perf_counter()
    QTest.keyClick(editor, Qt.Key.Key_A if i % 2 == 0 else Qt.Key.Key_Backspace)
    while not got:
        app.processEvents()
    editor.viewport().repaint()
    seg.strip.repaint()
    keys.append(time.perf_counter() - t)
    seg.segmented.disconnect()
    settle(app, 0.02)
print(f"keys median {1000 * statistics.median(keys):.1f} ms, max {1000 * max(keys):.1f} ms")
"""


def measure_morph_relaunch(corpus: Path, runs: int = 3) -> None:
    """Relaunches on a morpheme-aware run, each in a fresh process (see the module docstring)."""
    from core.events import drain
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts
    from subword_gui.runs import Run, save_last_run

    lines = corpus.read_text(encoding="utf-8").splitlines()[:2000]
    options = TrainOptions("bpe", vocab_size=2000, pre_tokenizer="ko-morph", special_tokens=["<unk>"])
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    tmp = Path(tempfile.mkdtemp())
    save_last_run(Run(1, "ko-morph BPE", tok, options, corpus=corpus.name), tmp / "data")
    print(
        f"relaunch on a ko-morph BPE run of {tok.vocab_size:,} tokens ({len(lines):,} lines of {corpus.name})"
    )
    for i in range(runs):
        for mode in ("apart", "in-process"):
            out = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    RELAUNCH_SCRIPT,
                    str(tmp / f"s{i}{mode}.ini"),
                    str(tmp / "data"),
                    mode,
                    str(ROOT / "benchmarks"),
                ],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
            )
            if out.returncode != 0:
                raise SystemExit(out.stderr)
            said = dict(line.split(" ", 1) for line in out.stdout.splitlines() if " " in line)
            print(
                f"  run {i + 1}, analyser {mode}: restored model's tokens shown after {said['tokens']} s; "
                f"{said['gaps:']}; keystroke -> repainted segmentation {said['keys']}"
            )


class GapMeter:
    """A 0-ms timer: the time between its firings is how long the event loop was busy."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._tick)
        # subtle: arrays, not lists: the collector walks a young list item by item, and a list of
        # millions of gaps (one per turn of an idle loop) made one generation-0 and one
        # generation-1 collection of 140-360 ms in every run, charged to the window's thread
        self.gaps = array("d")
        self.ends = array("d")
        self._last = None

    def _tick(self):
        now = time.perf_counter()
        if self._last is not None:
            self.gaps.append(now - self._last)
            self.ends.append(now)
        self._last = now

    def start(self):
        self.gaps, self.ends, self._last = array("d"), array("d"), None
        self.timer.start()
        if StallSampler.active is not None:
            StallSampler.active.watch(self)

    def stop(self):
        self.timer.stop()
        self._last = None  # (for the stall sampler: no tick expected any more)

    def split(self, at: float) -> GapMeter:
        """A meter holding only the gaps that ended after ``at`` (perf_counter time); this one
        keeps those that ended before."""
        later = GapMeter.__new__(GapMeter)
        later.gaps = array("d", (g for g, end in zip(self.gaps, self.ends) if end > at))
        self.gaps = array("d", (g for g, end in zip(self.gaps, self.ends) if end <= at))
        return later

    def report(self, what: str) -> float:
        g = sorted(self.gaps)
        if not g:
            print(f"{what}: no event-loop iterations recorded")
            return float("nan")
        p99 = g[int(0.99 * (len(g) - 1))]
        over = sum(x > 0.1 for x in g)
        print(
            f"{what}: {len(g):,} iterations, longest gap {1000 * g[-1]:.1f} ms, "
            f"99th percentile {1000 * p99:.1f} ms, gaps over 100 ms: {over}"
        )
        return g[-1]


class StallSampler:
    """Where the GUI thread is while its event loop is stalled (``--sample``).

    A helper thread looks every ``period`` seconds at the time of the watched meter's last
    tick; once the loop has been busy for longer than ``after``, it records the GUI
    thread's Python stack (``sys._current_frames()``) and the GUI thread's CPU time. The
    report names the functions seen most often during stalls (each sample stands for
    ``period`` of stalled time) and, for the longest stalls, the CPU share (well under 100 %:
    the thread waited, for the interpreter lock or for a core) and the deepest function of
    ours it was in. Samples are Python frames: time inside a call into Qt counts for its
    caller, and a stack with no frame of ours is Qt's own work (painting, layout) or a wait.
    """

    active: StallSampler | None = None

    def __init__(self, period: float = 0.003, after: float = 0.02):
        self.period, self.after = period, after
        self.meter: GapMeter | None = None
        self.main_id = threading.main_thread().ident
        self.clock = time.pthread_getcpuclockid(self.main_id)
        self.samples: list[tuple[float, tuple]] = []  # (the stalled tick's time, stack)
        self.cpu: dict[float, list[float]] = {}  # stalled tick -> [GUI CPU at its tick's start.., latest]
        self._tick_cpu = (None, 0.0)
        # (generation, seconds, its thread's CPU seconds in it, objects it freed, thread name,
        #  where it was triggered)
        self.collections: list[tuple[int, float, float, int, str, str]] = []
        self._gc_start = (0.0, 0.0)
        gc.callbacks.append(self._on_gc)
        threading.Thread(target=self._run, daemon=True).start()

    def _on_gc(self, phase: str, info: dict) -> None:
        # the collector holds the interpreter lock throughout: every thread waits
        if phase == "start":
            self._gc_start = (time.perf_counter(), time.thread_time())
            return
        start, start_cpu = self._gc_start
        took = time.perf_counter() - start
        cpu = time.thread_time() - start_cpu  # well under ``took``: the thread was not running
        if took < 0.005:
            return
        # what allocated last, in the thread that triggered it (our innermost frames)
        frame, where = sys._getframe(1), []
        while frame is not None and len(where) < 3:
            entry = (frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
            if self._ours(entry):
                where.append(self._label(entry))
            frame = frame.f_back
        name = threading.current_thread().name
        where_ = " < ".join(where) or "(not ours)"
        self.collections.append((info["generation"], took, cpu, info["collected"], name, where_))

    def watch(self, meter: GapMeter) -> None:
        self.meter, self.samples, self.cpu, self.collections = meter, [], {}, []

    def _run(self) -> None:
        while True:
            time.sleep(self.period)
            meter = self.meter
            last = meter._last if meter is not None else None
            cpu = time.clock_gettime(self.clock)
            if last is None:
                continue
            if time.perf_counter() - last < self.after:
                self._tick_cpu = (last, cpu)  # the CPU clock near the start of this iteration
                continue
            frame = sys._current_frames().get(self.main_id)
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append((code.co_filename, frame.f_lineno, code.co_name))
                frame = frame.f_back
            self.samples.append((last, tuple(stack)))
            if last not in self.cpu:
                start_cpu = self._tick_cpu[1] if self._tick_cpu[0] == last else cpu
                self.cpu[last] = [start_cpu, time.perf_counter() - last, cpu]
            self.cpu[last][1:] = [time.perf_counter() - last, cpu]

    @staticmethod
    def _ours(entry) -> bool:
        name = entry[0]
        return ("subword_gui" in name or "/core/" in name or "pyqtgraph" in name) and "bench_" not in name

    @staticmethod
    def _label(entry, line: bool = True) -> str:
        path, lineno, func = entry
        short = "/".join(Path(path).parts[-2:])
        return f"{func} ({short}:{lineno})" if line else f"{func} ({short})"

    def report(self, what: str, top: int = 12) -> None:
        slow = sorted(self.collections, key=lambda c: -c[1])
        if slow:
            print(f"  [{what}] garbage collections of 5 ms or more: {len(slow)}; the longest:")
            for g, t, cpu, freed, name, where in slow[:6]:
                print(
                    f"      gen {g} {1000 * t:.0f} ms (CPU {1000 * cpu:.0f} ms, {freed:,} objects freed; "
                    f"{name}) in {where}"
                )
        if not self.samples:
            print(f"  [{what}] no stall samples")
            return
        per_func: collections.Counter = collections.Counter()
        per_leaf: collections.Counter = collections.Counter()
        stalls: dict[float, list] = collections.defaultdict(list)
        for tick, stack in self.samples:
            stalls[tick].append(stack)
            for key in {self._label(e, line=False) for e in stack if self._ours(e)}:
                per_func[key] += 1
            leaf = next((e for e in stack if self._ours(e)), None)
            per_leaf[self._label(leaf) if leaf else "(no frame of ours: Qt's own work, or a wait)"] += 1
        ms = 1000 * self.period
        print(f"  [{what}] {len(self.samples)} stall samples ({ms:.0f} ms each); inclusive time in:")
        for key, n in per_func.most_common(top):
            print(f"      {n * ms:7.0f} ms  {key}")
        print("    deepest line of ours when sampled:")
        for key, n in per_leaf.most_common(top):
            print(f"      {n * ms:7.0f} ms  {key}")
        print(
            "    the longest stalls: length seen by the sampler, GUI-thread CPU share, where (most samples):"
        )
        for tick, stacks in sorted(stalls.items(), key=lambda kv: -self.cpu[kv[0]][1])[:10]:
            start_cpu, length, end_cpu = self.cpu[tick]
            leaves = collections.Counter()
            for stack in stacks:
                path = [self._label(e) for e in reversed(stack) if self._ours(e)]
                leaves[" > ".join(path[-4:]) or "(Qt / wait)"] += 1
            where = "; ".join(f"{n}× {p}" for p, n in leaves.most_common(3))
            share = (end_cpu - start_cpu) / length if length else 0.0
            print(f"      {1000 * length:5.0f} ms, CPU {100 * share:3.0f} %: {where}")


def wait_for(app, signal, timeout_s: float = 1800):
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    got = []
    signal.connect(lambda *a: (got.append(a), loop.quit()))
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    if not got:
        raise SystemExit(f"timed out waiting for {signal}")
    return got[0]


def settle(app, seconds: float):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.005)


def korean_text(path: Path, n_chars: int = 2000) -> str:
    out, size = [], 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(line)
                size += len(line) + 1
            if size >= n_chars:
                break
    return "\n".join(out)[:n_chars]


def measure_cold_start(runs: int = 3) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-c", START_SCRIPT, str(Path(tmp) / "s.ini")],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
            )
            line = proc.stdout.readline()
            times.append(time.perf_counter() - t0)
            proc.wait(timeout=60)
            if not line.startswith("shown"):
                raise SystemExit("the window did not start")
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--tokenizer", type=Path, help="measure only the long word, with this tokenizer file")
    ap.add_argument("--word-chars", type=int, default=100_000)
    ap.add_argument("--sample", action="store_true", help="say where the GUI thread is during each stall")
    ap.add_argument("--morph-relaunch", action="store_true", help="measure only a relaunch on a ko-morph run")
    args = ap.parse_args()
    # The explorer's bytecode current, as an installed package has it (pip compiles at install).
    # subtle: with PYTHONDONTWRITEBYTECODE set (as on the team's machine) every run compiled the
    # sources again, and compile() holds the interpreter lock throughout: a helper thread
    # importing the engine beside the window (``load_engine_beside``, the slider's warm-up)
    # held the window's thread 15-20 ms per big module, and the landing compiled
    # core/encode_chunks.py on the window's thread itself (py-spy, 2026-11-24).
    for package in ("core", "subword_gui"):
        compileall.compile_dir(ROOT / package, quiet=2)
    if args.sample:
        StallSampler.active = StallSampler()
    if args.morph_relaunch:
        measure_morph_relaunch(args.corpus)
        return
    if args.tokenizer is not None:
        app, window = make_window()
        from core.formats.detect import open_tokenizer

        window.state.set_full_tokenizer(open_tokenizer(args.tokenizer).tokenizer)
        settle(app, 0.5)
        measure_long_word(app, window, args.corpus, args.word_chars)
        window.close()
        return

    print(
        "cold start (launch -> window shown and painted), 3 runs: "
        + ", ".join(f"{t:.2f} s" for t in measure_cold_start())
    )

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from core.options import TrainOptions

    app, window = make_window()
    meter = GapMeter()

    # 1a. Opening the corpus (counting runs in a worker process).
    t0 = time.perf_counter()
    meter.start()
    window.corpus_panel.open_text(str(args.corpus))
    wait_for(app, window.corpus_panel.loaded)
    meter.stop()
    counts = window.state.corpus
    print(
        f"opened {args.corpus.name}: {counts.lines:,} lines, {counts.distinct_words:,} distinct words "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    meter.report("  event loop while opening the corpus")
    sampled("opening the corpus")

    # 1b. Training BPE at the requested vocab size, with the Training panel shown.
    panel = window.training_panel
    window.raise_panel("training")
    panel.set_options(TrainOptions("bpe", vocab_size=args.vocab))
    settle(app, 0.2)
    t0 = time.perf_counter()
    meter.start()
    first_merge = []
    panel.merge_model.rowsInserted.connect(lambda *a: first_merge or first_merge.append(time.perf_counter()))
    panel.train()
    wait_for(app, panel.training_finished)
    landed = time.perf_counter()
    train_s = landed - t0
    settle(app, 1.0)  # the model lands: segmentation, vocabulary, compare, the curve being measured
    meter.stop()
    print(
        f"trained BPE to {window.state.full_tokenizer.vocab_size:,} tokens in {train_s:.1f} s "
        f"({panel.merge_model.rowCount():,} merge-log rows; first merge after {first_merge[0] - t0:.1f} s)"
    )
    after = meter.split(landed - 0.5)  # the finished model arrives in the last drain before `landed`
    longest = meter.report("  event loop while counting and merging")
    after.report("  event loop as the trained model lands in every panel (0.5 s before to 1 s after)")
    sampled("training and landing", split_at=landed - 0.5)

    seg = window.segmentation_panel
    if seg is None:
        print("no segmentation panel: keystroke and slider latency not measured")
        return
    window.raise_panel("segmentation")
    text = korean_text(args.corpus)
    seg.set_text(text)
    settle(app, 0.5)
    editor = seg.editor

    def repaint_segmentation():
        editor.viewport().repaint()
        seg.strip.repaint()

    # 2. Keystrokes at the end of 2,000 characters of Korean.
    cursor = editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    editor.setFocus()
    keys, key_cpu = [], []
    for i in range(30):
        key = Qt.Key.Key_A if i % 2 == 0 else Qt.Key.Key_Backspace
        done = []
        seg.segmented.connect(lambda done=done: done.append(1))
        t0, c0 = time.perf_counter(), time.process_time()
        QTest.keyClick(editor, key)
        while not done:
            app.processEvents()
        repaint_segmentation()
        keys.append(time.perf_counter() - t0)
        key_cpu.append(time.process_time() - c0)
        seg.segmented.disconnect()
        settle(app, 0.02)
    print(
        f"keystroke -> repainted segmentation ({len(text):,} chars of Korean), 30 keys: "
        f"median {1000 * statistics.median(keys):.1f} ms, max {1000 * max(keys):.1f} ms "
        f"(CPU time median {1000 * statistics.median(key_cpu):.1f} ms: what a loaded machine does not inflate)"
    )

    # 3. Slider moves to sizes not shown before.
    slider = window.slider
    low, high = slider.slider.minimum(), slider.slider.maximum()
    moves, move_cpu = [], []
    for i in range(12):
        k = low + (high - low) * (i + 1) // 13 + 7 * i
        done = []
        seg.segmented.connect(lambda done=done: done.append(1))
        t0, c0 = time.perf_counter(), time.process_time()
        slider.slider.setValue(k)
        while not done:  # the slider cuts on the next event-loop turn (moves are coalesced)
            app.processEvents()
        repaint_segmentation()
        moves.append(time.perf_counter() - t0)
        move_cpu.append(time.process_time() - c0)
        seg.segmented.disconnect()
        settle(app, 0.1)  # the Vocabulary follows 40 ms after the Segmentation
    print(
        f"slider move -> repainted segmentation, 12 moves between {low:,} and {high:,}: "
        f"median {1000 * statistics.median(moves):.1f} ms, max {1000 * max(moves):.1f} ms "
        f"(CPU time median {1000 * statistics.median(move_cpu):.1f} ms)"
    )
    from subword_gui.background.jobs import truncate_tokenizer

    full = window.state.full_tokenizer
    cuts = []
    for i in range(12):
        k = low + (high - low) * (i + 1) // 13 + 7 * i + 3
        t0 = time.perf_counter()
        truncate_tokenizer(full, k)
        cuts.append(time.perf_counter() - t0)
    print(
        f"  of which the engine's model.truncated(k) alone: median {1000 * statistics.median(cuts):.1f} ms "
        f"(the rest: every panel re-rendering for the new tokenizer)"
    )
    print(
        f"summary: longest event-loop gap while counting and merging {1000 * longest:.0f} ms; keystroke median "
        f"{1000 * statistics.median(keys):.0f} ms; slider median {1000 * statistics.median(moves):.0f} ms"
    )
    measure_long_word(app, window, args.corpus, args.word_chars)
    panel.shutdown()
    window.close()


def sampled(what: str, split_at: float | None = None) -> None:
    """Print the stall sampler's findings since its meter started (with ``--sample``)."""
    sampler = StallSampler.active
    if sampler is None:
        return
    if split_at is None:
        sampler.report(what)
        return
    samples, collections_ = sampler.samples, sampler.collections
    sampler.samples = [s for s in samples if s[0] < split_at]
    sampler.collections = []
    sampler.report(what + ": before the landing")
    sampler.samples = [s for s in samples if s[0] >= split_at]
    sampler.collections = collections_
    sampler.report(what + ": the landing (collections: over the whole of training)")
    sampler.samples = samples


def make_window():
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from subword_gui.main_window import MainWindow
    from subword_gui.style.theme import apply_theme

    app = QApplication.instance() or QApplication([])
    apply_theme(app)
    tmp = tempfile.mkdtemp()
    window = MainWindow(
        settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat), open_sample=False
    )
    window._show_message_box = lambda title, message: print(f"error: {title}: {message}")
    window.resize(1400, 900)
    window.show()
    window.load_engine_beside()  # as the launcher does (subword_gui/app.py)
    settle(app, 0.3)
    return app, window


def hangul_word(path: Path, n_chars: int) -> str:
    """``n_chars`` Hangul syllables of the corpus in order, everything else left out: one word."""
    out, size = [], 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            syllables = "".join(c for c in line if "\uac00" <= c <= "\ud7a3")
            out.append(syllables)
            size += len(syllables)
            if size >= n_chars:
                break
    return "".join(out)[:n_chars]


def measure_long_word(app, window, corpus: Path, n_chars: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    seg = window.segmentation_panel
    window.raise_panel("segmentation")
    editor = seg.editor
    word = hangul_word(corpus, n_chars)
    meter = GapMeter()
    meter.start()
    done = []
    seg.segmented.connect(lambda: done.append(time.perf_counter()))
    QApplication.clipboard().setText(word)
    editor.selectAll()
    t0 = time.perf_counter()
    editor.paste()
    editor.viewport().repaint()
    pasted = time.perf_counter() - t0
    while not done and time.perf_counter() - t0 < 600:
        app.processEvents()
    shown = done[-1] - t0 if done else float("nan")
    print(
        f"a pasted word of {len(word):,} characters: editor repainted after {1000 * pasted:.0f} ms, "
        f"tokens shown after {shown:.1f} s ({seg.stats.tokens:,} tokens)"
    )
    settle(app, 0.5)
    cursor = editor.textCursor()
    cursor.setPosition(len(word) // 2)
    editor.setTextCursor(cursor)
    editor.setFocus()
    keys, tokens, cpu = [], [], []
    for i in range(8):
        done.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        QTest.keyClick(editor, Qt.Key(Qt.Key.Key_A + i))  # a new letter each time: nothing cached
        editor.viewport().repaint()
        keys.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)  # what a loaded machine does not inflate
        while not done and time.perf_counter() - t0 < 600:
            app.processEvents()
        tokens.append((done[-1] if done else float("nan")) - t0)
        settle(app, 0.1)
    meter.stop()
    seg.segmented.disconnect()
    print(
        f"  keystroke in its middle -> repainted editor, 8 keys: median {1000 * statistics.median(keys):.0f} ms, "
        f"max {1000 * max(keys):.0f} ms (CPU time median {1000 * statistics.median(cpu):.0f} ms); "
        f"-> tokens shown: median {statistics.median(tokens):.1f} s"
    )
    meter.report("  event loop from the paste to the last key's tokens")
    sampled("the long word")


if __name__ == "__main__":
    main()
