#!/usr/bin/env bash
# Checks libsegue's ABI against the baseline in Sources/SegueC/abi (the release it must stay
# compatible with): the SONAME; the exported symbols and their version node (libabigail's abidw
# and abidiff: a removed or re-versioned symbol fails, an added one is fine); and the C
# declarations of segue.h (every function, typedef and enumerator of the baseline header must be
# in the current header exactly as it was — libabigail cannot see the types of functions written
# in Swift, so the header is the record of their signatures).
#
# Usage: scripts/abi-check.sh LIBRARY [HEADER]      check (HEADER: default Sources/SegueC/include/segue.h)
#        scripts/abi-check.sh --update LIBRARY      make the baseline from LIBRARY and the header, on purpose
#   SEGUE_ABI_BASELINE  another baseline directory (tests)
# Needs abidw and abidiff (Debian: abigail-tools), readelf, python3 and cc.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fail() { echo "error: $*" >&2; exit 1; }
baseline="${SEGUE_ABI_BASELINE:-$root/Sources/SegueC/abi}"
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
[ $# -ge 1 ] || fail "usage: scripts/abi-check.sh [--update] LIBRARY [HEADER]"
library="$1"
header="${2:-$root/Sources/SegueC/include/segue.h}"
[ -f "$library" ] || fail "$library: no such library"
[ -f "$header" ] || fail "$header: no such header"
for tool in abidw abidiff readelf python3 cc; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt install abigail-tools binutils python3 gcc)"
done

soname="$(readelf -d "$library" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
[ "$soname" = "libsegue.so.0" ] || fail "$library: SONAME is '${soname:-none}', not libsegue.so.0"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The symbols (with versions, SONAME and needed libraries) as libabigail records them; paths out,
# so the record does not depend on where the library was built or installed.
abidw --no-show-locs --no-corpus-path "$library" >"$work/current.abi"
# The declarations: the header preprocessed (comments and macros gone) and split into one
# normalised declaration per line.
declarations() {
  cc -E -P -x c "$1" | python3 -c '
import re, sys
text = re.sub(r"\s+", " ", sys.stdin.read())
for item in text.split(";"):
    item = item.strip()
    if re.search(r"\bsegue_|\bSEGUE_", item):
        # An enum body: one line per enumerator, so an added one is not a change to the others.
        body = re.search(r"\{(.*)\}", item)
        if body:
            head = item[:body.start()].strip()
            for e in body.group(1).split(","):
                if e.strip(): print(head, "::", re.sub(r"\s*=\s*", " = ", e.strip()))
            print(head, "}", item[body.end():].strip())
        else:
            item = re.sub(r"\s*([(),*])\s*", r"\1", item)
            call = re.match(r"(.*?)\((.*)\)$", item)
            if call:  # a function: parameter names are not part of the ABI
                params = [re.sub(r"(?<=[ *])\w+$", "", p).strip() for p in call.group(2).split(",")]
                item = call.group(1) + "(" + ",".join(params) + ")"
            print(item)
' | sort -u
}
declarations "$header" >"$work/current.decl"

if [ "$update" = 1 ]; then
  mkdir -p "$baseline"
  cp "$work/current.abi" "$baseline/libsegue.so.0.abi"
  cp "$work/current.decl" "$baseline/segue.h.decl"
  echo "abi-check: baseline updated in $baseline ($(grep -c '<elf-symbol ' "$baseline/libsegue.so.0.abi") symbols, $(wc -l <"$baseline/segue.h.decl") declarations)"
  exit 0
fi

[ -f "$baseline/libsegue.so.0.abi" ] && [ -f "$baseline/segue.h.decl" ] || fail "no baseline in $baseline (make one with --update)"
status=0
abidiff --no-show-locs "$baseline/libsegue.so.0.abi" "$work/current.abi" >"$work/abidiff.txt" || status=$?
# abidiff's status: bit 1 an error, bit 2 a usage error, bit 4 a change, bit 8 an incompatible change.
if [ $((status & 3)) -ne 0 ]; then cat "$work/abidiff.txt" >&2; fail "abidiff could not compare the libraries (status $status)"; fi
if [ $((status & 8)) -ne 0 ]; then
  cat "$work/abidiff.txt" >&2
  fail "$library breaks the ABI of the baseline (symbols removed or changed); if that is meant, it is a new major version"
fi
missing="$(comm -23 "$baseline/segue.h.decl" "$work/current.decl")"
if [ -n "$missing" ]; then
  echo "declarations of the baseline that the header no longer has (as they were):" >&2
  echo "$missing" | sed 's/^/  /' >&2
  fail "$header changes the API of the baseline; if that is meant, it is a new major version"
fi
added="$(comm -13 "$baseline/segue.h.decl" "$work/current.decl" | wc -l)"
echo "abi-check: $library keeps the ABI of the baseline ($(grep -c '<elf-symbol ' "$work/current.abi") symbols; $added declarations added)"
