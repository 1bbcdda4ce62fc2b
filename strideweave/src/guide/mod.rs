//! Guides for readers who know another library, written as tutorials to read top to bottom
//! (every code block here is a doctest that checks its results).
//!
//! - [`from_einops`]: einops' reading of a pattern ([`einops`](crate::einops): paste the
//!   pattern) and the first-mode-fastest reading, with the same patterns in both;
//! - [`from_numpy`]: loading, printing, slicing and reducing, numpy's memory order against
//!   this crate's, and numpy's names of the elementwise functions;
//! - [`for_cute_users`]: the notation and the algebra's names, `print_layout`, a
//!   thread-value layout and a tiled GEMM.

pub mod for_cute_users;
pub mod from_einops;
pub mod from_numpy;
