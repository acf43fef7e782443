"""The chunk cache asks a model what it can do (core.models.base.ModelBase) and names none.

The generic machinery (``core.encode_chunks``, ``core.chunk_kernels``) imports no model module,
so a new algorithm is added in its own package; a model that declares nothing beyond
``tokenize`` still encodes through the cache's plain Python way, with the right tokens.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

from core.encode_chunks import ChunkPlan
from core.errors import ConfigError
from core.models.base import ModelBase, Token, VocabLookup
from core.normalizers import NFC
from core.pre_tokenizers import ByteLevel, Metaspace, Whitespace
from core.tokenizer import Tokenizer

GENERIC = ("core/encode_chunks.py", "core/chunk_kernels.py", "core/sampling.py")


def _runtime_imports(path: Path) -> list[str]:
    """Every module ``path`` imports, lazy imports inside functions included, but those only
    read by the type checker (under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            typing_only.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


@pytest.mark.parametrize("module", GENERIC)
def test_the_generic_machinery_imports_no_model(module):
    imports = _runtime_imports(ROOT / module)
    assert imports, module  # (the walk found its imports at all)
    assert [name for name in imports if name.startswith("core.models")] == []


@pytest.mark.parametrize("module", GENERIC)
def test_the_generic_machinery_names_no_model_class(module):
    source = (ROOT / module).read_text(encoding="utf-8")
    for name in ("BPE", "Unigram", "WordPiece", "WordLevel", "TiktokenBPE", "SentencePieceBPE"):
        assert f"is {name}" not in source and f"import {name}" not in source, (module, name)
    for probe in ("viterbi_args", "matcher_args", "_compiled_table", "_alphabet_arrays", "pre_tokenizer._re"):
        assert probe not in source, (module, probe)


class Letters(VocabLookup, ModelBase):
    """A toy model declaring nothing but ``tokenize``: each letter a token, "ab" one token,
    anything else the unknown token."""

    unk_token = "<unk>"

    def __init__(self) -> None:
        self.vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4}
        self._id_to_token = {i: t for t, i in self.vocab.items()}

    def tokenize(self, piece: str) -> list[Token]:
        tokens, i = [], 0
        while i < len(piece):
            size = 2 if piece.startswith("ab", i) else 1
            value = piece[i : i + size]
            id = self.vocab.get(value, 0)
            tokens.append(Token(id, value if id else "<unk>", i, i + size))
            i += size
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Letters"}


@pytest.mark.parametrize(
    "pre_tokenizer", [Whitespace(), Metaspace(), ByteLevel(add_prefix_space=False)], ids=type
)
def test_a_model_declaring_nothing_encodes_through_the_plain_way(pre_tokenizer, monkeypatch):
    from core import encode_chunks

    model = Letters()
    assert model.token_lengths() is None and model.line_encoder(pre_tokenizer) is None
    assert not (model.can_nbest() or model.can_sample() or model.can_truncate() or model.can_dropout())
    normalizer = NFC() if type(pre_tokenizer) is not ByteLevel else None
    tok = Tokenizer(model, normalizer=normalizer, pre_tokenizer=pre_tokenizer)
    plan = tok._chunk_plan()
    assert isinstance(plan, ChunkPlan)
    texts = ["ab cab", "abc x ab", "", "  ba ab  ", "c"]
    for at_once in (1000, 1):  # a line's few new chunks one by one, then a batch's all at once
        monkeypatch.setattr(encode_chunks, "AT_ONCE_MIN", at_once)
        tok._chunks = None  # a fresh plan
        for text in texts:
            enc, general = tok.encode(text), tok._encode_general(text)
            assert (enc.ids, enc.tokens, enc.offsets, enc.word_ids) == (
                general.ids,
                general.tokens,
                general.offsets,
                general.word_ids,
            ), text
        assert tok._chunk_plan().cache  # the chunks went through the cache
        batch = tok.encode_batch(texts)
        assert [e.ids for e in batch] == [tok._encode_general(t).ids for t in texts]
        assert tok.encode_batch_ids(texts) == [e.ids for e in batch]
    enc = Tokenizer(model, pre_tokenizer=Whitespace()).encode("cab ab")
    assert enc.tokens == ["c", "ab", "ab"] and enc.offsets == [(0, 1), (1, 3), (4, 6)]


