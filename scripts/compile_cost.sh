#!/usr/bin/env bash
# Compile-time cost of the static-shape macros (issue 4 item 7). Not part of the test command.
#
# Generates, in a temporary directory, one crate (path dependency on this workspace's
# `strideweave`) with a binary per scenario:
#   baseline     the same skeleton with no call (subtracted from every other row)
#   static_200   200 independent `rearrange!` calls on `StaticTensor`s of distinct static shapes
#   tensors_200  the 200 static tensors of static_200 without the calls (what having 200
#                static shape types costs by itself: construction, `layout()`, drop glue)
#   runtime_200  the same 200 calls through the runtime API, `Tensor::rearrange`
#   chain_N      N chained `rearrange!` calls on one static tensor, for N = 10, 50, 100, 200
#   chain_200_cast  chain_200 with a `cast` to the named start shape every 48 calls (each
#                result type nests its source's; a cast starts the nesting afresh)
# builds the dependencies once (debug, shared target directory), then for each binary touches
# its source and rebuilds only it (non-incremental), three times, and prints the best
# wall-clock and CPU build times and the milliseconds per call above the baseline.
#
# Wall-clock and CPU times swing by tens of percent on a shared 2-core machine; with
# `--instructions` the script also builds each binary once under valgrind's callgrind and
# prints the instructions rustc executed, a deterministic figure for comparing two versions
# (slow: about 5 minutes).
#
# Usage: scripts/compile_cost.sh [--instructions] [runs]
#        (runs defaults to 3; STRIDEWEAVE_COST_DIR=dir keeps the generated crate in dir)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
instructions=false
if [[ ${1:-} == --instructions ]]; then
    instructions=true
    shift
fi
runs="${1:-3}"
dir="${STRIDEWEAVE_COST_DIR:-$(mktemp -d -t strideweave-cost.XXXXXX)}"
if [[ -z "${STRIDEWEAVE_COST_DIR:-}" ]]; then
    trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir/src/bin"
export CARGO_TARGET_DIR="$dir/target"
export CARGO_TERM_COLOR=never
# A touched but unchanged file would otherwise be rebuilt from the incremental cache.
export CARGO_INCREMENTAL=0

cat >"$dir/Cargo.toml" <<EOF
[package]
name = "strideweave-compile-cost"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
strideweave = { path = "$repo/strideweave" }

[workspace]
EOF
# The workspace's versions of every dependency.
cp "$repo/Cargo.lock" "$dir/Cargo.lock"

# The 200 calls: ten pattern families, each on 20 distinct shapes (so 200 distinct static
# shape types), written once for `rearrange!` on a static tensor and once for
# `Tensor::rearrange`. Fields: shape, pattern, keywords (`name = value` list or empty).
call() { # i -> "shape|pattern|keywords"
    local i=$1 a=$((2 + $1 / 10)) b=$((3 + $1 % 5)) c=$((2 + $1 % 3))
    case $((i % 10)) in
    0) echo "$a, $b, $c|a b c -> c b a|" ;;
    1) echo "$a, $b, $c|a b c -> (a b) c|" ;;
    2) echo "$((2 * a)), $b|(h w) c -> h w c|h = 2" ;;
    3) echo "$a, $b, $c|a b c -> b (c a)|" ;;
    4) echo "$a, 1, $b|a 1 b -> b a|" ;;
    5) echo "$a, $b, $c, 2|a ... -> ... a|" ;;
    6) echo "$a, $b|a b -> b 1 a|" ;;
    7) echo "$a, $b, $c|a b c -> (c b a)|" ;;
    8) echo "$((3 * a)), $b|(h w) c -> c (w h)|w = 3" ;;
    9) echo "$a, $b, $c, 2|b h w c -> b c h w|" ;;
    esac
}

gen_independent() { # kind (static, runtime, tensors) -> source
    local kind=$1
    echo "use strideweave::*;"
    echo "#[allow(unused_imports)] use std::hint::black_box;"
    echo "fn main() {"
    echo "    let mut sum = 0usize;"
    for i in $(seq 0 199); do
        IFS='|' read -r shape pattern kw <<<"$(call "$i")"
        if [[ $kind == tensors ]]; then
            echo "    { let t = StaticTensor::<f32, shape_t!($shape)>::zeros(); sum += black_box(t.layout()).size(); }"
        elif [[ $kind == static ]]; then
            local k=""
            [[ -n $kw ]] && k=", $kw"
            echo "    { let t = StaticTensor::<f32, shape_t!($shape)>::zeros(); let r = rearrange!(&t, \"$pattern\"$k); sum += black_box(r.layout()).size(); }"
        else
            local k="&[]"
            [[ -n $kw ]] && k="&[(\"${kw%% =*}\", ${kw##*= })]"
            echo "    { let t = Tensor::zeros::<f32>(&shape!($shape)); let r = t.rearrange(\"$pattern\", $k).unwrap(); sum += black_box(r.layout()).size(); }"
        fi
    done
    echo "    println!(\"{sum}\");"
    echo "}"
}

gen_chain() { # n -> source: a cycle of four patterns that returns to the start shape
    local n=$1
    local patterns=("a b c -> b c a" "a b c -> (a b) c" "(a b) c -> c a b" "c a b -> a b c")
    echo "use strideweave::*;"
    echo "fn main() {"
    echo "    let x0 = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();"
    for i in $(seq 1 "$n"); do
        echo "    let x$i = rearrange!(x$((i - 1)), \"${patterns[$(((i - 1) % 4))]}\");"
    done
    echo "    println!(\"{}\", x$n.layout());"
    echo "}"
}

