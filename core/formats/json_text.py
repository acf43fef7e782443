"""Indented JSON text, byte for byte what ``json.dumps(obj, ensure_ascii=False, indent=2)`` writes.

    >>> print(dumps_indented({"vocab": {"u": 0, "ug": 1}, "merges": [["u", "g"]], "dropout": None}))
    {
      "vocab": {
        "u": 0,
        "ug": 1
      },
      "merges": [
        [
          "u",
          "g"
        ]
      ],
      "dropout": null
    }

Why: with ``indent`` the standard library cannot use its C encoder and writes every value through
a chain of Python generators. Here a list or dict whose values are all of one scalar type (a
vocabulary) is written with one C-level ``map`` and one ``join``, and a list of equally long rows
(the merges ``[["u", "g"], ...]``, Unigram's ``[["▁the", -3.2], ...]``) a column at a time. The
``tokenizer.json`` of an 8,000-token BPE trained on a short novel (0.53 MB): 15.8 ms with
``json.dumps``, 7.2 ms here (Unigram 17.4 and 9.0, WordPiece 4.3 and 2.9; medians of 31
alternating calls in one process), where training it takes ~0.1 s.

Leaves out: anything but plain ``dict`` (string keys), ``list``, ``tuple``, ``str``, ``int``,
``float``, ``bool`` and ``None``; given anything else (a subclass, a non-string key) the whole
object goes to ``json.dumps``, which writes it, or raises, as it always did.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring as _quote  # the C function where there is one

_INDENT = "  "
_INFINITY = float("inf")


class _NotPlain(Exception):
    """A value this module does not write itself (``json.dumps`` writes the whole object)."""


def dumps_indented(obj) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2)``, faster for plain data (see the module)."""
    try:
        return _dumps(obj, "\n")
    except (_NotPlain, RecursionError):  # (a circular structure: json.dumps says so)
        return json.dumps(obj, ensure_ascii=False, indent=2)


def _float(x: float) -> str:
    """As ``json``'s default (``allow_nan``) writes a float.

    >>> _float(0.5), _float(float("-inf")), _float(float("nan"))
    ('0.5', '-Infinity', 'NaN')
    """
    if x != x:
        return "NaN"
    if x == _INFINITY:
        return "Infinity"
    if x == -_INFINITY:
        return "-Infinity"
    return float.__repr__(x)


def _column(values):
    """The JSON text of each of ``values`` (a list, tuple or dict view) if all are of one scalar
    type, else None.

    subtle: exact types, as the rest of this module: a ``bool`` is not an ``int`` here (json writes
    ``true``), and a ``str`` subclass is not plain.
    """
    kinds = set(map(type, values))
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if kind is str:
        return map(_quote, values)
    if kind is int:
        return map(int.__repr__, values)
    if kind is float:
        return map(_float, values)
    return None


def _dumps(obj, newline: str) -> str:
    """``obj``'s JSON text; ``newline`` is a line end and the indentation of the line ``obj`` ends on."""
    kind = type(obj)
    if kind is str:
        return _quote(obj)
    if kind is int:
        return int.__repr__(obj)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if kind is float:
        return _float(obj)
    inner = newline + _INDENT
    separator = "," + inner
    if kind is list or kind is tuple:
        if not obj:
            return "[]"
        column = _column(obj)
        if column is not None:
            return "[" + inner + separator.join(column) + newline + "]"
        if set(map(type, obj)) <= {list, tuple} and len(widths := set(map(len, obj))) == 1:
            width = widths.pop()
            columns = [_column(c) for c in zip(*obj)] if width else [None]
            if all(c is not None for c in columns):
                cell = inner + _INDENT
                row = "[" + cell + ("," + cell).join(["{}"] * width) + inner + "]"
                texts = [c for c in columns if c is not None]  # (all of them: for mypy)
                return "[" + inner + separator.join(map(row.format, *texts)) + newline + "]"
        return "[" + inner + separator.join([_dumps(x, inner) for x in obj]) + newline + "]"
    if kind is dict:
        if not obj:
            return "{}"
        if set(map(type, obj)) != {str}:
            raise _NotPlain
        values = _column(obj.values())
        if values is not None:
            return (
                "{" + inner + separator.join(map("{}: {}".format, map(_quote, obj), values)) + newline + "}"
            )
        return (
            "{"
            + inner
            + separator.join([_quote(k) + ": " + _dumps(v, inner) for k, v in obj.items()])
            + newline
            + "}"
        )
    raise _NotPlain
