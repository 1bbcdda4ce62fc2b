#!/usr/bin/env python3
"""Runs one divan bench of strideweave several times and reports the minimum of the
"fastest" column of every benchmark over all runs, with StrideWeave's ratio to each
neighbour in the same group (ndarray, memcpy, hand-written kernels).

The machine the project runs on is shared and noisy: one divan run can put a quiet
window under one benchmark of a group and a busy one under its neighbour, so a ratio
from one run moves by ±30 %. The minimum over several runs of each side's fastest
sample is the least disturbed figure of each, and is what docs/performance.md records.

    python3 scripts/bench_min.py copy 5 permute4 compact_copy
    python3 scripts/bench_min.py views 3 broadcast

Arguments: the bench name (strideweave/benches/<name>.rs), the number of runs, and
optional divan filters. Runs single-threaded (RAYON_NUM_THREADS=1) unless the
environment already sets RAYON_NUM_THREADS.

    python3 scripts/bench_min.py --isolated copy 10 broadcast_row compact_copy

With --isolated, every benchmark runs in a process of its own, the benchmarks in turn
(their order reversed on every other run), so that no benchmark inherits the memory
another one freed (which 64 MiB workloads in one process do, in divan's fixed order:
that alone moved ratios by ±10 %). Each benchmark's minimum over all runs is reported.
"""

import os
import re
import subprocess
import sys

UNITS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse(text):
    """(path, fastest in ns) for every benchmark line of divan's tree output."""
    stack = []
    for line in text.splitlines():
        m = re.match(r"^([│ ]*)[├╰]─ (.*)$", line)
        if not m:
            continue
        depth = len(m.group(1)) // 3
        # "name   fastest │ slowest │ ...": names may hold spaces (argument tuples).
        head = m.group(2).split("│")[0].rstrip()
        t = re.match(r"^(.*?)\s+([0-9.]+)\s*(ns|µs|us|ms|s)$", head)
        name = t.group(1).strip() if t else head.strip()
        stack = stack[:depth] + [name]
        if t:
            yield tuple(stack), float(t.group(2)) * UNITS[t.group(3)]


def dtype(name):
    """The element-type suffix of a benchmark's name (`_f32`, `_c64`, ...), if any: only
    benchmarks of the same element type are compared."""
    m = re.search(r"_([fiuc][0-9]+)$", name)
    return m.group(1) if m else None


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3f} {unit}"
    return f"{ns:.2f} ns"


def bench_binary(bench):
    """The path of the built bench binary (built here if it is not)."""
    out = subprocess.run(["cargo", "bench", "-p", "strideweave", "--bench", bench, "--no-run"],
                         capture_output=True, text=True, check=True)
    return re.search(r"Executable .*\((.*)\)", out.stderr).group(1)


def bench_functions(listing):
    """The paths (below the bench's root) of the benchmark functions in divan's --list tree;
    a function with arguments is listed once, not once per argument."""
    stack, leaves = [], []
    for line in listing.splitlines():
        m = re.match(r"^([│ ]*)[├╰]─ (.*)$", line)
        if not m:
            continue
        depth = len(m.group(1)) // 3
        stack = stack[:depth] + [m.group(2).strip()]
        leaves = [p for p in leaves if tuple(stack[:-1]) != p]
        leaves.append(tuple(stack))
    functions = []
    for path in leaves:
        if re.match(r"^[(0-9]", path[-1]):
            path = path[:-1]
        if path not in functions:
            functions.append(path)
    return functions


def main():
    args = sys.argv[1:]
    isolated = "--isolated" in args
    args = [a for a in args if a != "--isolated"]
    if len(args) < 2:
        sys.exit(__doc__)
    bench, runs, filters = args[0], int(args[1]), args[2:]
    env = dict(os.environ)
    env.setdefault("RAYON_NUM_THREADS", "1")
    best = {}

    def record(text):
        for path, ns in parse(text):
            best[path] = min(ns, best.get(path, float("inf")))

    if isolated:
        binary = bench_binary(bench)
        listing = subprocess.run([binary, "--list", *filters], env=env, capture_output=True,
                                 text=True, check=True).stdout
        paths = bench_functions(listing)
        for run in range(runs):
            for path in paths if run % 2 == 0 else paths[::-1]:
                # Anchored regex, not --exact: --exact names one argument of a benchmark
                # with arguments, this names the function with all of its arguments.
                only = "^" + re.escape("::".join((bench, *path))) + "($|::)"
                out = subprocess.run([binary, "--bench", only], env=env,
                                     capture_output=True, text=True, check=True)
                record(out.stdout)
            print(f"run {run + 1}/{runs} done", file=sys.stderr)
    else:
        cmd = ["cargo", "bench", "-p", "strideweave", "--bench", bench, "--", *filters]
        for run in range(runs):
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            record(out.stdout)
            print(f"run {run + 1}/{runs} done", file=sys.stderr)
    groups = {}
    for path, ns in best.items():
        if len(path) >= 3 and path[-1].startswith("("):
            # A benchmark with arguments: compare functions at the same argument.
            key, name = path[:-2] + (path[-1],), path[-2]
        else:
            key, name = path[:-1], path[-1]
        groups.setdefault(key, []).append((name, ns))
    for group, items in groups.items():
        print("/".join(group))
        ours = [(n, t) for n, t in items if n.startswith("strideweave")]
        for name, ns in items:
            ratios = "  ".join(
                f"{o}/{name} = {t / ns:.2f}" if ns > 0 else f"{o}/{name}: neighbour took 0 ns"
                for o, t in ours
                if not name.startswith("strideweave") and dtype(o) == dtype(name)
            )
            print(f"  {name:32} {fmt(ns):>12}  {ratios}")


if __name__ == "__main__":
    main()
