#!/usr/bin/env bash
# Frame times of SegueGtkStack (plugins/gtk) during a transition between two live pages, against the
# same switch with GtkStack's crossfade, in one run under a private Xvfb (lavapipe for Segue, the GTK
# renderer as the user has it and cairo): p50/p90/p99 of the frame intervals, of the paint phase,
# and of each copy between GTK and Segue. Prints Markdown tables (Docs/Performance.md records them).
#
# Usage: scripts/bench-gtk.sh [--effect fade] [--seconds 3] [--sizes "800x600 1280x800"]
#                             [--renderers "default cairo"] [--build-dir .build/release]
# Needs SwiftPM's libSegueC.so in the build directory (default .build/release: swift build -c release
# --product SegueC; the debug build is slower) and plugins/gtk's build tools.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
effect=fade seconds=3 sizes="800x600 1280x800" renderers="default cairo" build_dir="$root/.build/release"
while [ $# -gt 0 ]; do
  case "$1" in
    --effect) effect="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --renderers) renderers="$2"; shift 2 ;;
    --build-dir) build_dir="$(cd "$2" && pwd)"; shift 2 ;;
    *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[ -f "$build_dir/libSegueC.so" ] || { echo "error: $build_dir/libSegueC.so is missing (swift build -c release --product SegueC)" >&2; exit 1; }
# A build of its own against that libSegueC.so (plugins/gtk/build/bench-NAME).
gtk_build="$root/plugins/gtk/build/bench-$(basename "$build_dir")"
make -s -C "$root/plugins/gtk" BUILD="$gtk_build" SEGUE_BUILD="$build_dir" "$gtk_build/segue-gtk-bench"
bench="$gtk_build/segue-gtk-bench"

# A private X server on a free display (Xvfb picks it), stopped on exit by its process id.
exec 3< <(Xvfb -displayfd 1 -screen 0 1600x1000x24 -nolisten tcp 2>/dev/null & echo "pid $!"; wait)
read -r _ xvfb_pid <&3
read -r display <&3
trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
out="$(mktemp)"
for renderer in $renderers; do
  for size in $sizes; do
    env_renderer=()
    [ "$renderer" = default ] || env_renderer=(GSK_RENDERER="$renderer")
    env DISPLAY=":$display" NO_AT_BRIDGE=1 GDK_BACKEND=x11 "${env_renderer[@]}" \
      "$bench" --width "${size%x*}" --height "${size#*x}" --effect "$effect" --seconds "$seconds" 2>/dev/null \
      | sed "s/^/$renderer /" >>"$out"
  done
done

echo "segue-gtk-bench: effect $effect, $seconds s transitions, libsegue from $build_dir, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
  $2 == "renderer" { name[$1] = $3 }
  { key = $1 " " $2 " " $3 " " $4; p50[key] = $5; p90[key] = $6; p99[key] = $7 }
  $4 == "frames" { frames[$1 " " $2 " " $3] = $5; if (!seen[$1 " " $3]++) order[++n] = $1 " " $3 }
  $4 == "bytes-copied" { bytes[$1 " " $3] = $5 }
  END {
    print "\n| renderer | size | stack | frames | frame interval p50 / p90 / p99 (ms) | paint p50 / p90 / p99 (ms) | fps at p50 |"
    print "|---|---|---|---|---|---|---|"
    for (i = 1; i <= n; i++) {
      split(order[i], o, " ")
      for (s = 1; s <= 2; s++) {
        stack = s == 1 ? "segue" : "gtkstack"
        k = o[1] " " stack " " o[2]
        printf "| %s | %s | %s | %s | %s / %s / %s | %s / %s / %s | %.0f |\n", name[o[1]], o[2], \
          (stack == "segue" ? "SegueGtkStack" : "GtkStack crossfade"), frames[k], \
          p50[k " interval"], p90[k " interval"], p99[k " interval"], p50[k " paint"], p90[k " paint"], p99[k " paint"], \
          1000 / p50[k " interval"]
      }
      printf "| | | ratio | | %.2f× | %.2f× | |\n", p50[o[1] " segue " o[2] " interval"] / p50[o[1] " gtkstack " o[2] " interval"], \
        p50[o[1] " segue " o[2] " paint"] / p50[o[1] " gtkstack " o[2] " paint"]
    }
    print "\nSegueGtkStack per frame, p50 / p90 (ms); copies as Docs/Gtk.md numbers them:"
    print "\n| renderer | size | snapshot (nodes) | 1. draw changed pages (cairo) | 2 + 2′. swizzles | 3–5. segue_transition_render | 6. wrap texture | stack total | 7. GTK renders the window | CPU bytes copied |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= n; i++) {
      split(order[i], o, " ")
      k = o[1] " segue " o[2]
      printf "| %s | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %.1f MB |\n", name[o[1]], o[2], \
        p50[k " snapshot"], p90[k " snapshot"], p50[k " render"], p90[k " render"], \
        p50[k " swizzle"], p90[k " swizzle"], p50[k " segue"], p90[k " segue"], p50[k " texture"], p90[k " texture"], \
        p50[k " stack"], p90[k " stack"], p50[k " gtk-render"], p90[k " gtk-render"], bytes[o[1] " " o[2]] / 1e6
    }
  }' "$out"
rm -f "$out"
