"""SentencePiece .model/.vocab reading: hand-built models checked against SentencePieceProcessor,
the normalizer against ``SentencePieceProcessor.normalize``, and bad files."""

from __future__ import annotations

import pytest

spm = pytest.importorskip("sentencepiece")

from conftest import CORPORA
from sentencepiece_files import both_processors, model_bytes

from core.errors import FormatError
from core.formats.sentencepiece_model import load_sentencepiece, load_sentencepiece_vocab
from core.models.bpe.sentencepiece import SentencePieceBPE
from core.models.unigram.sentencepiece import SentencePieceUnigram
from core.sentencepiece_pieces import BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, Piece

# -- hand-built models -------------------------------------------------------------------

UNIGRAM_PIECES = [
    ("<unk>", 0.0, UNKNOWN),
    ("<s>", 0.0, CONTROL),
    ("<sep>", 0.0, USER_DEFINED),
    ("▁철수", -2.0, NORMAL),
    ("▁", -3.0, NORMAL),
    ("철", -5.0, NORMAL),
    ("수", -5.0, NORMAL),
    ("는", -4.0, NORMAL),
    ("철수는", -1.0, UNUSED),
    ("a", -6.0, NORMAL),
    ("b", -6.0, NORMAL),
    ("ab", -11.0, NORMAL),  # beats a + b = -12
]


@pytest.mark.parametrize(
    "text",
    ["철수는", "철수 철수는", "a<sep>b", "ab ab", "<s>", "xyz 철 q", "  철수   는 ", "", " ", "😀a"],
)
def test_hand_built_unigram_matches_sentencepiece(tmp_path, text):
    sp, ours = both_processors(tmp_path, model_bytes(UNIGRAM_PIECES))
    assert ours.encode(text).ids == sp.encode(text)


def test_unigram_worked_example():
    # "▁철수는": paths ▁철수(-2)+는(-4) = -6 beat ▁(-3)+철(-5)+수(-5)+는(-4) = -17;
    # the unused piece 철수는 (-1) is never used.
    m = SentencePieceUnigram([Piece(*p) for p in UNIGRAM_PIECES])
    assert [t.value for t in m.tokenize("▁철수는")] == ["▁철수", "는"]
    # two unknown characters in a row merge into one <unk>
    assert [t.value for t in m.tokenize("▁xy")] == ["▁", "<unk>"]
    assert [(t.start, t.end) for t in m.tokenize("▁xy")] == [(0, 1), (1, 3)]


BPE_PIECES = [
    ("<unk>", 0.0, UNKNOWN),
    ("<s>", 0.0, CONTROL),
    ("ab", 0.0, NORMAL),
    ("bc", -1.0, NORMAL),
    ("▁ab", -2.0, NORMAL),
    ("abc", -3.0, UNUSED),
    ("▁", -4.0, NORMAL),
    ("a", -5.0, NORMAL),
    ("b", -6.0, NORMAL),
    ("c", -7.0, NORMAL),
]


@pytest.mark.parametrize("text", ["abc", "bcab", "ab c", "abcabc", "zz ab", "", "<s> a"])
def test_hand_built_bpe_matches_sentencepiece(tmp_path, text):
    sp, ours = both_processors(tmp_path, model_bytes(BPE_PIECES, model_type=2))
    assert ours.encode(text).ids == sp.encode(text)


def test_bpe_worked_example():
    # "▁abc": pairs ▁a (not a piece), ab (0), bc (-1): merge ab; then ▁+ab -> ▁ab (-2), ab+c -> abc (-3);
    # ▁ab wins. Highest score first, unlike rank-based BPE's lowest rank.
    m = SentencePieceBPE([Piece(*p) for p in BPE_PIECES])
    assert [t.value for t in m.tokenize("▁abc")] == ["▁ab", "c"]


def test_byte_fallback_matches_sentencepiece(tmp_path):
    pieces = [("<unk>", 0.0, UNKNOWN)] + [(f"<0x{b:02X}>", 0.0, BYTE) for b in range(256)]
    pieces += [("▁", -1.0, NORMAL), ("a", -2.0, NORMAL)]
    sp, ours = both_processors(tmp_path, model_bytes(pieces, byte_fallback=True))
    for text in ["a한a", "aa 😀", "é"]:
        assert ours.encode(text).ids == sp.encode(text)
    enc = ours.encode("한")
    assert enc.tokens == ["▁", "<0xED>", "<0x95>", "<0x9C>"]
    # as SentencePiece: a character's last byte spans it, the bytes before it are empty
    assert enc.offsets == [(0, 0), (0, 0), (0, 0), (0, 1)]
    assert enc.offsets == [tuple(o) for o in sp.encode("한", return_type="offset_mapping")["offsets"]]


