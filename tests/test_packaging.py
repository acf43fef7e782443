"""What a wheel ships: every package folder, and the bundled resources inside the GUI package."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

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

    for parts in (
        ("sample", "sample-ko-en.txt"),
        ("examples", "examples.json"),
        ("icons", "subword-explorer.svg"),
    ):
        assert resource_path(*parts).is_file(), parts


def _copy_source(dest: Path) -> Path:
    """The files a wheel is built from, copied so the build leaves the checkout untouched."""
    import shutil

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("core", "subword_gui", "resources"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.mark.slow
def test_the_wheel_installs_elsewhere_and_launches_on_its_bundled_corpus(tmp_path):
    """pip-install the built wheel (not editable) into a fresh environment, start it from another folder."""
    src = _copy_source(tmp_path / "src")
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, src],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = dist.glob("subword_explorer-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for shipped in (
        "subword_gui/resources/sample/sample-ko-en.txt",
        "subword_gui/resources/examples/examples.json",
        "subword_gui/resources/icons/subword-explorer.svg",
        "subword_gui/resources/desktop/subword-explorer.desktop",
        "subword_gui/style/explorer.qss",
    ):
        assert shipped in names, shipped

    # A fresh environment whose only view of the dependencies (PySide6, numpy, ...) is this one's
    # site-packages, added *after* its own: nothing is downloaded, and the project itself can only
    # come from the wheel (the editable install's finder lives in a .pth that is not processed).
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    env_python = env_dir / "bin" / "python"
    (env_site,) = (env_dir / "lib").glob("python3*/site-packages")
    deps = [p for p in map(Path, site.getsitepackages()) if p.is_dir()]
    (env_site / "zz_test_dependencies.pth").write_text("\n".join(map(str, deps)) + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", env_site, wheel],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path / "home")}
    env.pop("PYTHONPATH", None)
    where = subprocess.run(
        [env_python, "-c", "import subword_gui, core; print(subword_gui.__file__); print(core.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(env_site)) for line in where.stdout.split()), where.stdout

    shot = tmp_path / "window.png"
    launch = subprocess.run(
        [
            env_python,
            "-m",
            "subword_gui.app",
            "--screenshot",
            shot,
            "--train",
            "bpe:400",
            "--panel",
            "corpus",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert launch.returncode == 0, launch.stderr
    assert "no such file" not in launch.stderr.lower(), launch.stderr
    assert shot.stat().st_size > 10_000
    version = subprocess.run(
        [env_python, "-m", "core.cli", "--version"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert version.stdout.strip() == f"subword {_pyproject_version()}"


def _pyproject_version() -> str:
    from core import __version__

    return __version__


def test_both_commands_report_the_package_version(capsys):
    from core import __version__
    from core.cli import main as subword_main
    from subword_gui.app import main as explorer_main

    for main, prog in ((subword_main, "subword"), (explorer_main, "subword-explorer")):
        with pytest.raises(SystemExit) as done:
            main(["--version"])
        assert done.value.code == 0
        assert capsys.readouterr().out.strip() == f"{prog} {__version__}"


def test_desktop_entry_installs_with_this_install_s_launcher(tmp_path):
    from subword_gui.desktop import install_desktop_entry

    written = install_desktop_entry(tmp_path, exec_path="/opt/my apps/bin/subword-explorer")
    entry = (tmp_path / "applications" / "subword-explorer.desktop").read_text(encoding="utf-8")
    assert 'Exec="/opt/my apps/bin/subword-explorer" %f' in entry.splitlines()
    assert "Icon=subword-explorer" in entry.splitlines()
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "subword-explorer.svg"
    assert icon in written and icon.read_bytes().startswith(b"<")
