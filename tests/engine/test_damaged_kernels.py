"""Compiled kernels damaged on disk are never run: a truncated or scrambled library, one without
its recorded checksum, or a damaged numba cache index falls back (the JIT, the Python loop) with
one warning and the same results. Each case runs on a copy of the package, in a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import core

PACKAGE = Path(core.__file__).parent
TRAIN = """
from core.events import drain
from core.options import TrainOptions, pre_tokenize_lines
from core.training import train_from_counts

lines = ["hug pug pun bun hugs the cat sat on the mat", "low lower newest widest", "철수는 밥을 먹었다"] * 30
for algorithm in ("bpe", "unigram"):
    options = TrainOptions(algorithm, vocab_size=70)
    tok = drain(train_from_counts(pre_tokenize_lines(lines, options), options))
    print(algorithm, sorted(tok.get_vocab().items()), tok.encode(" ".join(lines)).ids)
"""


def _run(root: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("SUBWORD_EXPLORER_JIT_ONLY", None)
    return subprocess.run(
        [sys.executable, "-c", TRAIN], capture_output=True, text=True, timeout=600, env=env, cwd=root
    )


@pytest.fixture(scope="module")
def undamaged(tmp_path_factory) -> tuple[Path, str]:
    """A copy of the package whose kernels are built and whose numba cache is filled, and its results."""
    built = list(PACKAGE.glob("models/*/_*_lib_*.ctypes.so")) + list(PACKAGE.glob("models/*/_*_aot_*.so"))
    if not built or not all((p.parent / (p.name + ".crc32")).is_file() for p in built):
        pytest.skip("the kernels are not built with their checksums here (python -m core.build)")
    root = tmp_path_factory.mktemp("undamaged")
    shutil.copytree(PACKAGE, root / "core")
    first = _run(root)  # (fills the copy's numba cache)
    assert first.returncode == 0, first.stderr
    done = _run(root)
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr
    assert list((root / "core").rglob("*.nbi")), "numba kept no cache index in the copy"
    return root, done.stdout


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _scramble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 3
    data[middle : middle + 4096] = bytes((i * 151 + 7) % 256 for i in range(4096))
    path.write_bytes(bytes(data))


DAMAGES = {
    "plain library truncated": ("models/bpe/_train_kernels_lib_*.ctypes.so", _truncate),
    "plain library scrambled": ("models/bpe/_train_kernels_lib_*.ctypes.so", _scramble),
    "plain library without its checksum": ("models/bpe/_train_kernels_lib_*.ctypes.so.crc32", Path.unlink),
    "extension truncated": ("models/unigram/_train_kernels_aot_*.so", _truncate),
    "numba cache index truncated": ("**/*.nbi", _truncate),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_damaged_kernels_fall_back_with_one_warning_and_the_same_results(undamaged, tmp_path, damage):
    source, expected = undamaged
    root = tmp_path / "copy"
    shutil.copytree(source, root)
    pattern, spoil = DAMAGES[damage]
    targets = sorted((root / "core").glob(pattern))
    assert targets, pattern
    for target in targets:
        spoil(target)
    done = _run(root)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == expected
    warned = [line for line in done.stderr.splitlines() if "RuntimeWarning" in line]
    assert warned and all("is damaged or unverified" in line for line in warned), done.stderr
    if "numba" not in damage:
        assert len(warned) == 1, done.stderr
