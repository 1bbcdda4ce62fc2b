//! Guides for readers who know another library, as documentation whose examples run
//! (every code block here is a doctest).
//!
//! - [`from_einops`]: einops patterns, and the one rule that turns them into StrideWeave's;
//! - [`from_numpy`]: first-mode-fastest versus row-major, and the constructors and readers
//!   for each;
//! - [`for_cute_users`]: the notation, the algebra's names, and `print_layout`.

pub mod for_cute_users;
pub mod from_einops;
pub mod from_numpy;
