//! Tokens → [`ast`](crate::ast).
//!
//! The token form is read by a small recursive-descent parser over token trees, so that each
//! mistake is reported at the token that makes it. The string form is handed to
//! [`strideweave_syntax`], the parser the runtime's `FromStr` uses, so that a string means the
//! same in `layout!("…")` as in `"…".parse::<Layout>()`.
//!
//! | module | reads |
//! |---|---|
//! | `notation` | `layout!`, `shape!`, `shape_t!`: a string, or integer tuples as tokens |
//! | `pattern_call` | `rearrange!`, `repeat!`: tensor, pattern (string or tokens), keywords |
//! | `keys` | `s!`: integer keys and `start..stop;step` slices |
//!
//! This module holds what they share: how a token is named and how an integer literal is read.

use proc_macro2::{Delimiter, TokenTree};
use syn::Lit;

mod keys;
mod notation;
mod pattern_call;

pub use keys::keys;
pub use notation::{layout, shape};
pub use pattern_call::pattern_call;

/// A literal expression, possibly negated or parenthesized (`4`, `-2`, `(3)`): whether it
/// is negated, and the literal; `None` for any other expression.
pub(crate) fn signed_literal(e: &syn::Expr) -> Option<(bool, &Lit)> {
    match e {
        syn::Expr::Lit(l) => Some((false, &l.lit)),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            syn::Expr::Lit(l) => Some((true, &l.lit)),
            _ => None,
        },
        syn::Expr::Group(g) => signed_literal(&g.expr),
        syn::Expr::Paren(p) => signed_literal(&p.expr),
        _ => None,
    }
}

/// The value of an integer literal with its sign, if it fits in `i64`.
pub(crate) fn int_value(i: &syn::LitInt, negative: bool) -> Option<i64> {
    i.base10_digits()
        .parse::<i128>()
        .ok()
        .map(|v| if negative { -v } else { v })
        .and_then(|v| i64::try_from(v).ok())
}

/// How a token is named in a message.
pub(crate) fn describe(tt: &TokenTree) -> String {
    match tt {
        TokenTree::Ident(i) => format!("identifier `{i}`"),
        TokenTree::Punct(p) => format!("`{}`", p.as_char()),
        TokenTree::Literal(l) => format!("`{l}`"),
        TokenTree::Group(g) => match g.delimiter() {
            Delimiter::Parenthesis => format!("the tuple `{g}`"),
            _ => format!("`{g}`"),
        },
    }
}
