"""GGUF files written here (by the ``gguf`` package's GGUFWriter, vocabulary only) from tokenizers
trained here: our ids equal the reference's on text with Korean, Japanese, emoji, code, digits,
long whitespace runs and special tokens.

The reference is llama.cpp itself (``llama-cpp-python``, ``vocab_only=True``) where it is
installed; it compiles llama.cpp, which was half done (69 of 140 steps) after twenty minutes on
the busy 2-core machine these tests were written on, so otherwise the reference is the
equivalent peer pipeline built from the same data:

- ``gpt2`` (byte-level BPE): the `tokenizers` tokenizer the vocabulary was trained with, its
  pre-tokenizer the regexes the model's ``tokenizer.json`` holds for that ``tokenizer.ggml.pre``;
- ``llama`` (SentencePiece BPE with byte fallback) and ``t5`` (Unigram): SentencePiece on each
  section of the text between special tokens, as llama.cpp cuts them out first and puts a
  ``▁`` in front of each section;
- ``bert`` (WordPiece): the `tokenizers` BERT WordPiece the vocabulary came from.

Where llama.cpp and `tokenizers` read the same tokenizer differently, a test below says so.
"""

from __future__ import annotations

import json

import pytest

gguf = pytest.importorskip("gguf", reason="the gguf package writes the test files (pip install gguf)")
tokenizers = pytest.importorskip("tokenizers")
spm = pytest.importorskip("sentencepiece")

from tokenizers import AddedToken, Regex, decoders, models, pre_tokenizers, trainers  # noqa: E402

from core.formats.detect import open_tokenizer  # noqa: E402
from core.formats.gguf import PRE_NAMES  # noqa: E402

try:  # the reference where it builds (pip install llama-cpp-python: it compiles llama.cpp)
    import llama_cpp
except ImportError:  # pragma: no cover - depends on the machine
    llama_cpp = None

LINES = [
    "Hello, world! It's 2024; they'll say \"don't\" and WE'LL see.",
    "안녕하세요, 세계! 한국어 문장을 토큰으로 나눕니다.",
    "こんにちは世界。日本語の文を分けます、カタカナも。",
    "emoji 😀👍🏽 family 👨‍👩‍👧 ok ✔",
    "def f(x):\n    return x ** 2  # squares\n\tprint(f(12))",
    "digits 1234567890 3.14159 007 ١٢٣",
    "symbols ~/path ~~x $HOME+1 <=> a^b `c` |d| €5 ©2024 ✔️",
    "long    whitespace\t\t\truns          here   \n\n\n  end  ",
    "<|im_start|>user\nhi there<|im_end|>\n<think>hmm</think> <|endoftext|>",
    "",
    " ",
]
TRAIN = [line for line in LINES[:7] for _ in range(3)] + [
    "The quick brown fox jumps over the lazy dog. 빠른 갈색 여우가 게으른 개를 뛰어넘는다.",
    "素早い茶色の狐がのろまな犬を飛び越える。 1 22 333 4444 55555",
    "for i in range(10):\n        total += i  # sum\n",
]
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
USER_DEFINED = ["<think>", "</think>"]

