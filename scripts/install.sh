#!/usr/bin/env bash
# Builds Segue in release mode and installs the CLI, the C library, the frei0r plugins and the GTK
# widget library:
#   PREFIX/bin/segue  PREFIX/lib/libsegue.so.VERSION (with libsegue.so.0, its SONAME, and libsegue.so
#   linking to it)  PREFIX/include/segue.h  PREFIX/lib/pkgconfig/segue.pc
#   PREFIX/lib/segue/segue-frei0r.so (the plugin template)  PREFIX/lib/frei0r-1/segue_*.so
#   PREFIX/lib/libsegue-gtk.so.VERSION (+ .so.0, .so)  PREFIX/include/segue-gtk.h
#   PREFIX/lib/pkgconfig/segue-gtk.pc  PREFIX/lib/girepository-1.0/SegueGtk-1.0.typelib
#   PREFIX/share/gir-1.0/SegueGtk-1.0.gir (the GTK 4 widget library; skipped without GTK 4 dev files)
# after which `cc app.c $(pkg-config --cflags --libs segue)` builds a program that runs with no
# further setup: the .pc file embeds PREFIX/lib as the program's run-time search path, and as root
# with PREFIX/lib among the linker's configured directories (/usr/local/lib on Debian) ldconfig is run.
# The frei0r plugins (one per built-in effect; MLT and GStreamer search /usr/local/lib/frei0r-1) need
# a C compiler ($CC, else cc) and frei0r.h (Debian: frei0r-plugins-dev); without them they are skipped.
#
# Usage: scripts/install.sh [--prefix DIR] [--build-dir DIR] [--no-build]
#   --prefix DIR     where to install (default /usr/local)
#   --build-dir DIR  take the products from DIR (default: SwiftPM's release directory)
#   --no-build       install what DIR already holds (a test installs its debug build this way)
set -euo pipefail

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "error: $*" >&2; exit 1; }

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
build_dir=""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || fail "--prefix needs a directory"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --build-dir) [ $# -ge 2 ] || fail "--build-dir needs a directory"; build_dir="$2"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option '$1'" ;;
  esac
done
[ -n "$prefix" ] || fail "--prefix is empty"

if [ "$build" = 1 ]; then
  # The Swift runtime is linked statically into both products (the library always, see
  # Package.swift), so neither needs the toolchain at run time.
  (cd "$root" && swift build -c release --static-swift-stdlib --product segue \
              && swift build -c release --static-swift-stdlib --product SegueC)
  [ -n "$build_dir" ] || build_dir="$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)"
elif [ -z "$build_dir" ]; then
  build_dir="$(cd "$root" && swift build -c release --show-bin-path)"
fi
for product in segue libSegueC.so; do
  [ -f "$build_dir/$product" ] || fail "$build_dir/$product is missing (build it, or drop --no-build)"
done

mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"  # absolute: it is written into segue.pc
libdir="$prefix/lib"
version="$("$build_dir/segue" --version)"
[ -n "$version" ] || fail "'$build_dir/segue --version' printed nothing"

install -d "$prefix/bin" "$libdir/pkgconfig" "$prefix/include"
install -m 755 "$build_dir/segue" "$prefix/bin/segue"
# SwiftPM names the product after its target; its SONAME is libsegue.so.0 (Package.swift), which
# programs linked with -lsegue record: the file is named for its version, with the SONAME and the
# link-time name as symbolic links to it (ldconfig's and the linker's conventions).
install -m 755 "$build_dir/libSegueC.so" "$libdir/libsegue.so.$version"
ln -sfn "libsegue.so.$version" "$libdir/libsegue.so.0"
ln -sfn "libsegue.so.0" "$libdir/libsegue.so"
install -m 644 "$root/Sources/SegueC/include/segue.h" "$prefix/include/segue.h"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" "$root/Sources/SegueC/segue.pc.in" >"$libdir/pkgconfig/segue.pc.tmp"
mv "$libdir/pkgconfig/segue.pc.tmp" "$libdir/pkgconfig/segue.pc"

# frei0r: the plugin template, compiled once (a C shared object linking only libc), then one copy
# per built-in effect with its configuration written in by `segue frei0r install`.
frei0r_source="$root/plugins/frei0r/segue_frei0r.c"
install -d "$libdir/segue"
if "${CC:-cc}" -std=c99 -O2 -Wall -fPIC -shared -fvisibility=hidden -Wl,-z,defs -I "$root/Sources/SegueC/include" \
     "$frei0r_source" -o "$libdir/segue/segue-frei0r.so.tmp" -ldl; then
  mv "$libdir/segue/segue-frei0r.so.tmp" "$libdir/segue/segue-frei0r.so"
  chmod 755 "$libdir/segue/segue-frei0r.so"
  "$prefix/bin/segue" frei0r install --dir "$libdir/frei0r-1" --library "$libdir/libsegue.so.0" \
    --template "$libdir/segue/segue-frei0r.so" >/dev/null
else
  rm -f "$libdir/segue/segue-frei0r.so.tmp"
  echo "warning: frei0r plugins not installed: cannot compile $frei0r_source (needs a C compiler and frei0r.h: apt install frei0r-plugins-dev)" >&2
fi

# The GTK 4 widget library (plugins/gtk): libsegue-gtk, segue-gtk.h, segue-gtk.pc and the
# SegueGtk-1.0 introspection data (Python, GJS, Vala, Rust). It needs make, a C compiler, GTK 4.8's
# development files and g-ir-scanner (Debian: libgtk-4-dev gobject-introspection
# libgirepository1.0-dev); without them it is skipped with a warning.
gtk_missing=""
command -v make >/dev/null || gtk_missing="make"
pkg-config --exists 'gtk4 >= 4.8' 2>/dev/null || gtk_missing="$gtk_missing GTK 4.8 (libgtk-4-dev)"
command -v g-ir-scanner >/dev/null && command -v g-ir-compiler >/dev/null \
  || gtk_missing="$gtk_missing g-ir-scanner (gobject-introspection libgirepository1.0-dev)"
if [ -z "$gtk_missing" ]; then
  gtk_build="$(mktemp -d)"
  # The typelib names the library the way the loader finds it: by its SONAME where the linker
  # searches libdir anyway, else by its path (a private prefix).
  gtk_shared="libsegue-gtk.so.0"
  case "$libdir" in /usr/lib|/usr/lib/*|/lib|/lib/*) ;; *)
    grep -qxF "$libdir" /etc/ld.so.conf /etc/ld.so.conf.d/*.conf 2>/dev/null || gtk_shared="$libdir/libsegue-gtk.so.0" ;;
  esac
  if make -s -C "$root/plugins/gtk" BUILD="$gtk_build" VERSION="$version" CC="${CC:-cc}" \
       SEGUE_CFLAGS="-I$prefix/include" SEGUE_LIBS="-L$libdir -lsegue" RPATH="$libdir" "$gtk_build/SegueGtk-1.0.gir" \
     && sed -i "s|shared-library=\"libsegue-gtk.so.0\"|shared-library=\"$gtk_shared\"|" "$gtk_build/SegueGtk-1.0.gir" \
     && g-ir-compiler "$gtk_build/SegueGtk-1.0.gir" -o "$gtk_build/SegueGtk-1.0.typelib"; then
    install -d "$libdir/girepository-1.0" "$prefix/share/gir-1.0"
    install -m 755 "$gtk_build/libsegue-gtk.so.$version" "$libdir/libsegue-gtk.so.$version"
    ln -sfn "libsegue-gtk.so.$version" "$libdir/libsegue-gtk.so.0"
    ln -sfn "libsegue-gtk.so.0" "$libdir/libsegue-gtk.so"
    install -m 644 "$root/plugins/gtk/segue-gtk.h" "$prefix/include/segue-gtk.h"
    install -m 644 "$gtk_build/SegueGtk-1.0.typelib" "$libdir/girepository-1.0/SegueGtk-1.0.typelib"
    install -m 644 "$gtk_build/SegueGtk-1.0.gir" "$prefix/share/gir-1.0/SegueGtk-1.0.gir"
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" "$root/plugins/gtk/segue-gtk.pc.in" >"$libdir/pkgconfig/segue-gtk.pc.tmp"
    mv "$libdir/pkgconfig/segue-gtk.pc.tmp" "$libdir/pkgconfig/segue-gtk.pc"
  else
    echo "warning: the GTK widget library was not installed: plugins/gtk did not build (see above)" >&2
  fi
  rm -rf "$gtk_build"
else
  echo "warning: the GTK widget library (libsegue-gtk) not installed: missing${gtk_missing}" >&2
fi

# Refresh the dynamic linker's cache when it searches libdir anyway (e.g. /usr/local/lib).
if [ "$(id -u)" = 0 ] && command -v ldconfig >/dev/null \
   && grep -qxF "$libdir" /etc/ld.so.conf /etc/ld.so.conf.d/*.conf 2>/dev/null; then
  ldconfig
fi

echo "installed segue $version in $prefix"
[ -d "$libdir/frei0r-1" ] && echo "frei0r plugins in $libdir/frei0r-1 (MLT: frei0r.segue_NAME, GStreamer: frei0r-mixer-segue-NAME)"
if [ -f "$libdir/girepository-1.0/SegueGtk-1.0.typelib" ]; then
  echo "GTK 4 widget library: pkg-config segue-gtk; Python/GJS: GI_TYPELIB_PATH=$libdir/girepository-1.0 (unless it is searched already)"
fi
if ! pkg-config --variable=prefix segue 2>/dev/null | grep -qxF "$prefix"; then
  echo "pkg-config: add $libdir/pkgconfig to PKG_CONFIG_PATH to build against it"
fi
