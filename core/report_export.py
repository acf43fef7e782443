"""The report card (``core.measures.Report``) as a text table, a JSON document and one HTML file.

    >>> from core.events import drain
    >>> from core.measures import report
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "hugs": 5}
    >>> small, large = (drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=n))) for n in (7, 10))
    >>> card = drain(report({"small": small, "large": large}, ["hug pug hug", "pug hugs"], language=None))
    >>> print(format_table(card).splitlines()[2])   # one column per tokenizer, the best value marked *
      tokens / word                                 2.200   1.000*
    >>> render_html(card).startswith("<!DOCTYPE html>")   # one self-contained file
    True

One list, :data:`ROWS`, says what each row shows, how it is formatted and which way is
better; the table, the JSON and the HTML all read it, so a measure added there appears in
all three. The HTML is self-contained (its style and SVG bar charts inline, no script, no
link out), to attach to a paper as it is.

Leaves out: drawing with any plotting library (the bars are a few SVG rectangles).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.measures import Report, TokenizerReport

BEST_MARK = "*"
_HTML_EXAMPLES = 40  # tokens listed per hygiene list in the HTML (the JSON has them all)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the card: ``value(report, tokenizer_row)``, None where it does not apply."""

    section: str
    label: str
    value: Callable[[Report, TokenizerReport], float | None]
    better: str | None  # "low", "high" or None (nothing to mark)
    kind: str = "ratio"  # "ratio" (3 decimals), "percent", "count"
    chart: bool = False  # drawn as bars in the HTML


def _hyg(name: str) -> Callable[[Report, TokenizerReport], float | None]:
    def value(report: Report, row: TokenizerReport) -> float | None:
        found = getattr(row.hygiene, name)
        return None if found is None else len(found)

    return value


def _alignment(name: str) -> Callable[[Report, TokenizerReport], float | None]:
    return lambda report, row: None if row.alignment is None else getattr(row.alignment, name)


ROWS: list[Row] = [
    Row("Compression", "tokens / word", lambda r, t: t.compression.tokens_per_word, "low", chart=True),
    Row("Compression", "tokens / character", lambda r, t: t.compression.tokens_per_character, "low"),
    Row("Compression", "tokens / byte", lambda r, t: t.compression.tokens_per_byte, "low"),
    Row("Compression", "bytes / token", lambda r, t: t.compression.bytes_per_token, "high"),
    Row("Compression", "unknown tokens", lambda r, t: t.unknown_rate, "low", "percent"),
    Row("Compression", "baseline: characters, tokens / word", lambda r, t: r.character_baseline.tokens_per_word, None),
    Row("Compression", "baseline: words at this vocab size, unknown", lambda r, t: t.word_baseline.unknown_rate, None, "percent"),
    Row("Distribution", "Rényi efficiency", lambda r, t: t.renyi, "high", chart=True),
    Row("Distribution", "Shannon efficiency", lambda r, t: t.shannon, "high"),
    Row("Distribution", "vocabulary used", lambda r, t: t.vocab_used, "high", "percent"),
    Row("Distribution", "vocabulary size", lambda r, t: t.vocab_size, None, "count"),
    Row("Morphology", "boundary precision", _alignment("precision"), "high"),
    Row("Morphology", "boundary recall", _alignment("recall"), "high"),
    Row("Morphology", "boundary F1", _alignment("f1"), "high", chart=True),
    Row("Parity", "Gini across languages", lambda r, t: None if t.parity is None else t.parity.gini, "low"),
    Row("Hygiene", "unreachable", _hyg("unreachable"), "low", "count"),
    Row("Hygiene", "undecodable", _hyg("undecodable"), "low", "count"),
    Row("Hygiene", "byte pieces", _hyg("byte_pieces"), None, "count"),
    Row("Hygiene", "control pieces", _hyg("control_pieces"), None, "count"),
    Row("Hygiene", "never used on the corpus", _hyg("unused"), "low", "count"),
    Row("Hygiene", "intermediate-only", _hyg("intermediate_only"), "low", "count"),
    Row("Hygiene", "special", _hyg("special"), None, "count"),
]  # fmt: skip


def _premium_rows(report: Report) -> list[Row]:
    """One row per language of the parallel files: its token premium over the pivot."""
    if report.pivot is None:
        return []
    first = next((t.parity for t in report.tokenizers if t.parity is not None), None)
    languages = list(first.premiums) if first is not None else []

    def premium(lang: str) -> Callable[[Report, TokenizerReport], float | None]:
        return lambda r, t: None if t.parity is None else t.parity.premiums.get(lang)

    return [
        Row("Parity", f"premium {lang} / {report.pivot}", premium(lang), None if lang == report.pivot else "low")
        for lang in languages
    ]  # fmt: skip


