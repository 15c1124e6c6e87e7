#!/usr/bin/env bash
# Tests the Python binding: makes a virtual environment outside the repository when it is missing
# (numpy, pillow, moviepy 2, dask and distributed, pytest, setuptools, wheel and mypy from PyPI; reused
# between runs), installs ./python into it, and runs pytest over python/tests against the library
# and the CLI of one SwiftPM build (SEGUE_LIBRARY = its libSegueC.so, its `segue` first on PATH).
# pytest's exit status is this script's.
#
# Usage: python/run-tests.sh [PYTEST ARGUMENTS...]
#   SEGUE_BUILD_DIR    the build holding libSegueC.so and segue (default: `swift build --show-bin-path`;
#                      built there when missing)
#   SEGUE_PYTHON_VENV  the environment (default: ${XDG_CACHE_HOME:-~/.cache}/segue/venv)
#   PYTHON             the interpreter that makes it (default: python3)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "error: $*" >&2; exit 1; }

if [ -n "${SEGUE_BUILD_DIR:-}" ]; then
  build_dir="$SEGUE_BUILD_DIR"
else
  build_dir="$(cd "$root" && swift build --show-bin-path)"
  if [ ! -f "$build_dir/libSegueC.so" ] || [ ! -x "$build_dir/segue" ]; then
    (cd "$root" && swift build --product segue && swift build --product SegueC)
  fi
fi
[ -f "$build_dir/libSegueC.so" ] || fail "$build_dir/libSegueC.so is missing (run swift build)"
[ -x "$build_dir/segue" ] || fail "$build_dir/segue is missing (run swift build)"

venv="${SEGUE_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/segue/venv}"
mkdir -p "$(dirname "$venv")"
# One run at a time per environment: the lock is held until pytest exits (fd 9 is inherited).
exec 9>"$venv.lock"
flock 9
if ! "$venv/bin/python" -c "import numpy, PIL, pytest, setuptools, wheel, dask, distributed, mypy; from moviepy import VideoClip" 2>/dev/null; then
  echo "making the test environment in $venv"
  "${PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check numpy pillow "moviepy>=2,<3" dask distributed pytest "setuptools>=61" wheel mypy
fi
# The package as `pip install ./python` installs it (without rebuilding the dependencies).
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation --no-deps --force-reinstall "$root/python"

cd "$root/python"
SEGUE_LIBRARY="$build_dir/libSegueC.so" PATH="$build_dir:$PATH" \
  exec "$venv/bin/python" -m pytest -p no:cacheprovider tests "$@"
