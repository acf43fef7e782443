"""open_tokenizer detects every supported format (folder or file, by name or by content);
save_tokenizer lists what each target loses; bad files give one clear FormatError and change nothing."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import CORPORA

from core.errors import ConfigError, FormatError
from core.events import drain
from core.formats.detect import SAVE_FORMATS, detect_format, open_tokenizer, save_tokenizer
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

TEXTS = ["the cat sat on the mat", "Hello, world!", "철수는 밥을 먹고", ""]


def _lines(n=400):
    return (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:n]


def _train(algorithm, vocab_size=300, **kw):
    options = TrainOptions(algorithm, vocab_size=vocab_size, **kw)
    return drain(train_from_counts(pre_tokenize_lines(_lines(), options), options))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One folder per format, each holding files made by the format's own tool where there is one."""
    root = tmp_path_factory.mktemp("formats")
    corpus = root / "corpus.txt"
    corpus.write_text("\n".join(_lines()), encoding="utf-8")
    made = {}
    # tokenizer.json by `tokenizers`
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    hf = Tokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    hf.train(
        [str(corpus)], trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"], show_progress=False)
    )
    (root / "hf").mkdir()
    hf.save(str(root / "hf" / "tokenizer.json"))
    made["hf-json"] = root / "hf"
    # SentencePiece .model and .vocab by sentencepiece
    (root / "sp").mkdir()
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(root / "sp" / "m"), vocab_size=300, minloglevel=2
    )
    made["sentencepiece"] = root / "sp"
    (root / "spv").mkdir()
    shutil.copy(root / "sp" / "m.vocab", root / "spv" / "m.vocab")
    made["sentencepiece-vocab"] = root / "spv"
    # subword-nmt codes by subword-nmt
    from subword_nmt.learn_bpe import learn_bpe

    (root / "snmt").mkdir()
    with open(corpus, encoding="utf-8") as fin, open(root / "snmt" / "codes", "w", encoding="utf-8") as fout:
        learn_bpe(fin, fout, 200)
    made["subword-nmt"] = root / "snmt"
    # the others by our own savers
    made["gpt2"] = root / "gpt2"
    save_tokenizer(_train("bytelevel-bpe", 400), made["gpt2"], "gpt2")
    made["bert"] = root / "bert"
    made["bert"].mkdir()
    save_tokenizer(_train("wordpiece", 300, special_tokens=["[UNK]", "[CLS]", "[SEP]"]), made["bert"], "bert")
    made["tiktoken"] = root / "tk"
    made["tiktoken"].mkdir()
    save_tokenizer(_train("bytelevel-bpe", 400), made["tiktoken"] / "r.tiktoken", "tiktoken")
    made["project"] = root / "proj"
    save_tokenizer(_train("bpe", 300), made["project"], "project")
    return made


