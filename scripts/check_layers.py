#!/usr/bin/env python3
"""The repository's layer check (python3, standard library only).

    python3 scripts/check_layers.py [--graph] [PROJECT_ROOT]

1. Module graph of the runtime crate. Every file under strideweave/src belongs to a
   top-level module (a file `x.rs` or a folder `x/` beside lib.rs). The paths a file names
   outside its trailing `#[cfg(test)]` modules and its comments -- `crate::x…`,
   `crate::{x, y::…}` groups, and `super::…` chains that climb out of its top-level module --
   are its module's edges; a name lib.rs re-exports (`crate::Tensor`) counts as its module. Each strongly connected component of more than one module is
   printed as `CYCLE: a <-> b ...`, except the one the design allows: a tensor owns its
   autograd state (`tensor <-> autograd`, see ARCHITECTURE.md, "Layers of the runtime crate").
2. File length. Each .rs file of strideweave/, strideweave-macros/ and strideweave-syntax/
   (sources, benches, examples) whose lines before its trailing `#[cfg(test)]` module
   number more than 800 is printed as `LONG: file (N lines)`.

Exits 1 when it printed a CYCLE or LONG line, 0 otherwise; the last line is a summary.
With --graph it first prints each module's imports (the layer table of ARCHITECTURE.md).
"""

import os
import re
import sys

ALLOWED_CYCLE = {"tensor", "autograd"}
MAX_LINES = 800
CRATES = ("strideweave", "strideweave-macros", "strideweave-syntax")
SKIP_DIRS = {"target", ".git"}


TEST_CFG = re.compile(r"#\[cfg\((test|all\(test\b.*)\)\]$")
MOD = re.compile(r"(pub(\([^)]*\))? )?mod (\w+)\s*(\{|;)")


def test_modules(lines):
    """Column-0 test-only modules (`#[cfg(test)]`, `#[cfg(all(test, …))]`): a list of
    (first line, last line, name, path attribute or None, inline?)."""
    out = []
    for i, line in enumerate(lines):
        if not TEST_CFG.match(line):
            continue
        j, path = i + 1, None
        while j < len(lines) and lines[j].startswith("#["):
            m = re.match(r'#\[path = "([^"]+)"\]', lines[j])
            path = m.group(1) if m else path
            j += 1
        m = MOD.match(lines[j]) if j < len(lines) else None
        if not m:
            continue
        end = j
        if m.group(4) == "{":
            end = next((k for k in range(j + 1, len(lines)) if lines[k] == "}"), len(lines) - 1)
        out.append((i, end, m.group(3), path, m.group(4) == "{"))
    return out


def body_lines(lines):
    """The lines before the file's trailing test modules (those after which only test
    modules and blank lines follow)."""
    spans = test_modules(lines)
    inside = set()
    for first, last, *_ in spans:
        inside.update(range(first, last + 1))
    for first, *_ in spans:
        if all(k in inside or not lines[k].strip() for k in range(first, len(lines))):
            return lines[:first]
    return lines


def strip_comments(line, in_block):
    """`line` without `//` and `/* */` comments (string contents are kept: good enough for
    paths, which do not occur in literals of this code base)."""
    out = []
    k = 0
    while k < len(line):
        if in_block:
            end = line.find("*/", k)
            if end < 0:
                return "".join(out), True
            k, in_block = end + 2, False
        elif line.startswith("//", k):
            break
        elif line.startswith("/*", k):
            in_block, k = True, k + 2
        else:
            out.append(line[k])
            k += 1
    return "".join(out), in_block


def group_heads(inner):
    """The first segment of every top-level entry of a `{a, b::{c, d}, e as f}` group."""
    heads, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            heads.append(cur)
            cur = ""
            continue
        if depth == 0:
            cur += ch
    heads.append(cur)
    return {h.strip().split("::")[0].split(" ")[0] for h in heads if h.strip()}


