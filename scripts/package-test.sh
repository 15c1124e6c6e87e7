#!/usr/bin/env bash
# Installs the Debian packages that scripts/package.sh made into a clean Debian 12 root (mmdebstrap,
# entered with chroot; no Swift there) and uses them as a user would: segue frame and concat with
# inputs made by ffmpeg in the root, a C program built with pkg-config, melt and gst-launch-1.0 with
# the frei0r plugins from their default search path; then segue-gtk: a GTK 4 program built with
# pkg-config segue-gtk run under Xvfb, SegueGtk through python3-gi; then purges both and checks
# that nothing they installed is left. One line per check, then `N passed, M failed`; exits 1 on
# any failure.
# Without root, mmdebstrap (installed with apt-get when missing) or the network it prints
# `skip: REASON` and exits 0.
#
# Usage: scripts/package-test.sh [DIST_DIR]   (default dist/: one segue_*.deb and one segue-gtk_*.deb)
#   SEGUE_PACKAGE_TEST_CACHE=DIR  keep the downloaded .debs in DIR between runs (faster reruns)
#   SEGUE_PACKAGE_TEST_MIRROR=URI the Debian mirror (default: this machine's apt sources, else
#                                 http://deb.debian.org/debian)
#   SEGUE_PACKAGE_TEST_KEEP=1     keep the root (its path is printed) instead of removing it
#   SEGUE_PACKAGE_TEST_CONTAINER  auto (default): also build packaging/Containerfile and run the
#                                 distributed recipe in containers when podman is installed;
#                                 1: install podman (and runc) first; 0: not
#
# The checks are shell text run in the root, single-quoted on purpose:
# shellcheck disable=SC2016
set -uo pipefail
umask 022

case "${1:-}" in -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="${1:-$root/dist}"
started=$SECONDS
skip() { echo "skip: $*"; exit 0; }
die() { echo "error: $*" >&2; exit 1; }

[ -d "$dist" ] || die "$dist: no such directory (make the package with scripts/package.sh)"
shopt -s nullglob
debs=("$dist"/segue_*.deb)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || die "$dist: ${#debs[@]} segue_*.deb files, not one (make the package with scripts/package.sh)"
deb="$(cd "$(dirname "${debs[0]}")" && pwd)/$(basename "${debs[0]}")"
shopt -s nullglob
gtk_debs=("$dist"/segue-gtk_*.deb)
shopt -u nullglob
[ ${#gtk_debs[@]} -eq 1 ] || die "$dist: ${#gtk_debs[@]} segue-gtk_*.deb files, not one (make the packages with scripts/package.sh)"
gtk_deb="$(cd "$(dirname "${gtk_debs[0]}")" && pwd)/$(basename "${gtk_debs[0]}")"
[ "$(dpkg-deb -f "$gtk_deb" Version)" = "$(dpkg-deb -f "$deb" Version)" ] \
  || die "$(basename "$gtk_deb") and $(basename "$deb") are of different versions (make both with scripts/package.sh)"
deb_version="$(dpkg-deb -f "$deb" Version)"
version="${deb_version%-*}"

# --- What it needs here -------------------------------------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    exec sudo -n env SEGUE_PACKAGE_TEST_CACHE="${SEGUE_PACKAGE_TEST_CACHE:-}" SEGUE_PACKAGE_TEST_MIRROR="${SEGUE_PACKAGE_TEST_MIRROR:-}" \
      SEGUE_PACKAGE_TEST_KEEP="${SEGUE_PACKAGE_TEST_KEEP:-0}" SEGUE_PACKAGE_TEST_CONTAINER="${SEGUE_PACKAGE_TEST_CONTAINER:-auto}" \
      TMPDIR="${TMPDIR:-/tmp}" "$0" "$dist"
  fi
  skip "the package test needs root (mmdebstrap --mode=root, chroot, mount) and sudo -n cannot give it"
fi
for tool in chroot mount umount findmnt; do command -v "$tool" >/dev/null || skip "$tool is missing"; done
if ! command -v mmdebstrap >/dev/null; then
  command -v apt-get >/dev/null || skip "mmdebstrap is missing and there is no apt-get to install it"
  echo "Installing: mmdebstrap"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap; } >/dev/null 2>&1 \
    || skip "mmdebstrap is missing and apt-get could not install it (no network?)"
fi

# The mirrors: bookworm, bookworm-updates and bookworm-security from this machine's apt sources
# (deb822 .sources or one-line .list), else deb.debian.org.
sources() {
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk 'function flush() { if (types ~ /(^| )deb( |$)/ && uris != "") { n = split(suites, s, " "); m = split(uris, u, " ");
                              for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print u[j], s[i] }
                            types = uris = suites = "" }
         /^[ \t]*$/ { flush(); next }
         /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
         /^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
         /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
         END { flush() }' "$file"
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    sed -n 's/^deb[ \t]\+\(\[[^]]*\][ \t]\+\)\{0,1\}\([^ \t]\+\)[ \t]\+\([^ \t]\+\).*/\2 \3/p' "$file"
  done
}
mirrors=()
if [ -n "${SEGUE_PACKAGE_TEST_MIRROR:-}" ]; then
  mirrors=("deb $SEGUE_PACKAGE_TEST_MIRROR bookworm main" "deb $SEGUE_PACKAGE_TEST_MIRROR bookworm-updates main")
