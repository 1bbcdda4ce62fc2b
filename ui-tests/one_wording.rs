//! One wording per mistake: a layout or shape literal's mistake reads the same from
//! `str::parse`, from the string form `layout!("…")`/`shape!("…")` and from the token form
//! `layout!(…)`/`shape!(…)`.
//!
//! The macro messages are read from the `.stderr` snapshots of `fail/literal_rules_*.rs`,
//! which the `ui` test keeps equal to what the compiler prints.

use strideweave::{Layout, Shape};

/// What a literal is parsed as.
#[derive(Clone, Copy)]
enum Kind {
    Layout,
    Shape,
}

/// The cases of `fail/literal_rules_string.rs`, in order: the mistake, the text, and whether
/// `fail/literal_rules_tokens.rs` has the token form of the same case.
const CASES: &[(&str, Kind, &str, bool)] = &[
    ("extent below 1", Kind::Layout, "(2,(0,4)):(1,(2,6))", true),
    (
        "stride not congruent",
        Kind::Layout,
        "(2,(3,4)):(1,2)",
        true,
    ),
    (
        "size overflow",
        Kind::Layout,
        "(4294967296,4294967296):(1,0)",
        true,
    ),
    (
        "one mode's span overflows",
        Kind::Layout,
        "3:4611686018427387904",
        true,
    ),
    (
        "largest index overflows",
        Kind::Layout,
        "(2,2):(9223372036854775807,1)",
        true,
    ),
    (
        "smallest index overflows",
        Kind::Layout,
        "(2,2):(-9223372036854775807,-2)",
        true,
    ),
    (
        "integer out of range",
        Kind::Layout,
        "(2,3):(1,99999999999999999999)",
        true,
    ),
    ("shape extent below 1", Kind::Shape, "(2,(3,0))", true),
    (
        "shape size overflow",
        Kind::Shape,
        "(65536,(65536,65536),65536)",
        true,
    ),
    ("expected a value", Kind::Layout, "(2,x):(1,2)", false),
    ("text after the value", Kind::Layout, "(2,3):(1,2) x", false),
    (
        "expected a comma or a close",
        Kind::Layout,
        "(2,(3,4):(1,(2,6))",
        false,
    ),
    ("expected digits", Kind::Layout, "(2,3):(1,-)", false),
];

/// The messages of a `.stderr` snapshot: each `error: ` line with the lines that continue it
/// (indented by the width of `error: `), up to the location line.
fn messages(stderr: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    for line in stderr.lines() {
        if let Some(first) = line.strip_prefix("error: ") {
            out.push(vec![first.to_string()]);
            open = true;
        } else if open && let Some(more) = line.strip_prefix("       ") {
            out.last_mut().expect("open").push(more.to_string());
        } else {
            open = false;
        }
    }
    out
}

fn snapshot(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/fail/{name}.stderr", env!("CARGO_MANIFEST_DIR"));
    messages(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

/// The run-time message as lines, with `cannot parse …: ` replaced by the macro's name.
fn runtime(kind: Kind, text: &str) -> Vec<String> {
    let (err, what, mac) = match kind {
        Kind::Layout => (text.parse::<Layout>().unwrap_err(), "layout", "layout!"),
        Kind::Shape => (text.parse::<Shape>().unwrap_err(), "Shape", "shape!"),
    };
    let message = err.to_string();
    let prefix = format!("cannot parse {what}: ");
    let rest = message
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{text}: {message:?} does not start with {prefix:?}"));
    let mut lines: Vec<String> = rest.lines().map(str::to_string).collect();
    lines[0] = format!("{mac}: {}", lines[0]);
    lines
}

#[test]
fn each_literal_mistake_reads_the_same_from_parse_and_the_string_form() {
    let string = snapshot("literal_rules_string");
    assert_eq!(string.len(), CASES.len(), "{string:#?}");
    for ((mistake, kind, text, _), got) in CASES.iter().zip(&string) {
        assert_eq!(*got, runtime(*kind, text), "{mistake}: {text}");
    }
}

#[test]
fn each_literal_mistake_reads_the_same_in_the_token_form() {
    let tokens = snapshot("literal_rules_tokens");
    let cases: Vec<_> = CASES.iter().filter(|c| c.3).collect();
    assert_eq!(tokens.len(), cases.len(), "{tokens:#?}");
    for ((mistake, kind, text, _), got) in cases.into_iter().zip(&tokens) {
        // The token form points at the tokens: no quoted text, no caret.
        assert_eq!(got.len(), 1, "{mistake}: {got:?}");
        assert_eq!(got[0], runtime(*kind, text)[0], "{mistake}: {text}");
    }
}
