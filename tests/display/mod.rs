//! Issue 14, items 1 and 2: `Display` of tensors and the pictures of layouts
//! (`to_text_grid`, `to_svg`, `to_svg_tv`).
//!
//! Snapshots are plain text files under `snapshots/`, compared byte for byte; after a
//! deliberate change of the printed form, rerun with `UPDATE_SNAPSHOTS=1` and review the diff.

mod grids;
mod props;
mod svg;
mod tensors;

use std::path::PathBuf;

/// Compares `actual` with `snapshots/<name>.txt` (or writes it when `UPDATE_SNAPSHOTS` is set).
pub fn snapshot(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("display/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "snapshot {} is missing ({e}); run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    assert_eq!(actual, expected, "snapshot {name} differs");
}
