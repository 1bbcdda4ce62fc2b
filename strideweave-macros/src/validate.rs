//! Checks on parsed macro input, generic over where each part came from, so that the token
//! form and the string form share every rule and message. The rules of shapes and layouts
//! live in `strideweave_syntax` (the runtime's `FromStr` applies them too); this module
//! flattens a checked literal into what `__private` takes, and checks patterns and `s!` keys.

use strideweave_syntax::{Mistakes, NotationError, Tuple, check_layout, check_shape};

use crate::ast::{Checked, LayoutAst, Profile};

/// Checks a layout: extents ≥ 1, congruence, the size and the reach fit in `i64`. Without a
/// stride, gives the compact (first-mode-fastest) strides.
pub fn layout<S: Clone>(ast: &LayoutAst<S>) -> Result<Checked, Mistakes<S>> {
    let checked = check_layout(&ast.shape, ast.stride.as_ref())?;
    Ok(Checked {
        profile: profile(&ast.shape),
        extents: checked.extents,
        strides: Some(checked.strides),
        int_root: matches!(ast.shape, Tuple::Int(..)),
    })
}

/// Checks a shape: extents ≥ 1 and the size fits in `i64`.
pub fn shape<S: Clone>(shape: &Tuple<S>) -> Result<Checked, Mistakes<S>> {
    Ok(Checked {
        profile: profile(shape),
        extents: check_shape(shape)?,
        strides: None,
        int_root: matches!(shape, Tuple::Int(..)),
    })
}

/// The root's children as a profile token stream (for an integer root: one `Leaf`).
fn profile<S>(t: &Tuple<S>) -> Vec<Profile> {
    fn go<S>(t: &Tuple<S>, out: &mut Vec<Profile>) {
        match t {
            Tuple::Int(..) => out.push(Profile::Leaf),
            Tuple::Tuple(items, _) => {
                out.push(Profile::Push);
                items.iter().for_each(|c| go(c, out));
                out.push(Profile::Pop);
            }
        }
    }
    let mut out = Vec::new();
    match t {
        Tuple::Int(..) => out.push(Profile::Leaf),
        Tuple::Tuple(items, _) => items.iter().for_each(|c| go(c, &mut out)),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use strideweave_syntax::{parse_layout, parse_shape};

    #[test]
    fn a_valid_layout_flattens_into_profile_extents_strides() {
        let check = |text: &str| {
            let (shape, stride) = parse_layout(text).unwrap();
            layout(&LayoutAst {
                shape,
                stride: Some(stride),
            })
            .unwrap()
        };
        let c = check("(2,(3,4)):(1,(2,6))");
        use Profile::*;
        assert_eq!(c.profile, [Leaf, Push, Leaf, Leaf, Pop]);
        assert_eq!(c.extents, [2, 3, 4]);
        assert_eq!(c.strides.unwrap(), [1, 2, 6]);
        assert!(!c.int_root);
        let c = check("8:1");
        assert_eq!((c.profile, c.int_root), (vec![Leaf], true));
        let c = check("():()");
        assert!(c.profile.is_empty() && c.extents.is_empty() && !c.int_root);
    }

    #[test]
    fn a_shape_alone_gets_compact_strides() {
        let (extents, _) = parse_layout("(2,(3,4)):(0,(0,0))").unwrap();
        let c = layout(&LayoutAst {
            shape: extents,
            stride: None,
        })
        .unwrap();
        assert_eq!(c.strides.unwrap(), [1, 2, 6]);
        let t = parse_shape("8").unwrap();
        assert!(shape(&t).unwrap().int_root);
        let t = parse_shape("(2,0)").unwrap();
        assert_eq!(
            shape(&t).unwrap_err()[0].to_string(),
            "extent 0 at mode 1 must be at least 1"
        );
    }
}

/// A keyword's value for [`strideweave_syntax::check_keywords`]: a literal, or an
/// expression (a constant) whose value only the compiler knows; the expansion checks that
/// one in const context, at the constant, with the same message.
#[derive(Clone)]
pub(crate) enum KeywordValue<'a> {
    Literal(i64),
    Expr(&'a syn::Expr),
}

impl std::fmt::Display for KeywordValue<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeywordValue::Literal(v) => write!(f, "{v}"),
            KeywordValue::Expr(e) => write!(f, "{}", quote::ToTokens::to_token_stream(*e)),
        }
    }
}