FORMATS = [
    "hf-json",
    "sentencepiece",
    "sentencepiece-vocab",
    "subword-nmt",
    "gpt2",
    "bert",
    "tiktoken",
    "project",
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_folders_are_detected(files, fmt):
    loaded = open_tokenizer(files[fmt])
    assert loaded.format == fmt
    assert loaded.tokenizer.vocab_size > 0
    for text in TEXTS:
        loaded.tokenizer.encode(text)  # never raises on any text


# file name -> what a renamed copy must still be recognised as, from its content alone
RENAMED = {
    "hf-json": ("tokenizer.json", "tok.dat"),
    "sentencepiece": ("m.model", "spm.bin"),
    "sentencepiece-vocab": ("m.vocab", "pieces.txt"),
    "subword-nmt": ("codes", "bpe-codes.txt"),
    "bert": ("vocab.txt", "wordpieces.txt"),
    "tiktoken": ("r.tiktoken", "ranks.txt"),
}


@pytest.mark.parametrize("fmt", sorted(RENAMED))
def test_files_are_detected_by_name_and_by_content(files, fmt, tmp_path):
    name, odd = RENAMED[fmt]
    assert detect_format(files[fmt] / name)[0] == fmt
    shutil.copy(files[fmt] / name, tmp_path / odd)
    assert detect_format(tmp_path / odd)[0] == fmt


def test_opened_files_encode_as_their_own_libraries(files):
    from tokenizers import Tokenizer

    hf = Tokenizer.from_file(str(files["hf-json"] / "tokenizer.json"))
    sp = spm.SentencePieceProcessor(model_file=str(files["sentencepiece"] / "m.model"))
    ours_hf = open_tokenizer(files["hf-json"]).tokenizer
    ours_sp = open_tokenizer(files["sentencepiece"] / "m.model").tokenizer
    for line in _lines(200):
        assert ours_hf.encode(line).ids == hf.encode(line).ids
        assert ours_sp.encode(line).ids == sp.encode(line)


def test_subword_nmt_codes_segment_as_subword_nmt(files):
    from subword_nmt.apply_bpe import BPE as SubwordNmtBPE

    with open(files["subword-nmt"] / "codes", encoding="utf-8") as f:
        theirs = SubwordNmtBPE(f)
    ours = open_tokenizer(files["subword-nmt"]).tokenizer
    vocab, unk = ours.get_vocab(), ours.token_to_id("<unk>")
    kept = 0
    for line in _lines(200):
        # ours marks word ends with </w> where subword-nmt marks continuations with @@;
        # a character the codes never mention is kept as is by both (with <unk>'s id here)
        expected = [w[:-2] if w.endswith("@@") else w + "</w>" for w in theirs.process_line(line).split()]
        enc = ours.encode(line)
        assert enc.tokens == expected, line
        for token, id in zip(enc.tokens, enc.ids):
            assert id == vocab.get(token, unk)
            kept += token not in vocab
    assert kept > 0  # characters the codes never mention were met


def test_saved_formats_load_back_and_encode_the_same(files, tmp_path):
    tok = _train("bytelevel-bpe", 400)
    for fmt in ("hf-json", "gpt2", "project"):
        out = tmp_path / fmt
        out.mkdir()
        save_tokenizer(tok, out, fmt)
        back = open_tokenizer(out).tokenizer
        for line in _lines(100) + TEXTS:
            assert back.encode(line).ids == tok.encode(line).ids, (fmt, line)
    save_tokenizer(tok, tmp_path / "r.tiktoken", "tiktoken")
    back = open_tokenizer(tmp_path / "r.tiktoken", pattern="gpt2").tokenizer
    for line in _lines(100):
        assert back.encode(line).ids == tok.encode(line).ids, line


# -- what each target loses ----------------------------------------------------------------


def test_losses_name_what_the_target_cannot_hold(tmp_path):
    bpe = _train("bpe", 300, normalizer="nfkc")
    losses = save_tokenizer(bpe, tmp_path / "g", "gpt2")
    assert any("no normalizer" in x and "NFKC" in x for x in losses)
    assert any("pre-tokenizer" in x for x in losses)
    losses = save_tokenizer(bpe, tmp_path / "vocab.txt", "bert")
    assert any("WordPiece" in x for x in losses)
    losses = save_tokenizer(bpe, tmp_path / "codes", "subword-nmt")
    assert any("no vocabulary ids" in x for x in losses)
    assert save_tokenizer(bpe, tmp_path / "tokenizer.json", "hf-json") == []
    assert save_tokenizer(bpe, tmp_path / "proj", "project") == []


def test_a_format_that_cannot_hold_the_model_writes_nothing(tmp_path):
    wordpiece = _train("wordpiece", 300)
    with pytest.raises(ConfigError, match="BPE"):
        save_tokenizer(wordpiece, tmp_path / "g", "gpt2")
    with pytest.raises(ConfigError, match="not byte-level"):
        save_tokenizer(wordpiece, tmp_path / "r.tiktoken", "tiktoken")
    with pytest.raises(ConfigError, match="unknown target format"):
        save_tokenizer(wordpiece, tmp_path / "x", "xml")
    assert list(tmp_path.iterdir()) == []


def test_a_vocab_txt_is_written_only_when_it_will_reopen(tmp_path):
    """A byte-level vocabulary has no unknown token; as vocab.txt it was written, then refused
    to open ("no unknown token"). A BPE vocabulary with <unk> still saves, and reopens."""
    with pytest.raises(ConfigError, match="unknown token"):
        save_tokenizer(_train("bytelevel-bpe", 300), tmp_path / "vocab.txt", "bert")
    assert list(tmp_path.iterdir()) == []
    bpe = _train("bpe", 300)
    save_tokenizer(bpe, tmp_path / "vocab.txt", "bert")
    reopened = open_tokenizer(tmp_path / "vocab.txt").tokenizer.get_vocab()
    # the same ids, and BERT's special tokens after them (readers expect [CLS], [SEP], [UNK] ...)
    assert reopened.items() >= bpe.get_vocab().items()
    assert set(reopened) - set(bpe.get_vocab()) == {"[PAD]", "[CLS]", "[SEP]", "[MASK]", "[UNK]"}


# -- bad files -----------------------------------------------------------------------------


def _bad_files(files, d):
    """name -> (path, words the message must contain)"""
    out = {}
    raw = (files["hf-json"] / "tokenizer.json").read_text(encoding="utf-8")
    (d / "cut").mkdir()
    (d / "cut" / "tokenizer.json").write_text(raw[: len(raw) // 2], encoding="utf-8")
    out["truncated JSON"] = (d / "cut" / "tokenizer.json", "truncated")
    model = (files["sentencepiece"] / "m.model").read_bytes()
    (d / "half.model").write_bytes(model[: len(model) // 2])
    out["protobuf cut in half"] = (d / "half.model", "truncated")
    (d / "g").mkdir()
    (d / "g" / "vocab.json").write_text(json.dumps({"a": 0, "b": 1, "ab": 2}), encoding="utf-8")
    (d / "g" / "merges.txt").write_text("#version: 0.2\na b\nab c\n", encoding="utf-8")
    out["merges missing from vocab"] = (d / "g", "'c'")
    d2 = json.loads(raw)
    vocab = d2["model"]["vocab"]
    first, second = list(vocab)[:2]
    vocab[second] = vocab[first]
    (d / "dup").mkdir()
    (d / "dup" / "tokenizer.json").write_text(json.dumps(d2), encoding="utf-8")
    out["duplicate ids"] = (d / "dup", "duplicate id")
    d3 = json.loads(raw)
    d3["normalizer"] = {"type": "MagicNormalizer"}
    (d / "unk").mkdir()
    (d / "unk" / "tokenizer.json").write_text(json.dumps(d3), encoding="utf-8")
    out["unknown component type"] = (d / "unk", "MagicNormalizer")
    (d / "bin").mkdir()
    (d / "bin" / "vocab.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)))
    out["binary vocab.txt"] = (d / "bin" / "vocab.txt", "binary")
    (d / "ranks.tiktoken").write_bytes(b"YQ== 0\nYg== 0\n")
    out["duplicate ranks"] = (d / "ranks.tiktoken", "duplicate id")
    return out


def test_bad_files_give_one_clear_message_and_change_nothing(files, tmp_path):
    before_tok = open_tokenizer(files["sentencepiece"]).tokenizer  # "already loaded"
    before_ids = before_tok.encode(TEXTS[0]).ids
    for what, (path, words) in _bad_files(files, tmp_path).items():
        snapshot = {p: p.read_bytes() for p in ([path] if path.is_file() else path.iterdir())}
        with pytest.raises(FormatError) as e:
            open_tokenizer(path)
        message = str(e.value)
        assert words in message, (what, message)
        assert path.name in message, (what, message)
        assert "\n" not in message and "Traceback" not in message
        assert {p: p.read_bytes() for p in snapshot} == snapshot
    assert before_tok.encode(TEXTS[0]).ids == before_ids


def test_nothing_recognisable(tmp_path):
    with pytest.raises(FormatError, match="no tokenizer found"):
        open_tokenizer(tmp_path)
    with pytest.raises(FormatError, match="does not exist"):
        open_tokenizer(tmp_path / "missing.model")
    assert set(SAVE_FORMATS) >= {"hf-json", "gpt2", "bert", "subword-nmt", "project"}


def test_a_token_gpt2_cannot_hold_leaves_no_folder_behind(tmp_path):
    from core.models.bpe.model import BPE
    from core.tokenizer import Tokenizer

    tok = Tokenizer(BPE({"a": 0, " ": 1, "a ": 2}, [("a", " ")]))
    with pytest.raises(FormatError, match="space"):
        save_tokenizer(tok, tmp_path / "g", "gpt2")
    assert not (tmp_path / "g").exists()
    with pytest.raises(ConfigError, match="does not exist"):
        save_tokenizer(tok, tmp_path / "missing" / "tokenizer.json", "hf-json")
    assert list(tmp_path.iterdir()) == []


def test_a_korean_vocab_txt_keeps_hangul_syllables_whole(tmp_path):
    """An uncased Korean vocab.txt: lowercasing is assumed, but not accent stripping, which
    would decompose every syllable into jamo and make each Korean word unknown."""
    from core.formats.detect import open_tokenizer

    tokens = [
        "[PAD]",
        "[UNK]",
        "[CLS]",
        "[SEP]",
        "먹",
        "고",
        "##고",
        "먹고",
        "치",
        "킨",
        "##킨",
        "##을",
        "a",
        "##b",
    ]
    path = tmp_path / "vocab.txt"
    path.write_text("".join(t + "\n" for t in tokens), encoding="utf-8")
    loaded = open_tokenizer(path)
    assert loaded.tokenizer.encode("먹고 치킨을").tokens == ["먹고", "치", "##킨", "##을"]
    assert any("strip_accents=False" in w for w in loaded.warnings)


def test_an_uncased_latin_vocab_txt_still_strips_accents(tmp_path):
    from core.formats.detect import open_tokenizer

    tokens = ["[UNK]", "c", "a", "f", "e", "##a", "##f", "##e", "cafe", "ca", "##fe"]
    path = tmp_path / "vocab.txt"
    path.write_text("".join(t + "\n" for t in tokens), encoding="utf-8")
    assert open_tokenizer(path).tokenizer.encode("Café").tokens == ["cafe"]
