"""Help › User guide (F1): a short illustrated guide inside the app.

    >>> from PySide6.QtCore import QEventLoop
    >>> GuideDialog._cache = None                 # as at a session's first F1: nothing trained yet
    >>> guide = GuideDialog(); guide.show()       # opens at once (F1 gives it the main window as parent)
    >>> "Working the example out with the engine" in guide.browser.toPlainText()
    True
    >>> loop = QEventLoop(); _ = guide.examples_ready.connect(loop.quit)
    >>> loop.exec()                               # the worked examples fill in (about a second)
    0
    >>> guide.show_section("bpe")                 # jump to a section (its anchor)
    >>> guide.failed, sorted(guide.browser.images)
    (None, ['why-bpe.png', 'why-unigram.png'])

What it covers: the main flow, each panel, what BPE, WordPiece, Unigram,
byte-level BPE, SuperBPE, PickyBPE, BPE-dropout and byte fallback do (``guide_newer``), and how
to read the why view. The illustrations are the
app's own output, not pictures: the worked examples of the Examples menu
(``resources/examples``) are trained with the engine when the guide opens, and
their merges, pieces and token chips are drawn as HTML with the colours the
Segmentation panel uses, and two pictures are the real why view drawn offscreen. Training them takes a second or two, so it runs on a
worker thread and the guide shows the prose first, the examples when they are ready.

Every sentence goes through ``QCoreApplication.translate("Guide", …)`` so the
Korean translation can cover it. Leaves out: anything the tooltips already say
field by field (hover an option in the Training panel for its meaning).
"""

from __future__ import annotations

import html
import json
import threading
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from subword_gui.guide_newer import newer_sections, newer_titles, work_newer_examples
from subword_gui.resources import resource_path
from subword_gui.tokens import palette
from subword_gui.tokens.render import render_html, style_for

EXAMPLES_DIR = resource_path("examples")


def _tr(text: str) -> str:
    """Translate a message built elsewhere; literal guide text calls ``QCoreApplication.translate``
    itself so that ``pyside6-lupdate`` finds it."""
    return QCoreApplication.translate("Guide", text)


# -- the worked examples, trained by the engine ------------------------------------------------
@dataclass
class WorkedExample:
    """One example trained: its merges (BPE/WordPiece) and a few encoded words."""

    key: str
    tokenizer: object
    merges: list = field(default_factory=list)  # core.events.MergeEvent
    encoded: list = field(default_factory=list)  # (text, tokens, ids)
    events: list = field(default_factory=list)  # every event training made (stages, removals…)


def _example_spec(file: str, algorithm: str) -> dict:
    data = json.loads((EXAMPLES_DIR / "examples.json").read_text(encoding="utf-8"))
    for ex in data["examples"]:
        if ex["file"] == file and ex["algorithm"] == algorithm and not ex.get("end_of_word_suffix"):
            return ex
    raise KeyError(file)


def _counts_of(ex: dict, options) -> dict[str, int]:
    from core.options import pre_tokenize_lines

    text = (EXAMPLES_DIR / ex["file"]).read_text(encoding="utf-8")
    if ex.get("kind") == "counts":
        return {w: int(c) for w, c in (line.split("\t") for line in text.splitlines() if line.strip())}
    return pre_tokenize_lines(text.splitlines(), options)


def _train(key: str, counts: dict[str, int], options, texts: list[str]) -> WorkedExample:
    from core.events import MergeEvent
    from core.training import train_from_counts

    events: list = []
    gen = train_from_counts(counts, options)
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            tok = stop.value
            break
    encoded = []
    for text in texts:
        enc = tok.encode(text)
        encoded.append((text, list(enc.tokens), list(enc.ids)))
    return WorkedExample(key, tok, [e for e in events if isinstance(e, MergeEvent)], encoded, events)


