"""What a wheel ships: every package folder, and the bundled resources inside the GUI package."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_folder_is_listed_for_the_wheel():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("core", "subword_gui")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert on_disk - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert listed - on_disk == {"subword_gui.resources"}


def test_resources_are_mapped_into_the_gui_package():
    setuptools = _pyproject()["tool"]["setuptools"]
    assert setuptools["package-dir"]["subword_gui.resources"] == "resources"
    from subword_gui.resources import resource_path

    for parts in (("sample", "sample-ko-en.txt"), ("examples", "examples.json"), ("icons", "subword-explorer.svg")):
        assert resource_path(*parts).is_file(), parts
