//! Compile-fail and compile-pass tests of `layout!`, `shape!`, `shape_t!`, `rearrange!`,
//! `repeat!`, `einsum!` and the arithmetic on static shapes (`&a + &b`, …, `StaticTensor::matmul`).
//!
//! The `.stderr` snapshots were recorded with rustc 1.95; other compilers word and lay out
//! diagnostics differently, so on them the suite prints a note and passes without running.
//! Re-record deliberately with `TRYBUILD=overwrite cargo test -p strideweave-ui-tests`, then
//! read every changed `.stderr`.
//!
//! One `TestCases` holds both kinds: with a pass case present, trybuild builds instead of only
//! checking, so post-monomorphisation errors show too — the static-shape checks of
//! `rearrange!`, `repeat!` (`fail/static_*`), of `einsum!` (`fail/einsum_static_*`) and of
//! the static arithmetic (`fail/arith_*`) are such errors. Keep a pass case here.

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
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
    t.pass("pass/*.rs");
}
