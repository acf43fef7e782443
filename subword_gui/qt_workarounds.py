"""Work around a reference-counting bug in shiboken6 6.12.0 on Python 3.11.

    >>> import subword_gui.qt_workarounds   # before the first Qt call; importing twice is harmless

subtle: shiboken6 6.12.0 returns None from every void Qt method without taking
a new reference (harmless on Python >= 3.12, where None is immortal). On 3.11
None's reference count runs down by one per call (QFont.setBold,
QPainter.setPen, QTextCharFormat.setBackground...) and the interpreter aborts
with "none_dealloc: deallocating None" after a few thousand to a few hundred
thousand Qt calls: minutes of painting. shiboken6 6.11.3 does not have the
bug. We give None so many references (2**40) that it can never reach zero.

Imported by ``subword_gui/__init__.py`` and by ``subword_gui.state`` (which every
panel uses), because an editable install made before the package had an
``__init__.py`` imports ``subword_gui`` as a namespace package and skips it.
"""

from __future__ import annotations

import sys

APPLIED = False

if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
    import ctypes

    # CPython's object header starts with the Py_ssize_t reference count, and id() is the address.
    # True and False run down the same way (bool results of Python overrides such as
    # canFetchMore; the GUI tests aborted with "bool_dealloc" once None was covered).
    for _singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(_singleton)).value += 1 << 40
    APPLIED = True
