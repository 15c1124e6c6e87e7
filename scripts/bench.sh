#!/usr/bin/env bash
# Builds in release mode and runs the benchmark: built-in effects at 1920x1080, 120 frames,
# beside ffmpeg xfade on the same inputs and, where Python has moderngl, the same fade through
# OpenGL on the same driver (the moderngl peer, whose script is in Sources/SegueTools/ModernGLPeer.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
python3 -c 'import moderngl' 2>/dev/null || python3 -m pip install --quiet moderngl \
  || echo "note: could not install moderngl; the OpenGL peer is skipped" >&2
swift build -c release --product segue
.build/release/segue bench "$@"
