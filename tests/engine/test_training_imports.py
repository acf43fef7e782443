"""A small training job imports only what it uses (each import is part of every short job's cost)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT


def test_plain_bpe_training_does_not_import_the_decoders():
    code = (
        "import sys\n"
        "from core.events import drain\n"
        "from core.options import TrainOptions\n"
        "from core.training import train_from_counts\n"
        "tok = drain(train_from_counts({'hug': 10, 'pug': 5, 'pun': 12}, TrainOptions('bpe', vocab_size=9)))\n"
        "assert tok.decoder is None\n"
        "print('core.decoders' in sys.modules)\n"
        "tok = drain(train_from_counts({'hug': 10, 'pug': 5}, TrainOptions('wordpiece', vocab_size=9)))\n"
        "print(type(tok.decoder).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "WordPiece"], out.stdout + out.stderr


def test_a_sentencepiece_training_loads_neither_regex_nor_dataclasses_nor_numba(tmp_path):
    """``subword train -a sentencepiece-bpe`` on a small English and Japanese file: its pieces'
    scripts come without `regex` (~25 ms), its settings and saved model without `dataclasses`
    (~6 ms), and its kernels from the plain library or the ahead-of-time build, never numba
    (~0.4 s). The characters a training masks (``▅``) need no script either."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        "The cat sat on the mat, 12 times.\nA dog ran away!\n" * 20
        + "吾輩は猫である。名前はまだ無い。「ニャー」\n" * 5
        + "rare ~ sign\n",
        encoding="utf-8",
    )
    code = (
        "import sys\n"
        "from core.cli import main\n"
        f"main(['train', '-a', 'sentencepiece-bpe', '-v', '60', '-o', {str(tmp_path / 'out')!r}, '-q',\n"
        f"      '--workers', '1', {str(corpus)!r}])\n"
        "print(sorted(m for m in ('regex', 'numba', 'numpy', 'dataclasses') if m in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = out.stderr.strip().splitlines()[-1]
    assert "'regex'" not in loaded and "'dataclasses'" not in loaded, out.stderr
    if _built("core.models.bpe.sentencepiece_kernels"):
        assert "'numba'" not in loaded, out.stderr


def test_a_sentencepiece_unigram_training_loads_neither_numba_nor_numpy_ma(tmp_path):
    """numpy's masked arrays (``np.unique`` imports them, ~8 ms), `dataclasses` (~6 ms) and numba
    (the kernels come from the ahead-of-time build when there is one) stay out of a small
    Unigram training."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The cat sat on the mat, 12 times.\nA dog ran away!\n" * 20, encoding="utf-8")
    code = (
        "import sys\n"
        "from core.cli import main\n"
        f"main(['train', '-a', 'sentencepiece-unigram', '-v', '60', '-o', {str(tmp_path / 'out')!r}, '-q',\n"
        f"      '--workers', '1', {str(corpus)!r}])\n"
        "print(sorted(m for m in ('regex', 'numba', 'numpy.ma', 'dataclasses') if m in sys.modules), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = out.stderr.strip().splitlines()[-1]
    assert "'numpy.ma'" not in loaded and "'regex'" not in loaded and "'dataclasses'" not in loaded, (
        out.stderr
    )
    if _built("core.models.unigram.train_kernels"):
        assert "'numba'" not in loaded, out.stderr


def _built(kernels: str) -> bool:
    """Whether ``python -m core.build`` built ``kernels`` here (else the JIT, numba, is the way)."""
    from core.jit import PLAIN_LIBRARIES, load_ahead_of_time, load_plain_library

    return load_ahead_of_time(kernels) is not None or (
        kernels in PLAIN_LIBRARIES and load_plain_library(kernels) is not None
    )


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
@pytest.mark.parametrize("chosen", [None, "2"])
def test_a_training_from_the_command_line_leaves_no_blas_threads_spinning(tmp_path, chosen):
    """numpy's import starts OpenBLAS's workers (one per core), which spin while they wait and
    were a third of a short Unigram training's CPU; nothing calls BLAS, so the command line asks
    for one thread (the process keeps its main thread only), unless the user chose a number."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The cat sat on the mat, 12 times.\nA dog ran away!\n" * 20, encoding="utf-8")
    code = (
        "import os, sys\n"
        "from core.cli import main\n"
        f"main(['train', '-a', 'sentencepiece-unigram', '-v', '60', '-o', {str(tmp_path / 'out')!r}, '-q',\n"
        f"      '--workers', '1', {str(corpus)!r}])\n"
        "print(len(os.listdir('/proc/self/task')), os.environ['OPENBLAS_NUM_THREADS'], file=sys.stderr)\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
    }
    if chosen:
        env["OPENBLAS_NUM_THREADS"] = chosen
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env=env
    )
    threads, setting = out.stderr.strip().splitlines()[-1].split()
    assert setting == (chosen or "1"), out.stderr
    if not chosen:
        assert threads == "1", out.stderr
