"""Files shipped with Subword Explorer, installed as the package ``subword_gui.resources``.

    >>> from subword_gui.resources import resource_path
    >>> resource_path("sample", "sample-ko-en.txt").is_file()
    True

In the source tree this is the top-level ``resources/`` folder; in a wheel it sits inside the
GUI package (``pyproject.toml`` maps it), so an installed explorer finds its bundled corpus, the
Examples and the icon wherever pip or pipx put it. Read files through :func:`resource_path`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource_path(*parts: str) -> Path:
    """The path of a bundled file, e.g. ``resource_path("icons", "subword-explorer.svg")``."""
    # subtle: wheels are installed unpacked, so the traversable is a real directory on disk.
    return Path(str(files(__name__).joinpath(*parts)))