def work_examples() -> dict[str, WorkedExample]:
    """Train the guide's worked examples (Qt-free; about a second in all).

    >>> [(e.left, e.right, e.count) for e in work_examples()["bpe"].merges]
    [('u', 'g', 20), ('u', 'n', 16), ('h', 'ug', 15)]
    """
    from core.options import TrainOptions

    def options_of(ex: dict, **override) -> TrainOptions:
        values = dict(
            algorithm=ex["algorithm"],
            vocab_size=int(ex["vocab_size"]),
            pre_tokenizer=ex.get("pre_tokenizer"),
            normalizer=ex.get("normalizer"),
            special_tokens=ex.get("special_tokens"),
            extra=dict(ex.get("extra") or {}),
        )
        values.update(override)
        return TrainOptions(**values)

    out: dict[str, WorkedExample] = {}
    hug = _example_spec("hug-pug.tsv", "bpe")
    hug_counts = _counts_of(hug, None)
    out["bpe"] = _train("bpe", hug_counts, options_of(hug), ["hugs", "pug bug mug"])
    out["wordpiece"] = _train(
        "wordpiece",
        hug_counts,
        TrainOptions("wordpiece", vocab_size=16),
        ["hugs", "bugs", "mug"],
    )
    out["bytelevel"] = _train(
        "bytelevel",
        hug_counts,
        TrainOptions("bytelevel-bpe", vocab_size=260, pre_tokenizer="bytelevel"),
        ["hugs mug", "안녕 👋🏽"],
    )
    uni = _example_spec("unigram-four-sentences.txt", "unigram")
    uni_options = options_of(uni)
    out["unigram"] = _train(
        "unigram", _counts_of(uni, uni_options), uni_options, ["This section", "Hopefully tokenization"]
    )
    ko = _example_spec("cheolsu.tsv", "bpe")
    out["korean"] = _train("korean", _counts_of(ko, None), options_of(ko), ["철수는 볶음밥을 먹고 있다"])
    out.update(work_newer_examples(_train, EXAMPLES_DIR))
    return out


def replay_merges(word: str, merges: list) -> list[tuple[int, str, str, list[str]]]:
    """The symbols of ``word`` after each merge that applies to it, in merge order
    (how a BPE encoder cuts a word, and what the why view draws).

    >>> [(n, s) for n, _l, _r, s in replay_merges("hugs", [("u", "g"), ("u", "n"), ("h", "ug")])]
    [(1, ['h', 'ug', 's']), (3, ['hug', 's'])]
    """
    symbols = list(word)
    steps = []
    for rank, merge in enumerate(merges, start=1):
        left, right = merge[0], merge[1]
        out, i, applied = [], 0, False
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
                out.append(left + right)
                i += 2
                applied = True
            else:
                out.append(symbols[i])
                i += 1
        if applied:
            symbols = out
            steps.append((rank, left, right, list(symbols)))
    return steps


# -- drawing ---------------------------------------------------------------------------------------
def chips_html(tokens: list[str], ids: list[int], tokenizer=None) -> str:
    """Tokens drawn as the Segmentation panel's chips: one coloured box per token, its id below."""
    style = style_for(tokenizer)
    cells = []
    unk = tokenizer.model.unk_token if tokenizer is not None else None
    for token, colour, i in zip(tokens, palette.token_colours(ids), ids):
        if token == unk:
            bg, fg = palette.UNKNOWN_BACKGROUND.name(), palette.UNKNOWN_FOREGROUND.name()
            body = html.escape(token)
        else:
            bg, fg = colour.name(), "#000000"
            body = render_html(token, style)
        cells.append(
            f"<td align='center' style='background:{bg}; color:{fg}; padding:3px 6px;'>"
            f"<span style='font-size:13pt'>{body}</span><br><span style='font-size:8pt'>{i}</span></td>"
        )
    return "<table cellspacing='3' cellpadding='0'><tr>" + "".join(cells) + "</tr></table>"


