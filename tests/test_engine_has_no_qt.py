"""The engine is Qt-free: importing every `core` module loads no Qt binding."""

import subprocess
import sys

from conftest import ROOT


def test_core_imports_no_qt():
    code = (
        "import pkgutil, importlib, sys, core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('PySide6', 'PyQt5', 'PyQt6', 'shiboken6', 'pyqtgraph'))\n"
        "print(len([n for n in sys.modules if n.startswith('core')]), bad)\n"
        "assert not bad, bad\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.split()[0]) >= 5  # the walk really imported the engine