# -- trained models ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    d = tmp_path_factory.mktemp("spm")
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:800]
    corpus = d / "small.txt"
    corpus.write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(d / "m"),
        vocab_size=500,
        minloglevel=2,
        user_defined_symbols=["<sep>"],
        num_threads=1,
    )
    return d, lines


def test_normalizer_matches_sentencepiece_normalize(trained):
    d, lines = trained
    sp = spm.SentencePieceProcessor(model_file=str(d / "m.model"))
    norm = load_sentencepiece(d / "m.model").normalizer
    probes = ["ｶﾞ①Ⅻ ﬁ", "  a\t\tb  ", "Ａ<sep>Ｂ", "é e\u0301", "\u3000全角　空白", "", "㈱ ㍻"]
    for text in probes + lines[:200]:
        assert norm.normalize_str(text) == sp.normalize(text), text


def test_offsets_follow_sentencepiece(trained):
    # SentencePiece's spans run from a piece's first source character to the next piece's:
    # "▁" after "Hello," also covers the second space that normalization dropped.
    d, _ = trained
    tok = load_sentencepiece(d / "m.model")
    sp = spm.SentencePieceProcessor(model_file=str(d / "m.model"))
    for text in ["  Hello,  ｶﾞ world  ", "㈱ ㍻", "a<sep>b", "\u200b zero width", ""]:
        enc = tok.encode(text)
        expected = sp.encode(text, return_type="offset_mapping")
        assert enc.ids == expected["ids"]
        assert enc.offsets == [tuple(o) for o in expected["offsets"]], text


def test_piece_types_and_special_ids_are_read(trained):
    d, _ = trained
    tok = load_sentencepiece(d / "m.model")
    info = tok.extra["sentencepiece"]
    assert info["model_type"] == "unigram"
    assert info["special_ids"] == {"unk": 0, "bos": 1, "eos": 2, "pad": -1}
    assert info["piece_types"]["control"] == 2 and info["piece_types"]["user-defined"] == 1
    sp = spm.SentencePieceProcessor(model_file=str(d / "m.model"))
    assert tok.get_vocab() == {sp.id_to_piece(i): i for i in range(sp.get_piece_size())}


def test_vocab_file_loads_and_matches_for_identity_model(tmp_path):
    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:800]
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines), encoding="utf-8")
    for model_type in ("unigram", "bpe"):
        prefix = tmp_path / model_type
        spm.SentencePieceTrainer.train(
            input=str(corpus),
            model_prefix=str(prefix),
            vocab_size=400,
            model_type=model_type,
            normalization_rule_name="identity",
            minloglevel=2,
        )
        sp = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
        tok, warnings = load_sentencepiece_vocab(f"{prefix}.vocab")
        assert tok.extra["sentencepiece"]["model_type"] == model_type
        assert any("no normalization rules" in w for w in warnings)
        for line in lines[:200]:
            assert tok.encode(line).ids == sp.encode(line), line


# -- bad files -----------------------------------------------------------------------------


def test_protobuf_cut_in_half(trained, tmp_path):
    d, _ = trained
    data = (d / "m.model").read_bytes()
    bad = tmp_path / "half.model"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(FormatError, match=r"half\.model.*truncated"):
        load_sentencepiece(bad)


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "no pieces"),
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "not a valid SentencePiece model"),
        (model_bytes([("a", 0.0, NORMAL)]), "exactly one unknown"),
        (model_bytes([("<unk>", 0.0, UNKNOWN), ("a", 0.0, NORMAL), ("a", -1.0, NORMAL)]), "defined twice"),
        (model_bytes([("<unk>", 0.0, UNKNOWN), ("a", 0.0, 9)]), "unknown type 9"),
        (model_bytes([("<unk>", 0.0, UNKNOWN)], model_type=7), "'type 7' is not supported"),
    ],
)
def test_bad_model_files(tmp_path, data, words):
    path = tmp_path / "bad.model"
    path.write_bytes(data)
    with pytest.raises(FormatError, match=words) as e:
        load_sentencepiece(path)
    assert "bad.model" in str(e.value)


@pytest.mark.parametrize(
    "content, words",
    [
        (b"<unk>\t0\n\x00\x01\x02", "binary"),
        (b"<unk>\t0\na\tx\n", "not a number"),
        (b"<unk>\t0\na\t-1\na\t-2\n", "appears twice"),
        (b"a\t0\n", "no unknown piece"),
        (b"<unk> 0\n", "piece<TAB>score"),
    ],
)
def test_bad_vocab_files(tmp_path, content, words):
    path = tmp_path / "bad.vocab"
    path.write_bytes(content)
    with pytest.raises(FormatError, match=words):
        load_sentencepiece_vocab(path)


