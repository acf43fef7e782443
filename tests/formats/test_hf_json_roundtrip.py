"""tokenizer.json round trips: our own trained tokenizers saved, reloaded by us and by
`tokenizers`; parts we keep without applying; atomic saving."""

from __future__ import annotations

import json
import os

import pytest

tokenizers = pytest.importorskip("tokenizers")

from spans import sentencepiece_spans

from core.errors import FormatError
from core.events import drain
from core.formats.hf_json import load_tokenizer_json, save_tokenizer_json, tokenizer_to_dict
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

LINES = 1500


@pytest.fixture(scope="module")
def lines(corpora_dir):
    with open(corpora_dir / "en-botchan.txt", encoding="utf-8-sig", newline="") as f:
        en = [line.rstrip("\r\n") for _, line in zip(range(LINES), f)]
    with open(corpora_dir / "ko-movie-reviews.txt", encoding="utf-8", newline="") as f:
        ko = [line.rstrip("\r\n") for _, line in zip(range(LINES), f)]
    return en + ko + ["", " ", "mixed 한국어 and English 😀", "ＡＢＣ①"]


OPTIONS = {
    "bpe": TrainOptions("bpe", vocab_size=1500, special_tokens=["<unk>", "<s>"], normalizer="nfkc,lowercase"),
    "bytelevel-bpe": TrainOptions("bytelevel-bpe", vocab_size=1500, special_tokens=["<|endoftext|>"]),
    "wordpiece": TrainOptions("wordpiece", vocab_size=1500, special_tokens=["[UNK]", "[CLS]"]),
    "unigram": TrainOptions("unigram", vocab_size=1500, special_tokens=["<unk>"], normalizer="nfkc"),
}


@pytest.fixture(scope="module", params=list(OPTIONS))
def ours(request, lines):
    options = OPTIONS[request.param]
    return drain(train_from_counts(pre_tokenize_lines(lines, options), options))


def test_our_file_reloads_identically(ours, lines, tmp_path):
    path = tmp_path / "tokenizer.json"
    save_tokenizer_json(ours, path)
    again = load_tokenizer_json(path)
    assert tokenizer_to_dict(again) == tokenizer_to_dict(ours)
    assert again.extra["warnings"] == []
    for line in lines[::7]:
        a, b = ours.encode(line), again.encode(line)
        assert (a.ids, a.offsets) == (b.ids, b.offsets), line


def test_our_trained_file_encodes_the_same_in_tokenizers(ours, lines, tmp_path):
    path = tmp_path / "tokenizer.json"
    save_tokenizer_json(ours, path)
    theirs = tokenizers.Tokenizer.from_file(str(path))
    for line, b in zip(lines, theirs.encode_batch(lines)):
        a = ours.encode(line)
        assert a.ids == b.ids, (line, a.tokens, b.tokens)
        assert a.offsets == sentencepiece_spans(b.offsets), (line, a.tokens, a.offsets, b.offsets)
    sample = ours.encode(lines[3]).ids
    assert theirs.decode(sample) == ours.decode(sample)


def _bert_like_file(tmp_path, **changes):
    d = {
        "version": "1.0",
        "truncation": {"direction": "Right", "max_length": 8, "strategy": "LongestFirst", "stride": 0},
        "padding": None,
        "added_tokens": [
            {
                "id": 0,
                "content": "[UNK]",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
            {
                "id": 1,
                "content": "[CLS]",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
            {
                "id": 2,
                "content": "[SEP]",
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            },
        ],
        "normalizer": {
            "type": "BertNormalizer",
            "clean_text": True,
            "handle_chinese_chars": True,
            "strip_accents": None,
            "lowercase": True,
        },
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
            ],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [1], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [2], "tokens": ["[SEP]"]},
            },
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "h": 3, "##u": 4, "##g": 5, "hug": 6, "p": 7},
        },
        "extra_key_from_the_future": {"x": 1},
    }
    d.update(changes)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return path, d


