"""core/formats/README.md lists every component the installed `tokenizers` can write and every
SentencePiece model type, piece type and normalizer option; rows marked supported are types our
loaders build. Derived from the installed packages, so the page cannot drift from them."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")
sentencepiece = pytest.importorskip("sentencepiece")

README = Path(__file__).resolve().parents[2] / "core" / "formats" / "README.md"
BASE_CLASSES = {"Normalizer", "PreTokenizer", "Model", "Decoder", "PostProcessor"}


def _rows(section: str) -> dict[str, str]:
    """``{name: status}`` of the table under the heading ``section``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{section}\n") + len(section) + 2
    table = text[start:].split("\n#", 1)[0]
    rows = re.findall(r"^\| (?:[a-z ]*?)`([^`]+)`[^|]*\| ([^|]+?) \|", table, flags=re.M)
    return {name: status for name, status in rows}


def _ours(kind: str) -> set[str]:
    from core.decoders import DECODER_TYPES
    from core.models.factory import MODELS
    from core.normalizers import LAZY_NORMALIZER_TYPES, NORMALIZER_TYPES
    from core.pre_tokenizers import PRE_TOKENIZER_TYPES
    from core.tokenizer import POST_PROCESSOR_TYPES

    return {
        "normalizers": set(NORMALIZER_TYPES) | set(LAZY_NORMALIZER_TYPES) | {"Sequence"},
        "pre_tokenizers": set(PRE_TOKENIZER_TYPES) | {"Sequence"},
        "models": set(MODELS),
        "decoders": set(DECODER_TYPES) | {"Sequence"},
        "processors": set(POST_PROCESSOR_TYPES),
    }[kind]


SECTIONS = {
    "normalizers": "### normalizers",
    "pre_tokenizers": "### pre-tokenizers",
    "models": "### models",
    "decoders": "### decoders",
    "processors": "### post-processors",
}


@pytest.mark.parametrize("kind", sorted(SECTIONS))
def test_every_tokenizers_component_has_a_row(kind):
    module = getattr(tokenizers, kind)
    theirs = {
        n for n, o in vars(module).items() if inspect.isclass(o) and not n.startswith("_")
    } - BASE_CLASSES
    rows = _rows(SECTIONS[kind])
    assert theirs <= set(rows), f"no row for {sorted(theirs - set(rows))}"
    supported = {n for n, status in rows.items() if status == "supported"}
    assert supported <= _ours(kind), f"marked supported but not loaded: {sorted(supported - _ours(kind))}"


def _sentencepiece_descriptor() -> dict[str, list[str]]:
    """Field and enum value names of sentencepiece_model.proto, read from the installed package's
    serialized descriptor with our own protobuf reader (the package's module needs `protobuf`)."""
    from core.formats.protobuf import read_fields

    source = Path(sentencepiece.__file__).with_name("sentencepiece_model_pb2.py").read_text(encoding="utf-8")
    blob = next(
        n.args[0].value
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "AddSerializedFile"
    )

    def sub(data, number):
        return [v for n, _, v in read_fields(data) if n == number]

    def name(data):
        return sub(data, 1)[0].decode()

    out: dict[str, list[str]] = {}
    for message in sub(blob, 4):
        out[name(message)] = [name(f) for f in sub(message, 2)]
        for nested in sub(message, 3):
            for enum in sub(nested, 4):
                out[f"{name(nested)}.{name(enum)}"] = [name(v) for v in sub(enum, 2)]
        for enum in sub(message, 4):
            out[f"{name(message)}.{name(enum)}"] = [name(v) for v in sub(enum, 2)]
    return out


def test_every_sentencepiece_model_type_piece_type_and_normalizer_option_has_a_row():
    proto = _sentencepiece_descriptor()
    rows = _rows("## SentencePiece `.model`: every model type, piece type and normalizer option")
    text = README.read_text(encoding="utf-8")
    for value in proto["TrainerSpec.ModelType"]:
        assert f"| model type `{value}` | supported |" in text
    for value in proto["SentencePiece.Type"]:
        assert f"| piece type `{value}` |" in text
    for field in proto["NormalizerSpec"]:
        assert f"| normalizer `{field}` |" in text
    for field in proto["ModelProto"]:
        assert field in ("pieces", "trainer_spec", "normalizer_spec") or field in rows
