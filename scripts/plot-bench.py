#!/usr/bin/env python3
"""Draws Docs/images/bench.png from the text `segue bench` and `segue bench --account` print.

    plot-bench.py BENCH.txt ACCOUNT.txt OUT.png

Left: frames per second end to end (raw RGBA into a pipe) of Segue's effects beside the peers
(ffmpeg xfade, and the same fade through OpenGL with moderngl); Segue's figure is the one
measured alongside the peer where the output has it. Right: milliseconds per frame
by stage from the account (the last table in ACCOUNT.txt). Needs matplotlib (pip install matplotlib).
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse_bench(path):
    segue, xfade, moderngl = {}, {}, {}
    alongside = {}  # Segue's fps measured next to a peer (what the printed ratios use)
    section = "segue"
    for line in open(path):
        for name, fps in re.findall(r"([\w-]+): [\d.]+x \(segue ([\d.]+) fps alongside\)", line):
            alongside[name] = float(fps)
        cells = line.split()
        if len(cells) >= 4 and cells[1] == "pipe" and cells[2] == "fps":
            section = cells[0]  # "xfade" or "moderngl" header rows
            continue
        if len(cells) >= 4 and cells[1] in ("render", "readback", "pipe"):
            try:
                fps = float(cells[2])
            except ValueError:
                continue
            if section == "segue" and cells[1] == "pipe":
                segue[cells[0]] = fps
            elif section == "xfade":
                xfade[cells[0]] = fps
            elif section == "moderngl":
                moderngl[cells[0]] = fps
    segue.update(alongside)
    return segue, xfade, moderngl


def parse_account(path):
    rows = {}
    for line in open(path):
        cells = line.split()
        if line.startswith("==="):
            rows = {}  # keep the last table
        if len(cells) == 9 and cells[0] != "effect":
            try:
                rows[cells[0]] = [float(c) for c in cells[1:5]]
            except ValueError:
                pass
    return rows


def main():
    bench, account, out = sys.argv[1:4]
    segue, xfade, moderngl = parse_bench(bench)
    stages = parse_account(account)
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    groups = [("fade", ["fade"], "fade"), ("wipe left", ["wipe", "wipeleft"], "wipeleft"),
              ("push / slide", ["ios-push", "slideleft"], "slideleft"), ("circle", ["circle", "circleopen"], "circleopen")]
    x = 0
    ticks, labels = [], []
    for title, ours, peer in groups:
        bars = [(f"segue {n}", segue.get(n), "#2b6cb0") for n in ours]
        bars.append((f"xfade {peer}", xfade.get(peer), "#c05621"))
        if title == "fade" and "fade" in moderngl:
            bars.append(("moderngl fade", moderngl["fade"], "#2f855a"))
        for name, fps, colour in bars:
            if fps is None:
                continue
            left.bar(x, fps, color=colour)
            left.text(x, fps, f"{fps:.0f}", ha="center", va="bottom", fontsize=8)
            ticks.append(x)
            labels.append(name)
            x += 1
        x += 0.8
    left.set_xticks(ticks, labels, rotation=45, ha="right", fontsize=8)
    left.set_ylabel("frames per second, raw RGBA into a pipe")
    left.set_title("End to end at 1920x1080 (higher is better)")
    names = list(stages)
    colours = ["#2b6cb0", "#805ad5", "#d69e2e", "#c05621"]
    bottom = [0.0] * len(names)
    for k, stage in enumerate(["shading", "readback", "straight alpha", "pipe write"]):
        values = [stages[n][k] for n in names]
        right.bar(names, values, bottom=bottom, color=colours[k], label=stage)
        bottom = [b + v for b, v in zip(bottom, values)]
    right.set_ylabel("ms per frame (each stage measured apart)")
    right.set_title("Where a frame's time goes (lavapipe)")
    right.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
