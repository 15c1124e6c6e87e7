#!/usr/bin/env bash
# Builds Segue's release packages (Docs/Packaging.md) into dist/:
#   segue_VERSION-1_ARCH.deb          the Debian package (dpkg-deb): /usr/bin/segue, libsegue in
#                                     /usr/lib/TRIPLET with segue.h and segue.pc, the frei0r plugins
#                                     in /usr/lib/frei0r-1; stripped; Depends from dpkg-shlibdeps
#   segue-gtk_VERSION-1_ARCH.deb      the GTK 4 widget library (plugins/gtk): libsegue-gtk in
#                                     /usr/lib/TRIPLET with segue-gtk.h, segue-gtk.pc and the
#                                     SegueGtk-1.0 typelib and gir; Depends from dpkg-shlibdeps
#                                     (GTK 4, segue through libsegue's symbols) and gir1.2-gtk-4.0
#   segue-VERSION-linux-MACHINE.tar.gz the files of both under bin/ lib/ include/ share/, relocatable
#                                     (the .pc files use ${pcfiledir}), with the debug files in lib/debug/
# then lints the .debs with lintian (errors fail) and prints the stripped sizes.
# Needs dpkg-dev, binutils, chrpath, make, a C compiler, frei0r.h (frei0r-plugins-dev), GTK 4's and
# GObject introspection's development files (libgtk-4-dev, gobject-introspection,
# libgirepository1.0-dev) and lintian: missing Debian packages are installed with apt-get (sudo when
# not root), as scripts/install-deps.sh does.
#
# Usage: scripts/package.sh [--no-build] [--out DIR] [--build-dir DIR]
#   --no-build       package the release build that is there (scripts/install.sh made it in CI)
#   --out DIR        where the packages go (default dist/)
#   --build-dir DIR  take the products from DIR (default: SwiftPM's release directory)
#   SEGUE_MAINTAINER    the package's Maintainer (default: the repository's maintainers' address)
#   SEGUE_DEB_REVISION  the Debian revision (default 1: segue_VERSION-1_ARCH.deb)
#   SOURCE_DATE_EPOCH   the files' time stamps (default: the last commit's time)
#   SEGUE_LINTIAN=0     skip lintian
set -euo pipefail
umask 022

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
fail() { echo "error: $*" >&2; exit 1; }

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/dist"
build_dir=""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0; shift ;;
    --out) [ $# -ge 2 ] || fail "--out needs a directory"; out="$2"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    --build-dir) [ $# -ge 2 ] || fail "--build-dir needs a directory"; build_dir="$2"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option '$1'" ;;
  esac
done
[ -n "$out" ] || fail "--out is empty"
maintainer="${SEGUE_MAINTAINER:-Segue maintainers <maintainers@users.noreply.a-seed-64460b70.example>}"
started=$SECONDS

# --- Tools -------------------------------------------------------------------------------------
cc="${CC:-cc}"
tools=(dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev dpkg-gensymbols:dpkg-dev dpkg-architecture:dpkg-dev
       objcopy:binutils strip:binutils readelf:binutils nm:binutils chrpath:chrpath make:make pkg-config:pkg-config
       g-ir-scanner:gobject-introspection g-ir-compiler:gobject-introspection perl:perl-base gzip:gzip tar:tar
       md5sum:coreutils)
[ "${SEGUE_LINTIAN:-1}" = 0 ] || tools+=(lintian:lintian)
missing=()
for entry in "${tools[@]}"; do command -v "${entry%%:*}" >/dev/null || missing+=("${entry#*:}"); done
command -v "$cc" >/dev/null || missing+=(gcc)
[ -f /usr/include/frei0r.h ] || missing+=(frei0r-plugins-dev)
pkg-config --exists 'gtk4 >= 4.8' 2>/dev/null || missing+=(libgtk-4-dev)
pkg-config --exists gobject-introspection-1.0 2>/dev/null || missing+=(libgirepository1.0-dev)
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || fail "missing: ${missing[*]} (Debian packages; no apt-get here)"
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- The release products ----------------------------------------------------------------------
if [ "$build" = 1 ]; then
  # As scripts/install.sh builds them: the Swift runtime linked statically into both products.
  (cd "$root" && swift build -c release --static-swift-stdlib --product segue \
              && swift build -c release --static-swift-stdlib --product SegueC)
fi
if [ -z "$build_dir" ]; then
  if command -v swift >/dev/null; then
    build_dir="$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)"
  else
    build_dir="$root/.build/release"
  fi
fi
for product in segue libSegueC.so; do
  [ -f "$build_dir/$product" ] || fail "$build_dir/$product is missing (build it, or drop --no-build)"
done
soname="$(readelf -d "$build_dir/libSegueC.so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
[ "$soname" = libsegue.so.0 ] || fail "$build_dir/libSegueC.so: SONAME '${soname:-none}', not libsegue.so.0"
version="$("$build_dir/segue" --version)"
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || fail "'$build_dir/segue --version' printed '$version', not a version"
arch="$(dpkg-architecture -qDEB_HOST_ARCH)"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
machine="$(uname -m)"
libdir="/usr/lib/$multiarch"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)"
fi
export SOURCE_DATE_EPOCH
# The Debian version: upstream's and a packaging revision (a changelog.Debian.gz belongs to a
# package that is not Debian-native).
deb_version="$version-${SEGUE_DEB_REVISION:-1}"
echo "packaging segue $version ($arch, Debian version $deb_version) from $build_dir"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# dist/ holds the latest packages only (scripts/package-test.sh takes the one .deb there).
if [ "$out" = "$root/dist" ]; then rm -f "$out"/segue_*.deb "$out"/segue-gtk_*.deb "$out"/segue-*-linux-*.tar.gz; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/segue-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stripped" "$work/debug"

