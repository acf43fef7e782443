"""Load LLVM's shared library without holding the interpreter lock, ahead of numba.

    >>> preload_llvm()   # on the start-up helper thread, before the compiled encoders load
    True

The engine's compiled encoders import numba, whose llvmlite opens ``libllvmlite`` with
``ctypes.CDLL``. Opening it runs LLVM's static initialisers (option tables for every target:
~200 ms), and ``ctypes.CDLL`` does that while holding the interpreter lock: the start-up
helper (``MainWindow.load_engine_beside``) froze the window's thread for 75-330 ms in one
piece while a corpus opened (py-spy ``--gil --native``: ``_dl_catch_exception`` under
``ctypes.CDLL.__init__``, 2026-11-24). A call *through* a ctypes function releases the lock, so
calling the C library's ``dlopen`` first runs the initialisers with the lock free; llvmlite's
own ``CDLL`` then finds the library loaded and only takes another reference to it.

Leaves out: Windows (no ``dlopen``; llvmlite loads as before) and any error: a failed preload
changes nothing, llvmlite then loads the library itself.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from pathlib import Path

RTLD_NOW = getattr(os, "RTLD_NOW", 2)


def llvmlite_library() -> Path | None:
    """Where llvmlite's shared library is, without importing llvmlite's binding (which loads it)."""
    spec = importlib.util.find_spec("llvmlite")
    if spec is None or not spec.submodule_search_locations:
        return None
    name = "libllvmlite.dylib" if sys.platform == "darwin" else "libllvmlite.so"
    path = Path(next(iter(spec.submodule_search_locations))) / "binding" / name
    return path if path.is_file() else None


def preload_llvm() -> bool:
    """``dlopen`` llvmlite's library through a ctypes call (the lock is free meanwhile);
    True if it is loaded now."""
    if os.name != "posix":
        return False
    path = llvmlite_library()
    if path is None:
        return False
    try:
        dlopen = ctypes.CDLL(None).dlopen
    except (OSError, AttributeError):
        return False
    dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
    dlopen.restype = ctypes.c_void_p
    return bool(dlopen(os.fsencode(path), RTLD_NOW))
