#!/usr/bin/env bash
# Installs the Debian packages Segue builds and runs with, if any is missing (idempotent).
set -euo pipefail
packages=(
  libvulkan-dev        # Vulkan loader and headers
  mesa-vulkan-drivers  # lavapipe: Vulkan on the CPU, for machines without a GPU
  vulkan-tools         # vulkaninfo, for diagnostics
  libshaderc-dev glslang-dev spirv-tools  # GLSL -> SPIR-V at run time (static link, see Package.swift)
  libpng-dev libturbojpeg0-dev            # PNG and JPEG
  ffmpeg               # video output and the xfade benchmark peer
  libsdl2-dev          # windows, input and Vulkan surfaces (SegueWindow)
  chromium             # the gallery page test (headless screenshots, console errors)
  xvfb xdotool imagemagick  # window tests: a private X server, real input events, screenshots
  libegl1 libegl-mesa0 libgl1-mesa-dri  # headless EGL on Mesa: the moderngl peer of segue bench
  python3-venv         # the Python binding's test environment (python/run-tests.sh)
  frei0r-plugins-dev   # frei0r.h: the frei0r plugin template (plugins/frei0r, built by install.sh)
  melt                 # MLT (Shotcut's and Kdenlive's engine): the frei0r plugins' tests and segue bench --hosts
  gstreamer1.0-tools gstreamer1.0-plugins-bad gstreamer1.0-plugins-good  # gst-launch-1.0 and its frei0r module
  parallel             # GNU parallel: runs the jobs of a segue concat --plan (python/tests/test_distributed.py)
  abigail-tools        # abidw/abidiff: libsegue's ABI against its baseline (scripts/abi-check.sh)
  libgtk-4-dev         # GTK 4 (4.8 on Debian 12): the widget library libsegue-gtk (plugins/gtk)
  gobject-introspection libgirepository1.0-dev  # g-ir-scanner, g-ir-compiler: SegueGtk-1.0.gir and .typelib
  gir1.2-gtk-4.0 python3-gi gjs  # Python and GJS through introspection: the GTK tests and Examples/gtk
  valac                # Vala through the gir (vapigen, valac): the GTK tests
  make                 # plugins/gtk's Makefile
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "error: Swift 6 is required (https://swift.org/install); 'swift' is not on PATH" >&2; exit 1; }
