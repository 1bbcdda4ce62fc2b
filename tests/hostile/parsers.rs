//! Random input for every text parser (issue 11, item 7): arbitrary bytes, soups of the
//! notation's own tokens, and valid inputs with one edit. Each parser answers with a value or
//! with an error whose message starts with the operation called and says something after it
//! — never a panic. A parsed value prints back to the same value.
//!
//! A few thousand cases in the test command; `STRIDEWEAVE_LONG=1` runs a million per
//! property.

use proptest::prelude::*;
use strideweave::{IntTuple, Layout, MAX_NESTING, Shape, Stride};

use crate::hostile::config;

/// An error's message starts with `op` and says something after it.
fn check_message(op: &str, text: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        message.starts_with(op) && message.len() > op.len() + 5,
        "{text:?}: {message}"
    );
    Ok(())
}

/// Runs every notation parser on `text`: an error is well formed, a value prints back.
fn every_notation_parser(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<Layout>() {
        Ok(l) => {
            prop_assert_eq!(&l.to_string().parse::<Layout>().unwrap(), &l);
            prop_assert_eq!(&format!("{l:?}").parse::<Layout>().unwrap(), &l);
        }
        Err(e) => check_message("cannot parse layout: ", text, &e.to_string())?,
    }
    match text.parse::<Shape>() {
        Ok(s) => prop_assert_eq!(&s.to_string().parse::<Shape>().unwrap(), &s),
        Err(e) => check_message("cannot parse Shape: ", text, &e.to_string())?,
    }
    match text.parse::<Stride>() {
        Ok(d) => prop_assert_eq!(&format!("{d:?}").parse::<Stride>().unwrap(), &d),
        Err(e) => check_message("cannot parse Stride: ", text, &e.to_string())?,
    }
    match text.parse::<IntTuple>() {
        Ok(t) => prop_assert_eq!(&t.to_string().parse::<IntTuple>().unwrap(), &t),
        Err(e) => check_message("cannot parse IntTuple: ", text, &e.to_string())?,
    }
    Ok(())
}

/// The layouts patterns are tried on: flat, nested, an integer, empty, with extent-1 modes.
fn layouts() -> Vec<Layout> {
    [
        "(2,(3,4)):(1,(2,6))",
        "(12,5):(1,12)",
        "8:1",
        "():()",
        "(1,(2,1),3):(0,(1,0),2)",
        "((2,3),(4,5)):((1,2),(6,24))",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect()
}

/// Runs `rearrange` and `repeat` with `text` and `sizes` on every layout.
fn every_pattern_parser(text: &str, sizes: &[(&str, i64)]) -> Result<(), TestCaseError> {
    for l in layouts() {
        match l.rearrange(text, sizes) {
            Ok(v) => prop_assert_eq!(v.size(), l.size()),
            Err(e) => check_message("rearrange: ", text, &e.to_string())?,
        }
        match l.repeat(text, sizes) {
            Ok(v) => prop_assert!(v.size() >= l.size()),
            Err(e) => check_message("repeat: ", text, &e.to_string())?,
        }
    }
    Ok(())
}

/// Text of the layout notations' own tokens, in any order.
fn notation_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "-",
        "+",
        " ",
        "0",
        "1",
        "2",
        "7",
        "12",
        "_",
        "Layout",
        "Shape",
        "Stride",
        "Layout(",
        "Shape(",
        "Stride(",
        "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999",
        "é",
        "\n",
        "((",
        "))",
        "1_000",
    ]);
    prop::collection::vec(token, 0..40).prop_map(|ts| ts.concat())
}

/// Text of the pattern grammar's own tokens, in any order.
fn pattern_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "a", "b", "c", "h", "w", "x2", "_a", "2a", "1", "2", "01", "...", "..", "....", "(", ")",
        "->", "-", ">", " ", " ", " ", "é", ",", "=", "\t",
    ]);
    prop::collection::vec(token, 0..30).prop_map(|ts| ts.concat())
}

