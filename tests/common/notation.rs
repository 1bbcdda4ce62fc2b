//! Layouts and shapes from their notation, for tests: every test binary includes this file
//! (`crate::notation`) through its `support` module.

use strideweave::{Layout, Shape};

/// Parses a layout in either notation, panicking with the text on failure.
pub fn l(text: &str) -> Layout {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test layout {text}: {e}"))
}

/// Parses a shape, panicking with the text on failure.
pub fn s(text: &str) -> Shape {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test shape {text}: {e}"))
}
