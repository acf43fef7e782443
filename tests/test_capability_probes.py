"""Models declare what they can do; nobody probes them for it (issue 27, item 3).

``core.models.base.ModelBase`` declares each capability once, with a default a model overrides
(as `tokenizers`' ``trait Model`` and SentencePiece's ``IsNBestEncodeAvailable()``). This test
reads every module of core/ and subword_gui/ with ast and fails on ``getattr(x, "name", ...)``,
``hasattr(x, "name")`` or ``setattr``/``delattr`` where ``name`` is a capability below: new code
asks the model (``model.merge_list()``), it does not look for an attribute.

A getattr of a name held in a variable is not caught (``getattr(args, name)``); a capability
name used for something that is not a model would need its own word.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core.errors import ConfigError
from core.models.base import ModelBase

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "subword_gui")

#: What ModelBase declares: ask the model itself.
DECLARED = (
    "as_plain_bpe",
    "can_dropout",
    "can_nbest",
    "can_sample",
    "can_truncate",
    "continuing_subword_prefix",
    "deterministic",
    "end_of_word_suffix",
    "explain",
    "explains",
    "has_merges",
    "ignore_merges",
    "lattice",
    "line_encoder",
    "merge_list",
    "merge_parts",
    "merge_rank",
    "min_vocab_size",
    "raw_ids_batch",
    "removals",
    "removed_tokens",
    "step_for_size",
    "surrogates",
    "token_lengths",
    "tokenize_batch",
    "tokenize_ids",
    "tokenize_ids_batch",
    "tokenize_ids_flat",
    "tokenize_spans_batch",
    "unk_token",
    "with_dropout",
)

#: Names some models have that were probed to learn a capability: the declared way to ask.
ASK_INSTEAD = {
    "merges": "merge_list()",
    "dropout": "deterministic / can_dropout()",
    "nbest": "can_nbest()",
    "nbest_words": "can_nbest()",
    "sample": "can_sample()",
    "truncated": "can_truncate()",
    "unk_id": "unk_token and token_to_id",
    "viterbi_args": "line_encoder()",
    "matcher_args": "line_encoder()",
}

_PROBES = ("getattr", "hasattr", "setattr", "delattr")


def capability_probes(source: str) -> list[tuple[int, str, str]]:
    """``(line, function, name)`` of each getattr/hasattr/setattr/delattr of a capability name.

    >>> capability_probes('m = getattr(model, "merge_rank", None)\\nx = getattr(o, name)')
    [(1, 'getattr', 'merge_rank')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PROBES):
            continue
        if len(node.args) < 2:
            continue
        name = node.args[1]
        if isinstance(name, ast.Constant) and (name.value in DECLARED or name.value in ASK_INSTEAD):
            found.append((node.lineno, node.func.id, name.value))
    return found


def _modules() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def test_the_walk_finds_the_modules():
    names = {p.relative_to(ROOT).as_posix() for p in _modules()}
    assert {"core/models/base.py", "core/encode_chunks.py", "subword_gui/tokens/why_view.py"} <= names


def test_no_module_probes_a_model_for_a_capability():
    probes = [
        f"{path.relative_to(ROOT)}:{line}: {function}(…, {name!r}): ask "
        + (f"model.{ASK_INSTEAD[name]}" if name in ASK_INSTEAD else f"model.{name} (declared on ModelBase)")
        for path in _modules()
        for line, function, name in capability_probes(path.read_text(encoding="utf-8"))
    ]
    assert probes == []


@pytest.mark.parametrize("name", DECLARED)
def test_each_capability_is_declared_on_model_base(name):
    assert name in vars(ModelBase) or name in ModelBase.__annotations__, name


def test_each_declared_capability_answers_for_a_model_that_declares_nothing():
    class Nothing(ModelBase):
        def tokenize(self, piece):
            return []

    model = Nothing()
    assert model.explains() is None and model.explain("ab") == [] and model.lattice("ab") is None
    assert not model.has_merges() and model.merge_parts("ab") is None
    assert model.merge_list() is None and model.merge_rank("ab") is None
    assert model.min_vocab_size is None and model.step_for_size(3) is None
    assert model.removed_tokens() == [] and tuple(model.removals) == ()
    assert model.as_plain_bpe() is None and model.unk_token is None and not model.ignore_merges
    assert model.continuing_subword_prefix is None and model.end_of_word_suffix is None
    assert not (model.can_nbest() or model.can_sample() or model.can_truncate() or model.can_dropout())
    for undeclared in (
        lambda: model.nbest("ab", 2),
        lambda: model.nbest_words(["ab"], 2),
        lambda: model.sample("ab"),
        lambda: model.truncated(1),
        lambda: model.with_dropout(0.1),
    ):
        with pytest.raises(ConfigError):
            undeclared()