/// Keyword extents for the pattern soup's symbols (and one it never uses).
fn sizes() -> impl Strategy<Value = Vec<(&'static str, i64)>> {
    let name = prop::sample::select(vec!["a", "b", "c", "h", "w", "x2", "zz"]);
    let value = prop::sample::select(vec![-1i64, 0, 1, 2, 3, 4, 6, i64::MAX, i64::MIN]);
    prop::collection::vec((name, value), 0..4)
}

/// A valid input with one character deleted, replaced or inserted.
fn edited(valid: &'static [&'static str], alphabet: &'static str) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    (
        prop::sample::select(valid.to_vec()),
        any::<prop::sample::Index>(),
        prop::sample::select(chars),
        0..3u8,
    )
        .prop_map(|(text, at, c, how)| {
            let mut cs: Vec<char> = text.chars().collect();
            let i = at.index(cs.len() + 1);
            match how {
                0 if i < cs.len() => {
                    cs.remove(i);
                }
                1 if i < cs.len() => cs[i] = c,
                _ => cs.insert(i, c),
            }
            cs.into_iter().collect()
        })
}

const VALID_LAYOUTS: &[&str] = &[
    "(2,(3,4)):(1,(2,6))",
    "Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))",
    "8:1",
    "():()",
    "(2,3)",
    "Shape([2, 3])",
    "Stride([1, -2])",
    "(1,-4)",
];

const VALID_PATTERNS: &[&str] = &[
    "a (b c) -> c b a",
    "(h w) c -> h w c",
    "a ... -> ... a",
    "a b -> (b a) 1",
    "h w -> h (w r)",
];

proptest! {
    #![proptest_config(config(1_000))]

    #[test]
    fn every_notation_parser_answers_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        every_notation_parser(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn every_notation_parser_answers_a_soup_of_its_tokens(text in notation_soup()) {
        every_notation_parser(&text)?;
    }

    #[test]
    fn every_notation_parser_answers_a_valid_input_with_one_edit(
        text in edited(VALID_LAYOUTS, "()[],:-+0129 _LSé")
    ) {
        every_notation_parser(&text)?;
    }

    #[test]
    fn every_pattern_parser_answers_arbitrary_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..48),
        sizes in sizes(),
    ) {
        every_pattern_parser(&String::from_utf8_lossy(&bytes), &sizes)?;
    }

    #[test]
    fn every_pattern_parser_answers_a_soup_of_its_tokens(text in pattern_soup(), sizes in sizes()) {
        every_pattern_parser(&text, &sizes)?;
    }

    #[test]
    fn every_pattern_parser_answers_a_valid_pattern_with_one_edit(
        text in edited(VALID_PATTERNS, "abchw1().-> é"),
        sizes in sizes(),
    ) {
        every_pattern_parser(&text, &sizes)?;
    }
}

proptest! {
    #![proptest_config(config(200))]

    /// Nesting is accepted up to the limit and refused, naming it, beyond.
    #[test]
    fn nesting_is_accepted_up_to_the_limit_and_refused_beyond(depth in 1..2 * MAX_NESTING) {
        let text = format!("{}2{}", "(".repeat(depth), ")".repeat(depth));
        match text.parse::<IntTuple>() {
            Ok(t) => {
                prop_assert!(depth <= MAX_NESTING);
                prop_assert_eq!(t.depth(), depth);
            }
            Err(e) => {
                prop_assert!(depth > MAX_NESTING);
                prop_assert!(e.to_string().starts_with(
                    "cannot parse IntTuple: nesting deeper than 256 levels"
                ));
            }
        }
        let l: Layout = "6:1".parse().unwrap();
        let pattern = format!("{}a{} -> a", "(".repeat(depth), ")".repeat(depth));
        match l.rearrange(&pattern, &[]) {
            Ok(v) => {
                prop_assert!(depth <= MAX_NESTING);
                prop_assert_eq!(v.size(), 6);
            }
            Err(e) => {
                prop_assert!(depth > MAX_NESTING, "{}", e);
                prop_assert!(e.to_string().starts_with(
                    "rearrange: nesting deeper than 256 levels on the left"
                ));
            }
        }
    }
}
