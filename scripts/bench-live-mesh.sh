#!/usr/bin/env bash
# Frame intervals of `segue mesh --window` while a pointer drags the curtain, under a private Xvfb.
# Each case opens the window, presses, and moves the pointer around a circle every 8 ms (real XTEST
# events from one xdotool process) until segue has presented FRAMES frames and prints its --stats
# line (frame-to-frame intervals of presented frames: p50, p90, p99, max).
#
#   scripts/bench-live-mesh.sh                 # uses .build/release/segue (swift build -c release)
#   SEGUE=.build/debug/segue FRAMES=300 scripts/bench-live-mesh.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SEGUE=${SEGUE:-.build/release/segue}
FRAMES=${FRAMES:-600}
for t in Xvfb xdotool ffmpeg; do command -v "$t" >/dev/null || { echo "needs $t (apt-get install xvfb xdotool ffmpeg)" >&2; exit 1; }; done
[ -x "$SEGUE" ] || { echo "no $SEGUE: swift build -c release --product segue" >&2; exit 1; }

work=$(mktemp -d)
export SEGUE_CACHE_DIR="$work/cache"
display=":$((RANDOM % 20000 + 30000))"
Xvfb "$display" -screen 0 1300x2600x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
cleanup() { kill "$xvfb" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.05; done
export DISPLAY=$display

ffmpeg -loglevel error -f lavfi -i testsrc2=size=390x844 -frames:v 1 "$work/1x.png"
ffmpeg -loglevel error -f lavfi -i testsrc2=size=1170x2532 -frames:v 1 "$work/3x.png"

# case: label, image, scale
run_case() {
    local label=$1 image=$2 scale=$3
    "$SEGUE" mesh "$image" --mesh curtain --window --scale "$scale" --stats --frames "$FRAMES" >"$work/out" 2>"$work/err" &
    local segue=$!
    local id
    id=$(xdotool search --sync --onlyvisible --name "segue mesh" | head -1)
    eval "$(xdotool getwindowgeometry --shell "$id")"
    # A circle of radius 0.3 of the window around its middle, one 3° step every 8 ms (up to 100 s).
    local moves=()
    mapfile -t moves < <(awk -v x="$X" -v y="$Y" -v w="$WIDTH" -v h="$HEIGHT" 'BEGIN {
        for (i = 0; i < 12500; i++) {
            a = i * 3.14159265 / 60
            printf "mousemove\n%d\n%d\nsleep\n0.008\n", x + w / 2 + 0.3 * w * cos(a), y + h / 2 + 0.3 * h * sin(a)
        }
    }')
    xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) mousedown 1 "${moves[@]}" >/dev/null 2>&1 &
    local drag=$!
    wait "$segue" || { cat "$work/err" >&2; kill "$drag" 2>/dev/null; return 1; }
    kill "$drag" 2>/dev/null || true
    wait "$drag" 2>/dev/null || true
    xdotool mouseup 1 >/dev/null 2>&1 || true
    echo "$label (window ${WIDTH}×${HEIGHT} px): $(cat "$work/out")"
}

run_case "curtain, 390×844 image at 1×" "$work/1x.png" 1
run_case "curtain, 1170×2532 image at 3× (390×844 points)" "$work/3x.png" 3
run_case "curtain, 1170×2532 image at 1× (a 3× display's pixels)" "$work/3x.png" 1
