"""The user guide's sections on the newer ways to train and cut: SuperBPE, PickyBPE, BPE-dropout
and Unigram sampling, and SentencePiece-style training with byte fallback.

    >>> from subword_gui.guide import EXAMPLES_DIR, _train
    >>> examples = work_newer_examples(_train, EXAMPLES_DIR)   # guide.py's trainer; a fraction of a second
    >>> [e.stage for e in examples["superbpe"].events if type(e).__name__ == "StageStarted"]
    [1, 2]

As in the rest of the guide (``subword_gui.guide``), each illustration is the engine's own output
on a small corpus trained when the guide opens: SuperBPE's merge log around its transition point,
PickyBPE's deletion events, seeded BPE-dropout samples, and one sentence encoded with and without
byte fallback. Each paragraph names the paper a user can look up.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication

# a small corpus whose phrases repeat, so that stage 2 learns superwords ("the way", "sat on the")
SUPERBPE_LINES = [
    "by the way , the cat sat on the mat",
    "by the way , the dog sat on the log",
    "the cat and the dog sat by the way",
] * 5
SUPERBPE_VOCAB, SUPERBPE_TRANSITION = 300, 285
PICKY_COUNTS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}  # Sennrich et al.'s example words
PICKY_TAU = 0.9
DROPOUT_TEXT, DROPOUT_P, DROPOUT_SAMPLES = "hugs pug bug", 0.5, 4
FALLBACK_TEXT = "Hopefully 한 👋"


def work_newer_examples(train: Callable, examples_dir: Path) -> dict:
    """Train the four examples: ``superbpe``, ``picky``, ``byte-fallback`` and ``no-fallback``
    (the dropout samples are drawn from the guide's BPE example when drawn). ``train(key, counts,
    options, texts)`` is the guide's trainer (``subword_gui.guide._train``)."""
    from core.options import TrainOptions, pre_tokenize_lines

    out = {}
    superbpe = TrainOptions("superbpe", vocab_size=SUPERBPE_VOCAB, extra={"transition": SUPERBPE_TRANSITION})
    out["superbpe"] = train(
        "superbpe",
        pre_tokenize_lines(SUPERBPE_LINES, superbpe),
        superbpe,
        ["by the way , the cat sat on the mat"],
    )
    picky = TrainOptions("picky-bpe", vocab_size=16, pre_tokenizer="whitespace", extra={"tau": PICKY_TAU})
    out["picky"] = train("picky", dict(PICKY_COUNTS), picky, ["newest lowest"])
    lines = (examples_dir / "unigram-four-sentences.txt").read_text(encoding="utf-8").splitlines()
    for key, byte_fallback in (("byte-fallback", True), ("no-fallback", False)):
        options = TrainOptions(
            "sentencepiece-bpe",
            vocab_size=(256 if byte_fallback else 0) + 100,
            extra={"byte_fallback": byte_fallback},
        )
        out[key] = train(key, pre_tokenize_lines(lines, options), options, [FALLBACK_TEXT])
    return out


def _row(cells: list[str], style: str = "") -> str:
    return f"<tr{style}>" + "".join(f"<td>&nbsp;{c}&nbsp;</td>" for c in cells) + "</tr>"


def _superbpe_log(example, around: int = 4) -> str:
    """The merge log around the transition: the last merges within words, a row where stage 2
    starts, the first superwords (tokens that span a space) in bold."""
    from core.events import MergeEvent, StageStarted

    start = next((e for e in example.events if isinstance(e, StageStarted) and e.stage == 2), None)
    merges = [e for e in example.events if isinstance(e, MergeEvent)]
    if start is None:
        return ""
    head = (
        QCoreApplication.translate("Guide", "step"),
        QCoreApplication.translate("Guide", "pair"),
        QCoreApplication.translate("Guide", "new token"),
        QCoreApplication.translate("Guide", "count"),
    )
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    shown = [e for e in merges if start.after_step - around < e.step <= start.after_step + around]
    for e in shown:
        if e.step == start.after_step + 1:
            note = QCoreApplication.translate("Guide", "stage 2 starts: merges across spaces")
            rows.append(f"<tr style='background:#FFF3C4'><td colspan='4'>&nbsp;<i>{note}</i></td></tr>")
        pair = f"{_shown(e.left)} + {_shown(e.right)}"
        rows.append(_row([str(e.step), pair, f"<b>{_shown(e.new_token)}</b>", str(e.count)]))
    return "<table border='1' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def _shown(token: str) -> str:
    """A byte-level token as text: its Ġ is the space it stands for, drawn as ␣."""
    from core.bytelevel import chars_to_bytes

    try:
        text = chars_to_bytes(token).decode("utf-8")
    except (KeyError, UnicodeDecodeError, ValueError):
        return html.escape(token)
    return html.escape(text).replace(" ", "␣")


