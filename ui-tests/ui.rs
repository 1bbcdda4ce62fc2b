//! Compile-fail and compile-pass tests of `layout!`, `shape!`, `shape_t!`, `rearrange!`,
//! `repeat!`, `einsum!` and the arithmetic on static shapes (`&a + &b`, …, `StaticTensor::matmul`).
//!
//! The `.stderr` snapshots were recorded with rustc 1.95; other compilers word and lay out
//! diagnostics differently, so on them the suite prints a note and passes without running.
//! Re-record deliberately with `TRYBUILD=overwrite cargo test -p strideweave-ui-tests`, then
//! read every changed `.stderr`.
//!
//! The cases run in two groups, each one `cargo` invocation where trybuild allows it:
//!
//! - **found by `cargo check`** (a `fail/*.rs` case whose `.stderr` holds no constant
//!   evaluation): the macros' own errors and ordinary type errors. A group of compile-fail
//!   cases alone is checked in a single `cargo check` of every case at once.
//! - **found only by a build**: the static-shape checks of `rearrange!`, `repeat!`,
//!   `reduce!` (`fail/static_*`, `fail/reduce_static_*`), `einsum!` (`fail/einsum_static_*`)
//!   and the static arithmetic (`fail/arith_*`) are errors the compiler reports when it
//!   evaluates a constant while building, which `cargo check` never does. With the `pass/`
//!   cases in their group trybuild builds instead of checking (one case at a time), so these
//!   errors show. A case without a `.stderr` yet goes to this group too.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The compiler the snapshots were recorded with.
const RECORDED_WITH: &str = "rustc 1.95.";

#[test]
fn ui() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !version.starts_with(RECORDED_WITH) {
        eprintln!(
            "note: skipping the ui tests: their .stderr snapshots were recorded with \
             {RECORDED_WITH}x, this is {:?}",
            version.trim()
        );
        return;
    }
    if std::env::var_os(RUSTFLAGS).is_none() {
        return run_again_with_one_set_of_flags();
    }
    let (built, checked): (Vec<PathBuf>, Vec<PathBuf>) = fail_cases()
        .into_iter()
        .partition(|case| needs_a_build(case));
    assert!(
        !built.is_empty() && !checked.is_empty(),
        "both groups have cases"
    );
    {
        let t = trybuild::TestCases::new();
        for case in &checked {
            t.compile_fail(case);
        }
    } // runs here: every case in one `cargo check`
    let t = trybuild::TestCases::new();
    for case in &built {
        t.compile_fail(case);
    }
    t.pass("pass/*.rs");
}

/// The variable through which Cargo takes rustc's flags before any `--config` option.
const RUSTFLAGS: &str = "CARGO_ENCODED_RUSTFLAGS";

/// The flags trybuild gives rustc for each case (its own, then `--diagnostic-width=140`),
/// separated by 0x1f as `CARGO_ENCODED_RUSTFLAGS` wants them.
const CASE_FLAGS: &str =
    "--cfg\x1ftrybuild\x1f--verbose\x1f-A\x1fdead_code\x1f--diagnostic-width=140";

/// Runs this test again in a child process whose environment holds [`CASE_FLAGS`].
///
/// trybuild builds a project's dependencies with one set of flags and then each case with
/// another (it adds `--diagnostic-width=140`); rustc's flags are part of every crate's
/// fingerprint, so a fresh run built strideweave, gemm and the rest twice per group, about
/// a minute each. Cargo takes `CARGO_ENCODED_RUSTFLAGS` over the flags trybuild passes
/// with `--config`, so with it both steps ask for the same build and the second finds it
/// done. (A child process, because changing one's own environment is `unsafe`.)
fn run_again_with_one_set_of_flags() {
    let exe = std::env::current_exe().expect("the test binary's path");
    let status = Command::new(exe)
        .args(["ui", "--exact", "--test-threads=1"])
        .env(RUSTFLAGS, CASE_FLAGS)
        .status()
        .expect("the ui tests run again in a child process");
    assert!(
        status.success(),
        "the ui tests failed (their report is above)"
    );
}

/// The compile-fail cases, `fail/*.rs`, in name order.
fn fail_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("fail")
        .expect("ui-tests/fail is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| Path::new("fail").join(path.file_name().expect("a file name")))
        .collect();
    cases.sort();
    cases
}

/// Whether a case's error shows only when its code is built: its snapshot holds a constant
/// evaluation (E0080), or there is no snapshot yet.
fn needs_a_build(case: &Path) -> bool {
    match std::fs::read_to_string(case.with_extension("stderr")) {
        Ok(stderr) => stderr.contains("error[E0080]"),
        Err(_) => true,
    }
}

#[path = "one_wording.rs"]
mod one_wording;