impl<'a> KeywordValue<'a> {
    /// The value of keyword `k` as written.
    pub(crate) fn of(k: &'a crate::ast::KeywordArg) -> KeywordValue<'a> {
        match k.literal {
            Some(v) => KeywordValue::Literal(v),
            None => KeywordValue::Expr(&k.value),
        }
    }
}

impl strideweave_syntax::KeywordValue for KeywordValue<'_> {
    fn below_one(&self) -> bool {
        matches!(self, KeywordValue::Literal(v) if *v < 1)
    }
}

/// Where a pattern-only mistake is: in the pattern (a byte range) or at keyword `i`.
#[derive(Clone, Debug)]
enum Where {
    Pattern(std::ops::Range<usize>),
    Keyword(usize),
}

/// Parses and checks a `rearrange!`/`repeat!` pattern and its keywords with the shared
/// grammar (`strideweave_syntax`): every mistake that needs no shape is an error here.
pub fn pattern(
    call: &crate::ast::PatternCall,
) -> syn::Result<strideweave_syntax::Pattern<std::ops::Range<usize>>> {
    use strideweave_syntax::{Side, Term, check_keywords, check_pattern, parse_pattern};
    let text = call.pattern.text();
    let lift = |e: NotationError<std::ops::Range<usize>>| call.pattern.error(call.mac, &e);
    let pattern = parse_pattern(text).map_err(lift)?;
    check_pattern(&pattern, call.kind).map_err(lift)?;

    fn map(t: &Term<std::ops::Range<usize>>) -> Term<Where> {
        match t {
            Term::Symbol(n, r) => Term::Symbol(n.clone(), Where::Pattern(r.clone())),
            Term::Unit(r) => Term::Unit(Where::Pattern(r.clone())),
            Term::Ellipsis(r) => Term::Ellipsis(Where::Pattern(r.clone())),
            Term::Group(m, r) => {
                Term::Group(m.iter().map(map).collect(), Where::Pattern(r.clone()))
            }
        }
    }
    let side = |s: &Side<std::ops::Range<usize>>| Side {
        terms: s.terms.iter().map(map).collect(),
        span: Where::Pattern(s.span.clone()),
    };
    let mapped = strideweave_syntax::Pattern {
        left: side(&pattern.left),
        right: side(&pattern.right),
    };
    let names: Vec<String> = call.keywords.iter().map(|k| k.name.to_string()).collect();
    let keywords: Vec<(&str, KeywordValue<'_>, Where)> = call
        .keywords
        .iter()
        .zip(&names)
        .enumerate()
        .map(|(i, (k, name))| (name.as_str(), KeywordValue::of(k), Where::Keyword(i)))
        .collect();
    check_keywords(&mapped, call.kind, &keywords).map_err(|e| match e.position {
        Where::Pattern(position) => lift(NotationError {
            position,
            message: e.mistake.to_string(),
        }),
        Where::Keyword(i) => call.keywords[i]
            .spans
            .error(format!("{}: {}", call.mac, e.mistake)),
    })?;
    Ok(pattern)
}

/// Checks the keys of `s!` whose mistakes need no extent: a negative integer key (integer
/// keys are coordinates and are not wrapped), a literal step below 1, a literal range that
/// is empty on every mode (both bounds literal with the same sign, stop ≤ start), and a
/// literal width that is not a multiple of a literal step. An omitted start is 0. Every
/// mistaken key is reported once, at the key.
pub fn keys(ast: &crate::ast::KeysAst) -> Result<(), Vec<syn::Error>> {
    let problems: Vec<syn::Error> = ast.keys.iter().filter_map(key).collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn key(k: &crate::ast::KeyAst) -> Option<syn::Error> {
    use crate::ast::{Bound, KeyAst};
    let value = |b: &Option<Bound>| b.as_ref().and_then(|b| b.literal);
    let (start, stop, step, spans) = match k {
        KeyAst::Int(b) => {
            return match b.literal {
                Some(v) if v < 0 => Some(b.spans.error(format!(
                    "s!: integer key {v} is negative; an integer key is a coordinate, counted \
                     from 0 and not wrapped (only slice bounds count from the end): write the \
                     coordinate `extent - {}`, or the slice `{v}..{}` to keep that coordinate \
                     as a mode of extent 1",
                    -(v as i128),
                    if v == -1 {
                        String::new()
                    } else {
                        (v + 1).to_string()
                    }
                ))),
                _ => None,
            };
        }
        KeyAst::Slice {
            start,
            stop,
            step,
            spans,
        } => (start, stop, step, spans),
    };
    let text = k.text();
    if let Some(b) = step
        && let Some(s) = b.literal
        && s < 1
    {
        return Some(b.spans.error(format!(
            "s!: step {s} in the slice `{text}` must be at least 1; slices only step forward \
             — to reverse a mode, use `Tensor::reverse` (then slice it)"
        )));
    }
    // An omitted start is 0; an omitted stop is the extent, which is not known here.
    let a = match start {
        None => Some(0),
        Some(_) => value(start),
    };
    let (Some(a), Some(z)) = (a, value(stop)) else {
        return None;
    };
    if (a < 0) != (z < 0) {
        return None; // which one comes first depends on the extent
    }
    let start_text = if start.is_some() {
        format!("start {a}")
    } else {
        "start 0 (the default)".to_string()
    };
    let from_end = if a < 0 {
        " (both count from the end)"
    } else {
        ""
    };
    if z <= a {
        let relation = if z == a { "is not after" } else { "is before" };
        return Some(spans.error(format!(
            "s!: the slice `{text}` is empty: its stop {z} {relation} its {start_text}{from_end}; \
             a slice must keep at least one coordinate"
        )));
    }
    let s = match step {
        None => 1,
        Some(b) => b.literal?, // a step only known at run time: `Tensor::index` checks
    };
    let width = i128::from(z) - i128::from(a);
    if width % i128::from(s) != 0 {
        // The nearest stop inside the written bounds that ends on a step (a longer slice
        // might not fit the mode); a slice narrower than its step keeps one coordinate.
        let s128 = i128::from(s);
        let below = i128::from(a) + (width / s128) * s128;
        let step_text = step
            .as_ref()
            .map(|b| format!(";{}", b.text()))
            .unwrap_or_default();
        let start_part = start.as_ref().map(Bound::text).unwrap_or_default();
        let advice = match below > i128::from(a) {
            true => format!("; write `{start_part}..{below}{step_text}`"),
            false => format!(
                "; it keeps one coordinate: write `{start_part}..{}`",
                i128::from(a) + 1
            ),
        };
        return Some(spans.error(format!(
            "s!: the slice `{text}` does not end on a step: its width {width} (from {a} to {z}) \
             is not a multiple of the step {s}{advice}"
        )));
    }
    None
}

#[cfg(test)]
mod key_tests {
    use quote::quote;

    fn check(t: proc_macro2::TokenStream) -> Vec<String> {
        let ast = crate::parse::keys(t).unwrap_or_else(|(e, _)| panic!("{e}"));
        match super::keys(&ast) {
            Ok(()) => Vec::new(),
            Err(es) => es.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn literal_mistakes_are_rejected_each_once() {
        assert!(check(quote!(2, 1..9;2, .., ..5, 3.., ..;2, -3.., -4..-1, 0..10;5)).is_empty());
        // What depends on the extent or on run-time values is left to `Tensor::index`.
        assert!(
            check(quote!(1..-1, -3..2, ..-1;2, 3..;2, i, -i, 1..n;2, 0..9;k, 2..1 + 0)).is_empty()
        );
        let e = check(quote!(.., 1..9;0, ..;-2));
        assert_eq!(e.len(), 2);
        assert!(
            e[0].starts_with("s!: step 0 in the slice `1..9;0` must be at least 1"),
            "{}",
            e[0]
        );
        assert!(e[1].contains("`Tensor::reverse`"), "{}", e[1]);
        assert!(
            check(quote!(5..5))[0].contains("`5..5` is empty: its stop 5 is not after its start 5")
        );
        assert!(check(quote!(7..2))[0].contains("its stop 2 is before its start 7"));
        assert!(check(quote!(..0))[0].contains("its start 0 (the default)"));
        assert!(check(quote!(-1..-3))[0].contains("(both count from the end)"));
        assert!(
            check(quote!(1..8;3))[0]
                .contains("width 7 (from 1 to 8) is not a multiple of the step 3; write `1..7;3`")
        );
        // Only stops inside the written bounds: `1..65;2` could run past an extent of 64.
        assert!(check(quote!(1..64;2))[0].ends_with("write `1..63;2`"));
        assert!(check(quote!(..5;2))[0].ends_with("write `..4;2`"));
        assert!(check(quote!(0..2;3))[0].ends_with("it keeps one coordinate: write `0..1`"));
        assert!(check(quote!(-8..-1;3))[0].ends_with("write `-8..-2;3`"));
        assert!(check(quote!(-2..-1;3))[0].ends_with("it keeps one coordinate: write `-2..-1`"));
        assert!(check(quote!(-1))[0].starts_with("s!: integer key -1 is negative"));
        assert!(check(quote!(-3))[0].contains("the slice `-3..-2`"));
    }
}
