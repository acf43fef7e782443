"""Install the explorer's menu entry and icon on a Linux desktop (freedesktop.org layout; Qt-free).

    $ pipx install subword-explorer && subword-explorer --install-desktop-entry
    installed /home/me/.local/share/applications/subword-explorer.desktop

Writes ``applications/subword-explorer.desktop`` and ``icons/hicolor/scalable/apps/subword-explorer.svg``
under ``$XDG_DATA_HOME`` (default ``~/.local/share``). ``Exec`` names the absolute path of the
running ``subword-explorer`` script, so an entry made from a pipx or virtual-environment install
starts that install. Running it again replaces both files (each written atomically).

Leaves out: system-wide installation and MIME associations beyond plain text.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from core.atomic import write_atomic
from subword_gui.resources import resource_path

DESKTOP_ID = "subword-explorer"


def data_home() -> Path:
    """``$XDG_DATA_HOME`` or ``~/.local/share``, as the freedesktop.org base-directory spec says."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launcher_path() -> str:
    """The command a menu entry should run: this install's ``subword-explorer`` script."""
    script = Path(sys.argv[0])
    if script.name == DESKTOP_ID and script.exists():
        return str(script.resolve())
    return shutil.which(DESKTOP_ID) or DESKTOP_ID


def install_desktop_entry(root: Path | None = None, exec_path: str | None = None) -> list[Path]:
    """Write the menu entry and the icon under ``root`` (default :func:`data_home`); their paths."""
    root = root or data_home()
    entry = resource_path("desktop", f"{DESKTOP_ID}.desktop").read_text(encoding="utf-8")
    exec_line = f"Exec={_quote_exec(exec_path or launcher_path())} %f"
    entry = "\n".join(exec_line if line.startswith("Exec=") else line for line in entry.splitlines()) + "\n"
    targets = {
        root / "applications" / f"{DESKTOP_ID}.desktop": entry.encode("utf-8"),
        root / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg": resource_path(
            "icons", "subword-explorer.svg"
        ).read_bytes(),
    }
    for path, data in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
    return list(targets)


def _quote_exec(path: str) -> str:
    """Quote an Exec program path as the Desktop Entry spec asks when it holds spaces or quotes."""
    if not any(c in path for c in " \t\"'\\$`"):
        return path
    escaped = path.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return f'"{escaped}"'