# tokenizer.ggml.pre -> the split regexes of the model's tokenizer.json (what `tokenizers` runs),
# and whether its BPE looks a whole piece up before merging
HF_PRE = {
    "llama-bpe": (
        [
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
            r"|\s*[\r\n]+|\s+(?!\S)|\s+"
        ],
        True,
    ),
    "qwen2": (
        [
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
            r"|\s*[\r\n]+|\s+(?!\S)|\s+"
        ],
        False,
    ),
    "gpt-2": ([r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"], False),
    "smollm": (
        [r"\p{N}", r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"],
        False,
    ),
    "deepseek-coder": ([r"[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", "[一-龥ࠀ-一가-퟿]+", r"\p{N}"], False),
    "gpt-4o": (
        [
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
            r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
            r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
        ],
        False,
    ),
    "superbpe": ([r"\p{N}+", r"(?=(\d{3})+(?!\d))"], False),
    # DeepSeek-V3's tokenizer.json splits (llama.cpp's rows for it are the same strings)
    "deepseek-v3": (
        [
            r"\p{N}{1,3}",
            "[一-龥぀-ゟ゠-ヿ]+",
            r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"
            r"| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        ],
        False,
    ),
}


def _write_gguf(path, tokens, types, model, **fields) -> None:
    """A vocabulary-only GGUF file, as llama.cpp's converters write the tokenizer part."""
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tokenizer_model(model)
    if fields.get("pre"):
        w.add_tokenizer_pre(fields["pre"])
    w.add_token_list(tokens)
    w.add_token_types(types)
    if fields.get("scores") is not None:
        w.add_token_scores(fields["scores"])
    if fields.get("merges") is not None:
        w.add_token_merges(fields["merges"])
    if fields.get("charsmap") is not None:
        w.add_precompiled_charsmap(fields["charsmap"])
    for name in ("bos", "eos", "unk", "sep", "pad"):
        if fields.get(name) is not None:
            getattr(
                w, {"unk": "add_unk_token_id", "sep": "add_sep_token_id"}.get(name, f"add_{name}_token_id")
            )(fields[name])
    for flag in ("add_bos", "add_eos", "add_space_prefix", "remove_extra_whitespaces"):
        if fields.get(flag) is not None:
            getattr(w, f"add_{flag}" + ("_token" if flag in ("add_bos", "add_eos") else ""))(fields[flag])
    for key, value in (fields.get("bools") or {}).items():
        w.add_bool(key, value)
    if fields.get("hf_json") is not None:
        w.add_string("tokenizer.huggingface.json", fields["hf_json"])
    if fields.get("chat_template") is not None:
        w.add_chat_template(fields["chat_template"])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.mark.skipif(llama_cpp is not None, reason="llama-cpp-python is installed: the tests compare with it")
def test_the_reference_here_is_the_peer_pipeline():
    pytest.skip(
        "llama-cpp-python is not installed (pip install llama-cpp-python compiles llama.cpp, too slow "
        "on a 2-core machine): the tests compare with tokenizers / sentencepiece built from the same data"
    )


def _llama_cpp_ids(path, text: str, parse_special: bool = True) -> list[int]:
    vocab = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    return vocab.tokenize(text.encode("utf-8"), add_bos=False, special=parse_special)


# -- gpt2: byte-level BPE ----------------------------------------------------------------------


def _byte_level_bpe(pre: str):
    regexes, ignore_merges = HF_PRE[pre]
    tk = tokenizers.Tokenizer(models.BPE(ignore_merges=ignore_merges))
    tk.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(r), "isolated") for r in regexes]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=700,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tk.train_from_iterator(TRAIN, trainer)
    tk.add_tokens([AddedToken(t, special=False, normalized=False) for t in USER_DEFINED])
    return tk


def _gpt2_file(tmp_path, pre: str, tk=None, **fields):
    tk = tk or _byte_level_bpe(pre)
    vocab = tk.get_vocab(with_added_tokens=True)
    tokens = sorted(vocab, key=vocab.get)
    assert [vocab[t] for t in tokens] == list(range(len(tokens)))
    types = [3 if t in SPECIAL else 4 if t in USER_DEFINED else 1 for t in tokens]
    merges = [" ".join(m) for m in json.loads(tk.to_str())["model"]["merges"]]
    path = tmp_path / f"{pre}.gguf"
    _write_gguf(path, tokens, types, "gpt2", pre=pre, merges=merges, **fields)
    return path, tk


@pytest.mark.parametrize("pre", list(HF_PRE))
def test_byte_level_bpe_ids_equal_the_reference(tmp_path, pre):
    path, tk = _gpt2_file(tmp_path, pre)
    ours = open_tokenizer(path).tokenizer
    for line in LINES:
        expected = _llama_cpp_ids(path, line) if llama_cpp else tk.encode(line, add_special_tokens=False).ids
        assert ours.encode(line).ids == expected, line
        assert ours.encode_ids(line) == expected, line
        # the pieces too: a small vocabulary may tokenize two different splits alike
        for section in line.split("<|im_start|>"):
            pieces = [p for p, _ in ours.pre_tokenizer.pre_tokenize_str(section)]
            assert pieces == [p for p, _ in tk.pre_tokenizer.pre_tokenize_str(section)], section


@pytest.fixture(scope="module")
def any_byte_level_bpe():
    return _byte_level_bpe("gpt-2")


@pytest.mark.skipif(
    llama_cpp is None, reason="needs llama-cpp-python (it compiles llama.cpp: pip install llama-cpp-python)"
)
@pytest.mark.parametrize("pre", sorted(PRE_NAMES))
def test_every_pre_tokenizer_name_we_read_splits_as_llama_cpp_does(tmp_path, pre, any_byte_level_bpe):
    """Every `tokenizer.ggml.pre` name we accept, against llama.cpp itself (one vocabulary, the
    name changing): ids on every test line, with BOS as llama.cpp adds it for the name. The
    vocabulary holds pieces its merges never build (" squares", " 나눕니다"), so a name that looks
    pieces up whole first (llama.cpp's ignore_merges) gives other ids than one that merges."""
    tk = any_byte_level_bpe
    vocab = tk.get_vocab(with_added_tokens=True)
    tokens = sorted(vocab, key=vocab.get)
    as_bytes = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    wholes = [as_bytes.pre_tokenize_str(w)[0][0] for w in (" squares", "squares", " 나눕니다", "나눕니다")]
    tokens.extend(w for w in wholes if w not in vocab)
    assert len(tokens) > len(vocab)
    types = [3 if t in SPECIAL else 4 if t in USER_DEFINED else 1 for t in tokens]
    merges = [" ".join(m) for m in json.loads(tk.to_str())["model"]["merges"]]
    path = tmp_path / f"{pre}.gguf"
    _write_gguf(path, tokens, types, "gpt2", pre=pre, merges=merges, bos=tokens.index("<|endoftext|>"))
    ours = open_tokenizer(path).tokenizer
    reference = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    for line in LINES + ["~ ~~x ¬±×÷ ①② ℃ 𝔘𝔫𝔦 Ａｂｃ１２３ ﬁ ǅ İi ß", "ᄀᄁ ㄱㄲ 한글 ﾊﾝｶｸ 中文 ١٢٣ ๑๒๓ 𝟙𝟚"]:
        expected = reference.tokenize(line.encode("utf-8"), add_bos=True, special=True)
        assert ours.encode_ids(line, add_special_tokens=True) == expected, (pre, line)


def test_gpt_4o_splits_non_ascii_capitals_as_llama_cpp_does_not_as_tokenizers(tmp_path):
    """llama.cpp and `tokenizers` disagree: llama.cpp reads the gpt-4o regex with each character
    collapsed to its category, so its ``[\\p{Lu}...]`` / ``[\\p{Ll}...]`` classes become "a letter
    that is not a-z" / "not A-Z" (src/llama-vocab.cpp spells them so): "É" counts as lower case
    there, and "HelloÉcole" is one piece, where `tokenizers` (and tiktoken's o200k) cut
    "Hello" | "École". We follow llama.cpp."""
    path, tk = _gpt2_file(tmp_path, "gpt-4o")
    ours = open_tokenizer(path).tokenizer
    words = [p for p, _ in ours.pre_tokenizer.pre_tokenize_str("HelloÉcole")]
    assert len(words) == 1
    theirs = [p for p, _ in tk.pre_tokenizer.pre_tokenize_str("HelloÉcole")]
    assert len(theirs) == 2
    if llama_cpp:
        assert ours.encode("HelloÉcole").ids == _llama_cpp_ids(path, "HelloÉcole")


def test_special_tokens_are_text_when_not_parsed(tmp_path):
    """Control tokens are cut out only when special tokens are parsed (llama.cpp's parse_special,
    our ``encode_special_tokens=False``, the default); user-defined ones always."""
    path, tk = _gpt2_file(tmp_path, "llama-bpe")
    ours = open_tokenizer(path).tokenizer
    line = "<|im_start|>a<think>b"
    start, think = tk.token_to_id("<|im_start|>"), tk.token_to_id("<think>")
    assert start in ours.encode(line).ids and think in ours.encode(line).ids
    ours.encode_special_tokens = True
    ids = ours.encode(line).ids
    assert start not in ids and think in ids
    if llama_cpp:
        assert ids == _llama_cpp_ids(path, line, parse_special=False)


def test_bos_and_eos_are_added_as_the_flags_say(tmp_path):
    path, tk = _gpt2_file(tmp_path, "llama-bpe", bos=1, eos=2, add_eos=True)
    ours = open_tokenizer(path).tokenizer
    plain = tk.encode("hi there", add_special_tokens=False).ids
    assert ours.encode("hi there", add_special_tokens=True).ids == [
        1,
        *plain,
        2,
    ]  # llama3: add_bos by default
    assert ours.encode_ids("hi there", add_special_tokens=True) == [1, *plain, 2]
    assert ours.encode("hi there").ids == plain


# -- llama: SentencePiece BPE with byte fallback -------------------------------------------------


def _train_spm(tmp_path, model_type: str, **options):
    corpus = tmp_path / "train.txt"
    corpus.write_text("\n".join(TRAIN) + "\n", encoding="utf-8")
    settings = dict(
        input=str(corpus),
        model_prefix=str(tmp_path / "spm"),
        vocab_size=400,
        model_type=model_type,
        character_coverage=0.98,
        unk_id=0,
        bos_id=1,
        eos_id=2,
        control_symbols=SPECIAL,
        user_defined_symbols=USER_DEFINED,
        num_threads=1,
        minloglevel=2,
        hard_vocab_limit=False,
    )
    spm.SentencePieceTrainer.train(**(settings | options))
    return spm.SentencePieceProcessor(model_file=str(tmp_path / "spm.model"))


def _sections(line: str, cut: list[str]):
    """``line`` as raw sections and special tokens, leftmost-longest (llama.cpp's partition)."""
    out, at, text = [], 0, ""
    while at < len(line):
        found = next((t for t in sorted(cut, key=len, reverse=True) if line.startswith(t, at)), None)
        if found:
            if text:
                out.append(("text", text))
                text = ""
            out.append(("token", found))
            at += len(found)
        else:
            text += line[at]
            at += 1
    if text:
        out.append(("text", text))
    return out


def _sectioned_ids(sp, line: str) -> list[int]:
    ids: list[int] = []
    for kind, value in _sections(line, ["<s>", "</s>", *SPECIAL, *USER_DEFINED]):
        ids += [sp.piece_to_id(value)] if kind == "token" else sp.encode(value)
    return ids


def _spm_file(tmp_path, sp, model: str, **fields):
    """The SentencePiece model's pieces, scores and types as a GGUF vocabulary (unk 0, bos 1, eos 2)."""
    from core.formats.sentencepiece_model import parse_model_proto

    proto = parse_model_proto((tmp_path / "spm.model").read_bytes())
    path = tmp_path / f"{model}.gguf"
    _write_gguf(
        path,
        [p.piece for p in proto.pieces],
        [p.type for p in proto.pieces],
        model,
        scores=[p.score for p in proto.pieces],
        unk=0,
        bos=1,
        eos=2,
        **fields,
    )
    return path, proto


def test_sentencepiece_bpe_with_byte_fallback_ids_equal_the_reference(tmp_path):
    sp = _train_spm(
        tmp_path,
        "bpe",
        byte_fallback=True,
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        add_dummy_prefix=True,
    )
    path, _ = _spm_file(tmp_path, sp, "llama")
    loaded = open_tokenizer(path)
    assert loaded.format == "gguf"
    ours = loaded.tokenizer
    for line in LINES + ["<s>x</s>", "😀 rare: ꙮ"]:
        expected = _llama_cpp_ids(path, line) if llama_cpp else _sectioned_ids(sp, line)
        assert ours.encode(line).ids == expected, line
        assert ours.encode_ids(line) == expected, line
    assert ours.encode("hi", add_special_tokens=True).ids[0] == 1  # llama: add_bos by default
    assert ours.decode(ours.encode(LINES[1]).ids) == LINES[1]


# -- t5: Unigram ---------------------------------------------------------------------------------


def test_unigram_ids_equal_the_reference(tmp_path):
    from core.formats.sentencepiece_model import parse_model_proto

    sp = _train_spm(tmp_path, "unigram", normalization_rule_name="nmt_nfkc", remove_extra_whitespaces=True)
    proto = parse_model_proto((tmp_path / "spm.model").read_bytes())
    path, _ = _spm_file(
        tmp_path,
        sp,
        "t5",
        charsmap=proto.normalizer_spec.precompiled_charsmap,
        add_space_prefix=True,
        remove_extra_whitespaces=True,
        add_eos=False,
    )
    ours = open_tokenizer(path).tokenizer
    for line in LINES + ["ｶﾞ①Ⅻ ﬁ ㈱", "<s>x</s>"]:
        expected = _llama_cpp_ids(path, line) if llama_cpp else _sectioned_ids(sp, line)
        assert ours.encode(line).ids == expected, line


# -- bert: WordPiece -----------------------------------------------------------------------------


def _phantom(token: str) -> str:
    """How llama.cpp's converter writes a BERT token: word starts get "▁", "##" is dropped."""
    if token.startswith("[") and token.endswith("]"):
        return token
    return token[2:] if token.startswith("##") else "▁" + token


def test_wordpiece_ids_equal_the_reference(tmp_path):
    from tokenizers.implementations import BertWordPieceTokenizer

    tk = BertWordPieceTokenizer(lowercase=False, strip_accents=False)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tk.train_from_iterator(TRAIN, vocab_size=500, special_tokens=specials, show_progress=False)
    vocab = tk.get_vocab()
    tokens = sorted(vocab, key=vocab.get)
    path = tmp_path / "bert.gguf"
    _write_gguf(
        path,
        [_phantom(t) for t in tokens],
        [3 if t in specials else 1 for t in tokens],
        "bert",
        unk=vocab["[UNK]"],
        bos=vocab["[CLS]"],
        sep=vocab["[SEP]"],
        pad=vocab["[PAD]"],
        bools={"tokenizer.ggml.normalizer.lowercase": False},  # a cased BERT
    )
    ours = open_tokenizer(path).tokenizer
    for line in LINES + ["[CLS] x [SEP]", "unbelievably"]:
        expected = _llama_cpp_ids(path, line) if llama_cpp else tk.encode(line, add_special_tokens=False).ids
        assert ours.encode(line).ids == expected, line
        assert ours.encode_ids(line) == expected, line
    plain = tk.encode("hi there", add_special_tokens=False).ids
    expected = [vocab["[CLS]"], *plain, vocab["[SEP]"]]  # llama.cpp adds both to a bert vocabulary
    assert ours.encode("hi there", add_special_tokens=True).ids == expected
