#!/usr/bin/env bash
# Packs the test suite for a machine without a Swift toolchain (a lent GPU machine): the debug
# test bundle, segue, libSegueC.so and AnimatedTriangle, stripped, with every shared library they
# load except the C library's own, into one xz archive (about 55 MB). Build first:
#   swift build --build-tests
#   scripts/test-bundle.sh tests.tar.xz
# There, with this checkout at the same absolute path as here (the tests read their fixtures by
# source path; a symbolic link will do) and the Vulkan loader installed:
#   mkdir t && tar -C t -xJf tests.tar.xz
#   LD_LIBRARY_PATH=$PWD/t/lib TESTS=$PWD/t/bin/SeguePackageTests.xctest scripts/gpu-check.sh out
# or run t/bin/SeguePackageTests.xctest --testing-library swift-testing [--filter …] directly.
# Tests that need ffmpeg, melt, GStreamer, Xvfb or a C compiler fail where those are missing.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/test-bundle.sh OUTPUT.tar.xz" >&2; exit 1; }
cd "$(dirname "$0")/.."
build=.build/debug
for product in SeguePackageTests.xctest segue libSegueC.so AnimatedTriangle; do
  [ -e "$build/$product" ] || { echo "error: $build/$product is missing; run 'swift build --build-tests' first" >&2; exit 1; }
done
output=$(realpath -m "$1")
work=$(mktemp -d)
trap 'rm -rf "$work" "$output.partial"' EXIT
mkdir "$work/bin" "$work/lib"
cp "$build/SeguePackageTests.xctest" "$build/segue" "$build/AnimatedTriangle" "$build/libSegueC.so" "$work/bin/"
strip -s "$work/bin/SeguePackageTests.xctest" "$work/bin/segue" "$work/bin/AnimatedTriangle"
strip --strip-unneeded "$work/bin/libSegueC.so"
# Every library the four load, but the C library's own (the machine's must match its kernel).
for binary in "$work"/bin/*; do ldd "$binary"; done | awk '$3 ~ /^\// { print $3 }' | sort -u \
  | grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv|libgcc_s)\.so|/ld-linux' \
  | while read -r library; do cp -L "$library" "$work/lib/"; done
tar -C "$work" -cf - bin lib | xz -T0 -6 > "$output.partial"
mv "$output.partial" "$output"
echo "test-bundle: $output ($(du -h "$output" | cut -f1), $(ls "$work/lib" | wc -l) libraries)"
