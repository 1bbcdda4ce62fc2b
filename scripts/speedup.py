#!/usr/bin/env python3
"""Two-core speed-ups of one divan bench group: the one-thread time over the two-thread
time of every benchmark, the two thread counts alternated round by round in the same
minutes, so that a busy spell of the shared host falls on both (two separate runs a minute
apart moved a speed-up by ±0.3 on this VM).

    python3 scripts/speedup.py copy two_cores 8 5

Arguments: the bench name (strideweave/benches/<name>.rs), a divan filter, the number of
rounds per series and the number of series. Each round runs the filtered benchmarks once
with RAYON_NUM_THREADS=1 and once with 2 (the order swapped every other round); a series
takes each benchmark's fastest sample over its rounds, per thread count. Printed: every
series' speed-up (one-thread minimum / two-thread minimum) and their median, beside the
minima of the last series.
"""

import os
import subprocess
import sys
from statistics import median

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_min import bench_binary, parse  # noqa: E402 (the sibling script, found above)


def series(binary, group, rounds):
    """{benchmark path: {threads: fastest ns}} over `rounds` alternating rounds."""
    best = {}
    for r in range(rounds):
        for threads in ("1", "2") if r % 2 == 0 else ("2", "1"):
            env = dict(os.environ, RAYON_NUM_THREADS=threads)
            out = subprocess.run([binary, "--bench", group], env=env, capture_output=True,
                                 text=True, check=True).stdout
            for path, ns in parse(out):
                slot = best.setdefault("/".join(path), {})
                slot[threads] = min(ns, slot.get(threads, float("inf")))
    return best


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    bench, group, rounds, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    binary = bench_binary(bench)
    runs = []
    for k in range(count):
        runs.append(series(binary, group, rounds))
        print(f"series {k + 1}/{count} done", file=sys.stderr)
    last = runs[-1]
    print(f"{'benchmark':40} {'1 thread':>10} {'2 threads':>10}  speed-up per series -> median")
    for path in sorted(last):
        ups = [run[path]["1"] / run[path]["2"] for run in runs if path in run]
        one, two = last[path]["1"] / 1e6, last[path]["2"] / 1e6
        each = " ".join(f"{u:.2f}" for u in ups)
        print(f"{path:40} {one:8.3f}ms {two:8.3f}ms  {each} -> {median(ups):.2f}")


if __name__ == "__main__":
    main()
