"""The explorer's shared state: one QObject that panels subscribe to.

Views never own state: they read it from here and listen to its signals. The
engine objects it holds (corpus counts, tokenizers) are plain `core` objects.

- ``corpus_changed(CorpusCounts)``: a corpus or word-count file was loaded.
- ``full_tokenizer_changed(Tokenizer)``: a training run finished or a tokenizer
  file was opened (the slider's upper end).
- ``tokenizer_changed(Tokenizer)``: the tokenizer to show changed (a new one, or
  the vocab-size slider cut the full one); segmentation, vocabulary and
  statistics re-render from it.
- ``vocab_size_changed(int)``: where the slider stands.
- ``runs_changed()``: the session's runs (``runs``, see :mod:`subword_gui.runs`) were added to,
  renamed, discarded, or another one became the shown one (``shown_run``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from subword_gui.background.analysers import after_analysers


class AppState(QObject):
    corpus_changed = Signal(object)
    full_tokenizer_changed = Signal(object)
    tokenizer_changed = Signal(object)
    vocab_size_changed = Signal(int)
    status_message = Signal(str)
    # The token the user is looking at (the one at the Segmentation cursor); the
    # Vocabulary panel selects it and shows its merge tree. Linked views, no owner.
    token_focused = Signal(str)
    # The text in the Segmentation editor; Compare follows it unless the user types there.
    text_changed = Signal(str)
    runs_changed = Signal()
    analysers_loading_changed = Signal()  # see say_analysers_loading

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.corpus = None  # core.counting.CorpusCounts | None
        self.corpus_path: str | None = None
        # Where the corpus came from, for re-counting under a training pipeline:
        # ("file", path, encoding) | ("counts_file", path) | ("lines", [line, ...])
        self.corpus_source: tuple | None = None
        # where counts of text files are kept between launches (see background.counts_store)
        self.counts_dir: str | None = None
        self.full_tokenizer = None  # core.tokenizer.Tokenizer | None (the trained/opened one)
        self.tokenizer = None  # the one shown (possibly cut by the slider)
        self.train_options = None  # core.options.TrainOptions of the last run, if trained here
        self.merge_events: list = []  # MergeEvents of the last finished run (for the merge log/export)
        self.round_events: list = []  # its UnigramRounds (the Training panel's rounds table)
        self.vocab_size: int | None = None
        # where the shown model came from when no run holds it: the tokenizer file's path
        self.model_origin: str = ""
        self.runs: list = []  # subword_gui.runs.Run, oldest first
        self.shown_run = None  # the Run whose tokenizer is full_tokenizer (None: opened from a file)
        self._next_run_id = 1
        self.discarded_any = False  # a run was discarded this session (quitting then keeps no stale one)
        self._handovers = 0  # models handed to set_full_tokenizer: the last one is shown
        self.analysers_loading: list[str] = []  # the analysers a model waits for (their names)

    def set_corpus(self, counts, path: str | None = None) -> None:
        self.corpus = counts
        self.corpus_path = path
        self.corpus_changed.emit(counts)

    def set_full_tokenizer(
        self, tokenizer, options=None, merge_events=None, round_events=None, origin: str = "", run=None
    ) -> None:
        """Show ``tokenizer`` uncut; ``origin`` names the file it was opened from, if it was,
        and ``run`` the Run that holds it.

        A morpheme-aware model reaches the panels once its analyser answers (it loads in a
        process of its own, for a few seconds; the status bar says so meanwhile). A model
        handed over in between wins: the waiting one is then dropped."""
        self._handovers += 1
        handover = self._handovers

        def show() -> None:
            if handover == self._handovers:
                self._show_full(tokenizer, options, merge_events, round_events, origin, run)

        after_analysers([tokenizer], show, waiting=self.say_analysers_loading)

    def _show_full(self, tokenizer, options, merge_events, round_events, origin: str, run) -> None:
        self.analysers_answered()
        self.model_origin = origin
        if (
            self.shown_run is not None
            and self.shown_run is not run
            and self.shown_run.tokenizer is not tokenizer
        ):
            self.shown_run = None
            self.runs_changed.emit()
        self.full_tokenizer = tokenizer
        self.train_options = options
        self.merge_events = list(merge_events or [])
        self.round_events = list(round_events or [])
        self.full_tokenizer_changed.emit(tokenizer)
        self.set_tokenizer(tokenizer, tokenizer.vocab_size)
        if run is not None:
            self.shown_run = run
            self.runs_changed.emit()

    def say_analysers_loading(self, languages: list[str]) -> None:
        """A model waits for these analysers: the status bar says so, and ``analysers_loading``
        holds them (the Segmentation panel says so too while it has no model) until a model shows."""
        from core.morphemes import ANALYSERS

        self.analysers_loading = [ANALYSERS[lang][2] for lang in languages]
        self.analysers_loading_changed.emit()
        self.status_message.emit(
            self.tr(
                "Loading the morpheme analyser {0}: the model shows once it answers (a few seconds)…"
            ).format(", ".join(self.analysers_loading))
        )

    def analysers_answered(self) -> None:
        """No model waits for an analyser any more."""
        if self.analysers_loading:
            self.analysers_loading = []
            self.analysers_loading_changed.emit()

    def set_tokenizer(self, tokenizer, vocab_size: int | None = None) -> None:
        self.tokenizer = tokenizer
        self.vocab_size = vocab_size if vocab_size is not None else tokenizer.vocab_size
        self.tokenizer_changed.emit(tokenizer)
        self.vocab_size_changed.emit(self.vocab_size)

    # -- runs -----------------------------------------------------------------------------
    def add_run(self, run, show: bool = False) -> None:
        """Keep ``run`` for the session (numbered in order); ``show`` also makes it the shown model."""
        run.id = self._next_run_id
        self._next_run_id += 1
        self.runs.append(run)
        if show:
            self.show_run(run)  # emits runs_changed
        else:
            self.runs_changed.emit()

    def run_by_id(self, run_id: int):
        return next((r for r in self.runs if r.id == run_id), None)

    def show_run(self, run) -> None:
        """Make ``run``'s tokenizer the shown one, uncut (every panel follows)."""
        if run.tokenizer is not self.full_tokenizer:
            self.set_full_tokenizer(run.tokenizer, run.options, run.merge_events, run.round_events, run=run)
            return
        self._handovers += 1  # a model still waiting for its analyser is not shown after all
        self.shown_run = run
        self.runs_changed.emit()

    def rename_run(self, run, name: str) -> None:
        name = name.strip()
        if name and name != run.name:
            run.name = name
            run.default_name = None  # the user's own name: it stays in every language
            self.runs_changed.emit()

    def discard_run(self, run) -> None:
        """Forget ``run``; the shown model stays on screen even if it was this run's."""
        if run in self.runs:
            self.runs.remove(run)
            self.discarded_any = True
            if self.shown_run is run:
                self.shown_run = None
            self.runs_changed.emit()


def on_screen(widget) -> bool:
    """Whether the user can see ``widget``: shown, and not in a dock tab behind another.

    subtle: Qt keeps a dock that is a non-current tab ``isVisible()`` (it only paints
    none of it), so panels that defer work while hidden ask this, and catch up when
    their dock's tab is selected (``MainWindow`` calls their ``catch_up``).
    """
    return widget.isVisible() and not widget.visibleRegion().isEmpty()