# --- Stripped binaries, their debug files beside ------------------------------------------------
# split_debug SOURCE NAME [--strip-unneeded]: $work/stripped/NAME (stripped, with a .gnu_debuglink) and
# $work/debug/NAME.debug (the DWARF, compressed), with the build-id link that gdb looks up
# (.build-id/xx/rest.debug under its debug-file-directory), as Debian's dh_strip does.
split_debug() {
  local source="$1" name="$2" how=("${@:3}")
  objcopy --only-keep-debug --compress-debug-sections=zlib "$source" "$work/debug/$name.debug"
  chmod 644 "$work/debug/$name.debug"
  strip --remove-section=.comment --remove-section=.note "${how[@]}" -o "$work/stripped/$name" "$source"
  (cd "$work/debug" && objcopy --add-gnu-debuglink="$name.debug" "$work/stripped/$name")
  chmod 755 "$work/stripped/$name"
  local id
  id="$(readelf -n "$work/stripped/$name" | sed -n 's/^ *Build ID: *\([0-9a-f]*\).*/\1/p')"
  if [ -n "$id" ]; then
    mkdir -p "$work/debug/.build-id/${id:0:2}"
    ln -s "../../$name.debug" "$work/debug/.build-id/${id:0:2}/${id:2}.debug"
  fi
}
split_debug "$build_dir/segue" segue
split_debug "$build_dir/libSegueC.so" "libsegue.so.$version" --strip-unneeded
"$work/stripped/segue" --version >/dev/null || fail "the stripped segue does not run"

# The frei0r plugin template (plugins/frei0r/segue_frei0r.c, linking only libc), with Debian's
# hardening flags.
read -r -a cppflags <<<"$(dpkg-buildflags --get CPPFLAGS)"
read -r -a cflags <<<"$(cd "$root" && dpkg-buildflags --get CFLAGS)"
read -r -a ldflags <<<"$(dpkg-buildflags --get LDFLAGS)"
(cd "$root" && "$cc" "${cppflags[@]}" "${cflags[@]}" -std=c99 -O2 -Wall -fPIC -shared -fvisibility=hidden \
   "${ldflags[@]}" -Wl,-z,now -Wl,-z,defs -I Sources/SegueC/include plugins/frei0r/segue_frei0r.c \
   -o "$work/segue-frei0r.so" -ldl)