def _merges_table(merges: list, limit: int = 8, score: bool = False) -> str:
    head = (
        QCoreApplication.translate("Guide", "step"),
        QCoreApplication.translate("Guide", "pair"),
        QCoreApplication.translate("Guide", "new token"),
        QCoreApplication.translate("Guide", "count"),
    )
    score_head = QCoreApplication.translate("Guide", "score")  # (not inside an f-string: lupdate reads it)
    rows = ["<tr>" + "".join(f"<th>{h}</th>" for h in head) + (f"<th>{score_head}</th>" if score else "")]
    for e in merges[:limit]:
        pair = f"{html.escape(e.left)} + {html.escape(e.right)}"
        cells = [str(e.step), pair, f"<b>{html.escape(e.new_token)}</b>", str(e.count)]
        if score:
            cells.append(f"{e.score:.4f}")
        rows.append("<tr>" + "".join(f"<td>&nbsp;{c}&nbsp;</td>" for c in cells) + "</tr>")
    return "<table border='1' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def _replay_html(word: str, merges: list) -> str:
    pairs = [(e.left, e.right) for e in merges]
    lines = [f"<code>{' '.join(html.escape(c) for c in word)}</code>"]
    for rank, left, right, symbols in replay_merges(word, pairs):
        new = left + right
        shown = " ".join(f"<b>{html.escape(s)}</b>" if s == new else html.escape(s) for s in symbols)
        lines.append(f"#{rank} {html.escape(left)} + {html.escape(right)} → <code>{shown}</code>")
    return "<br>".join(lines)


def _encoded_html(example: WorkedExample) -> str:
    parts = []
    for text, tokens, ids in example.encoded:
        parts.append(f"<p><code>{html.escape(text)}</code></p>{chips_html(tokens, ids, example.tokenizer)}")
    return "".join(parts)


def _section(anchor: str, title: str, body: str) -> str:
    return f"<h2><a name='{anchor}'></a>{title}</h2>{body}"


WHY_IMAGES = {  # image name -> (worked example, the piece its why view explains, picture size)
    "why-bpe.png": ("bpe", "hugs", (640, 220)),
    # the lattice of a 13-letter word has many rows, and the n-best list goes under it
    "why-unigram.png": ("unigram", "▁tokenization", (640, 470)),
}


def draw_why_views(examples: dict[str, WorkedExample]) -> dict[str, QImage]:
    """The real why view, drawn offscreen for the guide's pictures (GUI thread only)."""
    from subword_gui.tokens.why_view import WhyView

    images = {}
    for name, (key, piece, size) in WHY_IMAGES.items():
        if key not in examples:
            continue
        view = WhyView()
        view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        view.resize(*size)
        view.show()  # offscreen: lays it out so grab() draws what a user would see
        view.show_piece(examples[key].tokenizer, piece)
        image = view.grab().toImage()
        height = size[1]
        if view.kind != "unigram":
            # the steps list has a minimum height: the picture keeps only the rows the word needs
            steps = view.steps
            top = steps.mapTo(view, QPoint(0, 0)).y()
            height = top + int(steps.document().size().height()) + 2 * steps.frameWidth() + 6
        images[name] = image.copy(0, 0, image.width(), min(image.height(), height))
        view.close()
        view.deleteLater()
    return images


class _GuideBrowser(QTextBrowser):
    """A text browser that also serves the guide's drawn pictures by name."""

    def __init__(self):
        super().__init__()
        self.images: dict[str, QImage] = {}

    def loadResource(self, kind: int, url):  # noqa: N802
        if kind == QTextDocument.ResourceType.ImageResource.value and url.toString() in self.images:
            return self.images[url.toString()]
        return super().loadResource(kind, url)


