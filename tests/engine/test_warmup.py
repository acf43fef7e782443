"""load_compiled_encoders leaves the kernel modules loaded, and the models it touched encode right."""

import subprocess
import sys


def test_loading_the_compiled_encoders_imports_every_kernel_module():
    code = (
        "import sys\n"
        "from core.warmup import load_compiled_encoders\n"
        "before = {m for m in sys.modules if m.endswith('kernels')}\n"
        "load_compiled_encoders()\n"
        "after = {m for m in sys.modules if m.endswith('kernels')}\n"
        "print(sorted(before), sorted(after))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.strip().split("] [")
    assert "kernels" not in before
    kernels = ("core.models.bpe.kernels", "core.models.unigram.kernels", "core.models.wordpiece.kernels")
    lines = (
        "core.models.bpe.line_kernels",
        "core.models.unigram.line_kernels",
        "core.models.wordpiece.line_kernels",
    )
    for name in (*kernels, *lines, "core.chunk_kernels"):
        assert name in after, after


def test_the_tiny_bpe_model_merges_as_its_two_merges_say():
    from core.models.bpe.model import BPE

    bpe = BPE({"h": 0, "u": 1, "g": 2, "ug": 3, "hug": 4}, [("u", "g"), ("h", "ug")])
    assert bpe.tokenize_ids_batch(["hug", "hugg"]) == [[4], [4, 2]]


def test_loading_the_compiled_encoders_loads_the_kernels_that_gather_a_line():
    code = (
        "from core.warmup import load_compiled_encoders\n"
        "load_compiled_encoders()\n"
        "import core.chunk_kernels as k\n"
        "from core.models.bpe import line_kernels as b\n"
        "from core.models.unigram import line_kernels as u\n"
        "from core.models.wordpiece import line_kernels as w\n"
        "lines = (k.assemble, b.bpe_line, b.bytelevel_line, u.metaspace_line, w.wordpiece_line)\n"
        "print(*(len(f.signatures) for f in lines))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # their machine code loaded now, not on the explorer's first long line or first new word
    assert all(int(count) >= 1 for count in out.split()), out


def test_loading_the_compiled_encoders_loads_a_rank_files_line_encoder():
    code = (
        "from core.warmup import load_compiled_encoders\n"
        "load_compiled_encoders()\n"
        "from core.models.bpe import split_kernels as s\n"
        "print(len(s._encode_texts.signatures))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # compiled into numba's cache by python -m core.build, not on a rank file's first encode
    assert int(out) >= 1, out