split_debug "$work/segue-frei0r.so" segue-frei0r.so --strip-unneeded

# One plugin per built-in effect, written by the stripped segue from the stripped template. The
# installer wants to read the library it names, so it is given the staged one; the library line
# of each plugin's configuration block (Sources/SegueFrei0r/Frei0rTemplate.swift: a 32-byte BEGIN
# marker, 32768 bytes of NUL-terminated text, a 32-byte END marker) is then set to where the
# library will be: libdir's SONAME link in the .deb, the bare SONAME in the tarball.
mkdir -p "$work/lib"
cp "$work/stripped/libsegue.so.$version" "$work/lib/"
ln -s "libsegue.so.$version" "$work/lib/libsegue.so.0"
HOME="$work/home" SEGUE_CACHE_DIR="$work/cache" XDG_CACHE_HOME="$work/cache" \
  "$work/stripped/segue" frei0r install --dir "$work/plugins" --library "$work/lib/libsegue.so.0" \
  --template "$work/stripped/segue-frei0r.so" >/dev/null
plugin_count="$(find "$work/plugins" -name 'segue_*.so' | wc -l)"
[ "$plugin_count" -gt 0 ] || fail "segue frei0r install wrote no plugins"

set_plugin_library() {  # DIR LIBRARY
  perl -e '
    use strict; use warnings;
    my ($library, @files) = @ARGV;
    my ($marker, $capacity) = (32, 32768);
    my $begin = "SEGUE-FREI0R-CONFIG-BEGIN-V1"; $begin .= "\0" x ($marker - length $begin);
    my $end = "SEGUE-FREI0R-CONFIG-END-V1"; $end .= "\0" x ($marker - length $end);
    for my $file (@files) {
      open(my $in, "<:raw", $file) or die "$file: $!\n";
      my $bytes = do { local $/; <$in> };
      close $in;
      my (@blocks, $at);
      $at = -1;
      while (($at = index($bytes, $begin, $at + 1)) >= 0) {
        push @blocks, $at if substr($bytes, $at + $marker + $capacity, $marker) eq $end;
      }
      die "$file: not one configuration block\n" unless @blocks == 1;
      my $offset = $blocks[0] + $marker;
      my $text = substr($bytes, $offset, $capacity);
      $text =~ s/\0.*//s;
      my $lines = ($text =~ s/^library\t[^\n]*$/library\t$library/mg);
      die "$file: $lines library lines\n" unless $lines == 1;
      die "$file: the configuration does not fit\n" unless length($text) < $capacity;
      substr($bytes, $offset, $capacity) = $text . ("\0" x ($capacity - length $text));
      open(my $outfile, ">:raw", "$file.tmp") or die "$file.tmp: $!\n";
      print $outfile $bytes;
      close $outfile or die "$file.tmp: $!\n";
      rename("$file.tmp", $file) or die "$file: $!\n";
      chmod(0755, $file);
    }' "$2" "$1"/segue_*.so
}
cp -a "$work/plugins" "$work/plugins-deb"
set_plugin_library "$work/plugins-deb" "$libdir/libsegue.so.0"
cp -a "$work/plugins" "$work/plugins-tarball"
set_plugin_library "$work/plugins-tarball" libsegue.so.0

# The GTK 4 widget library (plugins/gtk/Makefile), linked against the staged libsegue with Debian's
# hardening flags, and its introspection data. It is built once with the run-time search path
# $ORIGIN (the tarball's copy finds libsegue.so.0 beside it); the .deb's copy has it removed with
# chrpath (Debian's libraries carry none: the library is in the linker's own directory). The typelib
# names the library by its SONAME (shared-library="libsegue-gtk.so.0"), which the loader finds in
# /usr/lib/TRIPLET, or through LD_LIBRARY_PATH in the tarball.
ln -s libsegue.so.0 "$work/lib/libsegue.so"
gtk_build="$work/gtk"
LD_LIBRARY_PATH="$work/lib" make -s -C "$root/plugins/gtk" BUILD="$gtk_build" VERSION="$version" CC="$cc" \
  CFLAGS="${cppflags[*]} ${cflags[*]} ${ldflags[*]} -Wl,-z,now" SEGUE_CFLAGS="-I$root/Sources/SegueC/include" \
  SEGUE_LIBS="-L$work/lib -lsegue" RPATH='\$$ORIGIN' "$gtk_build/SegueGtk-1.0.typelib" \
  || fail "plugins/gtk did not build (above)"
