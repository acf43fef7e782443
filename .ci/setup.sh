#!/usr/bin/env bash
# One-time, idempotent set-up of a fresh machine: the system libraries Qt needs
# (GL/EGL/xkb/fontconfig/dbus), a CJK font for Korean and Japanese, a colour emoji font, and a
# virtual environment in .venv with the project and its test group installed, and the kernels
# that can be compiled ahead of time (python -m core.build; needs gcc and the Python headers).
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libfreetype6
  libdbus-1-3 libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0
  libxcb-xinerama0 libxcb-randr0 libxcb-render-util0 libxcb-image0 fonts-noto-cjk fonts-noto-color-emoji
  gcc python3-dev)
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing system packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.installed-$(cat pyproject.toml | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -e ".[test]" >&2
  rm -f .venv/.installed-*; touch "$stamp"
fi

# BPE training's kernels as an extension (no numba at run time: a short training starts ~0.5 s and
# ~120 MB lighter). Skipped when current; on failure training uses numba's JIT, so never fatal.
.venv/bin/python -m core.build || echo "setup: kernels not compiled ahead of time; numba's JIT will be used" >&2