gen_chain_cast() { # chain_200, cast back to the start shape every 48 calls (it returns every 12)
    local patterns=("a b c -> b c a" "a b c -> (a b) c" "(a b) c -> c a b" "c a b -> a b c")
    echo "use strideweave::*;"
    echo "fn main() {"
    echo "    let x0 = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();"
    for i in $(seq 1 200); do
        local cast=""
        ((i % 48 == 0)) && cast=".cast::<shape_t!(2, 3, 4)>()"
        echo "    let x$i = rearrange!(x$((i - 1)), \"${patterns[$(((i - 1) % 4))]}\")$cast;"
    done
    echo "    println!(\"{}\", x200.layout());"
    echo "}"
}

gen_baseline() {
    echo "use strideweave::*;"
    echo "fn main() {"
    echo "    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::zeros();"
    echo "    println!(\"{}\", t.layout());"
    echo "}"
}

gen_baseline >"$dir/src/bin/baseline.rs"
gen_independent static >"$dir/src/bin/static_200.rs"
gen_independent runtime >"$dir/src/bin/runtime_200.rs"
gen_independent tensors >"$dir/src/bin/tensors_200.rs"
chains=(10 50 100 200)
for n in "${chains[@]}"; do gen_chain "$n" >"$dir/src/bin/chain_$n.rs"; done
gen_chain_cast >"$dir/src/bin/chain_200_cast.rs"

cd "$dir"
echo "building the dependencies (debug) in $dir ..." >&2
cargo build --quiet --offline --bins 2>/dev/null || cargo build --quiet --bins

# Best (smallest) wall-clock and CPU (user + system, rustc and linker) seconds of $runs
# rebuilds of one binary; CPU time is the steadier figure on a shared machine.
best() { # bin -> "wall cpu"
    local bin=$1 wall="" cpu="" out w c
    for _ in $(seq 1 "$runs"); do
        touch "src/bin/$bin.rs"
        /usr/bin/time -o "$dir/time.txt" -f "%e %U %S" cargo build --quiet --offline --bin "$bin"
        read -r w u s <"$dir/time.txt"
        c=$(echo "$u + $s" | bc -l)
        if [[ -z $wall ]] || (($(echo "$w < $wall" | bc -l))); then wall=$w; fi
        if [[ -z $cpu ]] || (($(echo "$c < $cpu" | bc -l))); then cpu=$c; fi
    done
    echo "$wall $cpu"
}

read -r base_wall base_cpu <<<"$(best baseline)"
printf '%-15s %6s %9s %9s %14s %13s\n' "binary" "calls" "wall (s)" "cpu (s)" "wall ms/call" "cpu ms/call"
printf '%-15s %6s %9.2f %9.2f %14s %13s\n' baseline 0 "$base_wall" "$base_cpu" "-" "-"
row() { # bin calls
    local wall cpu
    read -r wall cpu <<<"$(best "$1")"
    eval "cpu_$1=$cpu"
    printf '%-15s %6d %9.2f %9.2f %14.2f %13.2f\n' "$1" "$2" "$wall" "$cpu" \
        "$(echo "($wall - $base_wall) * 1000 / $2" | bc -l)" \
        "$(echo "($cpu - $base_cpu) * 1000 / $2" | bc -l)"
}
row tensors_200 200
row static_200 200
row runtime_200 200
for n in "${chains[@]}"; do row "chain_$n" "$n"; done
row chain_200_cast 200
printf 'the 200 static calls alone (static_200 - tensors_200): %.2f ms of CPU per call\n' \
    "$(echo "($cpu_static_200 - $cpu_tensors_200) * 1000 / 200" | bc -l)"
echo "(rustc $(rustc --version | cut -d' ' -f2), $(nproc) cores, debug, best of $runs rebuilds;" \
    "ms/call = (build - baseline) / calls)"

if $instructions; then
    # A rustc wrapper that runs the compiler of one binary ($COST_BIN) under callgrind.
    cat >"$dir/callgrind-rustc.sh" <<'WRAPPER'
#!/usr/bin/env bash
rustc="$1"
shift
for a in "$@"; do
    if [[ $a == "$COST_BIN" ]]; then
        exec valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            --log-file="$COST_LOG" "$rustc" "$@"
    fi
done
exec "$rustc" "$@"
WRAPPER
    chmod +x "$dir/callgrind-rustc.sh"
    count() { # bin -> instructions rustc executed to build it
        touch "src/bin/$1.rs"
        COST_BIN=$1 COST_LOG="$dir/callgrind-$1.log" RUSTC_WRAPPER="$dir/callgrind-rustc.sh" \
            cargo build --quiet --offline --bin "$1" >/dev/null 2>&1
        grep -o 'Collected : [0-9]*' "$dir/callgrind-$1.log" | awk '{print $3}'
    }
    echo
    base_ir=$(count baseline)
    printf '%-15s %6s %16s %12s\n' "binary" "calls" "instructions (M)" "M per call"
    printf '%-15s %6s %16.0f %12s\n' baseline 0 "$(echo "$base_ir / 1000000" | bc -l)" "-"
    irow() { # bin calls
        local ir
        ir=$(count "$1")
        eval "ir_$1=$ir"
        printf '%-15s %6d %16.0f %12.2f\n' "$1" "$2" "$(echo "$ir / 1000000" | bc -l)" \
            "$(echo "($ir - $base_ir) / 1000000 / $2" | bc -l)"
    }
    irow tensors_200 200
    irow static_200 200
    irow runtime_200 200
    for n in "${chains[@]}"; do irow "chain_$n" "$n"; done
    irow chain_200_cast 200
    printf 'the 200 static calls alone (static_200 - tensors_200): %.2f M instructions per call\n' \
        "$(echo "($ir_static_200 - $ir_tensors_200) / 1000000 / 200" | bc -l)"
fi
