"""Load the compiled encoders ahead of the first real encode.

    >>> load_compiled_encoders()   # about 0.5 s the first time in a process, then nothing

The BPE, WordPiece and Unigram models (and ``core.chunk_kernels``, a line's new words) encode
new words with numba kernels (``core.jit``) that are imported, and their cached machine code
loaded, on first use: about 0.4 s of import and loading. In the explorer that first use is the landing of a trained model,
inside the window's event loop, where it froze the window for 0.4 s
(``benchmarks/bench_gui_responsiveness.py --sample``). The explorer calls this on a helper
thread right after its window is shown, so the first model to land finds them loaded, and
``python -m core.build`` calls it to fill numba's on-disk cache.
"""

from __future__ import annotations

_loaded = False


def load_compiled_encoders() -> None:
    """Encode one word with a tiny model of each family, through the batch paths that use
    the kernels, so their modules are imported and their compiled code loaded. Idempotent."""
    global _loaded
    if _loaded:
        return
    from core.models.factory import model_class

    bpe = model_class("BPE")({"h": 0, "u": 1, "g": 2, "ug": 3, "hug": 4}, [("u", "g"), ("h", "ug")])
    wordpiece = model_class("WordPiece")({"[UNK]": 0, "h": 1, "##u": 2, "##g": 3, "hug": 4})
    unigram = model_class("Unigram")([("<unk>", 0.0), ("h", -2.0), ("u", -2.0), ("g", -2.0), ("hug", -1.0)])
    for model in (bpe, wordpiece, unigram):
        model.tokenize_ids_batch(["hug", "hugg"])
        model.tokenize_batch(["hug", "hugg"])
    # and a line's new words (core.chunk_kernels and each model's line_kernels), as the explorer's text box meets them: under
    # Whitespace, byte-level, Metaspace and WordPiece's (each loads its own kernel: 8-11 ms the
    # first time), three chunks: a line of more than two is gathered by a kernel too; then a
    # line with new words once that module is loaded (plain and byte-level BPE, Unigram under
    # Metaspace, WordPiece: made and gathered in one call)
    from core.pre_tokenizers import ByteLevel, Metaspace, Whitespace
    from core.tokenizer import Tokenizer

    for model, pre_tokenizer in (
        (bpe, Whitespace()),
        (bpe, ByteLevel()),
        (unigram, Metaspace()),
        (wordpiece, Whitespace()),
    ):
        tok = Tokenizer(model, pre_tokenizer=pre_tokenizer)
        tok.encode("hug hugg hug")
        tok.encode("ug hug gu")
    # a rank file's own line encoder (core.models.bpe.split_kernels: the split, look-up and merge)
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    tok = tiktoken_tokenizer({bytes([b]): b for b in range(256)} | {b"ug": 256, b"hug": 257}, "gpt2")
    tok.encode_ids("hug hugg")
    tok.encode_batch_ids(["hug", "ug hugg"])
    _loaded = True
