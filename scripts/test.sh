#!/usr/bin/env bash
# Installs what is missing and runs the whole test suite (GPU tests run on lavapipe without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
# The Python binding (ctypes over the build's libSegueC.so; NumPy, Pillow, MoviePy from PyPI).
python/run-tests.sh
# The GTK 4 widget library (plugins/gtk: libsegue-gtk over the build's libSegueC.so, its typelib)
# in real GTK windows under a private Xvfb, from C and from Python (Debian's python3-gi).
make -C plugins/gtk WARNINGS="-Wall -Wextra -Werror" check