def test_the_models_declare_what_they_offer():
    from core.models.bpe.model import BPE
    from core.models.unigram.model import Unigram
    from core.models.wordlevel.model import WordLevel
    from core.models.wordpiece.model import WordPiece

    bpe = BPE({"h": 0, "u": 1, "g": 2, "ug": 3}, [("u", "g")])
    unigram = Unigram([("<unk>", 0.0), ("h", -2.0), ("u", -2.0), ("g", -2.0)])
    wordpiece = WordPiece({"[UNK]": 0, "h": 1, "##u": 2})
    wordlevel = WordLevel({"[UNK]": 0, "hug": 1})
    assert [m.can_nbest() for m in (bpe, unigram, wordpiece, wordlevel)] == [False, True, False, False]
    assert [m.can_sample() for m in (bpe, unigram, wordpiece, wordlevel)] == [False, True, False, False]
    assert [m.can_truncate() for m in (bpe, unigram, wordpiece, wordlevel)] == [True, True, True, False]
    assert [m.can_dropout() for m in (bpe, unigram, wordpiece, wordlevel)] == [True, False, False, False]
    assert bpe.line_encoder(Whitespace()).way == "words"
    assert bpe.line_encoder(ByteLevel()).way == "bytes"
    assert bpe.line_encoder(Metaspace()) is None  # (no BPE kernel takes Metaspace's chunks)
    assert unigram.line_encoder(Metaspace()).way == "lead"
    assert wordpiece.line_encoder(Whitespace()).way == "normalized"
    assert wordlevel.line_encoder(Whitespace()) is None and wordlevel.token_lengths() is None
    assert BPE({"h": 0}, [], dropout=0.1).token_lengths() is None  # random merges: no table
    assert wordpiece.token_lengths().prefix == 2


def test_the_models_declare_how_they_came_to_their_tokens():
    """What the explorer's Why view, merge trees and the slider ask (they probed for ``lattice``,
    ``merge_rank``, ``explain``, ``merge_parts``, ``min_vocab_size`` before)."""
    from core.models.bpe.model import BPE
    from core.models.bpe.picky_model import PickyBPE
    from core.models.unigram.model import Unigram
    from core.models.wordlevel.model import WordLevel
    from core.models.wordpiece.model import WordPiece

    bpe = BPE({"h": 0, "u": 1, "g": 2, "ug": 3}, [("u", "g")])
    unigram = Unigram([("<unk>", 0.0), ("h", -2.0), ("u", -2.0), ("g", -2.0)])
    wordpiece = WordPiece({"[UNK]": 0, "h": 1, "##u": 2})
    wordlevel = WordLevel({"[UNK]": 0, "hug": 1}, unk_token="[UNK]")
    picky = PickyBPE({"a": 0, "b": 1, "c": 2, "abc": 3}, [("a", "b"), ("ab", "c")], [(2, "ab")])
    models = (bpe, unigram, wordpiece, wordlevel, picky)
    assert [m.explains() for m in models] == ["merges", "lattice", "longest match", None, None]
    assert [m.has_merges() for m in models] == [True, False, False, False, True]
    assert [m.merge_list() for m in models] == [[("u", "g")], None, None, None, None]
    assert [m.merge_rank("ug") for m in models] == [0, None, None, None, None]
    assert [m.merge_parts("abc") for m in models] == [None, None, None, None, ("ab", "c")]
    assert [m.min_vocab_size for m in models] == [3, 4, 3, None, 3]
    assert [m.step_for_size(4) for m in models] == [None, None, None, None, 1]
    assert [m.removed_tokens() for m in models] == [[], [], [], [], ["ab"]]
    assert [m.unk_token for m in models] == [None, "<unk>", "[UNK]", "[UNK]", None]
    assert [m.continuing_subword_prefix for m in models] == [None, None, "##", None, None]
    assert [m.as_plain_bpe() is None for m in models] == [True, True, True, True, False]
    assert unigram.lattice("hug") is not None and bpe.lattice("hug") is None
    assert wordpiece.explain("hu") == [(0, 1, "h"), (1, 2, "##u")] and wordlevel.explain("hug") == []
    assert bpe.with_dropout(1.0).tokenize("ug")[0].value == "u"
    with pytest.raises(ConfigError):
        unigram.with_dropout(0.1)