def guide_html(examples: dict[str, WorkedExample] | None, images: frozenset | set = frozenset()) -> str:
    """The whole guide; ``examples`` None: the worked examples are still being trained.
    ``images``: the names of the drawn pictures available (see ``draw_why_views``)."""
    waiting = (
        f"<p><i>{QCoreApplication.translate('Guide', 'Working the example out with the engine…')}</i></p>"
    )

    def worked(key: str, draw) -> str:
        return draw(examples[key]) if examples and key in examples else waiting

    contents = [
        ("flow", QCoreApplication.translate("Guide", "The main flow")),
        ("panels", QCoreApplication.translate("Guide", "The panels")),
        ("bpe", QCoreApplication.translate("Guide", "BPE")),
        ("wordpiece", QCoreApplication.translate("Guide", "WordPiece")),
        ("unigram", QCoreApplication.translate("Guide", "Unigram")),
        ("bytelevel", QCoreApplication.translate("Guide", "Byte-level BPE")),
        *newer_titles(),
        ("korean", QCoreApplication.translate("Guide", "Korean text")),
        ("why", QCoreApplication.translate("Guide", "Reading the why view")),
        ("keys", QCoreApplication.translate("Guide", "Keys")),
        ("measures", QCoreApplication.translate("Guide", "The report card's measures")),
    ]
    titles = dict(contents)
    heading = QCoreApplication.translate("Guide", "Subword Explorer: a short guide")
    out = [f"<h1>{heading}</h1>"]
    out.append(
        "<p>"
        + QCoreApplication.translate(
            "Guide",
            "A subword tokenizer cuts text into pieces from a fixed vocabulary that it learned from a "
            "corpus. This app trains one in front of you, lets you shrink its vocabulary and shows "
            "how any text you type is cut, and why.",
        )
        + "</p>"
    )
    out.append("<p>" + " · ".join(f"<a href='#{a}'>{html.escape(t)}</a>" for a, t in contents) + "</p>")
    steps = [
        QCoreApplication.translate(
            "Guide",
            "<b>Open a corpus</b>: File › Open corpus (Ctrl+O), drop a text file on the window, or pick "
            "an entry of the Examples menu (a textbook example with its own options).",
        ),
        QCoreApplication.translate(
            "Guide",
            "<b>Train</b> (Ctrl+T) in the Training panel: choose the algorithm and vocab size first. "
            "The merge log and the plots grow live; Step (Ctrl+Shift+T) goes one merge at a time; "
            "Esc cancels.",
        ),
        QCoreApplication.translate(
            "Guide",
            "<b>Move the Vocab size slider</b>: the model is cut to its first k tokens and every panel "
            "follows, so you see what a smaller vocabulary does to the same text.",
        ),
        QCoreApplication.translate(
            "Guide",
            "<b>Type or paste text</b> in the Segmentation panel. Each token gets a colour; hover one "
            "for its id, bytes and offsets; click one to see why it was cut that way.",
        ),
        QCoreApplication.translate(
            "Guide",
            "<b>Compare and keep</b>: every finished run is in the Runs panel; add runs as Compare "
            "columns, rename them, save them (Ctrl+S saves the shown tokenizer).",
        ),
    ]
    out.append(_section("flow", titles["flow"], "<ol>" + "".join(f"<li>{s}</li>" for s in steps) + "</ol>"))
    panels = [
        (
            QCoreApplication.translate("Guide", "Corpus"),
            QCoreApplication.translate(
                "Guide", "What the corpus holds: its words and characters, by count, searchable."
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Training"),
            QCoreApplication.translate(
                "Guide", "Options, Train / Step / Cancel, the merge log (or Unigram rounds) and live plots."
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Vocab size"),
            QCoreApplication.translate(
                "Guide", "The slider that cuts the trained model to a smaller vocabulary."
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Segmentation"),
            QCoreApplication.translate(
                "Guide", "Your text, coloured by token; the token chips with their ids; the why view."
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Vocabulary"),
            QCoreApplication.translate(
                "Guide",
                "Every token of the model, searchable, and the merges that built it; the hygiene list "
                "tints the tokens that are unreachable, undecodable, never used or only a merge step.",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Compare"),
            QCoreApplication.translate(
                "Guide",
                "One text under several tokenizers side by side: grey where they agree, a magenta bar "
                "at each boundary not all of them have, and their statistics. Its Report card tab "
                "measures every column over the whole corpus and exports the card as one HTML page.",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Runs"),
            QCoreApplication.translate(
                "Guide",
                "Every training run of the session: show it again, compare, rename, save or discard. "
                "The shown one comes back when you relaunch.",
            ),
        ),
    ]
    rows = "".join(f"<tr><td><b>{p}</b></td><td>{d}</td></tr>" for p, d in panels)
    out.append(
        _section(
            "panels",
            titles["panels"],
            f"<table cellpadding='3'>{rows}</table><p>"
            + QCoreApplication.translate(
                "Guide",
                "View › (Alt+1 … Alt+7) shows or hides each panel; View › Reset layout puts them back.",
            )
            + "</p>",
        )
    )
    out.append(
        _section(
            "bpe",
            titles["bpe"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Byte-pair encoding (Sennrich et al., 2016) starts from single characters and repeatedly "
                "merges the pair of neighbouring symbols that occurs most often in the corpus, until the "
                "vocabulary has the size you asked for. The merges, in order, are the model.",
            )
            + "</p><p>"
            + QCoreApplication.translate(
                "Guide",
                "The Hugging Face course's example (Examples › hug / pug / pun / bun / hugs): the words "
                "hug ×10, pug ×5, pun ×12, bun ×4 and hugs ×5. The engine learns:",
            )
            + "</p>"
            + worked("bpe", lambda e: _merges_table(e.merges))
            + "<p>"
            + QCoreApplication.translate(
                "Guide", "To encode a word, the merges are applied in the order they were learned:"
            )
            + "</p>"
            + worked("bpe", lambda e: "<p>" + _replay_html("hugs", e.merges) + "</p>" + _encoded_html(e))
            + "<p>"
            + QCoreApplication.translate(
                "Guide",
                "m was never in the corpus, so it is the unknown token (red); b was, so it stays a "
                "letter of its own.",
            )
            + "</p>",
        )
    )
    out.append(
        _section(
            "wordpiece",
            titles["wordpiece"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "WordPiece (used by BERT) also merges pairs, but ranks a pair by "
                "count(pair) / (count(first) × count(second)): a pair wins when its parts are rarely "
                "seen apart. Pieces inside a word carry the prefix ##. To encode, it takes the longest "
                "vocabulary entry that matches at the start of the word, then again from where that "
                "ended; if nothing matches, the whole word becomes the unknown token.",
            )
            + "</p><p>"
            + QCoreApplication.translate("Guide", "The same hug / pug counts, trained to 16 tokens:")
            + "</p>"
            + worked("wordpiece", lambda e: _merges_table(e.merges, score=True) + _encoded_html(e)),
        )
    )
    out.append(
        _section(
            "unigram",
            titles["unigram"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Unigram (Kudo, 2018; SentencePiece) works the other way round: it starts from a large "
                "set of candidate pieces, gives each a probability, and removes the pieces whose loss "
                "would hurt the corpus least, round after round, until the vocabulary is small enough. "
                "To encode, it picks the cut whose pieces have the highest total log-probability "
                "(the Viterbi path through the lattice of all possible cuts).",
            )
            + "</p><p>"
            + QCoreApplication.translate(
                "Guide",
                "The Hugging Face course's four sentences (Examples › Four sentences), pre-tokenized the "
                "SentencePiece way (▁ marks a word start), trained to 100 pieces:",
            )
            + "</p>"
            + worked("unigram", _encoded_html),
        )
    )
    out.append(
        _section(
            "bytelevel",
            titles["bytelevel"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Byte-level BPE (the GPT-2 paper, Radford et al., 2019) runs BPE over the UTF-8 bytes "
                "of the text instead of its characters. Its alphabet is the 256 byte values, so no text "
                "is ever unknown: a character the corpus never had is spelled by its bytes. A Korean "
                "syllable is three bytes; 👋🏽 (a hand and a skin tone) is eight.",
            )
            + "</p><p>"
            + QCoreApplication.translate(
                "Guide",
                "Trained on the hug / pug counts, it knows hug but has never seen Korean or emoji; "
                "their bytes are drawn ⟨like this⟩ where a token is not a whole character:",
            )
            + "</p>"
            + worked("bytelevel", _encoded_html),
        )
    )
    for key, body in newer_sections(examples, worked, chips_html):
        out.append(_section(key, titles[key], body))
    out.append(
        _section(
            "korean",
            titles["korean"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Korean words (어절) glue particles and endings to their stems, so how a tokenizer cuts "
                "them matters a lot (Park et al., 2020 compare syllable, morpheme and subword cuts). "
                "Examples › 철수는 / 치킨을 / 먹고 / 볶음밥을 / 있다 counts five 어절; BPE over syllables "
                "learns:",
            )
            + "</p>"
            + worked("korean", lambda e: _merges_table(e.merges) + _encoded_html(e)),
        )
    )
    out.append(
        _section(
            "why",
            titles["why"],
            "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Click a token (or move the cursor onto it) and the why view below the chips explains "
                "the word it belongs to:",
            )
            + "</p><ul><li>"
            + QCoreApplication.translate(
                "Guide",
                "<b>BPE</b>: the word's characters on the first row, then one row per merge that applied, "
                "in the order the encoder applies them, the new symbol highlighted (as in the hugs "
                "example above). Unknown characters are red.",
            )
            + "</li><li>"
            + QCoreApplication.translate(
                "Guide",
                "<b>WordPiece</b>: the greedy walk: at each position, the longest vocabulary entry "
                "that matches; a position with no match turns the whole word into the unknown token.",
            )
            + "</li><li>"
            + QCoreApplication.translate(
                "Guide",
                "<b>Unigram</b>: the lattice: the characters along the top, every candidate piece as a "
                "box under the characters it spans with its log-probability, the chosen path "
                "highlighted; below it the next-best cuts and a few sampled ones.",
            )
            + "</li></ul>"
            + "".join(
                f"<p><img src='{name}'><br><i>{html.escape(caption)}</i></p>"
                for name, caption in (
                    (
                        "why-bpe.png",
                        QCoreApplication.translate(
                            "Guide", "The why view of hugs under the BPE example above."
                        ),
                    ),
                    (
                        "why-unigram.png",
                        QCoreApplication.translate(
                            "Guide", "The why view of ▁tokenization under the Unigram example."
                        ),
                    ),
                )
                if name in images
            )
            + "<p>"
            + QCoreApplication.translate(
                "Guide",
                "Colours: each token id keeps its colour; <span style='background:#D7191C; color:white'>"
                "&nbsp;unknown&nbsp;</span> tokens are red, <span style='background:#3B4A5A; color:white'>"
                "&nbsp;special&nbsp;</span> ones dark, and characters no token covers are grey and struck "
                "through. In tooltips, offsets count characters from the start of the line.",
            )
            + "</p>",
        )
    )
    keys = [
        ("F1", QCoreApplication.translate("Guide", "this guide")),
        ("Ctrl+O", QCoreApplication.translate("Guide", "open a corpus")),
        ("Ctrl+T / Ctrl+Shift+T", QCoreApplication.translate("Guide", "train / step one merge")),
        ("Esc", QCoreApplication.translate("Guide", "cancel counting or training")),
        ("Ctrl+S / Ctrl+Shift+S", QCoreApplication.translate("Guide", "save the shown tokenizer / save as")),
        ("Ctrl+Shift+C / Ctrl+Shift+I", QCoreApplication.translate("Guide", "copy the text's tokens / ids")),
        (
            "Alt+← / Alt+→",
            QCoreApplication.translate("Guide", "walk the text token by token (the why view follows)"),
        ),
        ("Alt+1 … Alt+7", QCoreApplication.translate("Guide", "show or hide a panel")),
    ]
    rows = "".join(f"<tr><td><b>{k}</b></td><td>{d}</td></tr>" for k, d in keys)
    out.append(_section("keys", titles["keys"], f"<table cellpadding='3'>{rows}</table>"))
    out.append(_section("measures", titles["measures"], _measures_html()))
    return "".join(out)


def _measures_html() -> str:
    """One sentence per measure of the report card (Compare › Report card), with its source."""
    measures = [
        (
            QCoreApplication.translate("Guide", "tokens / word, character, byte"),
            QCoreApplication.translate(
                "Guide",
                "What a word (어절), a character or a byte of the corpus costs in tokens; tokens per word "
                "is the fertility of Rust et al. 2021, per byte the cost Petrov et al. 2023 compare.",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "baselines"),
            QCoreApplication.translate(
                "Guide",
                "One token per character, and one token per whole word with the corpus's most frequent "
                "words as a vocabulary of the same size and the share of words it leaves unknown: the "
                "two textbook bounds a subword tokenizer sits between.",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "unknown tokens"),
            QCoreApplication.translate(
                "Guide", "The share of tokens that are the unknown token: text the vocabulary cannot spell."
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Rényi efficiency"),
            QCoreApplication.translate(
                "Guide",
                "The Rényi entropy (order α, 3 by default) of how often each token is used, over its "
                "largest value: higher uses the vocabulary more evenly (Zouhar et al. 2023, "
                "“Tokenization and the Noiseless Channel”; equal to the tokenization-scorer package).",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "Shannon efficiency"),
            QCoreApplication.translate("Guide", "The same with Shannon entropy, α = 1 (Zouhar et al. 2023)."),
        ),
        (
            QCoreApplication.translate("Guide", "premium and Gini"),
            QCoreApplication.translate(
                "Guide",
                "Given parallel files, what the same sentences cost in each language over the pivot "
                "language, and one Gini coefficient for the spread (Petrov et al. 2023, “Language Model "
                "Tokenizers Introduce Unfairness Between Languages”).",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "boundary precision, recall, F1"),
            QCoreApplication.translate(
                "Guide",
                "For Korean and Japanese, how the cuts inside words fall on the morpheme boundaries of "
                "kiwipiepy or SudachiPy (in the spirit of MorphScore, Arnett & Bergen 2024; for Korean, "
                "the question of Park et al. 2020).",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "unreachable, undecodable"),
            QCoreApplication.translate(
                "Guide",
                "Tokens that encoding their own text never gives, and tokens that do not decode to whole "
                "characters (Land & Bartolo 2024, “Fishing for Magikarp”).",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "byte and control pieces, never used"),
            QCoreApplication.translate(
                "Guide",
                "Byte pieces, tokens of control or private-use characters, and tokens the corpus never "
                "uses (Land & Bartolo 2024).",
            ),
        ),
        (
            QCoreApplication.translate("Guide", "intermediate-only"),
            QCoreApplication.translate(
                "Guide",
                "Unused tokens that are a part of some merge: only steps towards other tokens (Chizhov et "
                "al. 2024, “BPE Gets Picky”, PickyBPE).",
            ),
        ),
    ]
    rows = "".join(f"<tr><td><b>{m}</b></td><td>{d}</td></tr>" for m, d in measures)
    intro = QCoreApplication.translate(
        "Guide",
        "Compare › Report card computes these for every column in the background and marks the best of "
        "each row; Export report… writes them, with the plots, the corpus, the options and the versions, "
        "as one HTML file. The Vocabulary panel's hygiene list tints the tokens of one list. The command "
        "line does the same: subword evaluate.",
    )
    return f"<p>{intro}</p><table cellpadding='3'>{rows}</table>"


class _Worker(QObject):
    done = Signal(object)  # dict[str, WorkedExample] | str (why it failed)


class GuideDialog(QDialog):
    """The guide in a non-modal window; the worked examples fill in when trained."""

    examples_ready = Signal()
    _cache: dict | None = None  # the worked examples, trained once per session

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Subword Explorer — User guide"))
        self.resize(860, 720)
        self.browser = _GuideBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setOpenLinks(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.failed: str | None = None
        if GuideDialog._cache is not None:
            self.browser.images = draw_why_views(GuideDialog._cache)
        self.browser.setHtml(guide_html(GuideDialog._cache, set(self.browser.images)))
        if GuideDialog._cache is None:
            self._worker = _Worker()
            self._worker.done.connect(self._examples_worked, Qt.ConnectionType.QueuedConnection)
            # subtle: training the five examples takes a second or two: a thread, so the guide
            # (and the window behind it) stay responsive while they are worked out
            threading.Thread(target=self._work, daemon=True).start()

    def _work(self) -> None:
        try:
            result: object = work_examples()
        except Exception as exc:  # noqa: BLE001 - shown in the guide, never raised into Qt
            result = f"{type(exc).__name__}: {exc}"
        self._worker.done.emit(result)

    def _examples_worked(self, result) -> None:
        if isinstance(result, str):
            self.failed = result
            self.browser.setHtml(
                guide_html(None).replace(
                    QCoreApplication.translate("Guide", "Working the example out with the engine…"),
                    QCoreApplication.translate("Guide", "The example could not be worked out: ")
                    + html.escape(result),
                )
            )
        else:
            GuideDialog._cache = result
            scroll = self.browser.verticalScrollBar().value()
            self.browser.images = draw_why_views(result)
            self.browser.setHtml(guide_html(result, set(self.browser.images)))
            self.browser.verticalScrollBar().setValue(scroll)
        self.examples_ready.emit()

    def show_section(self, anchor: str) -> None:
        self.browser.scrollToAnchor(anchor)

    def html(self) -> str:
        return self.browser.toHtml()
