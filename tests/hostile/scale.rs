//! Near-linear pattern checking (issue 11, item 5).