def _picky_log(example, steps: int = 10) -> str:
    """PickyBPE's log: each merge, and under it the tokens it made redundant (removed)."""
    from core.events import MergeEvent, TokenRemoved

    head = (
        QCoreApplication.translate("Guide", "step"),
        QCoreApplication.translate("Guide", "merge or removal"),
        QCoreApplication.translate("Guide", "IoS"),
    )
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for e in example.events:
        if isinstance(e, MergeEvent) and e.step <= steps:
            pair = f"{html.escape(e.left)} + {html.escape(e.right)} → <b>{html.escape(e.new_token)}</b>"
            rows.append(_row([str(e.step), pair, ""]))
        elif isinstance(e, TokenRemoved) and e.step <= steps:
            removed = QCoreApplication.translate("Guide", "removed")
            token = f"<s>{html.escape(e.token)}</s> ({removed})"
            rows.append(_row(["", token, f"{e.ios:.2f}"], " style='color:#B2182B'"))
    return "<table border='1' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def _samples_html(example, chips: Callable) -> str:
    """The BPE example's deterministic cut of a text and seeded BPE-dropout samples of it."""
    from core.sampling import sample_segmentations

    samples = sample_segmentations(
        example.tokenizer, DROPOUT_TEXT, n=DROPOUT_SAMPLES, strength=DROPOUT_P, seed=0
    )
    best = QCoreApplication.translate("Guide", "without dropout")
    parts = [f"<p>{best}:</p>" + chips(list(samples.deterministic.tokens), list(samples.deterministic.ids))]
    for i, s in enumerate(samples.samples, 1):
        label = QCoreApplication.translate("Guide", "sample {0} (p = {1})").format(i, DROPOUT_P)
        parts.append(f"<p>{label}:</p>" + chips(list(s.tokens), list(s.ids)))
    inflation = QCoreApplication.translate(
        "Guide", "These samples have {0:.0%} more tokens on average than the deterministic cut."
    ).format(samples.inflation)
    return "".join(parts) + f"<p>{inflation}</p>"


def _section(prose: str, caption: str, example: str) -> str:
    """A guide paragraph, the caption of its worked example (may be empty) and the example."""
    caption_html = f"<p>{caption}</p>" if caption else ""
    return f"<p>{prose}</p>{caption_html}{example}"


def newer_sections(examples: dict | None, worked: Callable, chips_html: Callable) -> list[tuple[str, str]]:
    """(anchor, body) of the four sections; ``worked(key, draw)`` draws an example or says it is
    still being trained; ``chips_html(tokens, ids, tokenizer)`` draws token chips."""

    def encoded(example) -> str:
        return "".join(
            f"<p><code>{html.escape(text)}</code></p>{chips_html(tokens, ids, example.tokenizer)}"
            for text, tokens, ids in example.encoded
        )

    superbpe = _section(
        QCoreApplication.translate(
            "Guide",
            "SuperBPE (Liu et al., 2025, “SuperBPE: Space Travel for Language Models”) trains in two "
            "stages. Up to a transition point t it is ordinary BPE inside words; after it, the "
            "whitespace split is lifted and BPE goes on learning superwords, tokens that span a space "
            "such as “ the way” or “ sat on the”. A frequent phrase then costs one token. Choose "
            "algorithm superbpe and t in the Training panel; the merge log marks where stage 2 starts "
            "and superword tokens are drawn with their spaces.",
        ),
        QCoreApplication.translate(
            "Guide", "Three sentences repeated five times, t = 285 of 300 tokens (␣ is a space):"
        ),
        worked("superbpe", lambda e: _superbpe_log(e) + encoded(e)),
    )
    picky = _section(
        QCoreApplication.translate(
            "Guide",
            "PickyBPE (Chizhov et al., 2024, “BPE Gets Picky”) removes a token when a merge leaves it "
            "only as a step towards the new one: after each merge it computes each part's "
            "intersection over self (IoS), the share of the part's occurrences that were inside the "
            "new token, and deletes the part when IoS ≥ τ. The merge log shows these deletions, and "
            "the vocabulary is no longer the first k merges, so the slider follows the log.",
        ),
        QCoreApplication.translate(
            "Guide", "Sennrich et al.'s words low ×5, lower ×2, newest ×6, widest ×3 with τ = 0.9:"
        ),
        worked("picky", lambda e: _picky_log(e) + encoded(e)),
    )
    samples = _section(
        QCoreApplication.translate(
            "Guide",
            "BPE-dropout (Provilkov et al., 2020) skips each merge with probability p while encoding, "
            "so the same word is cut in several ways; trained on such cuts a model learns how words "
            "are built. Unigram sampling (Kudo, 2018, subword regularization) draws a cut from the "
            "whole lattice instead. The Samples tab shows several seeded cuts of your text and how "
            "many more tokens they take; <code>subword encode --dropout p --seed s</code> does it in batch.",
        ),
        QCoreApplication.translate("Guide", "The hug / pug model above, with p = 0.5:"),
        worked("bpe", lambda e: _samples_html(e, lambda t, i: chips_html(t, i, e.tokenizer))),
    )
    fallback = _section(
        QCoreApplication.translate(
            "Guide",
            "SentencePiece-style training (Kudo and Richardson, 2018; the sentencepiece-bpe and "
            "sentencepiece-unigram algorithms) trains as spm_train does and saves a .model file. "
            "With byte fallback, as in Llama and Mistral tokenizers, the 256 pieces &lt;0x00&gt; … &lt;0xFF&gt; "
            "join the vocabulary and a character the corpus never had is spelled by its UTF-8 bytes "
            "instead of becoming the unknown token. Compare shows a run's unknown rate with and "
            "without it.",
        ),
        QCoreApplication.translate(
            "Guide", "The four sentences of the Unigram example, 100 pieces, with byte fallback:"
        ),
        worked("byte-fallback", encoded),
    ) + _section(
        QCoreApplication.translate("Guide", "and without it (the Korean and the emoji are unknown):"),
        "",
        worked("no-fallback", encoded),
    )
    return [("superbpe", superbpe), ("picky", picky), ("samples", samples), ("bytefallback", fallback)]


def newer_titles() -> list[tuple[str, str]]:
    return [
        ("superbpe", QCoreApplication.translate("Guide", "SuperBPE")),
        ("picky", QCoreApplication.translate("Guide", "PickyBPE")),
        ("samples", QCoreApplication.translate("Guide", "BPE-dropout and sampling")),
        ("bytefallback", QCoreApplication.translate("Guide", "SentencePiece and byte fallback")),
    ]