def rows_of(report: Report) -> list[Row]:
    """The rows that apply to ``report`` (no Morphology without alignment, no Parity without files)."""
    rows: list[Row] = []
    for row in ROWS:
        if row.section == "Morphology" and report.alignment_lines == 0:
            continue
        if row.section == "Parity":
            if report.pivot is None:
                continue
            if not any(r.section == "Parity" for r in rows):
                rows += _premium_rows(report)
        rows.append(row)
    return rows


def values_of(report: Report, row: Row) -> list[float | None]:
    return [row.value(report, t) for t in report.tokenizers]


def best_of(values: Sequence[float | None], better: str | None) -> set[int]:
    """Columns holding the best value (all of a tie); none with fewer than two values to compare.

    >>> sorted(best_of([1.5, 1.2, 1.2], "low")), best_of([0.5, None], "high")
    ([1, 2], set())
    """
    known = [(i, v) for i, v in enumerate(values) if v is not None and not math.isnan(v)]
    if better is None or len(known) < 2:
        return set()
    pick = min if better == "low" else max
    top = pick(v for _, v in known)
    if all(v == top for _, v in known):
        return set()  # everyone is best: nothing to point at
    return {i for i, v in known if math.isclose(v, top, rel_tol=1e-12, abs_tol=1e-15)}


def format_value(value: float | None, kind: str) -> str:
    """``1.234``, ``12.5%``, ``1,234``; ``–`` where the measure does not apply or is undefined."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if kind == "percent":
        return f"{value:.1%}"
    if kind == "count":
        return f"{int(value):,}"
    return f"{value:.3f}"


def format_table(report: Report) -> str:
    """The card as aligned text, one column per tokenizer, the best value of a row marked ``*``."""
    names = [t.name for t in report.tokenizers]
    lines: list[list[str]] = [["", *names]]
    section = None
    for row in rows_of(report):
        if row.section != section:
            section = row.section
            lines.append([_section_title(report, section)] + [""] * len(names))
        values = values_of(report, row)
        best = best_of(values, row.better)
        cells = [format_value(v, row.kind) + (BEST_MARK if i in best else " ") for i, v in enumerate(values)]
        lines.append(["  " + row.label, *cells])
    widths = [max(len(line[c]) for line in lines) for c in range(len(lines[0]))]
    out = []
    for line in lines:
        first = line[0].ljust(widths[0])
        rest = [cell.rjust(w + 1) if cell else " " * (w + 1) for cell, w in zip(line[1:], widths[1:])]
        out.append((first + "  " + " ".join(rest)).rstrip())
    out.append("")
    out.append(_summary(report) + f"  ({BEST_MARK}: best of the row)")
    return "\n".join(out) + "\n"


def _section_title(report: Report, section: str) -> str:
    if section == "Morphology":
        analyser = {"ko": "kiwipiepy", "ja": "SudachiPy"}.get(report.language or "", "")
        return f"Morphology ({report.language}, {analyser}, {report.alignment_lines:,} lines)"
    if section == "Parity":
        return f"Parity (pivot {report.pivot}, {report.parallel_lines:,} parallel lines)"
    if section == "Distribution":
        return f"Distribution (Rényi α = {report.alpha:g})"
    return section


def _summary(report: Report) -> str:
    s = report.sizes
    return f"{s.lines:,} lines, {s.words:,} words, {s.characters:,} characters, {s.bytes:,} bytes"


# -- JSON -------------------------------------------------------------------------------------


def report_dict(report: Report, about: dict[str, Any] | None = None) -> dict[str, Any]:
    """The card as plain data: every figure, and each hygiene list in full as ``[id, token]``."""
    rows = rows_of(report)
    tokenizers = []
    for t, tok_about in zip(
        report.tokenizers, (about or {}).get("tokenizers", [{}] * len(report.tokenizers))
    ):
        hygiene = {}
        for name in (
            "special",
            "unreachable",
            "undecodable",
            "byte_pieces",
            "control_pieces",
            "unused",
            "intermediate_only",
        ):
            found = getattr(t.hygiene, name)
            hygiene[name] = None if found is None else [[i, _token(tok_about, i)] for i in found]
        tokenizers.append(
            {
                "name": t.name,
                **{k: v for k, v in tok_about.items() if k != "tokens"},
                "vocab_size": t.vocab_size,
                "tokens": t.compression.tokens,
                "unknown": t.unknown,
                "types_used": t.types_used,
                "measures": {row.label: _plain(row.value(report, t)) for row in rows},
                "alignment": None
                if t.alignment is None
                else {"matched": t.alignment.matched, "predicted": t.alignment.predicted, "gold": t.alignment.gold},
                "parity": None
                if t.parity is None
                else {"pivot": t.parity.pivot, "tokens": t.parity.tokens, "premiums": t.parity.premiums, "gini": t.parity.gini},
                "hygiene": hygiene,
            }
        )  # fmt: skip
    s = report.sizes
    return {
        **{k: v for k, v in (about or {}).items() if k != "tokenizers"},
        "corpus_sizes": {
            "lines": s.lines,
            "words": s.words,
            "characters": s.characters,
            "bytes": s.bytes,
            "non_space_characters": s.letters,
        },
        "options": {
            "alpha": report.alpha,
            "language": report.language,
            "alignment_lines": report.alignment_lines,
            "pivot": report.pivot,
            "parallel_lines": report.parallel_lines,
        },
        "tokenizers": tokenizers,
    }


def _token(about: dict[str, Any], i: int) -> str | None:
    tokens = about.get("tokens")
    return tokens(i) if tokens is not None else None


def _plain(value: float | None) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


# -- HTML -------------------------------------------------------------------------------------

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.section td { font-weight: 600; background: #f4f4f4; }
td.best { font-weight: 700; color: #0a6b2b; }
.about td { text-align: left; } .note { color: #666; }
code { font-size: .95em; } svg text { font: 12px system-ui, sans-serif; }
details { margin: .3em 0; }
"""
_COLOURS = ["#3b6fb6", "#d9822b", "#3a9a5b", "#b8473f", "#7d5ba6", "#8c6d31"]


