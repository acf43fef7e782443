"""Shared fixtures: where the real corpora and the seeds live, and isolated Qt settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SUBWORD_SHARED", ROOT.parent / "shared"))
CORPORA = SHARED / "corpora"
SEEDS = SHARED / "seeds"
RESOURCES = ROOT / "resources"
CORPUS_FILES = ["en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"]


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    assert CORPORA.is_dir(), f"the shared corpora are expected at {CORPORA} (set SUBWORD_SHARED)"
    return CORPORA


@pytest.fixture(scope="session")
def resources_dir() -> Path:
    return RESOURCES


@pytest.fixture(params=["ahead-of-time", "jit", "plain", "python"])
def bpe_kernels_build(request, monkeypatch) -> str:
    """Run a test on each path of BPE training's merge loop: the compiled one (core.models.bpe.merge_loop)
    in its three builds, the extension ``python -m core.build`` compiles ahead of time (skipped where
    it is not built; .ci/setup.sh builds it), numba's JIT of the same source and the plain shared
    library small jobs take (skipped where not built), and the plain Python loop small jobs take
    where that library is not built (core.models.bpe.reference). Each is forced whatever the job's size."""
    from core.jit import JIT_ONLY_VARIABLE, load_ahead_of_time, load_plain_library
    from core.models.bpe import trainer as bpe

    if request.param in ("python", "plain"):
        monkeypatch.setattr(bpe, "PYTHON_LOOP_MAX_SYMBOLS", 1 << 62)
        monkeypatch.setattr(bpe, "PLAIN_LIBRARY", request.param == "plain")
        monkeypatch.setattr(bpe, "PLAIN_LIBRARY_MAX_SYMBOLS", 1 << 62)
        if request.param == "plain" and load_plain_library("core.models.bpe.train_kernels") is None:
            pytest.skip("the BPE kernels' plain library is not built here (python -m core.build builds it)")
        return request.param
    monkeypatch.setattr(bpe, "PYTHON_LOOP_MAX_SYMBOLS", -1)
    monkeypatch.setattr(bpe, "PLAIN_LIBRARY", False)
    if request.param == "jit":
        monkeypatch.setenv(JIT_ONLY_VARIABLE, "1")
    elif load_ahead_of_time("core.models.bpe.train_kernels") is None:
        pytest.skip("BPE kernels not compiled ahead of time here (python -m core.build builds them)")
    return request.param


def pytest_collection_modifyitems(config, items):
    """Everything under tests/parity is marked ``parity``: the quick loop leaves it out."""
    for item in items:
        if "parity" in item.path.parts:
            item.add_marker(pytest.mark.parity)
