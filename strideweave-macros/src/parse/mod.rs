//! Tokens → [`ast`](crate::ast).
//!
//! The token form is read by a small recursive-descent parser over token trees, so that each
//! mistake is reported at the token that makes it. The string form is handed to
//! [`strideweave_syntax`], the parser the runtime's `FromStr` uses, so that a string means the
//! same in `layout!("…")` as in `"…".parse::<Layout>()`.
//!
//! | module | reads |
//! |---|---|
//! | `notation` | `layout!`, `layout_t!`, `shape!`, `shape_t!`: a string, or integer tuples as tokens |
//! | `pattern_call` | `rearrange!`, `repeat!`: tensor, pattern (string or tokens), keywords |
//! | `einsum_call` | `einsum!`: one or two tensors, a string pattern, keywords |
//! | `reduce_call` | `reduce!`: tensor, pattern, reduction name, keywords |
//! | `keys` | `s!`: integer keys and `start..stop;step` slices |
//!
//! This module holds what they share: how a token is named and how an integer literal is read.

use proc_macro2::{Delimiter, TokenTree};
use syn::Lit;

mod einsum_call;
mod keys;
mod notation;
mod pattern_call;
mod reduce_call;

pub use einsum_call::{EinsumCall, einsum_call};
pub use keys::keys;
pub use notation::{layout, runtime_extents, shape};
pub use pattern_call::pattern_call;
pub use reduce_call::{ReduceCall, reduce_call};

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

#[cfg(test)]
mod fuzz {
    //! Random token soups for every token parser: an error whose message
    //! starts with the macro's name, never a panic. A few thousand cases; `STRIDEWEAVE_LONG=1`
    //! runs a million per property.

    use std::str::FromStr;

    use proc_macro2::TokenStream;
    use proptest::prelude::*;
    use proptest::test_runner::Config;

    use crate::ast::MacroKind;

    fn config() -> Config {
        let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
        Config {
            cases: if long { 1_000_000 } else { 1_000 },
            failure_persistence: None,
            ..Config::default()
        }
    }

    /// Tokens of the macros' inputs, in any order; text that does not lex is skipped.
    fn soup() -> impl Strategy<Value = TokenStream> {
        let token = prop::sample::select(vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "::",
            "-",
            "..",
            "..=",
            ";",
            "=",
            "->",
            "...",
            "0",
            "1",
            "2",
            "12",
            "3u8",
            "2.5",
            "-9223372036854775808",
            "99999999999999999999",
            "\"(2,3):(1,2)\"",
            "\"(2,\"",
            "a",
            "h",
            "w",
            "x",
            "_",
            "n",
            " ",
            "t",
        ]);
        prop::collection::vec(token, 0..30)
            .prop_map(|ts| TokenStream::from_str(&ts.join(" ")).unwrap_or_default())
    }

    fn check(mac: &str, message: &str) -> Result<(), TestCaseError> {
        prop_assert!(
            message.starts_with(&format!("{mac}: ")) && message.len() > mac.len() + 5,
            "{message}"
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn the_notation_token_parsers_answer_a_token_soup(tokens in soup()) {
            for (mac, name) in [(MacroKind::Layout, "layout!"), (MacroKind::LayoutT, "layout_t!")] {
                if let Err(e) = super::layout(tokens.clone(), mac) {
                    check(name, &e.to_string())?;
                }
            }
            for (mac, name) in [(MacroKind::Shape, "shape!"), (MacroKind::ShapeT, "shape_t!")] {
                if let Err(e) = super::shape(tokens.clone(), mac) {
                    check(name, &e.to_string())?;
                }
            }
        }

        #[test]
        fn the_key_and_pattern_token_parsers_answer_a_token_soup(tokens in soup()) {
            // Expressions are read by syn, whose own messages name no macro: no panic is
            // what is asserted here.
            let _ = super::keys(tokens.clone());
            if let Err((e, _)) = super::reduce_call(tokens.clone(), MacroKind::Reduce) {
                prop_assert!(!e.to_string().is_empty());
            }
            let _ = super::pattern_call(
                tokens,
                MacroKind::Rearrange,
                strideweave_syntax::PatternKind::Rearrange,
            );
        }
    }
}