def uses_of(path, module_path):
    """The top-level modules `path` (module `module_path`, a list) names."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    skip = set()
    for first, last, *_ in test_modules(lines):
        skip.update(range(first, last + 1))
    lines = [l for k, l in enumerate(lines) if k not in skip]
    code, in_block = [], False
    # Inline `mod x {` blocks deepen `super::` chains; rustfmt closes them at their indent.
    open_mods, supers = [], []
    for line in lines:
        text, in_block = strip_comments(line, in_block)
        indent = len(line) - len(line.lstrip())
        while open_mods and text.strip() == "}" and indent <= open_mods[-1]:
            open_mods.pop()
        code.append(text)
        for m in re.finditer(r"\bsuper((?:::super)*)::(\{[^;]*?\}|\w+)", text):
            depth = len(module_path) + len(open_mods)
            climbs = 1 + m.group(1).count("::super")
            if climbs >= depth:
                target = m.group(2)
                names = group_heads(target[1:-1]) if target.startswith("{") else {target}
                supers.extend(names)
        if re.match(r"\s*(pub(\([^)]*\))? )?mod \w+ \{\s*$", text):
            open_mods.append(indent)
    joined = "\n".join(code)
    found = set(re.findall(r"\bcrate::(\w+)", joined)) | set(supers)
    for m in re.finditer(r"\bcrate::\{([^;]*?)\}\s*;", joined, re.S):
        found |= group_heads(m.group(1))
    return found


def root_reexports(src):
    """Names lib.rs re-exports from a module (`pub use x::{A, B}` / `pub use x::A`): a path
    `crate::A` is an edge to `x`."""
    with open(os.path.join(src, "lib.rs"), encoding="utf-8") as f:
        text = f.read()
    out = {}
    for m in re.finditer(r"^pub use (\w+)::(\{[^;]*\}|\w+)\s*;", text, re.M):
        names = m.group(2).strip("{}").split(",")
        for name in names:
            name = name.strip().split(" as ")[-1].strip()
            if name:
                out[name] = m.group(1)
    return out


def test_files(src):
    """Files that only tests compile: the targets of `#[cfg(test)] mod x;`."""
    out = set()
    for dirpath, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                lines = f.read().split("\n")
            own = dirpath if name in ("mod.rs", "lib.rs") else os.path.join(dirpath, name[:-3])
            for _, _, mod, attr, inline in test_modules(lines):
                if inline:
                    continue
                if attr:
                    out.add(os.path.normpath(os.path.join(dirpath, attr)))
                else:
                    out.add(os.path.normpath(os.path.join(own, mod + ".rs")))
                    out.add(os.path.normpath(os.path.join(own, mod, "mod.rs")))
    return out


def module_graph(src):
    graph, tests = {}, test_files(src)
    for dirpath, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".rs"):
                continue
            path = os.path.join(dirpath, name)
            if os.path.normpath(path) in tests:
                continue
            parts = os.path.relpath(path, src).split(os.sep)
            parts[-1] = parts[-1][: -len(".rs")]
            if parts[-1] == "mod":
                parts.pop()
            if parts in (["lib"], ["main"]):
                continue
            graph.setdefault(parts[0], set()).update(uses_of(path, parts))
    alias = root_reexports(src)
    graph = {m: {u if u in graph else alias.get(u, u) for u in us} for m, us in graph.items()}
    return {m: {u for u in us if u in graph and u != m} for m, us in graph.items()}


def components(graph):
    """Strongly connected components (Tarjan), iteratively."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def long_files(root):
    out = []
    for crate in CRATES:
        for dirpath, dirs, files in os.walk(os.path.join(root, crate)):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                if name.endswith(".rs"):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding="utf-8") as f:
                        body = body_lines(f.read().split("\n"))
                    while body and not body[-1].strip():
                        body.pop()
                    n = len(body)
                    if n > MAX_LINES:
                        out.append((os.path.relpath(path, root), n))
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "--graph"]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    graph = module_graph(os.path.join(root, "strideweave", "src"))
    if "--graph" in sys.argv[1:]:
        for m in sorted(graph):
            print(f"{m}: {', '.join(sorted(graph[m])) or '-'}")
    printed = 0
    for comp in components(graph):
        if len(comp) > 1 and set(comp) != ALLOWED_CYCLE:
            print("CYCLE: " + " <-> ".join(comp))
            printed += 1
    for path, n in long_files(root):
        print(f"LONG: {path} ({n} lines)")
        printed += 1
    print(
        f"layers: {len(graph)} modules, {printed} problem(s) "
        f"(allowed cycle: {' <-> '.join(sorted(ALLOWED_CYCLE))}; file limit {MAX_LINES} lines)"
    )
    return 1 if printed else 0


if __name__ == "__main__":
    sys.exit(main())
