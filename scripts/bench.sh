#!/usr/bin/env bash
# Builds in release mode and runs the benchmark: built-in effects at 1920x1080, 120 frames,
# beside ffmpeg xfade on the same inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product segue
.build/release/segue bench "$@"