@pytest.mark.parametrize("byte_fallback", [False, True])
def test_decode_matches_sentencepiece(tmp_path, byte_fallback):
    lines = (CORPORA / "ja-wagahaiwa.txt").read_text(encoding="utf-8").splitlines()[:300]
    corpus = tmp_path / "c.txt"
    corpus.write_text("\n".join(lines), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(tmp_path / "m"),
        vocab_size=2500,
        byte_fallback=byte_fallback,
        character_coverage=0.99,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "m.model"))
    ours = load_sentencepiece(tmp_path / "m.model")
    for text in lines[:100] + ["😀 이모지 <s>", "", "  a  b  "]:
        ids = sp.encode(text)
        assert ours.decode(ids) == sp.decode(ids), text
        with_control = [sp.bos_id()] + ids + [sp.eos_id()]
        assert ours.decode(with_control) == sp.decode(with_control)
    if byte_fallback:  # a byte run that is not UTF-8: one U+FFFD per bad byte, as SentencePiece
        ids = [sp.piece_to_id("<0xE1>"), sp.piece_to_id("<0x41>"), sp.piece_to_id("<0xFF>")]
        assert ours.decode(ids) == sp.decode(ids) == "\ufffdA\ufffd"
    else:
        assert "\u2047" in ours.decode(sp.encode("😀"))  # <unk> shows as SentencePiece's " ⁇ "


# -- writing .model files --------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["unigram", "bpe"])
def test_our_trained_tokenizer_saved_as_model_encodes_the_same_in_sentencepiece(tmp_path, algorithm):
    from core.events import drain
    from core.formats.detect import save_tokenizer
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts

    lines = (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:1500]
    options = TrainOptions(
        algorithm, vocab_size=800, pre_tokenizer="metaspace", special_tokens=["<unk>", "<s>", "</s>"]
    )
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    losses = save_tokenizer(tok, tmp_path / "ours.model", "sentencepiece")
    assert any("one more '▁'" in x for x in losses)
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "ours.model"))
    reread = load_sentencepiece(tmp_path / "ours.model")
    assert sp.get_piece_size() == tok.vocab_size
    assert (sp.bos_id(), sp.eos_id(), sp.unk_id()) == (1, 2, 0)
    compared = differ = 0
    for line in lines:
        if line[:1].isspace():  # the dummy-prefix difference the losses name
            continue
        compared += 1
        ids = sp.encode(line)
        assert reread.encode(line).ids == ids  # our reader agrees with SentencePiece on our file
        differ += ids != tok.encode(line).ids
    assert compared > 1000
    # Viterbi ties may break differently (named in the losses); BPE scores are exact ranks
    assert differ <= (compared // 100 if algorithm == "unigram" else 0), differ


def test_a_model_opened_from_a_file_is_written_back_byte_for_byte(trained, tmp_path):
    from core.formats.detect import save_tokenizer

    d, _ = trained
    tok = load_sentencepiece(d / "m.model")
    assert save_tokenizer(tok, tmp_path / "copy.model", "sentencepiece") == []
    assert (tmp_path / "copy.model").read_bytes() == (d / "m.model").read_bytes()


def test_models_sentencepiece_cannot_hold_are_refused_and_nothing_is_written(tmp_path):
    from core.errors import ConfigError
    from core.events import drain
    from core.formats.detect import save_tokenizer
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts

    lines = ["hug pug hugs bun", "철수는 밥을 먹고"] * 5
    for options, words in [
        (TrainOptions("wordpiece", vocab_size=60), "unigram or BPE"),
        (TrainOptions("bytelevel-bpe", vocab_size=300), "metaspace"),
        (TrainOptions("bpe", vocab_size=60), "metaspace"),
    ]:
        tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
        with pytest.raises(ConfigError, match=words):
            save_tokenizer(tok, tmp_path / "x.model", "sentencepiece")
    assert list(tmp_path.iterdir()) == []


def test_every_cut_and_random_corruption_gives_a_format_error_or_a_working_tokenizer(trained, tmp_path):
    """Fuzz: each prefix of a small model, and seeded random byte flips of a real one, either
    load (a cut at a field boundary is still a message) and encode, or raise FormatError."""
    import random

    data = model_bytes(UNIGRAM_PIECES, charsmap=b"")
    real = (trained[0] / "m.model").read_bytes()
    rng = random.Random(1234)
    variants = [data[:k] for k in range(len(data))]
    for _ in range(150):
        blob = bytearray(real)
        for _ in range(rng.randint(1, 4)):
            blob[rng.randrange(len(blob))] = rng.randrange(256)
        variants.append(bytes(blob))
    path = tmp_path / "fuzz.model"
    loaded = failed = 0
    for blob in variants:
        path.write_bytes(blob)
        try:
            tok = load_sentencepiece(path)
        except FormatError as e:
            assert "fuzz.model" in str(e)
            failed += 1
            continue
        loaded += 1
        try:
            for text in ("Hello ｶﾞ world", "철수는", ""):
                tok.encode(text)
        except FormatError as e:  # a corrupt charsmap is only found when used
            assert "precompiled_charsmap" in str(e)
    assert loaded and failed
