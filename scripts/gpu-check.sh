#!/usr/bin/env bash
# Proves Segue on a machine with a GPU (Docs/Performance.md, "The GPU path"):
#   1. the test suite (with `swift` there, or a test bundle built here, TESTS=…);
#   2. `segue bench` at 1080p and 4K: shading only, with readback, end to end (and --account);
#   3. every built-in rendered on lavapipe and on the GPU and compared: the same picture within
#      2/255 on 99.9 % of the pixels of every frame (scripts/compare-raw.py).
# Figures go to OUTPUT_DIR/figures.txt (with the full outputs beside it); the exit status is 1 when
# a test or a comparison failed.
#
# Usage: scripts/gpu-check.sh [OUTPUT_DIR]          (default gpu-check-out)
# It needs bash, python3 (standard library only) and a segue binary with the Vulkan loader: build
# one here with `swift build -c release --static-swift-stdlib --product segue` and take it there
# with libvulkan1 and libglvnd0 (shared/ENVIRONMENT.md). Settings, all optional, in the environment:
#   SEGUE       the segue binary (default: ./segue if present, else .build/release/segue)
#   GPU_DEVICE  --device of the GPU under test (default: nvidia)
#   REF_DEVICE  --device of the reference renderer (default: llvmpipe)
#   REFERENCES  a directory of reference frames made on a machine with lavapipe by
#               `MAKE_REFERENCES=1 scripts/gpu-check.sh DIR` (DIR/frames/*.rgba), for a GPU machine
#               without mesa-vulkan-drivers
#   TESTS       a test bundle (SeguePackageTests.xctest) to run when there is no swift toolchain:
#               scripts/test-bundle.sh packs it with segue, libSegueC.so and their libraries (put
#               its lib/ on LD_LIBRARY_PATH); tests read fixtures by their source path, so the
#               checkout must stand at the same absolute path as where the bundle was built
#   SIZES       benchmark sizes (default "1920x1080 3840x2160"); FRAMES (120); RUNS (3)
#   CHECK_SIZE  size of the compared transitions (default 320x180; mesh effects keep the 480x270 input)
#   SKIP_TESTS=1  leave out the test suite (a dry run of the rest)
# The NVIDIA driver's manifest is named for the loader when it sits where NVIDIA's containers put
# it (/usr/local/nvidia/...) and VK_DRIVER_FILES is not set; lavapipe's is added beside it. The
# driver (libGLX_nvidia) loads through libglvnd: without libglvnd0 the loader finds no driver.
# Without a device matching GPU_DEVICE the run fails (it would have compared nothing).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=${1:-gpu-check-out}
mkdir -p "$out/frames"
out=$(cd "$out" && pwd)
figures=$out/figures.txt
: >"$figures"
failed=0

if [ -n "${SEGUE:-}" ]; then segue=$SEGUE
elif [ -x ./segue ]; then segue=$repo/segue
else segue=$repo/.build/release/segue; fi
[ -x "$segue" ] || { echo "error: no segue binary at $segue (set SEGUE=…)" >&2; exit 1; }
gpu=${GPU_DEVICE:-nvidia}
ref=${REF_DEVICE:-llvmpipe}
frames=${FRAMES:-120}
runs=${RUNS:-3}
sizes=${SIZES:-1920x1080 3840x2160}
check_size=${CHECK_SIZE:-320x180}

if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  for lvp in /usr/share/vulkan/icd.d/lvp_icd.*.json; do
    [ -f "$lvp" ] && VK_DRIVER_FILES=$VK_DRIVER_FILES:$lvp
  done
  export VK_DRIVER_FILES
fi

note() { echo "$*" | tee -a "$figures"; }

note "# segue gpu-check, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -m), $(nproc) CPU cores"
note "binary: $segue; GPU device: '$gpu'; reference device: '$ref'"
"$segue" devices 2>&1 | tee "$out/devices.txt" | sed 's/^/  /' | tee -a "$figures"
have_gpu=0; have_ref=0
"$segue" devices 2>/dev/null | grep -qi -- "$gpu" && have_gpu=1
"$segue" devices 2>/dev/null | grep -qi -- "$ref" && have_ref=1
if [ "${MAKE_REFERENCES:-0}" = 1 ]; then
  have_gpu=0
elif [ $have_gpu = 0 ]; then
  # Nothing to prove without the device under test: say so and fail, rather than pass having
  # compared nothing. NVIDIA's Vulkan driver loads through libglvnd: bring libglvnd0 with the loader.
  note "error: no Vulkan device matching '$gpu' (segue devices above); for NVIDIA's driver the loader needs libvulkan1 and libglvnd0, and VK_DRIVER_FILES may have to name nvidia_icd.json"
  failed=1
fi

# --- Inputs: two translucent 480x270 PNGs (gradients, a disc, stripes), written by python3 ----
python3 - "$out/from.png" "$out/to.png" <<'EOF'
import struct, sys, zlib
def png(path, w, h, pixel):
    rows = b"".join(b"\0" + bytes(c for x in range(w) for c in pixel(x, y)) for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))
