#!/usr/bin/env python3
"""Builds the Python wheel with libsegue inside it:

    scripts/wheel.py [--library PATH] [--out DIR]   → DIR/segue-VERSION-py3-none-linux_x86_64.whl

The package (python/src/segue), its metadata (python/pyproject.toml, read with tomllib) and the
library stripped, as `segue/libsegue.so.0`, which the package loads before anything else. The
tag is `py3-none-linux_x86_64`: the library needs glibc (the highest symbol version it uses is
printed and written to the metadata) and Debian's libvulkan1, libpng16-16 and libturbojpeg0 —
not the fixed set of libraries a manylinux tag promises, so claiming one would be false.

--library defaults to the release build's libSegueC.so (`swift build -c release
--static-swift-stdlib --product SegueC`, as scripts/install.sh builds it); --out to dist/.
The wheel is written in one go (zipfile, RECORD with SHA-256 of every file), no build tool needed.
"""
import argparse
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "py3-none-linux_x86_64"


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def release_library():
    path = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "libSegueC.so")


def glibc_needed(library):
    """The highest GLIBC_x.y symbol version `library` needs."""
    out = subprocess.run(["objdump", "-T", library], capture_output=True, text=True).stdout
    versions = {tuple(int(p) for p in m.split(".")) for m in re.findall(r"GLIBC_([0-9]+(?:\.[0-9]+)+)", out)}
    return ".".join(str(p) for p in max(versions)) if versions else "unknown"


def metadata(project, glibc):
    lines = ["Metadata-Version: 2.1", "Name: " + project["name"], "Version: " + project["version"],
             "Summary: " + project.get("description", ""), "Requires-Python: " + project.get("requires-python", ">=3")]
    lines += ["Classifier: " + c for c in project.get("classifiers", [])]
    lines += ["Requires-Dist: " + d for d in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: " + extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (r, extra) for r in requirements]
    lines.append("Requires-External: glibc (>=%s); libvulkan1; libpng16-16; libturbojpeg0; "
                 "a Vulkan driver (mesa-vulkan-drivers)" % glibc)
    lines.append("Description-Content-Type: text/markdown")
    readme = open(os.path.join(ROOT, "python", project.get("readme", "README.md")), encoding="utf-8").read()
    return "\n".join(lines) + "\n\n" + readme


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def main():
    parser = argparse.ArgumentParser(description="Builds the segue wheel with libsegue inside it.")
    parser.add_argument("--library", help="the libsegue to bundle (default: the release build's libSegueC.so)")
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"), help="where the wheel goes (default dist/)")
    args = parser.parse_args()
    library = args.library or release_library()
    if not os.path.isfile(library):
        fail("%s is missing: build it (swift build -c release --static-swift-stdlib --product SegueC) or give --library" % library)
    soname = subprocess.run(["readelf", "-d", library], capture_output=True, text=True).stdout
    if "Library soname: [libsegue.so.0]" not in soname:
        fail("%s is not libsegue.so.0 (no such SONAME)" % library)
    with open(os.path.join(ROOT, "python", "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    name, version = project["name"], project["version"]
    glibc = glibc_needed(library)

    files = []   # (name in the wheel, bytes)
    package = os.path.join(ROOT, "python", "src", "segue")
    for entry in sorted(os.listdir(package)):
        if entry.endswith(".py") or entry == "py.typed":
            with open(os.path.join(package, entry), "rb") as f:
                files.append(("segue/" + entry, f.read()))
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "libsegue.so.0")
        if subprocess.run(["strip", "--strip-unneeded", "-o", stripped, library]).returncode != 0:
            fail("strip failed on " + library)
        with open(stripped, "rb") as f:
            files.append(("segue/libsegue.so.0", f.read()))
    info = "%s-%s.dist-info" % (name, version)
    files.append((info + "/METADATA", metadata(project, glibc).encode()))
    files.append((info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: segue scripts/wheel.py\nRoot-Is-Purelib: false\nTag: %s\n" % TAG).encode()))
    files.append((info + "/top_level.txt", b"segue\n"))
    record = "\n".join(record_line(n, d) for n, d in files) + "\n%s/RECORD,,\n" % info
    files.append((info + "/RECORD", record.encode()))

    os.makedirs(args.out, exist_ok=True)
    wheel = os.path.join(args.out, "%s-%s-%s.whl" % (name, version, TAG))
    partial = wheel + ".part"
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in files:
            item = zipfile.ZipInfo(entry, date_time=(2020, 1, 1, 0, 0, 0))   # the same bytes from the same inputs
            item.external_attr = (0o755 if entry.endswith(".so.0") else 0o644) << 16
            item.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(item, data)
    os.replace(partial, wheel)
    size = os.path.getsize(wheel)
    print("%s: %.1f MB (libsegue.so.0 inside, %s; needs glibc %s)" % (wheel, size / 1e6, TAG, glibc))


if __name__ == "__main__":
    main()