else
  while read -r uri suite; do
    case "$suite" in bookworm|bookworm-updates|bookworm-security) mirrors+=("deb $uri $suite main") ;; esac
  done < <(sources | awk '!seen[$0]++')
  if ! printf '%s\n' "${mirrors[@]}" | grep -q ' bookworm main$'; then
    mirrors=("deb http://deb.debian.org/debian bookworm main" "deb http://deb.debian.org/debian bookworm-updates main"
             "deb http://deb.debian.org/debian-security bookworm-security main")
  fi
fi

# --- The root -----------------------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/segue-package-test.XXXXXX")"
rootfs="$work/root"
cache="${SEGUE_PACKAGE_TEST_CACHE:-}"
if [ -n "$cache" ]; then mkdir -p "$cache" && cache="$(cd "$cache" && pwd)"; fi
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[$i]}" 2>/dev/null || umount -R -l "${mounted[$i]}" 2>/dev/null || true
  done
  if [ -n "$cache" ] && [ -d "$rootfs/var/cache/apt/archives" ]; then
    find "$rootfs/var/cache/apt/archives" -maxdepth 1 -name '*.deb' ! -name 'segue_*' ! -name 'segue-gtk_*' -exec cp -n -t "$cache" {} + 2>/dev/null || true
  fi
  # Nothing is removed while anything is still mounted under the root (a bind mount of /dev
  # would take the machine's devices with it).
  if grep -qF " $work/" /proc/self/mountinfo; then
    echo "warning: mounts are left under $work; not removing it" >&2
  elif [ "${SEGUE_PACKAGE_TEST_KEEP:-0}" = 1 ]; then
    echo "kept the root: $rootfs" >&2
  else
    rm -rf --one-file-system "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

hooks=(--skip=cleanup/apt --skip=essential/unlink)
if [ -n "$cache" ]; then
  hooks+=(--setup-hook='mkdir -p "$1/var/cache/apt/archives"' --setup-hook="sync-in $cache /var/cache/apt/archives/")
fi
echo "making a Debian 12 root with mmdebstrap (${mirrors[*]})"
made=$SECONDS
if ! mmdebstrap --mode=root --variant=apt --format=directory "${hooks[@]}" bookworm "$rootfs" "${mirrors[@]}" >"$work/mmdebstrap.log" 2>&1; then
  if grep -qiE "could not resolve|temporary failure resolving|failed to fetch|unable to connect|network is unreachable|connection (refused|timed out)" "$work/mmdebstrap.log"; then
    skip "mmdebstrap could not download Debian 12 ($(grep -iE 'could not resolve|temporary failure|failed to fetch|unable to connect|unreachable|connection' "$work/mmdebstrap.log" | head -1))"
  fi
  tail -n 20 "$work/mmdebstrap.log" >&2
  die "mmdebstrap failed (the log's end is above)"
