#!/usr/bin/env python3
"""Plots the tables bench/dist/dist-scaling writes (markdown) as one PNG: time per call against
ranks for each table, sinexp and the sum in blocks. Needs matplotlib.
    python3 bench/dist/plot-scaling.py scaling.md scaling.png"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def tables(path):
    """{title: [(ranks, threads, sinexp ms, sum blocks ms, sum ranks ms), ...]}"""
    out, title = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("### "):
            title = line[4:]
            out[title] = []
        elif title and line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not cells[0].isdigit():
                continue  # the header and its rule
            out[title].append(tuple([int(cells[0]), int(cells[1])] + [float(c) for c in cells[3:6]]))
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = tables(src)
    fig, axes = plt.subplots(1, len(data), figsize=(5 * len(data), 4), squeeze=False)
    for ax, (title, rows) in zip(axes[0], data.items()):
        ranks = [r[0] for r in rows]
        for col, label in ((2, "sinexp f32"), (3, "sum f32 (blocks)"), (4, "sum f32 (rank order)")):
            ax.plot(ranks, [r[col] for r in rows], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks, [f"{r[0]}x{r[1]}" for r in rows])
        ax.set_xlabel("ranks x threads a rank")
        ax.set_ylabel("ms per call (slowest rank)")
        ax.set_title(title, fontsize=9)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
