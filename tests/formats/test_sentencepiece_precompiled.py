"""The precompiled charsmap normalizer: the Darts trie, SentencePiece's longest match,
and `tokenizers`' grapheme-wise variant with its alignments (checked against both libraries)."""

from __future__ import annotations

import pytest

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

from conftest import CORPORA

from core.errors import FormatError
from core.formats.sentencepiece_model import parse_model_proto
from core.precompiled import PrecompiledNormalizer, parse_charsmap
from core.text import NormalizedString

PROBES = [
    "ｶﾞ①Ⅻ ﬁ",
    "é e\u0301",
    "\u3000全角",
    "㈱ ㍻",
    "👍🏽",
    "ﾊﾟﾋﾟ",
    "a\u0301\u0302",
    "\u1100\u1161\u11a8",
    "x\u200dy",
    "ǅ",
    "\x00\x01abc",
    "ㅂㅐ우들은 ㅡㅅㅡ",
    "",
    "plain ascii",
]


@pytest.fixture(scope="module")
def charsmap(tmp_path_factory):
    d = tmp_path_factory.mktemp("cm")
    corpus = d / "c.txt"
    corpus.write_text(
        "\n".join((CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:300]),
        encoding="utf-8",
    )
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(d / "m"), vocab_size=300, minloglevel=2
    )
    proto = parse_model_proto((d / "m.model").read_bytes())
    assert proto.normalizer_spec.name == "nmt_nfkc"
    return proto.normalizer_spec.precompiled_charsmap


def test_trie_finds_every_prefix_key(charsmap):
    trie, replacements = parse_charsmap(charsmap)
    # "ｶﾞ" is a key (half-width katakana + voicing mark -> ガ), and so is "ｶ" alone (-> カ)
    found = trie.common_prefix_search("ｶﾞ".encode())
    assert [length for _, length in found] == [3, 6]
    assert trie.common_prefix_search(b"a") == []


def test_longest_match_worked_example(charsmap):
    n = PrecompiledNormalizer(charsmap)
    out = n.normalize(NormalizedString.from_str("xｶﾞ①"))
    assert out.normalized == "xガ1"
    assert out.alignments == [(0, 1), (1, 3), (3, 4)]  # ガ spans both half-width characters


def test_sentencepiece_mode_composes_across_graphemes(charsmap):
    # SentencePiece's longest match sees "ㅂㅐ" as one key (-> 배); tokenizers looks grapheme by grapheme
    assert PrecompiledNormalizer(charsmap).normalize_str("ㅂㅐ") == "배"
    hf = tokenizers.normalizers.Precompiled(charsmap)
    ours = PrecompiledNormalizer.from_dict(PrecompiledNormalizer(charsmap).to_dict())
    assert ours.mode == "tokenizers"
    assert ours.normalize_str("ㅂㅐ") == hf.normalize_str("ㅂㅐ") != "배"


@pytest.mark.slow
def test_tokenizers_mode_text_equals_tokenizers_on_corpora(charsmap):
    hf = tokenizers.normalizers.Precompiled(charsmap)
    ours = PrecompiledNormalizer(charsmap, mode="tokenizers")
    for name in ("en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"):
        lines = (CORPORA / name).read_text(encoding="utf-8").splitlines()
        if name.startswith("ko-"):
            lines = lines[::40]
        for line in lines + PROBES:
            assert ours.normalize_str(line) == hf.normalize_str(line), line


@pytest.mark.parametrize("text", PROBES)
def test_tokenizers_mode_alignments_equal_tokenizers_offsets(charsmap, text):
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers

    hf = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    hf.normalizer = tokenizers.normalizers.Precompiled(charsmap)
    hf.pre_tokenizer = pre_tokenizers.Split(Regex("(?m)."), "isolated")  # one token per normalized char
    expected = hf.encode(text).offsets
    ours = PrecompiledNormalizer(charsmap, mode="tokenizers").normalize(NormalizedString.from_str(text))
    assert ours.alignments == expected


def test_sentencepiece_mode_matches_sentencepiece_on_probes(tmp_path):
    # identity whitespace handling, so only the charsmap acts
    corpus = tmp_path / "c.txt"
    corpus.write_text(
        "\n".join((CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:300]),
        encoding="utf-8",
    )
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(tmp_path / "m"),
        vocab_size=300,
        minloglevel=2,
        add_dummy_prefix=False,
        remove_extra_whitespaces=False,
    )
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "m.model"))
    proto = parse_model_proto((tmp_path / "m.model").read_bytes())
    n = PrecompiledNormalizer(proto.normalizer_spec.precompiled_charsmap)
    for text in PROBES:
        assert n.normalize_str(text).replace(" ", "▁") == sp.normalize(text), text


def test_bad_charsmaps():
    with pytest.raises(FormatError, match="shorter than its 4-byte header"):
        PrecompiledNormalizer(b"\x01")
    with pytest.raises(FormatError, match="cut short"):
        PrecompiledNormalizer(b"\x00\x10\x00\x00" + b"\x00" * 8)
    with pytest.raises(FormatError, match="base64"):
        PrecompiledNormalizer.from_dict({"type": "Precompiled", "precompiled_charsmap": "!!"})
    assert PrecompiledNormalizer(b"").normalize_str("ｶﾞ") == "ｶﾞ"  # empty map: identity
