"""Show a morpheme-aware model only once its analyser answers, so the window never waits.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> shown = []
    >>> after_analysers([hug_bpe], lambda: shown.append(hug_bpe), waiting=print)   # e.g. state.show
    False
    >>> shown == [hug_bpe]       # its whitespace pre-tokenizer needs no analyser: shown at once
    True

The explorer loads morpheme analysers apart (``core.morphemes.load_analysers_apart``):
Kiwi takes ~3 s to load and analyse a first text, holding its process's interpreter
lock throughout, so it runs in a process of its own. Until it answers, an analysis from
the GUI thread would wait on the pipe: the window would freeze as before. Everything that
hands a model to the panels therefore goes through :func:`after_analysers`, which starts
the analysers the models' pre-tokenizers use and calls back on the GUI thread once all
answer (at once when none is needed, or all are loaded).

Leaves out: cancelling a wait (a caller that is superseded checks that itself).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QTimer

POLL_MS = 50


def needed_analysers(models: Iterable) -> list[str]:
    """The analyser languages of ``models``: tokenizers (by their pre-tokenizer) or
    pre-tokenizers; None is skipped."""
    found: list[str] = []
    for model in models:
        pre = getattr(model, "pre_tokenizer", model)
        if pre is None:
            continue
        from core.morphemes import analyser_languages  # subtle: only models that exist need it

        found += [lang for lang in analyser_languages(pre) if lang not in found]
    return found


def loading_analysers(models: Iterable) -> list[str]:
    """The analysers ``models`` need that do not answer yet; each is started if it was not.
    Empty when the process loads them in-process on first use, as tests do."""
    languages = needed_analysers(models)
    if not languages:
        return []
    from core.morphemes import analysers_apart, analysers_ready, start_analysers

    if not analysers_apart():
        return []
    start_analysers(languages)
    return [lang for lang in languages if not analysers_ready([lang])]


def after_analysers(
    models: Iterable, then: Callable[[], None], waiting: Callable[[list[str]], None] | None = None
) -> bool:
    """Call ``then`` once every analyser ``models`` need answers: now if they already do
    (returns False), else later on the GUI thread (returns True, after calling ``waiting``
    with the languages still loading)."""
    models = list(models)
    languages = loading_analysers(models)
    if not languages:
        then()
        return False
    if waiting is not None:
        waiting(languages)

    def poll() -> None:
        if loading_analysers(models):
            QTimer.singleShot(POLL_MS, poll)
        else:
            then()

    QTimer.singleShot(POLL_MS, poll)
    return True
