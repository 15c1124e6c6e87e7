#!/usr/bin/env bash
# Sets up a fresh machine (Debian packages), builds Segue in release mode and renders every
# built-in effect between the built-in sample screens: videos and a contact sheet in ./segue-demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product segue
.build/release/segue devices
.build/release/segue demo -o "${1:-segue-demo}"
