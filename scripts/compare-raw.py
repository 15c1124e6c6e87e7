#!/usr/bin/env python3
"""Compares two streams of raw RGBA8 frames (as `segue render -o -` writes them), pixel by pixel.

    compare-raw.py A.rgba B.rgba [--tolerance 2] [--fraction 0.999]

A pixel matches when each of its four channels differs by at most TOLERANCE levels. Prints one
line: the share of matching pixels, the largest difference and the pixel count, and exits 1 when
the share is below FRACTION (or the streams differ in length), 0 otherwise. Standard library only.
"""
import argparse
import sys


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tolerance", type=int, default=2)
    parser.add_argument("--fraction", type=float, default=0.999)
    args = parser.parse_args()
    with open(args.a, "rb") as f:
        a = f.read()
    with open(args.b, "rb") as f:
        b = f.read()
    if len(a) != len(b) or len(a) % 4 != 0 or not a:
        print(f"sizes differ or are not RGBA8: {len(a)} and {len(b)} bytes")
        return 1
    pixels = len(a) // 4
    bad = 0
    worst = 0
    if a != b:
        for i in range(0, len(a), 4):
            if a[i:i + 4] == b[i:i + 4]:
                continue
            d = max(abs(a[i + k] - b[i + k]) for k in range(4))
            worst = max(worst, d)
            if d > args.tolerance:
                bad += 1
    share = 1 - bad / pixels
    print(f"{100 * share:.4f}% of {pixels} pixels within {args.tolerance}/255, largest difference {worst}/255")
    return 0 if share >= args.fraction else 1


if __name__ == "__main__":
    sys.exit(main())