def render_html(report: Report, about: dict[str, Any] | None = None) -> str:
    """The card as one self-contained HTML page: what it was made from, the table, bar charts
    of the charted rows, and the first tokens of each hygiene list."""
    about = about or {}
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Tokenizer report card: {e(str(about.get('corpus', 'corpus')))}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Tokenizer report card — {e(str(about.get('corpus', 'corpus')))}</h1>",
        _about_table(report, about),
        "<h2>Measures</h2>",
        _html_table(report),
        f'<p class="note">Bold: the best value of a row. {e(_summary(report))}. '
        "What each measure means: docs/measures.md of Subword Explorer.</p>",
        "<h2>Charts</h2>",
    ]
    rows = [row for row in rows_of(report) if row.chart]
    for row in rows:
        parts.append(_bar_chart(report, row))
    parts.append(_parity_chart(report))
    parts.append(_curve_chart(report, about.get("renyi_curve")))
    parts.append("<h2>Vocabulary hygiene</h2>")
    parts.append(_hygiene_lists(report, about))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _about_table(report: Report, about: dict[str, Any]) -> str:
    e = html.escape
    items: list[tuple[str, str]] = [("corpus", str(about.get("corpus", "")))]
    for t, info in zip(report.tokenizers, about.get("tokenizers", [])):
        items.append((f"tokenizer {t.name}", f"{info.get('path', '')} ({info.get('format', '')})"))
    options = {
        "Rényi α": f"{report.alpha:g}",
        "alignment": f"{report.language or 'none'}, {report.alignment_lines:,} lines",
        "parity pivot": report.pivot or "none",
    }
    items += list(options.items())
    for name, version in (about.get("versions") or {}).items():
        items.append((f"version of {name}", str(version)))
    if about.get("created"):
        items.append(("made", str(about["created"])))
    body = "".join(f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in items)
    return f'<table class="about">{body}</table>'


