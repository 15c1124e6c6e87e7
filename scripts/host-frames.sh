#!/usr/bin/env bash
# Renders one frame of a transition through every host Segue reaches — MLT (`melt`, the engine of
# Shotcut and Kdenlive) and GStreamer (`gst-launch-1.0`) through the frei0r plugin, Python through
# the `segue` package — and through `segue frame` itself, and lays them side by side in one picture
# with each host's largest difference from `segue frame` (in 1/255 steps) under its frame.
#
# Usage: scripts/host-frames.sh OUT.png [EFFECT] [WxH]
#   EFFECT  a built-in or xfade name (default doom-melt); frame 12 of a 25-frame transition at
#           25 fps, i.e. progress 0.5 at 0.48 s, in every host
#   WxH     the frames' size (default 480x270)
# Needs the debug build (`swift build`), melt, gst-launch-1.0 with frei0r (gstreamer1.0-plugins-bad),
# ImageMagick's montage, ffmpeg, and the Python test environment of python/run-tests.sh (made on
# first use).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "error: $*" >&2; exit 1; }
[ $# -ge 1 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 1; }
out="$1"; effect="${2:-doom-melt}"; size="${3:-480x270}"
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || fail "the size must look like 480x270, got '$size'"
width="${BASH_REMATCH[1]}"; height="${BASH_REMATCH[2]}"
for tool in melt gst-launch-1.0 montage ffmpeg; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
build="$(cd "$root" && swift build --show-bin-path)"
[ -x "$build/segue" ] && [ -f "$build/libSegueC.so" ] || (cd "$root" && swift build --product segue && swift build --product SegueC)
"$root/scripts/install.sh" --prefix "$work/prefix" --build-dir "$build" --no-build >/dev/null
segue="$work/prefix/bin/segue"
export FREI0R_PATH="$work/prefix/lib/frei0r-1" SEGUE_CACHE_DIR="$work/cache" GST_REGISTRY="$work/gst-registry.bin"
plugin="segue_${effect//-/_}"
[ -f "$FREI0R_PATH/$plugin.so" ] || fail "no frei0r plugin $plugin (is '$effect' a built-in or xfade transition?)"

# Two inputs with detail everywhere: ffmpeg's test pattern and a Mandelbrot set.
ffmpeg -v error -f lavfi -i "testsrc2=size=${size}:rate=1" -frames:v 1 -pix_fmt rgba -y "$work/from.png"
ffmpeg -v error -f lavfi -i "mandelbrot=size=${size}:rate=1" -frames:v 1 -pix_fmt rgba -y "$work/to.png"

# segue frame: progress 0.5, time 0.48 s (frame 12 at 25 fps).
"$segue" frame --from "$work/from.png" --to "$work/to.png" --effect "$effect" --progress 0.5 --duration 0.96 -o "$work/segue.png"

# MLT: two tracks and the transition over 25 frames, progress keyframed 0 → 1 as Kdenlive writes it.
cat > "$work/project.mlt" <<EOF
<?xml version="1.0" encoding="utf-8"?>
<mlt LC_NUMERIC="C" version="7.12.0">
  <profile description="host frames" width="$width" height="$height" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="$width" display_aspect_den="$height" frame_rate_num="25" frame_rate_den="1" colorspace="709"/>
  <producer id="a" in="0" out="24"><property name="length">25</property><property name="resource">$work/from.png</property><property name="mlt_service">pixbuf</property></producer>
  <producer id="b" in="0" out="24"><property name="length">25</property><property name="resource">$work/to.png</property><property name="mlt_service">pixbuf</property></producer>
  <playlist id="pa"><entry producer="a" in="0" out="24"/></playlist>
  <playlist id="pb"><entry producer="b" in="0" out="24"/></playlist>
  <tractor id="t" in="0" out="24">
    <track producer="pa"/><track producer="pb"/>
    <transition in="0" out="24"><property name="a_track">0</property><property name="b_track">1</property>
      <property name="mlt_service">frei0r.$plugin</property><property name="progress">0=0;-1=1</property></transition>
  </tractor>
</mlt>
EOF
mkdir -p "$work/melt"
melt -silent "$work/project.mlt" -consumer "avformat:$work/melt/%03d.png" vcodec=png pix_fmt=rgba real_time=-2 >/dev/null 2>&1 \
  || fail "melt could not render the project"
cp "$work/melt/013.png" "$work/melt.png"  # its files count from 1

# GStreamer: the mixer at progress 0.5, time from the buffers' timestamps (frame 12 at 25 fps).
source() { echo "filesrc location=$1 ! pngdec ! imagefreeze num-buffers=13 ! videoconvert ! video/x-raw,format=RGBA,framerate=25/1"; }
mkdir -p "$work/gst"
# shellcheck disable=SC2046
gst-launch-1.0 -q "frei0r-mixer-segue-${effect}" name=mix progress=0.5 ! videoconvert ! pngenc ! multifilesink "location=$work/gst/%03d.png" \
  $(source "$work/from.png") ! mix.sink_0 $(source "$work/to.png") ! mix.sink_1 >/dev/null 2>&1 || fail "gst-launch-1.0 could not run the pipeline"
cp "$work/gst/012.png" "$work/gst.png"

# Python: segue.Transition on NumPy arrays, in python/run-tests.sh's environment.
venv="${SEGUE_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/segue/venv}"
if ! "$venv/bin/python" -c "import segue, numpy, PIL" 2>/dev/null; then
  "$root/python/run-tests.sh" -q -k version >/dev/null || fail "the Python environment could not be made"
fi
SEGUE_LIBRARY="$work/prefix/lib/libsegue.so" "$venv/bin/python" - "$work" "$effect" <<'EOF'
import sys
import numpy as np
from PIL import Image
import segue
work, effect = sys.argv[1], sys.argv[2]
a = np.asarray(Image.open(f"{work}/from.png").convert("RGBA"))
b = np.asarray(Image.open(f"{work}/to.png").convert("RGBA"))
t = segue.Transition(effect)
Image.fromarray(t.render(a, b, 0.5, time=0.48)).save(f"{work}/python.png")
reference = np.asarray(Image.open(f"{work}/segue.png").convert("RGBA")).astype(int)
with open(f"{work}/labels.txt", "w") as labels:
    for host, title in [("segue", "segue frame"), ("melt", "MLT (melt) frei0r"), ("gst", "GStreamer frei0r"), ("python", "Python (NumPy)")]:
        frame = np.asarray(Image.open(f"{work}/{host}.png").convert("RGBA")).astype(int)
        worst = int(np.abs(frame - reference).max()) if frame.shape == reference.shape else -1
        note = "the reference" if host == "segue" else f"largest difference {worst}/255"
        print(f"{title}: {note}")
        labels.write(f"{host}\t{title}\\n{note}\n")
EOF
args=()
while IFS=$'\t' read -r host label; do args+=(-label "$label" "$work/$host.png"); done < "$work/labels.txt"
mkdir -p "$(dirname "$out")"
montage "${args[@]}" -tile 4x1 -geometry +6+6 -pointsize 14 -background white "$work/montage.png"
mv "$work/montage.png" "$out"
echo "wrote $out ($effect at progress 0.5)"