def test_parts_we_do_not_apply_are_kept_and_named(tmp_path):
    path, d = _bert_like_file(tmp_path)
    tok = load_tokenizer_json(path)
    assert [w for w in tok.extra["warnings"] if "truncation" in w]
    assert not [w for w in tok.extra["warnings"] if "TemplateProcessing" in w]  # this one we apply
    theirs = tokenizers.Tokenizer.from_str(
        json.dumps({k: v for k, v in d.items() if not k.startswith("extra")})
    )
    theirs.no_truncation()
    assert tok.encode("hug pug").ids == theirs.encode("hug pug", add_special_tokens=False).ids
    assert tok.encode("hug pug", add_special_tokens=True).tokens == theirs.encode("hug pug").tokens
    assert tok.encode("hug pug", add_special_tokens=True).tokens[0] == "[CLS]"
    out = tmp_path / "again.json"
    save_tokenizer_json(tok, out)
    written = json.loads(out.read_text(encoding="utf-8"))
    for key in ("post_processor", "truncation", "extra_key_from_the_future", "normalizer", "decoder"):
        assert written[key] == d[key], key


def test_unknown_post_processor_is_kept_and_named(tmp_path):
    post = {"type": "FancyProcessing", "x": [1, 2]}
    path, d = _bert_like_file(tmp_path, post_processor=post, truncation=None)
    tok = load_tokenizer_json(path)
    assert [w for w in tok.extra["warnings"] if "'FancyProcessing'" in w and "does not apply" in w]
    assert tok.encode("hug", add_special_tokens=True).tokens == ["hug"]
    out = tmp_path / "again.json"
    save_tokenizer_json(tok, out)
    assert json.loads(out.read_text(encoding="utf-8"))["post_processor"] == post


def test_unknown_decoder_is_kept_and_named(tmp_path):
    decoder = {"type": "Braille", "dots": 6}  # a type no library has: kept verbatim
    path, d = _bert_like_file(tmp_path, decoder=decoder, post_processor=None, truncation=None)
    tok = load_tokenizer_json(path)
    assert tok.decoder is None
    assert [w for w in tok.extra["warnings"] if "'Braille'" in w and "does not implement" in w]
    out = tmp_path / "again.json"
    save_tokenizer_json(tok, out)
    assert json.loads(out.read_text(encoding="utf-8"))["decoder"] == decoder


def test_merges_as_strings_or_pairs(tmp_path):
    base = {"type": "BPE", "unk_token": "<unk>", "vocab": {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "abb": 4}}
    encs = []
    for merges in (["a b", "ab b"], [["a", "b"], ["ab", "b"]]):
        d = {
            "version": "1.0",
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": {"type": "Whitespace"},
            "post_processor": None,
            "decoder": None,
            "model": dict(base, merges=merges),
        }
        path = tmp_path / "tokenizer.json"
        path.write_text(json.dumps(d), encoding="utf-8")
        tok = load_tokenizer_json(path)
        theirs = tokenizers.Tokenizer.from_file(str(path))
        enc = tok.encode("abb ab ba c")
        assert enc.tokens == theirs.encode("abb ab ba c").tokens
        encs.append(enc.tokens)
    assert encs[0] == encs[1] == ["abb", "ab", "b", "a", "<unk>"]


def test_save_is_atomic(ours, tmp_path):
    path = tmp_path / "tokenizer.json"
    save_tokenizer_json(ours, path)
    before = path.read_bytes()

    class Broken:
        def to_dict(self):
            raise NotImplementedError("no file form")

    saved_decoder = ours.decoder
    ours.decoder = Broken()
    try:
        with pytest.raises(FormatError, match="decoder"):
            save_tokenizer_json(ours, path)
    finally:
        ours.decoder = saved_decoder
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["tokenizer.json"]


def test_older_file_shapes_load_as_tokenizers_reads_them(tmp_path):
    # tokenizers < 0.14 wrote Metaspace with add_prefix_space, merges as "a b" strings, and
    # (< 0.9) models without a "type"
    d = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": {"type": "NFKC"},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        "model": {
            "dropout": None,
            "unk_token": "<unk>",
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "vocab": {"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4, "▁ab": 5},
            "merges": ["▁ a", "▁a b"],
        },
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    ours = load_tokenizer_json(path)
    theirs = tokenizers.Tokenizer.from_file(str(path))
    for text in ["ab ba", "ｂａ  ab", ""]:
        a, b = ours.encode(text), theirs.encode(text)
        assert (a.tokens, a.offsets) == (b.tokens, sentencepiece_spans(b.offsets)), text
        assert ours.decode(a.ids) == theirs.decode(b.ids)
    assert ours.encode("ab ba").tokens == ["▁ab", "▁", "b", "a"]
