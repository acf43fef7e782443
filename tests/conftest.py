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


def pytest_collection_modifyitems(config, items):
    """Everything under tests/parity is marked ``parity``: the quick loop leaves it out."""
    for item in items:
        if "parity" in item.path.parts:
            item.add_marker(pytest.mark.parity)