fi
echo "root made in $((SECONDS - made)) s"

cp /etc/resolv.conf "$rootfs/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$rootfs/proc" && mounted+=("$rootfs/proc")
mount -t sysfs sysfs "$rootfs/sys" && mounted+=("$rootfs/sys")
mount --rbind /dev "$rootfs/dev" && mount --make-rslave "$rootfs/dev" && mounted+=("$rootfs/dev")
mkdir -p "$rootfs/tmp/t"
cp "$deb" "$rootfs/$(basename "$deb")"
cp "$gtk_deb" "$rootfs/$(basename "$gtk_deb")"

# in_root COMMAND: runs a shell command in the root with a clean environment.
in_root() {
  chroot "$rootfs" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive TMPDIR=/tmp /bin/sh -ec "$1"
}

# --- Checks -------------------------------------------------------------------------------------
passed=0
failed=0
log="$work/check.log"
check() {  # NAME COMMAND: runs COMMAND in the root (or, with RUN=on_host, here)
  local name="$1" begun=$SECONDS
  if "${RUN:-in_root}" "$2" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "ok: $name ($((SECONDS - begun)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL: $name ($((SECONDS - begun)) s)"
    tail -n 15 "$log" | sed 's/^/    /'
  fi
}
apt_install='apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0'

# Checks a pixel of an image or raw RGBA file: near IMAGE X Y R G B (each within 12 of 255ths).
near='near() {
  if [ "${1##*.}" = rgba ]; then px=$(od -An -tu1 -j "$(( ($3 * $W + $2) * 4 ))" -N 4 "$1");
  else px=$(ffmpeg -v error -i "$1" -vf "crop=1:1:$2:$3" -f rawvideo -pix_fmt rgba - | od -An -tu1); fi
  set -- $px "$4" "$5" "$6"; echo "pixel $1 $2 $3 $4, wanted $5 $6 $7 ±12"
  for c in 1 2 3; do eval "a=\${$c} b=\${$((c + 4))}"; [ $(( a > b ? a - b : b - a )) -le 12 ] || return 1; done
}'

check "a clean Debian 12 root without Swift" \
  'grep -q "^12\." /etc/debian_version && ! command -v swift && ! dpkg -s segue >/dev/null 2>&1'
check "apt-get install /$(basename "$deb") resolves its Depends, and brings no GTK" \
  "$apt_install /$(basename "$deb") && dpkg -s segue | grep -q '^Status: install ok installed' && command -v ffmpeg
   ! dpkg -s libgtk-4-1 2>/dev/null | grep -q '^Status: install ok installed'"
in_root 'dpkg -L segue' >"$work/installed.txt" 2>/dev/null
cp "$work/installed.txt" "$rootfs/installed.txt"
check "ldconfig's trigger ran: libsegue.so.0 is in the linker cache" \
  'ldconfig -p | grep -E "libsegue\.so\.0 " | tee /dev/stderr | grep -qE "=> (/usr)?/lib/[^/]+/libsegue\.so\.0$"'
check "segue --version prints $version" "test \"\$(segue --version)\" = '$version'"
check "segue devices lists a Vulkan device (lavapipe)" 'segue devices | tee /dev/stderr | grep -qi "llvmpipe\|lavapipe\|cpu"'
check "segue frame: two PNGs made by ffmpeg → a 160x90 PNG, the fade's middle colour" '
  cd /tmp/t
  ffmpeg -v error -f lavfi -i color=c=red:s=160x90 -frames:v 1 red.png
  ffmpeg -v error -f lavfi -i color=c=blue:s=160x90 -frames:v 1 blue.png
  segue frame --from red.png --to blue.png --effect fade --progress 0.5 -o mid.png
  test "$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 mid.png)" = 160,90
  '"$near"'
  near mid.png 80 45 128 0 128'
