"""One small factory is the only code that knows every model (issue 27, item 3).

Read from the source with ast: a *model class* is a class of ``core/models/`` deriving from
``ModelBase`` (or from another model class). A module *names* one when it imports it (or the
module defining it), or writes it as a ``"module:Class"`` string to import lazily. Then:

- ``core/models/factory.py`` may name any model;
- a module of an algorithm's package ``core/models/<algorithm>/`` names only its own models;
- a file format (``core/formats/``) names the models of one algorithm at most (the one its
  file holds), any other through the factory;
- nothing else names a model class: the rest asks the factory by kind, or the model what it
  can do (``ModelBase``), so a ``type(model) is BPE`` branch has no ``BPE`` to compare with.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from test_import_cycles import module_files

from core.models import factory
from core.models.base import ModelBase

FACTORY = "core.models.factory"
_LAZY = re.compile(r"(core\.models(?:\.\w+)+)(?::(\w+))?")


def model_classes(modules: dict[str, Path]) -> dict[str, set[str]]:
    """``{module: {its model classes}}`` over ``core.models``, by their bases' names."""
    classes: dict[str, list[tuple[str, set[str]]]] = {}
    for name, path in modules.items():
        if name.startswith("core.models"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            classes[name] = [
                (node.name, {ast.unparse(b).rpartition(".")[2] for b in node.bases})
                for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef)
            ]
    known = {"ModelBase"}
    while True:  # until no class is added: a model's subclass is a model
        more = {c for found in classes.values() for c, bases in found if bases & known} - known
        if not more:
            break
        known |= more
    return {module: {c for c, _ in found if c in known} for module, found in classes.items()}


def named_models(path: Path, models: dict[str, set[str]]) -> set[tuple[str, str]]:
    """``(module, class)`` of each model class ``path`` names (imported or as a lazy string)."""
    found: set[tuple[str, str]] = set()

    def name(module: str, attribute: str | None) -> None:
        if attribute is not None and attribute in models.get(module, ()):
            found.add((module, attribute))
        elif attribute is not None and f"{module}.{attribute}" in models:  # a module imported
            found.update((f"{module}.{attribute}", c) for c in models[f"{module}.{attribute}"])
        elif attribute is None:
            found.update((module, c) for c in models.get(module, ()))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name(alias.name, None)
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                name(node.module, alias.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            lazy = _LAZY.fullmatch(node.value)
            if lazy:
                name(lazy[1], lazy[2])
    return found


def algorithm(module: str) -> str | None:
    """``"bpe"`` for ``core.models.bpe.model``; None outside an algorithm's package."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["core", "models"] else None


def misplaced_models(modules: dict[str, Path]) -> list[str]:
    """What breaks the rules of the module docstring, one line each."""
    models = model_classes(modules)
    wrong = []
    for module, path in modules.items():
        if module == FACTORY:
            continue
        named = named_models(path, models)
        algorithms = {algorithm(m) for m, _ in named} - {None}  # (ModelBase and the shared bases: anyone's)
        own = algorithm(module)
        if own is not None:
            bad = algorithms - {own}
        elif module.startswith("core.formats."):
            bad = algorithms if len(algorithms) > 1 else set()
        else:
            bad = algorithms
        if bad:
            wrong.append(f"{module} names {sorted(c for m, c in named if algorithm(m) in bad)}")
    return wrong


def test_only_the_factory_knows_every_model():
    modules = module_files()
    models = model_classes(modules)
    every = {c for found in models.values() for c in found}
    assert {"BPE", "WordPiece", "Unigram", "WordLevel", "SentencePieceBPE", "TiktokenBPE"} <= every
    assert misplaced_models(modules) == []
    factory_names = {c for _, c in named_models(modules[FACTORY], models)}
    assert {"BPE", "WordPiece", "Unigram", "WordLevel", "PickyBPE", "SentencePieceUnigram"} <= factory_names


def test_a_type_branch_outside_the_factory_fails(tmp_path):
    """The rule catches the shapes it is meant to: a GUI module comparing a model's type, a
    format naming two algorithms, a trainer naming another algorithm's model, a lazy string."""
    modules = module_files()
    cases = {
        "subword_gui.tokens.shown": "from core.models.bpe.model import BPE\nkind = type(m) is BPE\n",
        "core.formats.both": (
            "from core.models.bpe.model import BPE\nfrom core.models.wordpiece import model\n"
        ),
        "core.models.unigram.mixed": "from core.models.wordlevel.model import WordLevel\n",
        "core.training_table": 'TRAINED = {"bpe": "core.models.bpe.picky_model:PickyBPE"}\n',
        "core.stats_kinds": "import core.models.unigram.model\n",
    }
    for name, source in cases.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        assert misplaced_models({**modules, name: path}) != [], name


def test_the_factory_builds_each_kind():
    for kind in factory.MODELS:
        cls = factory.model_class(kind)
        assert issubclass(cls, ModelBase) and cls.__name__ == kind
    for model_type in factory.SENTENCEPIECE_MODELS:
        assert issubclass(factory.sentencepiece_model_class(model_type), ModelBase)
    for algorithm_name in factory.TRAINERS:
        assert callable(factory.trainer(algorithm_name))
    with pytest.raises(KeyError):
        factory.model_class("Nonesuch")


def test_model_kind_is_the_nearest_registered_class():
    from core.formats.subword_nmt_codes import CodesBPE
    from core.models.bpe.tiktoken import TiktokenBPE

    bpe = factory.model_class("BPE")({"u": 0, "g": 1, "ug": 2}, [("u", "g")])
    codes = CodesBPE({"<unk>": 0, "a</w>": 1}, [], unk_token="<unk>", end_of_word_suffix="</w>")
    wordpiece = factory.model_class("WordPiece")({"[UNK]": 0, "h": 1})
    tiktoken = TiktokenBPE({b"a": 0})
    assert [factory.model_kind(m) for m in (bpe, codes, wordpiece, tiktoken, object())] == [
        "BPE",
        "BPE",
        "WordPiece",
        None,
        None,
    ]