w, h = 480, 270
def a(x, y):
    inside = (x - 300) ** 2 + (y - 120) ** 2 < 80 ** 2
    return (255, 230, 40, 255) if inside else ((x * 255) // w, (y * 255) // h, 160, 255 if x < 400 else 128)
def b(x, y):
    return (20, 120 + (x * 100) // w, 230, 255) if (x // 24) % 2 else (240, (y * 255) // h, 60, 255 - (y * 60) // h)
png(sys.argv[1], w, h, a)
png(sys.argv[2], w, h, b)
EOF

# --- 1. Tests ---------------------------------------------------------------------------------
if [ "${SKIP_TESTS:-0}" = 1 ]; then
  note "tests: skipped (SKIP_TESTS=1)"
elif [ "${MAKE_REFERENCES:-0}" != 1 ]; then
  if [ -n "${TESTS:-}" ]; then
    note "## tests: $TESTS"
    ("$TESTS" && "$TESTS" --testing-library swift-testing) >"$out/tests.txt" 2>&1 \
      && note "tests: passed" || { note "tests: FAILED (see tests.txt)"; failed=1; }
  elif command -v swift >/dev/null && [ -f Package.swift ]; then
    note "## tests: swift test (default device: the best GPU)"
    swift test >"$out/tests.txt" 2>&1 && note "tests: passed" || { note "tests: FAILED (see tests.txt)"; failed=1; }
  else
    note "tests: skipped (no swift toolchain and no TESTS bundle)"
  fi
  grep -E "Test run with|Executed [0-9]+ tests" "$out/tests.txt" 2>/dev/null | tail -2 | tee -a "$figures"
fi

# --- 2. Benchmarks ----------------------------------------------------------------------------
if [ $have_gpu = 1 ]; then
  for size in $sizes; do
    note "## segue bench --size $size --frames $frames --runs $runs --device $gpu"
    "$segue" bench --size "$size" --frames "$frames" --runs "$runs" --device "$gpu" 2>&1 | tee -a "$figures" \
      || { note "bench $size: FAILED"; failed=1; }
    note "## segue bench --account --size $size"
    "$segue" bench --account --size "$size" --frames "$frames" --runs "$runs" --device "$gpu" 2>&1 | tee -a "$figures" \
      || { note "bench --account $size: FAILED"; failed=1; }
  done
else
  note "bench: skipped (no device matching '$gpu')"
fi

# --- 3. Every built-in on the reference device and on the GPU --------------------------------
effects=$("$segue" list | awk '/^(full-screen|mesh|stitchable)/ { keep = 1; next } /^[^ ]/ { keep = 0 } keep && /^  [a-z]/ { print $1 }')
references=${REFERENCES:-$out/frames}
render() {  # render DEVICE EFFECT FILE: 5 frames (progress 0, .25, .5, .75, 1) as raw RGBA
  "$segue" render --from "$out/from.png" --to "$out/to.png" --effect "$2" --size "$check_size" --duration 1 --fps 4 \
    --device "$1" -o - >"$3" 2>"$3.err" && return 0
  # A mesh effect that is no transition: the picture through its mesh (from the mesh to itself).
  grep -q "not a transition" "$3.err" || return 1
  "$segue" mesh "$out/from.png" --mesh "$2" --to-mesh "$2" --duration 1 --fps 4 \
    --device "$1" -o - >"$3" 2>"$3.err"
}
if [ $have_gpu = 1 ] || [ "${MAKE_REFERENCES:-0}" = 1 ]; then
  if [ "${MAKE_REFERENCES:-0}" = 1 ]; then note "## every built-in on '$ref' (references) at $check_size, 5 frames each"
  else note "## every built-in: '$ref' (reference) vs '$gpu' at $check_size, 5 frames each, within 2/255 on 99.9 % of pixels"; fi
  passed=0; total=0
  for e in $effects; do
    total=$((total + 1))
    reffile=$references/$e.rgba
    if [ $have_ref = 1 ] && [ ! -s "$reffile" ]; then
      render "$ref" "$e" "$out/frames/$e.rgba" || { note "$e: reference render FAILED: $(tail -1 "$out/frames/$e.rgba.err")"; failed=1; continue; }
      reffile=$out/frames/$e.rgba
    fi
    [ "${MAKE_REFERENCES:-0}" = 1 ] && { passed=$((passed + 1)); continue; }
    [ -s "$reffile" ] || { note "$e: no reference (no '$ref' device and nothing in REFERENCES)"; failed=1; continue; }
    render "$gpu" "$e" "$out/gpu-$e.rgba" || { note "$e: GPU render FAILED: $(tail -1 "$out/gpu-$e.rgba.err")"; failed=1; continue; }
    if result=$(python3 "$repo/scripts/compare-raw.py" "$reffile" "$out/gpu-$e.rgba" --tolerance 2 --fraction 0.999); then
      passed=$((passed + 1)); note "$e: ok, $result"
    else
      note "$e: DIFFERS, $result"; failed=1
    fi
    rm -f "$out/gpu-$e.rgba" "$out/gpu-$e.rgba.err"
  done
  note "built-ins: $passed of $total $([ "${MAKE_REFERENCES:-0}" = 1 ] && echo "references made in $out/frames" || echo "match")"
else
  note "comparison: skipped (no device matching '$gpu')"
fi
rm -f "$out"/frames/*.err
note "result: $([ $failed = 0 ] && echo passed || echo FAILED)"
exit $failed
