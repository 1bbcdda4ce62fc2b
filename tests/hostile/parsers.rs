//! Random input for every parser (issue 11, item 7).
