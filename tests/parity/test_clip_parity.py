"""Acceptance: a CLIP ``bpe_simple_vocab_16e6.txt.gz``-shaped file built here loads and encodes
as CLIP's own tokenizer.

The reference is openai/CLIP's ``simple_tokenizer.SimpleTokenizer``; its package is not on
PyPI and needs ``ftfy``, which we do not have, so :class:`ReferenceClip` below follows its
published algorithm step by step (byte alphabet, 48,894 merges at most, cleaning, regex,
GPT-2 style ``bpe`` with ``</w>``), leaving out only ``ftfy.fix_text``; the test lines are
text ftfy leaves unchanged.
"""

from __future__ import annotations

import gzip
import html

import pytest
import regex

tokenizers = pytest.importorskip("tokenizers")

from conftest import CORPORA  # noqa: E402

from core.bytelevel import BYTE_TO_CHAR, CHAR_TO_BYTE  # noqa: E402
from core.formats.detect import detect_format, open_tokenizer  # noqa: E402

PATTERN = r"""<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"""


def _byte_order() -> list[int]:
    """GPT-2's bytes_to_unicode order: printable bytes first."""
    bs = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    return bs + [b for b in range(256) if b not in bs]


class ReferenceClip:
    """SimpleTokenizer's published algorithm (without ftfy)."""

    def __init__(self, path):
        merges = gzip.open(path).read().decode("utf-8").split("\n")
        merges = [tuple(m.split()) for m in merges[1 : 49152 - 256 - 2 + 1]]
        symbols = [BYTE_TO_CHAR[b] for b in _byte_order()]
        vocab = symbols + [s + "</w>" for s in symbols] + ["".join(m) for m in merges]
        vocab += ["<|startoftext|>", "<|endoftext|>"]
        self.encoder = dict(zip(vocab, range(len(vocab))))
        self.ranks = dict(zip(merges, range(len(merges))))
        self.pat = regex.compile(PATTERN, regex.IGNORECASE)

    def bpe(self, token: str) -> list[str]:
        if token in ("<|startoftext|>", "<|endoftext|>"):
            return [token]
        word = tuple(token[:-1]) + (token[-1] + "</w>",)
        while len(word) > 1:
            pairs = {(word[i], word[i + 1]) for i in range(len(word) - 1)}
            bigram = min(pairs, key=lambda p: self.ranks.get(p, float("inf")))
            if bigram not in self.ranks:
                break
            new, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == bigram:
                    new.append(word[i] + word[i + 1])
                    i += 2
                else:
                    new.append(word[i])
                    i += 1
            word = tuple(new)
        return list(word)

    def encode(self, text: str) -> list[int]:
        text = html.unescape(html.unescape(text)).strip()
        text = regex.sub(r"\s+", " ", text).strip().lower()
        ids = []
        for piece in self.pat.findall(text):
            symbols = "".join(BYTE_TO_CHAR[b] for b in piece.encode("utf-8"))
            ids += [self.encoder[t] for t in self.bpe(symbols)]
        return ids

    def decode(self, ids: list[int]) -> str:
        decoder = {v: k for k, v in self.encoder.items()}
        text = "".join(decoder[i] for i in ids)
        return bytearray(CHAR_TO_BYTE[c] for c in text).decode("utf-8", errors="replace").replace("</w>", " ")


@pytest.fixture(scope="module")
def clip_file(tmp_path_factory):
    """Merges learned here with `tokenizers` on CLIP's pieces, written as CLIP's file is."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    lines = _lines()
    pat = regex.compile(PATTERN, regex.IGNORECASE)
    words = [
        "".join(BYTE_TO_CHAR[b] for b in piece.encode("utf-8"))
        for line in lines
        for piece in pat.findall(line.lower())
    ]
    hf = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=1200, end_of_word_suffix="</w>", initial_alphabet=list(BYTE_TO_CHAR), show_progress=False
    )
    hf.train_from_iterator([" ".join(words)], trainer)
    import json

    merges = json.loads(hf.to_str())["model"]["merges"]
    merges = [m.split(" ") if isinstance(m, str) else m for m in merges]
    path = tmp_path_factory.mktemp("clip") / "bpe_simple_vocab_16e6.txt.gz"
    text = '"bpe_simple_vocab_16e6.txt#version: 0.2\n' + "\n".join(f"{a} {b}" for a, b in merges) + "\n"
    with gzip.open(path, "wb") as f:
        f.write(text.encode("utf-8"))
    return path


def _lines() -> list[str]:
    en = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:500]
    ko = (CORPORA / "ko-movie-reviews.txt").read_text(encoding="utf-8").splitlines()[::300]
    return en + ko


PROBES = [
    "",
    "A photo of a cat, 2024!",
    "  spaces\t\tand\n\nlines  ",
    "Tom &amp;amp; Jerry &lt;3 &#39;quoted&#39;",
    "<|startoftext|>a dog<|endoftext|> <|StartOfText|>",
    "I'm sure it's what they'll do",
    "😀 이모지 👍🏽 café",
]


def test_ids_equal_clips_published_algorithm(clip_file):
    reference = ReferenceClip(clip_file)
    loaded = open_tokenizer(clip_file)
    assert loaded.format == "clip"
    ours = loaded.tokenizer
    for line in _lines() + PROBES:
        ids = ours.encode(line).ids
        assert ids == reference.encode(line), line
        assert ours.decode(ids, skip_special_tokens=False) == reference.decode(ids), line


def test_digits_are_not_unknown(clip_file):
    tok = open_tokenizer(clip_file).tokenizer
    assert tok.encode("1984").tokens == ["1</w>", "9</w>", "8</w>", "4</w>"]


def test_found_in_a_folder_and_by_content(clip_file, tmp_path):
    assert detect_format(clip_file.parent) == ("clip", clip_file)
    renamed = tmp_path / "merges.bin"
    renamed.write_bytes(clip_file.read_bytes())
    assert detect_format(renamed)[0] == "clip"


def test_exported_tokenizer_json_loads_in_tokenizers_and_says_what_it_loses(clip_file, tmp_path):
    from tokenizers import Tokenizer

    from core.formats.detect import save_tokenizer

    ours = open_tokenizer(clip_file).tokenizer
    losses = save_tokenizer(ours, tmp_path / "tokenizer.json", "hf-json")
    assert any("HTML" in loss for loss in losses)
    theirs = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    for line in _lines()[:200] + PROBES[:3]:
        assert theirs.encode(line).ids == ours.encode(line).ids, line


def test_a_project_keeps_the_clip_file(clip_file, tmp_path):
    from core.formats.detect import save_tokenizer

    save_tokenizer(open_tokenizer(clip_file).tokenizer, tmp_path / "project", "project")
    again = open_tokenizer(tmp_path / "project")
    reference = ReferenceClip(clip_file)
    for line in PROBES + _lines()[:50]:
        assert again.tokenizer.encode(line).ids == reference.encode(line), line