check "segue concat: two 2 s clips made by ffmpeg, fade:1 → an MP4 of 75 frames (3 s at 25 fps)" '
  cd /tmp/t
  ffmpeg -v error -f lavfi -i testsrc=size=160x90:rate=25:duration=2 -pix_fmt yuv420p a.mp4
  ffmpeg -v error -f lavfi -i testsrc2=size=160x90:rate=25:duration=2 -pix_fmt yuv420p b.mp4
  segue concat a.mp4 b.mp4 -o film.mp4 --transition fade:1
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 film.mp4)
  echo "frames: $frames"; test "$frames" = 75'
check "a C program built with cc \$(pkg-config --cflags --libs segue) renders a fade frame" "
  $apt_install gcc libc6-dev pkg-config >/dev/null
  test \"\$(pkg-config --modversion segue)\" = '$version'
  cd /tmp/t
  cat >fade.c <<'EOF'
#include <segue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    segue_error *error = NULL;
    segue_context *gpu = segue_context_create(NULL, &error);
    segue_transition *fade = gpu ? segue_transition_create(gpu, \"fade\", &error) : NULL;
    enum { W = 64, H = 48 };
    static uint8_t a[W * H * 4], b[W * H * 4], out[W * H * 4];
    for (int i = 0; i < W * H; i++) {
        memcpy(a + 4 * i, (uint8_t[]){255, 0, 0, 255}, 4);
        memcpy(b + 4 * i, (uint8_t[]){0, 0, 255, 255}, 4);
    }
    if (!fade || segue_transition_render(fade, a, b, W, H, W * 4, 0.5, 0.5, out, &error) != 0) {
        fprintf(stderr, \"error: %s\\n\", segue_error_message(error));
        return 1;
    }
    const uint8_t *p = out + 4 * (H / 2 * W + W / 2);
    printf(\"segue %s on %s: %d %d %d %d\\n\", segue_version(), segue_context_device_name(gpu), p[0], p[1], p[2], p[3]);
    segue_transition_destroy(fade);
    segue_context_destroy(gpu);
    return abs(p[0] - 128) <= 12 && p[1] <= 12 && abs(p[2] - 128) <= 12 && p[3] == 255 ? 0 : 1;
}
EOF
  cc -Wall -Werror fade.c \$(pkg-config --cflags --libs segue) -o fade
  ./fade"
check "melt renders frei0r.segue_fade between two colour clips (the plugin found in /usr/lib/frei0r-1)" '
  '"$apt_install"' melt >/dev/null
  cd /tmp/t
  melt -query transitions | grep -q "frei0r.segue_fade"
  cat >fade.mlt <<EOF
<?xml version="1.0" encoding="utf-8"?>
<mlt LC_NUMERIC="C">
  <profile width="64" height="48" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="4" display_aspect_den="3" frame_rate_num="25" frame_rate_den="1" colorspace="709"/>
  <producer id="red" in="0" out="8"><property name="mlt_service">color</property><property name="resource">0xff0000ff</property><property name="length">9</property></producer>
  <producer id="blue" in="0" out="8"><property name="mlt_service">color</property><property name="resource">0x0000ffff</property><property name="length">9</property></producer>
  <playlist id="p0"><entry producer="red" in="0" out="8"/></playlist>
  <playlist id="p1"><entry producer="blue" in="0" out="8"/></playlist>
  <tractor id="t" in="0" out="8">
    <track producer="p0"/>
    <track producer="p1"/>
    <transition in="0" out="8">
      <property name="mlt_service">frei0r.segue_fade</property>
      <property name="a_track">0</property>
      <property name="b_track">1</property>
      <property name="progress">0=0;-1=1</property>
    </transition>
  </tractor>
</mlt>
EOF
  '"$near"'
  # melt 7.12 now and then writes nothing and exits 0 (MeltTests.swift): tried up to three times.
  for attempt in 1 2 3; do
    rm -rf melt && mkdir melt
    timeout 120 melt -silent fade.mlt -consumer avformat:melt/out%03d.png vcodec=png pix_fmt=rgba real_time=-1 || true
    [ -f melt/out009.png ] && break
  done
  ls melt; test "$(ls melt | wc -l)" = 9
  near melt/out001.png 32 24 255 0 0 && near melt/out005.png 32 24 128 0 128 && near melt/out009.png 32 24 0 0 255'
check "segue frei0r install adds a .glsl file's plugin for melt (template from /usr/lib/segue; --library named)" "
  cd /tmp/t
  printf '// Author: test\\n// License: MIT\\nvec4 transition(vec2 uv) {\\n  return mix(getFromColor(uv), getToColor(uv), progress);\\n}\\n' >mymix.glsl
  segue frei0r install --library \$(ls /usr/lib/*/libsegue.so.0) mymix.glsl
  test -f /root/.frei0r-1/lib/segue_mymix.so
  melt -query transitions | grep -q frei0r.segue_mymix"
check "gst-launch-1.0 mixes two sources through frei0r-mixer-segue-fade" '
  '"$apt_install"' gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-bad >/dev/null
  cd /tmp/t
  gst-inspect-1.0 frei0r-mixer-segue-fade >/dev/null
  caps=video/x-raw,format=RGBA,width=64,height=48,framerate=25/1
  timeout 240 gst-launch-1.0 -q frei0r-mixer-segue-fade name=mix progress=0.5 ! videoconvert ! video/x-raw,format=RGBA ! filesink location=gst.rgba \
    videotestsrc pattern=red num-buffers=3 ! $caps ! mix.sink_0 \
    videotestsrc pattern=blue num-buffers=3 ! $caps ! mix.sink_1
  test "$(stat -c %s gst.rgba)" = $((3 * 64 * 48 * 4))
  W=64; '"$near"'
  near gst.rgba 32 24 128 0 128'

# --- segue-gtk ----------------------------------------------------------------------------------
check "apt-get install /$(basename "$deb") /$(basename "$gtk_deb") resolves segue-gtk's Depends (GTK 4, its typelib)" \
  "$apt_install /$(basename "$deb") /$(basename "$gtk_deb")
   dpkg -s segue-gtk | grep -q '^Status: install ok installed'
   dpkg -s libgtk-4-1 gir1.2-gtk-4.0 | grep -c '^Status: install ok installed' | grep -qx 2"
in_root 'dpkg -L segue-gtk' >"$work/installed-gtk.txt" 2>/dev/null
cat "$work/installed-gtk.txt" >>"$rootfs/installed.txt"
check "ldconfig's trigger ran: libsegue-gtk.so.0 is in the linker cache" \
  'ldconfig -p | grep -E "libsegue-gtk\.so\.0 " | tee /dev/stderr | grep -qE "=> (/usr)?/lib/[^/]+/libsegue-gtk\.so\.0$"'
# (A typelib whose library cannot be loaded still imports, with a warning and GType "void": the
# GType's name shows that libsegue-gtk.so.0 was loaded.)
check "python3-gi imports SegueGtk from the typelib without a display (GType SegueGtkStack from libsegue-gtk.so.0)" '
  '"$apt_install"' python3-gi >/dev/null
  env -u DISPLAY -u WAYLAND_DISPLAY python3 -c "import gi; gi.require_version(\"SegueGtk\", \"1.0\"); from gi.repository import SegueGtk; print(SegueGtk.Stack, SegueGtk.Stack.__gtype__.name)" \
    | tee /dev/stderr | grep -qx "<class '"'"'gi.repository.SegueGtk.Stack'"'"'> SegueGtkStack"'
# GTK 4's development files (for gtk4.pc, which segue-gtk.pc requires) and Xvfb: a GTK program
# runs only with a display.
check "a GTK 4 program built with cc \$(pkg-config --cflags --libs segue-gtk) runs under xvfb-run: pages, effects, GError" "
  $apt_install libgtk-4-dev xvfb xauth >/dev/null
  test \"\$(pkg-config --modversion segue-gtk)\" = '$version'
  cd /tmp/t
  cat >stack.c <<'EOF'
#include <segue-gtk.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (!gtk_init_check()) { fprintf(stderr, \"error: no display\\n\"); return 1; }
    GtkWidget *widget = segue_gtk_stack_new();
    SegueGtkStack *stack = SEGUE_GTK_STACK(widget);
    g_object_ref_sink(widget);
    segue_gtk_stack_add_named(stack, gtk_label_new(\"first\"), \"first\");
    segue_gtk_stack_add_named(stack, gtk_label_new(\"second\"), \"second\");
    GError *error = NULL;
    if (!segue_gtk_stack_set_effect(stack, \"doom-melt\", &error)) {
        fprintf(stderr, \"error: doom-melt: %s\\n\", error->message);
        return 1;
    }
    gboolean refused = !segue_gtk_stack_set_effect(stack, \"no-such-effect\", &error);
    printf(\"unknown effect refused: %s (%s)\\n\", refused ? \"yes\" : \"no\", error ? error->message : \"no error\");
    g_clear_error(&error);
    gboolean pushed = segue_gtk_stack_push(stack, \"second\");
    printf(\"effect %s, pushed %d, visible %s, depth %u\\n\", segue_gtk_stack_get_effect(stack), pushed,
           segue_gtk_stack_get_visible_child_name(stack), segue_gtk_stack_get_depth(stack));
    int ok = refused && pushed && strcmp(segue_gtk_stack_get_effect(stack), \"doom-melt\") == 0
             && strcmp(segue_gtk_stack_get_visible_child_name(stack), \"second\") == 0;
    g_object_unref(widget);
    return ok ? 0 : 1;
}
EOF
  cc -Wall -Werror stack.c \$(pkg-config --cflags --libs segue-gtk) -o stack
  readelf -d stack | grep -q 'NEEDED.*libsegue-gtk\.so\.0'
  GSK_RENDERER=cairo timeout 120 xvfb-run -a ./stack"
check "python3-gi under xvfb-run: SegueGtk.Stack(effect=\"cube\") pushes a page" '
  cd /tmp/t
  cat >stack.py <<EOF
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("SegueGtk", "1.0")
from gi.repository import Gtk, SegueGtk
stack = SegueGtk.Stack(effect="cube")
stack.add_named(Gtk.Label(label="first"), "first")
stack.add_named(Gtk.Label(label="second"), "second")
pushed = stack.push("second")
print("effect", stack.props.effect, "pushed", pushed, "visible", stack.props.visible_child_name)
assert pushed and stack.props.effect == "cube" and stack.props.visible_child_name == "second"
EOF
  GSK_RENDERER=cairo timeout 120 xvfb-run -a python3 stack.py'

check "apt-get remove --purge segue segue-gtk leaves none of their $(cat "$work/installed.txt" "$work/installed-gtk.txt" | grep -c .) paths (dpkg -L) and no linker cache entry" '
  apt-get remove --purge -y -q -o Dpkg::Use-Pty=0 segue segue-gtk
  ! dpkg -s segue >/dev/null 2>&1
  ! dpkg -s segue-gtk >/dev/null 2>&1
  ! ldconfig -p | grep -q libsegue
  test -s /installed.txt
  left=0
  while read -r path; do
    [ "$path" = /. ] && continue
    if [ -L "$path" ] || [ -f "$path" ]; then echo "left: $path"; left=1
    elif [ -d "$path" ] && ! dpkg-query -S "$path" >/dev/null 2>&1 && [ -z "$(ls -A "$path")" ]; then echo "left (empty, no owner): $path"; left=1
    fi
  done </installed.txt
  test "$left" = 0'

# --- The container image (packaging/Containerfile) ----------------------------------------------
# Built with podman when it is installed (SEGUE_PACKAGE_TEST_CONTAINER=1 installs it, 0 skips),
# from docker.io's debian:bookworm-slim, or where no registry can be reached from a bookworm
# minbase made by mmdebstrap; then the distributed recipe of Docs/Distributed.md in containers:
# a plan, each job in a container of its own, the join.
on_host() { bash -ec "$1"; }
container_mode="${SEGUE_PACKAGE_TEST_CONTAINER:-auto}"
if [ "$container_mode" = 1 ] && ! command -v podman >/dev/null; then
  echo "Installing: podman runc"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc >/dev/null 2>&1 || true
fi
if [ "$container_mode" = 0 ]; then
  echo "skip: container image: SEGUE_PACKAGE_TEST_CONTAINER=0"
elif ! command -v podman >/dev/null; then
  echo "skip: container image: podman is not installed (SEGUE_PACKAGE_TEST_CONTAINER=1 installs it from Debian)"
else
  image="localhost/segue-package-test:$deb_version"
  base_image=localhost/segue-package-test-base:bookworm
  mkdir -p "$work/context" "$work/data"
  cp "$deb" "$work/context/"
  export work image base_image root
  MIRRORS="$(printf '%s\n' "${mirrors[@]}")"
  CACHE="$cache"
  export MIRRORS CACHE
  # `--isolation chroot`: RUN steps without an OCI runtime, which cannot start containers on
  # every machine (e.g. cgroups v1/v2 hybrids); the image is the same.
  RUN=on_host check "podman builds packaging/Containerfile with the .deb" '
    from=()
    if ! podman image exists docker.io/library/debian:bookworm-slim \
       && ! timeout 120 podman pull -q docker.io/library/debian:bookworm-slim; then
      echo "no registry: a bookworm minbase made by mmdebstrap stands in for debian:bookworm-slim"
      mirrors=(); while IFS= read -r line; do mirrors+=("$line"); done <<<"$MIRRORS"
      hooks=()
      [ -z "$CACHE" ] || hooks=(--setup-hook="mkdir -p \"\$1/var/cache/apt/archives\"" --setup-hook="sync-in $CACHE /var/cache/apt/archives/")
      mmdebstrap --mode=root --variant=minbase --format=tar "${hooks[@]}" bookworm "$work/base.tar" "${mirrors[@]}" >"$work/base.log" 2>&1 \
        || { tail "$work/base.log"; exit 1; }
      podman import -q "$work/base.tar" "$base_image"
      from=(--from "$base_image")
    fi
    podman build -q --isolation chroot "${from[@]}" -f "$root/packaging/Containerfile" -t "$image" "$work/context"'
  # Containers run as Docs/Distributed.md runs them; where the OCI runtime's defaults cannot start
  # one here (setrlimit refused in some sandboxes), once more with runc and no default ulimits.
  recipe='set -e
    cd /data
    ffmpeg -v error -f lavfi -i testsrc=size=160x90:rate=25:duration=3 -pix_fmt yuv420p a.mp4
    ffmpeg -v error -f lavfi -i testsrc2=size=160x90:rate=25:duration=3 -pix_fmt yuv420p b.mp4
    segue concat /data/a.mp4 /data/b.mp4 -o /data/film.mp4 --job-seconds 2 --plan /data/plan.json >/data/jobs.txt'
  container_run() {  # ARGS...: podman run with the data volume
    podman run --rm --network=none -v "$work/data:/data" "${run_options[@]}" "$image" "$@"
  }
  run_options=()
  if ! podman image exists "$image"; then
    :  # the build failed (above)
  elif ! container_run segue --version >"$log" 2>&1; then
    if command -v runc >/dev/null; then
      printf '[containers]\ndefault_ulimits = []\n' >"$work/containers.conf"
      export CONTAINERS_CONF="$work/containers.conf"
      run_options=(--runtime runc)
    fi
  fi
  if ! podman image exists "$image"; then
    :
  elif ! container_run segue --version >"$log" 2>&1; then
    echo "skip: container run: podman cannot start containers here ($(grep -m1 -i error "$log" || tail -n 1 "$log"))"
  else
    export -f container_run
    export recipe
    export run_options_text="${run_options[*]}"
    RUN=on_host check "the distributed recipe in containers: a plan, one container per job, the join → 125 frames" '
      run_options=($run_options_text)
      container_run sh -c "$recipe"
      for job in $(cat "$work/data/jobs.txt"); do container_run sh -c "exec segue concat --job /data/plan.json $job"; done
      container_run segue concat --join /data/plan.json -o /data/film.mp4
      frames=$(container_run ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 /data/film.mp4)
      echo "jobs: $(tr "\n" " " <"$work/data/jobs.txt")frames: $frames"; test "$frames" = 125'
  fi
  podman rmi -f "$image" "$base_image" >/dev/null 2>&1 || true
fi

echo "package test of $(basename "$deb") and $(basename "$gtk_deb") took $((SECONDS - started)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