gtk_lib="libsegue-gtk.so.$version"
gtk_soname="$(readelf -d "$gtk_build/$gtk_lib" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
[ "$gtk_soname" = libsegue-gtk.so.0 ] || fail "$gtk_build/$gtk_lib: SONAME '${gtk_soname:-none}', not libsegue-gtk.so.0"
# Only the API (segue_gtk_*) is exported: anything else would become ABI by accident. (__bss_start,
# _edata and _end are the linker's own, in every library without a version script; dpkg-gensymbols
# leaves them out too.)
gtk_extra="$(nm -D --defined-only "$gtk_build/$gtk_lib" | awk '{ print $3 }' | grep -vxE 'segue_gtk_.*|__bss_start|_edata|_end' || true)"
[ -z "$gtk_extra" ] || fail "libsegue-gtk exports symbols outside segue_gtk_*: $(echo $gtk_extra)"
grep -q 'shared-library="libsegue-gtk.so.0"' "$gtk_build/SegueGtk-1.0.gir" \
  || fail "SegueGtk-1.0.gir does not name libsegue-gtk.so.0 as its shared library"
split_debug "$gtk_build/$gtk_lib" "$gtk_lib" --strip-unneeded
cp "$work/stripped/$gtk_lib" "$work/$gtk_lib.deb"
chrpath -d "$work/$gtk_lib.deb" >/dev/null
! readelf -d "$work/$gtk_lib.deb" | grep -qE 'R(UN)?PATH' || fail "chrpath left a run-time search path in $gtk_lib"

fill() {  # TEMPLATE: @VERSION@ @MULTIARCH@ filled in
  sed -e "s|@VERSION@|$version|g" -e "s|@MULTIARCH@|$multiarch|g" "$1"
}
date_rfc2822="$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"

# --- The Debian package -------------------------------------------------------------------------
# (in a source tree's layout, debian/PACKAGE, so that dpkg-shlibdeps finds libsegue and its symbols
# file in the build tree when it reads libsegue-gtk)
deb="$work/src/debian/segue"
install -d "$deb/DEBIAN" "$deb/usr/bin" "$deb$libdir/pkgconfig" "$deb/usr/include" "$deb/usr/lib/segue" \
           "$deb/usr/lib/frei0r-1" "$deb/usr/share/doc/segue" "$deb/usr/share/man/man1"
install -m 755 "$work/stripped/segue" "$deb/usr/bin/segue"
install -m 644 "$work/stripped/libsegue.so.$version" "$deb$libdir/libsegue.so.$version"
ln -s "libsegue.so.$version" "$deb$libdir/libsegue.so.0"
ln -s "libsegue.so.0" "$deb$libdir/libsegue.so"
fill "$root/packaging/segue.pc.in" >"$deb$libdir/pkgconfig/segue.pc"
install -m 644 "$root/Sources/SegueC/include/segue.h" "$deb/usr/include/segue.h"
# The template where `segue frei0r install` looks beside /usr/bin/segue (../lib/segue).
install -m 644 "$work/stripped/segue-frei0r.so" "$deb/usr/lib/segue/segue-frei0r.so"
# The plugins where Debian's frei0r-plugins puts its own and MLT and GStreamer look.
install -m 644 "$work/plugins-deb"/segue_*.so "$deb/usr/lib/frei0r-1/"
install -m 644 "$root/packaging/copyright" "$deb/usr/share/doc/segue/copyright"
{
  echo "segue ($deb_version) unstable; urgency=medium"
  echo
  echo "  * Segue $version, packaged by scripts/package.sh."
  echo
  echo " -- $maintainer  $date_rfc2822"
} | gzip -9n >"$deb/usr/share/doc/segue/changelog.Debian.gz"
fill "$root/packaging/segue.1" | gzip -9n >"$deb/usr/share/man/man1/segue.1.gz"
chmod 644 "$deb/usr/share/doc/segue/changelog.Debian.gz" "$deb/usr/share/man/man1/segue.1.gz" "$deb$libdir/pkgconfig/segue.pc"

