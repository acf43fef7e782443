"""Acceptance: a Mistral ``tekken.json`` built here loads and encodes exactly as mistral-common's
``Tekkenizer.from_file`` (ids shifted past the special tokens, the vocabulary cut to
``default_vocab_size``, the old special tokens of v7 files that list none)."""

from __future__ import annotations

import base64
import json

import pytest

tokenizers = pytest.importorskip("tokenizers")
tekken_ref = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")

from conftest import CORPORA  # noqa: E402

from core.bytelevel import CHAR_TO_BYTE  # noqa: E402
from core.formats.detect import detect_format, open_tokenizer  # noqa: E402
from core.pre_tokenizers import O200K_PATTERN  # noqa: E402

PROBES = [
    "",
    "Hello, world! It's 2024.",
    "   spaces\t\ttabs\r\n",
    "한국어 텍스트와 😀 👍🏽",
    "[INST] a question [/INST]<s></s>",
]
N_SPECIAL = 100


def _special_id(theirs, name: str) -> int:
    return getattr(theirs, "get_special_token", theirs.get_control_token)(name)


def _lines(name: str) -> list[str]:
    return (CORPORA / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def vocab(tmp_path_factory) -> list[dict]:
    """Tekken vocab entries of a byte-level BPE trained here, the 256 bytes first."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    corpus = tmp_path_factory.mktemp("tekken") / "corpus.txt"
    corpus.write_text("\n".join(_lines("en-botchan.txt")[:800] + _lines("ko-movie-reviews.txt")[:800]))
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=1500, initial_alphabet=[], show_progress=False)
    hf.train([str(corpus)], trainer)
    learned = sorted(hf.get_vocab().items(), key=lambda x: x[1])
    tokens = [bytes([b]) for b in range(256)]
    tokens += [t for t in (bytes(CHAR_TO_BYTE[c] for c in tok) for tok, _ in learned) if len(t) > 1]
    return [
        {"rank": i, "token_bytes": base64.b64encode(t).decode(), "token_str": t.decode("utf-8", "replace")}
        for i, t in enumerate(tokens)
    ]


def _write(path, vocab, version: str, specials: list[str] | None, vocab_size: int | None):
    vocab_size = vocab_size or N_SPECIAL + len(vocab)
    d = {
        "config": {
            "pattern": O200K_PATTERN,
            "num_vocab_tokens": len(vocab),
            "default_vocab_size": vocab_size,
            "default_num_special_tokens": N_SPECIAL,
            "version": version,
        },
        "vocab": vocab,
    }
    if specials is not None:
        d["special_tokens"] = [
            {"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(specials)
        ]
    path.write_text(json.dumps(d), encoding="utf-8")
    return path


CASES = {
    "v13 with its special tokens, vocabulary cut": (
        "v13",
        ["<unk>", "<s>", "</s>", "[INST]", "[/INST]"],
        1000,
    ),
    "v7 listing none (the old 20)": ("v7", None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ids_equal_mistral_common(vocab, tmp_path, case):
    version, specials, inner = CASES[case]
    path = _write(tmp_path / "tekken.json", vocab, version, specials, inner and N_SPECIAL + inner)
    theirs = tekken_ref.Tekkenizer.from_file(path)
    loaded = open_tokenizer(path)
    assert loaded.format == "tekken"
    ours = loaded.tokenizer
    lines = _lines("en-botchan.txt")[:300] + _lines("ko-movie-reviews.txt")[::50] + PROBES
    for line in lines:
        assert ours.encode(line).ids == theirs.encode(line, bos=False, eos=False), line
    assert ours.vocab_size == theirs.n_words
    for name in ("<unk>", "<s>", "</s>", "[INST]"):
        assert ours.token_to_id(name) == _special_id(theirs, name)
    sample = ours.encode(lines[0]).ids
    assert ours.decode(sample) == theirs.decode(
        sample, special_token_policy=tekken_ref.SpecialTokenPolicy.IGNORE
    )


def test_special_tokens_are_text_unless_allowed(vocab, tmp_path):
    path = _write(tmp_path / "tekken.json", vocab, "v13", ["<unk>", "<s>", "</s>", "[INST]", "[/INST]"], None)
    tok = open_tokenizer(path).tokenizer
    theirs = tekken_ref.Tekkenizer.from_file(path)
    text = "[INST] hi [/INST]"
    assert tok.encode(text).ids == theirs.encode(text, bos=False, eos=False)  # mistral-common: text
    tok.encode_special_tokens = False  # subword encode --allow-special
    ids = tok.encode(text).ids
    assert ids[0] == _special_id(theirs, "[INST]") and ids[-1] == _special_id(theirs, "[/INST]")
    assert ids[1:-1] == theirs.encode(" hi ", bos=False, eos=False)


def test_a_tekken_file_is_found_by_name_in_a_folder_and_by_content(vocab, tmp_path):
    _write(tmp_path / "tekken.json", vocab, "v7", None, None)
    assert detect_format(tmp_path) == ("tekken", tmp_path / "tekken.json")
    renamed = tmp_path / "other" / "tok.dat"
    renamed.parent.mkdir()
    renamed.write_bytes((tmp_path / "tekken.json").read_bytes())
    assert detect_format(renamed)[0] == "tekken"


def test_a_project_keeps_the_tekken_file(vocab, tmp_path):
    from core.formats.detect import save_tokenizer

    path = _write(tmp_path / "tekken.json", vocab, "v13", ["<unk>", "<s>", "</s>"], None)
    tok = open_tokenizer(path).tokenizer
    save_tokenizer(tok, tmp_path / "project", "project")
    again = open_tokenizer(tmp_path / "project")
    assert again.format == "project"
    theirs = tekken_ref.Tekkenizer.from_file(path)
    for line in PROBES + _lines("en-botchan.txt")[:50]:
        assert again.tokenizer.encode(line).ids == theirs.encode(line, bos=False, eos=False), line