def _html_table(report: Report) -> str:
    e = html.escape
    head = "".join(f"<th>{e(t.name)}</th>" for t in report.tokenizers)
    out = [f"<table><tr><th>measure</th>{head}</tr>"]
    section = None
    for row in rows_of(report):
        if row.section != section:
            section = row.section
            out.append(
                f'<tr class="section"><td colspan="{len(report.tokenizers) + 1}">'
                f"{e(_section_title(report, section))}</td></tr>"
            )
        values = values_of(report, row)
        best = best_of(values, row.better)
        cells = "".join(
            f'<td class="best">{e(format_value(v, row.kind))}</td>'
            if i in best
            else f"<td>{e(format_value(v, row.kind))}</td>"
            for i, v in enumerate(values)
        )
        out.append(f"<tr><td>{e(row.label)}</td>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def _bar_chart(report: Report, row: Row) -> str:
    """Horizontal bars, one per tokenizer, scaled to the largest value of the row."""
    e = html.escape
    values = values_of(report, row)
    known = [v for v in values if v is not None and not math.isnan(v)]
    if not known:
        return ""
    top = max(known) or 1.0
    label_w, bar_w, bar_h, gap = 160, 360, 18, 6
    height = len(values) * (bar_h + gap) + 28
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 90}" height="{height}" '
        f'role="img" aria-label="{e(row.label)}">',
        f'<text x="0" y="14" font-weight="600">{e(row.label)}</text>',
    ]
    for n, (t, v) in enumerate(zip(report.tokenizers, values)):
        y = 24 + n * (bar_h + gap)
        out.append(f'<text x="0" y="{y + 13}">{e(t.name[:24])}</text>')
        if v is None or math.isnan(v):
            continue
        w = max(1, round(bar_w * v / top)) if v > 0 else 0
        colour = _COLOURS[n % len(_COLOURS)]
        out.append(f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h}" fill="{colour}"/>')
        out.append(f'<text x="{label_w + w + 6}" y="{y + 13}">{e(format_value(v, row.kind))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _parity_chart(report: Report) -> str:
    """Premiums over the pivot: a group of bars per language, one bar per tokenizer."""
    e = html.escape
    rows = _premium_rows(report)
    if not rows:
        return ""
    values = [values_of(report, row) for row in rows]
    known = [v for vs in values for v in vs if v is not None]
    top = max(known, default=1.0) or 1.0
    label_w, bar_w, bar_h, group_gap = 160, 360, 14, 10
    n = len(report.tokenizers)
    height = 40 + len(rows) * (n * bar_h + group_gap)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 90}" height="{height}" '
        'role="img" aria-label="token premium per language">',
        f'<text x="0" y="14" font-weight="600">token premium over {e(report.pivot or "")}, per language</text>',
    ]
    for k, (t, colour) in enumerate(zip(report.tokenizers, _COLOURS * n)):
        out.append(f'<rect x="{label_w + k * 120}" y="20" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{label_w + k * 120 + 14}" y="29">{e(t.name[:14])}</text>')
    y = 40
    for row, vs in zip(rows, values):
        out.append(f'<text x="0" y="{y + bar_h}">{e(row.label.split()[1])}</text>')
        for k, v in enumerate(vs):
            if v is not None:
                w = max(1, round(bar_w * v / top))
                out.append(
                    f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h - 2}" fill="{_COLOURS[k % len(_COLOURS)]}"/>'
                )
                out.append(f'<text x="{label_w + w + 6}" y="{y + bar_h - 3}">{v:.2f}</text>')
            y += bar_h
        y += group_gap
    out.append("</svg>")
    return "\n".join(out)


def _curve_chart(report: Report, curve: dict[str, Any] | None) -> str:
    """Rényi efficiency against vocab size of one model cut to a few sizes (``about["renyi_curve"]``:
    ``{"of": name, "points": [[vocab size, efficiency], ...]}``), a line on a log-size axis."""
    e = html.escape
    points = [(k, v) for k, v in (curve or {}).get("points", []) if v is not None and not math.isnan(v)]
    if not points:
        return ""
    left, width, height, top = 50, 420, 160, 24
    sizes = [math.log10(max(k, 1)) for k, _ in points]
    lo, hi = min(sizes), max(sizes)
    vlo, vhi = min(v for _, v in points), max(v for _, v in points)
    if vhi - vlo < 1e-9:
        vlo, vhi = vlo - 0.05, vhi + 0.05

    def xy(k: float, v: float) -> tuple[float, float]:
        x = left + (width * (k - lo) / (hi - lo) if hi > lo else width / 2)
        return x, top + height - height * (v - vlo) / (vhi - vlo)

    where = [xy(s, v) for s, (_, v) in zip(sizes, points)]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{top + height + 40}" '
        'role="img" aria-label="Rényi efficiency against vocab size">',
        f'<text x="0" y="14" font-weight="600">Rényi efficiency (α = {report.alpha:g}) against vocab size: '
        f"{e(str(curve.get('of', '')))} cut to each size</text>",  # type: ignore[union-attr]
        f'<polyline fill="none" stroke="{_COLOURS[0]}" stroke-width="2" points="'
        + " ".join(f"{x:.1f},{y:.1f}" for x, y in where)
        + '"/>',
    ]
    for (x, y), (k, v) in zip(where, points):
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{_COLOURS[0]}"/>')
        out.append(f'<text x="{x - 14:.1f}" y="{top + height + 16}">{k:,}</text>')
        out.append(f'<text x="{x + 5:.1f}" y="{y - 5:.1f}">{v:.3f}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _hygiene_lists(report: Report, about: dict[str, Any]) -> str:
    e = html.escape
    out = []
    infos = about.get("tokenizers") or [{}] * len(report.tokenizers)
    for t, info in zip(report.tokenizers, infos):
        out.append(f"<h3>{e(t.name)}</h3>")
        for name in ("unreachable", "undecodable", "control_pieces", "intermediate_only", "unused"):
            found = getattr(t.hygiene, name)
            if not found:
                continue
            shown = ", ".join(
                f"<code>{e(repr(_token(info, i)) if _token(info, i) is not None else str(i))}</code>"
                for i in found[:_HTML_EXAMPLES]
            )
            more = f" … and {len(found) - _HTML_EXAMPLES:,} more" if len(found) > _HTML_EXAMPLES else ""
            out.append(
                f"<details><summary>{e(name.replace('_', ' '))}: {len(found):,}</summary>{shown}{more}</details>"
            )
    return "\n".join(out)