# Finishes a staged package tree DIR and builds FILE from it: file times from SOURCE_DATE_EPOCH,
# md5sums, the control file from TEMPLATE with this build's version, architecture, maintainer,
# installed size and DEPENDS.
build_deb() {  # build_deb DIR TEMPLATE DEPENDS FILE
  local dir=$1 template=$2 depends=$3 file=$4 size
  find "$dir" -print0 | xargs -0 touch -h -d "@$SOURCE_DATE_EPOCH"
  size="$(cd "$dir" && find usr -printf '%y %s\n' | awk '{ t += ($1 == "f") ? int(($2 + 1023) / 1024) : 1 } END { print t }')"
  (cd "$dir" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$dir/DEBIAN/md5sums"
  VERSION="$deb_version" ARCH="$arch" MAINTAINER="$maintainer" INSTALLED_SIZE="$size" DEPENDS="$depends" \
    perl -pe 's/@(VERSION|ARCH|MAINTAINER|INSTALLED_SIZE|DEPENDS)@/$ENV{$1}/g' "$template" >"$dir/DEBIAN/control"
  chmod 644 "$dir/DEBIAN"/*
  touch -h -d "@$SOURCE_DATE_EPOCH" "$dir/DEBIAN" "$dir/DEBIAN"/*
  rm -f "$file"
  dpkg-deb --root-owner-group -Zxz --build "$dir" "$file" >/dev/null
  echo "wrote $file ($(stat -c %s "$file") bytes): Depends: $depends"
}

# Depends: the shared libraries of every binary (dpkg-shlibdeps reads the symbols and shlibs files
# of the packages that hold them, so the versions are the ones this machine's packages need),
# then what segue runs: ffmpeg, and a Vulkan driver (lavapipe, or a GPU's).
mkdir -p "$work/src/debian"
printf 'Source: segue\nMaintainer: %s\n\nPackage: segue\nArchitecture: any\n\nPackage: segue-gtk\nArchitecture: any\n' \
  "$maintainer" >"$work/src/debian/control"
shlibs_depends="$(cd "$work/src" && dpkg-shlibdeps -O --warnings=1 -e"$deb/usr/bin/segue" -e"$deb$libdir/libsegue.so.$version" \
                    -e"$deb/usr/lib/segue/segue-frei0r.so" | sed -n 's/^shlibs:Depends=//p')"
[ -n "$shlibs_depends" ] || fail "dpkg-shlibdeps found no dependencies"
depends="$shlibs_depends, ffmpeg, mesa-vulkan-drivers | vulkan-icd"

# The library's dependency information for packages built against it: symbols (every symbol of
# the SEGUE_0 node with the version that introduced it, from packaging/segue.symbols: a symbol
# gone from the library fails here) and shlibs for tools that read only those.
(cd "$work/src" && dpkg-gensymbols -q -psegue -P"$deb" -v"$version" -I"$root/packaging/segue.symbols" \
   -e"$deb$libdir/libsegue.so.$version" -O"$deb/DEBIAN/symbols" -c1) \
  || fail "libsegue's symbols differ from packaging/segue.symbols (a removed symbol breaks the ABI)"
echo "libsegue 0 segue (>= $version)" >"$deb/DEBIAN/shlibs"
# ldconfig runs after the library is installed or removed (policy 8.1.1).
echo "activate-noawait ldconfig" >"$deb/DEBIAN/triggers"

deb_file="$out/segue_${deb_version}_${arch}.deb"
build_deb "$deb" "$root/packaging/control.in" "$depends" "$deb_file"

# --- The GTK package: segue-gtk ------------------------------------------------------------------
# Its own package, so that segue (the CLI, libsegue, the frei0r plugins: servers and containers)
# does not pull in GTK 4. The development files come with the library, as in segue.
gdeb="$work/src/debian/segue-gtk"
install -d "$gdeb/DEBIAN" "$gdeb$libdir/pkgconfig" "$gdeb$libdir/girepository-1.0" "$gdeb/usr/include" \
           "$gdeb/usr/share/gir-1.0" "$gdeb/usr/share/doc/segue-gtk"
install -m 644 "$work/$gtk_lib.deb" "$gdeb$libdir/$gtk_lib"
ln -s "$gtk_lib" "$gdeb$libdir/libsegue-gtk.so.0"
ln -s libsegue-gtk.so.0 "$gdeb$libdir/libsegue-gtk.so"
fill "$root/packaging/segue-gtk.pc.in" >"$gdeb$libdir/pkgconfig/segue-gtk.pc"
install -m 644 "$root/plugins/gtk/segue-gtk.h" "$gdeb/usr/include/segue-gtk.h"
install -m 644 "$gtk_build/SegueGtk-1.0.typelib" "$gdeb$libdir/girepository-1.0/SegueGtk-1.0.typelib"
install -m 644 "$gtk_build/SegueGtk-1.0.gir" "$gdeb/usr/share/gir-1.0/SegueGtk-1.0.gir"
install -m 644 "$root/packaging/copyright" "$gdeb/usr/share/doc/segue-gtk/copyright"
{
  echo "segue ($deb_version) unstable; urgency=medium"
  echo
  echo "  * Segue $version, packaged by scripts/package.sh."
  echo
  echo " -- $maintainer  $date_rfc2822"
} | gzip -9n >"$gdeb/usr/share/doc/segue-gtk/changelog.Debian.gz"
chmod 644 "$gdeb/usr/share/doc/segue-gtk/changelog.Debian.gz" "$gdeb$libdir/pkgconfig/segue-gtk.pc"

# Depends: GTK 4 and GLib from their packages' symbols files, segue from libsegue's (the build
# tree's debian/segue/DEBIAN/symbols above: the version that introduced each libsegue call used),
# and the typelib's own dependency, Gtk-4.0's typelib.
gtk_shlibs_depends="$(cd "$work/src" && dpkg-shlibdeps -O --warnings=1 -Sdebian/segue -e"debian/segue-gtk$libdir/$gtk_lib" \
                        | sed -n 's/^shlibs:Depends=//p')"
[[ "$gtk_shlibs_depends" == *"segue (>= "* ]] \
  || fail "dpkg-shlibdeps did not find libsegue's package for libsegue-gtk (Depends: ${gtk_shlibs_depends:-none})"
gtk_depends="$gtk_shlibs_depends, gir1.2-gtk-4.0"
(cd "$work/src" && dpkg-gensymbols -q -psegue-gtk -P"$gdeb" -v"$version" -I"$root/packaging/segue-gtk.symbols" \
   -e"$gdeb$libdir/$gtk_lib" -O"$gdeb/DEBIAN/symbols" -c1) \
  || fail "libsegue-gtk's symbols differ from packaging/segue-gtk.symbols (a removed symbol breaks the ABI)"
echo "libsegue-gtk 0 segue-gtk (>= $version)" >"$gdeb/DEBIAN/shlibs"
echo "activate-noawait ldconfig" >"$gdeb/DEBIAN/triggers"

gtk_deb_file="$out/segue-gtk_${deb_version}_${arch}.deb"
build_deb "$gdeb" "$root/packaging/control-gtk.in" "$gtk_depends" "$gtk_deb_file"

# --- The relocatable tarball --------------------------------------------------------------------
name="segue-$version-linux-$machine"
tree="$work/tar/$name"
install -d "$tree/bin" "$tree/lib/pkgconfig" "$tree/lib/segue" "$tree/lib/frei0r-1" "$tree/include" \
           "$tree/lib/girepository-1.0" "$tree/share/gir-1.0" "$tree/share/doc/segue" "$tree/share/man/man1"
install -m 755 "$work/stripped/segue" "$tree/bin/segue"
install -m 755 "$work/stripped/libsegue.so.$version" "$tree/lib/libsegue.so.$version"
ln -s "libsegue.so.$version" "$tree/lib/libsegue.so.0"
ln -s "libsegue.so.0" "$tree/lib/libsegue.so"
fill "$root/packaging/segue-relocatable.pc.in" >"$tree/lib/pkgconfig/segue.pc"
install -m 644 "$root/Sources/SegueC/include/segue.h" "$tree/include/segue.h"
install -m 755 "$work/stripped/segue-frei0r.so" "$tree/lib/segue/segue-frei0r.so"
install -m 755 "$work/plugins-tarball"/segue_*.so "$tree/lib/frei0r-1/"
# The GTK library (needs GTK 4 only when used), RUNPATH $ORIGIN: libsegue.so.0 beside it.
install -m 755 "$work/stripped/$gtk_lib" "$tree/lib/$gtk_lib"
ln -s "$gtk_lib" "$tree/lib/libsegue-gtk.so.0"
ln -s libsegue-gtk.so.0 "$tree/lib/libsegue-gtk.so"
fill "$root/packaging/segue-gtk-relocatable.pc.in" >"$tree/lib/pkgconfig/segue-gtk.pc"
install -m 644 "$root/plugins/gtk/segue-gtk.h" "$tree/include/segue-gtk.h"
install -m 644 "$gtk_build/SegueGtk-1.0.typelib" "$tree/lib/girepository-1.0/SegueGtk-1.0.typelib"
install -m 644 "$gtk_build/SegueGtk-1.0.gir" "$tree/share/gir-1.0/SegueGtk-1.0.gir"
install -m 644 "$root/packaging/copyright" "$tree/share/doc/segue/copyright"
fill "$root/packaging/README.tarball" >"$tree/share/doc/segue/README"
fill "$root/packaging/segue.1" >"$tree/share/man/man1/segue.1"
cp -a "$work/debug" "$tree/lib/debug"
chmod 644 "$tree/lib/pkgconfig/segue.pc" "$tree/lib/pkgconfig/segue-gtk.pc" "$tree/share/doc/segue/README" "$tree/share/man/man1/segue.1"
tar_file="$out/$name.tar.gz"
rm -f "$tar_file"
tar -C "$work/tar" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -cf - "$name" | gzip -6n >"$tar_file"
echo "wrote $tar_file ($(stat -c %s "$tar_file") bytes)"

# --- lintian ------------------------------------------------------------------------------------
if [ "${SEGUE_LINTIAN:-1}" != 0 ]; then
  for file in "$deb_file" "$gtk_deb_file"; do
    status=0
    lintian --fail-on error "$file" >"$work/lintian.txt" 2>&1 || status=$?
    report="$(grep -vxF 'running with root privileges is not recommended!' "$work/lintian.txt" || true)"
    [ -z "$report" ] || printf '%s\n' "$report"
    errors="$(printf '%s\n' "$report" | grep -c '^E: ' || true)"
    warnings="$(printf '%s\n' "$report" | grep -c '^W: ' || true)"
    echo "lintian $(basename "$file"): $errors errors, $warnings warnings"
    [ "$status" = 0 ] && [ "$errors" = 0 ] || fail "lintian reports errors on $file"
  done
fi

# --- Sizes --------------------------------------------------------------------------------------
size() { local bytes; bytes="$(stat -c %s "$1")"; printf '%s %d bytes (%s MB)\n' "$2" "$bytes" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1000000 }')"; }
size "$work/stripped/segue" "stripped segue:"
size "$work/stripped/libsegue.so.$version" "stripped libsegue.so.$version:"
size "$work/stripped/$gtk_lib" "stripped $gtk_lib:"
size "$deb_file" "$(basename "$deb_file"):"
size "$gtk_deb_file" "$(basename "$gtk_deb_file"):"
size "$tar_file" "$(basename "$tar_file"):"
echo "packaged in $((SECONDS - started)) s"
