"""Small hand-written tokenizer.json files for the report-card tests, opened as ``subword`` opens
any file (core.formats.detect), so each token count in a test can be worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

from core.formats.detect import open_tokenizer


def write_bpe(path: Path, vocab: dict[str, int], merges: list, **parts) -> Path:
    """A `tokenizers` BPE ``tokenizer.json``: whitespace-split words, no decoder unless given."""
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": parts.pop("added_tokens", []),
        "normalizer": None,
        "pre_tokenizer": parts.pop("pre_tokenizer", {"type": "WhitespaceSplit"}),
        "post_processor": None,
        "decoder": parts.pop("decoder", None),
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": parts.pop("unk_token", None),
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "vocab": vocab,
            "merges": merges,
        },
    }
    assert not parts, parts
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def abc_bpe(folder: Path):
    """a b c, merges a+b, b+c, a+bc: "abc" encodes as ab + c, so the token abc is unreachable."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    return open_tokenizer(write_bpe(folder / "abc.json", vocab, ["a b", "b c", "a bc"])).tokenizer


def korean_bpe(folder: Path):
    """Syllables of 먹었고 치킨을, with the merges 먹+었 and 치+킨: 먹었|고 치킨|을."""
    syllables = "먹었고치킨을"
    vocab = {s: i for i, s in enumerate(syllables)}
    vocab.update({"먹었": 6, "치킨": 7})
    return open_tokenizer(write_bpe(folder / "ko.json", vocab, ["먹 었", "치 킨"])).tokenizer


def write_tokenizer_json(path: Path, model: dict, pre_tokenizer: dict, decoder: dict) -> Path:
    """A ``tokenizer.json`` of any model, without added tokens or a normalizer."""
    doc = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": decoder,
        "model": model,
    }
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def wordpiece(folder: Path):
    """[UNK] hug ##s s h, Bert pre-tokenizer: "hugs" is hug ##s."""
    model = {
        "type": "WordPiece",
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 100,
        "vocab": {"[UNK]": 0, "hug": 1, "##s": 2, "s": 3, "h": 4},
    }
    decoder = {"type": "WordPiece", "prefix": "##", "cleanup": True}
    path = write_tokenizer_json(folder / "wp.json", model, {"type": "BertPreTokenizer"}, decoder)
    return open_tokenizer(path).tokenizer


def unigram_metaspace(folder: Path):
    """<unk> ▁hug s ▁s ▁ h u g, Metaspace: "hugs" is ▁hug s; "s" alone is ▁s."""
    pieces = [["<unk>", 0.0], ["▁hug", -1.0], ["s", -2.0], ["▁s", -2.0], ["▁", -3.0]]
    pieces += [[c, -5.0] for c in "hug"]
    model = {"type": "Unigram", "unk_id": 0, "vocab": pieces, "byte_fallback": False}
    meta = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    path = write_tokenizer_json(folder / "uni.json", model, meta, meta)
    return open_tokenizer(path).tokenizer


def byte_level_bpe(folder: Path):
    """Byte-level: the bytes of "hi", a space, byte 0xEC (a Korean syllable's first byte) and byte 0."""
    vocab = {"h": 0, "i": 1, "Ġ": 2, "ì": 3, "Ā": 4, "hi": 5}
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    path = write_bpe(folder / "bytes.json", vocab, ["h i"], pre_tokenizer=byte_level, decoder=byte_level)
    return open_tokenizer(path).tokenizer
