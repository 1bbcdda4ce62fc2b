//! contracts §5: rearrangement patterns on layouts (`rearrange`, `repeat`),
//! every rejection with its message, permutation and identity as property tests, and einops
//! translations (`einops-reference.md` rule (a)) checked against an index model of einops.

use proptest::prelude::*;
use strideweave::{Error, ErrorKind, Layout, Shape};

use crate::layout::support::{indices, l, layout_with, s};

fn rearrange(layout: &str, pattern: &str, sizes: &[(&str, i64)]) -> String {
    l(layout)
        .rearrange(pattern, sizes)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_string()
}

fn repeat(layout: &str, pattern: &str, sizes: &[(&str, i64)]) -> String {
    l(layout)
        .repeat(pattern, sizes)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_string()
}

/// The full error text of a rejected rearrangement; checks kind and variant.
fn rejected(layout: &str, pattern: &str, sizes: &[(&str, i64)]) -> String {
    let err = l(layout).rearrange(pattern, sizes).expect_err(pattern);
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        matches!(
            err,
            Error::InvalidRearrange {
                op: "rearrange",
                ..
            }
        ),
        "{err:?}"
    );
    err.to_string()
}

fn rejected_repeat(layout: &str, pattern: &str, sizes: &[(&str, i64)]) -> String {
    let err = l(layout).repeat(pattern, sizes).expect_err(pattern);
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        matches!(err, Error::InvalidRearrange { op: "repeat", .. }),
        "{err:?}"
    );
    err.to_string()
}

/// `message`, then the pattern and the caret line, as the error renders them.
fn rendered(op: &str, message: &str, pattern: &str, carets: &str) -> String {
    format!("{op}: {message}\n  {pattern}\n  {carets}")
}

// ---- the left side mirrors the source ------------------------------------------------

#[test]
fn pattern_symbols_name_whole_sublayouts() {
    assert_eq!(
        rearrange("(2,(3,4)):(1,(2,6))", "a b -> b a", &[]),
        "((3,4),2):((2,6),1)"
    );
    assert_eq!(
        rearrange("(2,(3,4)):(1,(2,6))", "a bc -> (bc a)", &[]),
        "(((3,4),2)):(((2,6),1))"
    );
}

#[test]
fn pattern_group_matches_nested_mode_child_by_child() {
    assert_eq!(
        rearrange("(2,(3,4)):(1,(2,6))", "a (b c) -> c b a", &[]),
        "(4,3,2):(6,2,1)"
    );
    assert_eq!(
        rearrange(
            "(2,(3,(4,5))):(1,(2,(6,24)))",
            "a (b (c d)) -> (d a) (c b)",
            &[]
        ),
        "((5,2),(4,3)):((24,1),(6,2))"
    );
}

#[test]
fn pattern_right_group_keeps_member_hierarchy() {
    assert_eq!(
        rearrange("(2,(3,4),5):(1,(2,6),24)", "a bc d -> (d bc) a", &[]),
        "((5,(3,4)),2):((24,(2,6)),1)"
    );
}

#[test]
fn pattern_unit_on_left_drops_extent_one_mode() {
    assert_eq!(
        rearrange("(3,1,4):(1,7,3)", "a 1 b -> b a", &[]),
        "(4,3):(3,1)"
    );
    assert_eq!(
        rearrange("(3,(1,4)):(1,(7,3))", "a (1 b) -> b a", &[]),
        "(4,3):(3,1)"
    );
}

#[test]
fn pattern_unit_on_right_inserts_stride_zero_mode() {
    assert_eq!(
        rearrange("(3,4):(1,3)", "a b -> 1 b (a 1)", &[]),
        "(1,4,(3,1)):(0,3,(1,0))"
    );
}

#[test]
fn pattern_omitted_extent_one_symbol_is_dropped() {
    assert_eq!(
        rearrange("(3,1,4):(1,7,3)", "a x b -> b a", &[]),
        "(4,3):(3,1)"
    );
    // A nested sublayout of size 1 too.
    assert_eq!(rearrange("(3,(1,1)):(1,(5,9))", "a x -> a", &[]), "(3):(1)");
}

#[test]
fn pattern_on_an_integer_root_layout() {
    assert_eq!(rearrange("12:2", "x -> x", &[]), "(12):(2)");
    assert_eq!(
        rearrange("12:2", "(h w) -> w h", &[("w", 3)]),
        "(3,4):(8,2)"
    );
}

// ---- splitting a leaf with keywords -----------------------------------------------------

#[test]
fn pattern_split_leaf_first_name_fastest() {
    assert_eq!(
        rearrange("(12,5):(1,12)", "(h w) c -> h w c", &[("h", 4)]),
        "(4,3,5):(1,4,12)"
    );
    // The other name given, the first inferred.
    assert_eq!(
        rearrange("(12,5):(1,12)", "(h w) c -> h w c", &[("w", 3)]),
        "(4,3,5):(1,4,12)"
    );
    // Both given: a check.
    assert_eq!(
        rearrange("(12,5):(1,12)", "(h w) c -> c (w h)", &[("h", 4), ("w", 3)]),
        "(5,(3,4)):(12,(4,1))"
    );
    // Keeping the split as a nested mode reproduces the index function.
    let split = l("(12,5):(2,24)")
        .rearrange("(h w) c -> (h w) c", &[("h", 2)])
        .unwrap();
    assert_eq!(split.to_string(), "((2,6),5):((2,4),24)");
    assert_eq!(indices(&split), indices(&l("(12,5):(2,24)")));
}

#[test]
fn pattern_split_leaf_with_negative_stride() {
    assert_eq!(
        rearrange("12:-1", "(h w) -> w h", &[("h", 3)]),
        "(4,3):(-3,-1)"
    );
}

#[test]
fn pattern_split_of_a_nested_leaf_and_units_in_a_split() {
    assert_eq!(
        rearrange(
            "(2,(12,5)):(1,(2,24))",
            "a ((h 1 w) c) -> w h c a",
            &[("w", 4)]
        ),
        "(4,3,5,2):(6,2,24,1)"
    );
}

#[test]
fn pattern_split_with_nested_groups() {
    assert_eq!(
        rearrange("24:1", "((a b) c) -> c b a", &[("a", 2), ("b", 3)]),
        "(4,3,2):(6,2,1)"
    );
    assert_eq!(
        rearrange("24:1", "((a b) c) -> c (a b)", &[("a", 2), ("c", 4)]),
        "(4,(2,3)):(6,(1,2))"
    );
}

#[test]
fn pattern_keyword_on_unsplit_symbol_asserts_extent() {
    assert_eq!(
        rearrange("(2,(3,4)):(1,(2,6))", "a b -> b a", &[("a", 2), ("b", 12)]),
        "((3,4),2):((2,6),1)"
    );
    let msg = rejected("(2,(3,4)):(1,(2,6))", "a (b c) -> c b a", &[("c", 5)]);
    assert_eq!(
        msg,
        rendered(
            "rearrange",
            "keyword c = 5 disagrees with extent 4 of mode 1.1, which `c` names on the left, term 1.1",
            "a (b c) -> c b a",
            "     ^"
        )
    );
    let msg = rejected("(2,(3,4)):(1,(2,6))", "a b -> b a", &[("b", 7)]);
    assert!(
        msg.contains("keyword b = 7 disagrees with size 12 (shape (3,4)) of mode 1"),
        "{msg}"
    );
}

// ---- ellipsis -------------------------------------------------------------------------

#[test]
fn pattern_ellipsis_matches_zero_or_more_modes() {
    let src = "(2,3,4,5):(1,2,6,24)";
    assert_eq!(
        rearrange(src, "a ... d -> d ... a", &[]),
        "(5,3,4,2):(24,2,6,1)"
    );
    assert_eq!(
        rearrange(src, "a b c d ... -> ... d c b a", &[]),
        "(5,4,3,2):(24,6,2,1)"
    );
    assert_eq!(rearrange(src, "... -> ...", &[]), src);
    assert_eq!(
        rearrange(src, "a ... -> ... a", &[]),
        "(3,4,5,2):(2,6,24,1)"
    );
    // A layout without modes.
    assert_eq!(rearrange("():()", "... -> 1 ...", &[]), "(1):(0)");
    // Nested modes are captured whole.
    assert_eq!(
        rearrange("(2,(3,4),5):(1,(2,6),24)", "... c -> c ...", &[]),
        "(5,2,(3,4)):(24,1,(2,6))"
    );
}

#[test]
fn pattern_ellipsis_inside_a_right_group() {
    assert_eq!(
        rearrange("(2,3,4):(1,2,6)", "a ... -> (... a)", &[]),
        "((3,4,2)):((2,6,1))"
    );
    // Capturing nothing gives an empty group (size 1).
    assert_eq!(
        rearrange("(2,3):(1,2)", "a ... b -> b (...) a", &[]),
        "(3,(),2):(2,(),1)"
    );
}

// ---- rejections that only need the pattern ---------------------------------------------

#[test]
fn pattern_rejects_unbalanced_parentheses() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a (b -> b a", &[]),
        rendered(
            "rearrange",
            "unbalanced parentheses on the left: this `(` is never closed",
            "a (b -> b a",
            "  ^"
        )
    );
    assert!(
        rejected("(2,3):(1,2)", "a b -> b) a", &[])
            .contains("unbalanced parentheses on the right: this `)` closes nothing")
    );
}

#[test]
fn pattern_rejects_unknown_characters() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> b,a", &[]),
        rendered(
            "rearrange",
            "unknown character ',' on the right: a pattern holds symbols, `1`, `...`, parentheses and one `->`",
            "a b -> b,a",
            "        ^"
        )
    );
}

#[test]
fn pattern_rejects_numbers_other_than_one() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> b a 2", &[]),
        rendered(
            "rearrange",
            "number `2` on the right, term 2: the only number allowed is `1` (an extent-one mode)",
            "a b -> b a 2",
            "           ^"
        )
    );
}

#[test]
fn pattern_rejects_zero_or_several_arrows() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b", &[]),
        rendered(
            "rearrange",
            "the pattern has no `->` between its left and right sides",
            "a b",
            "^^^"
        )
    );
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> b a -> a b", &[]),
        rendered(
            "rearrange",
            "the pattern has more than one `->`",
            "a b -> b a -> a b",
            "           ^^"
        )
    );
}

#[test]
fn pattern_rejects_empty_reference_and_empty_group() {
    assert!(rejected("(2,3):(1,2)", "-> a b", &[]).contains("the left side is empty"));
    assert!(rejected("(2,3):(1,2)", "a b ->", &[]).contains("the right side is empty"));
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> a () b", &[]),
        rendered(
            "rearrange",
            "empty group `()` on the right, term 1: a group needs at least one member",
            "a b -> a () b",
            "         ^^"
        )
    );
}

#[test]
fn pattern_rejects_duplicate_symbol_on_one_side() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> (a b) a", &[]),
        rendered(
            "rearrange",
            "duplicate symbol `a` on the right: terms 0.0 and 1 both name it",
            "a b -> (a b) a",
            "             ^"
        )
    );
    assert!(
        rejected("(2,(3,4)):(1,(2,6))", "a (a b) -> a b", &[])
            .contains("duplicate symbol `a` on the left: terms 0 and 1.0 both name it")
    );
}

#[test]
fn pattern_rejects_unknown_identifier() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b -> b (a x)", &[]),
        rendered(
            "rearrange",
            "unknown identifier `x` on the right, term 1.1: it does not appear on the left",
            "a b -> b (a x)",
            "            ^"
        )
    );
}

#[test]
fn pattern_rejects_ellipsis_twice_or_on_one_side() {
    assert!(
        rejected("(2,3):(1,2)", "... a ... -> a ...", &[])
            .contains("`...` appears twice on the left (terms 0 and 2): at most one per side")
    );
    assert_eq!(
        rejected("(2,3):(1,2)", "a ... -> a", &[]),
        rendered(
            "rearrange",
            "`...` on the left only (term 1): it must appear on both sides, and is missing on the right",
            "a ... -> a",
            "  ^^^"
        )
    );
    assert!(rejected("(2,3):(1,2)", "a b -> ... b a", &[]).contains("`...` on the right only"));
}

#[test]
fn pattern_rejects_ellipsis_inside_a_left_group() {
    assert!(
        rejected("(2,(3,4)):(1,(2,6))", "a (b ...) -> a b ...", &[])
            .contains("`...` inside a group on the left, term 1.1")
    );
}

#[test]
fn pattern_rejects_bad_keywords() {
    assert_eq!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[("h", 4), ("q", 2)]),
        rendered(
            "rearrange",
            "keyword `q = 2` names no symbol of the pattern; its symbols are `h`, `w`, `c`",
            "(h w) c -> h w c",
            "^^^^^^^^^^^^^^^^"
        )
    );
    assert_eq!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[("w", 0)]),
        rendered(
            "rearrange",
            "keyword `w = 0` for `w` on the left, term 0.1: an extent must be at least 1",
            "(h w) c -> h w c",
            "   ^"
        )
    );
    assert!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[("h", 4), ("h", 4)])
            .contains("keyword `h` is given twice (h = 4 and h = 4)")
    );
    // Sizes are i64: a negative keyword is named like a zero one.
    assert_eq!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[("h", -3)]),
        rendered(
            "rearrange",
            "keyword `h = -3` for `h` on the left, term 0.0: an extent must be at least 1",
            "(h w) c -> h w c",
            " ^"
        )
    );
}

// ---- rejections that need the source's shape --------------------------------------------

#[test]
fn pattern_rejects_term_count_that_does_not_fit_rank() {
    assert_eq!(
        rejected("(2,3):(1,2)", "a b c -> c b a", &[]),
        rendered(
            "rearrange",
            "the left side has 3 terms but the source has 2 top-level modes (shape (2,3))",
            "a b c -> c b a",
            "    ^"
        )
    );
    assert_eq!(
        rejected("(2,3,4):(1,2,6)", "a b -> b a", &[]),
        rendered(
            "rearrange",
            "the left side has 2 terms but the source has 3 top-level modes (shape (2,3,4))",
            "a b -> b a",
            "^^^"
        )
    );
    assert!(rejected("(2,3):(1,2)", "a b c ... -> ... a b c", &[]).contains(
        "the left side has 3 terms besides `...` but the source has only 2 top-level modes (shape (2,3))"
    ));
}

#[test]
fn pattern_rejects_group_arity_mismatch() {
    assert_eq!(
        rejected("(2,(3,4)):(1,(2,6))", "a (b c d) -> a b c d", &[]),
        rendered(
            "rearrange",
            "the group `(b c d)` on the left, term 1 has 3 members but mode 1 of the source, (3,4), has 2 children",
            "a (b c d) -> a b c d",
            "  ^^^^^^^"
        )
    );
}

#[test]
fn pattern_rejects_split_with_two_unknowns() {
    assert_eq!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[]),
        rendered(
            "rearrange",
            "cannot split extent 12 of mode 0, which the group `(h w)` on the left, term 0 splits: `h` and `w` both lack an extent; give all but one of them as keywords",
            "(h w) c -> h w c",
            "^^^^^"
        )
    );
    assert!(
        rejected("24:1", "(a b c) -> a b c", &[]).contains("`a`, `b` and `c` all lack an extent")
    );
}

#[test]
fn pattern_rejects_non_dividing_split() {
    assert_eq!(
        rejected("(10,5):(1,10)", "(h w) c -> h w c", &[("h", 3)]),
        rendered(
            "rearrange",
            "h = 3 does not divide extent 10 of mode 0, which the group `(h w)` on the left, term 0 splits",
            "(h w) c -> h w c",
            "^^^^^"
        )
    );
    assert!(
        rejected("(12,5):(1,12)", "(h w) c -> h w c", &[("h", 4), ("w", 4)])
            .contains("h = 4 and w = 4 multiply to 16, not extent 12 of mode 0")
    );
    assert!(
        rejected("(2,12):(1,2)", "a (h) -> a h", &[("h", 5)]).contains(
            "h = 5 is not extent 12 of mode 1, which the group `(h)` on the left, term 1 splits"
        )
    );
}

#[test]
fn pattern_rejects_unit_against_non_unit_mode() {
    assert_eq!(
        rejected("(2,5):(1,2)", "a 1 -> a", &[]),
        rendered(
            "rearrange",
            "`1` on the left, term 1 matches mode 1 of extent 5; only an extent-one mode can be dropped",
            "a 1 -> a",
            "  ^"
        )
    );
    assert!(
        rejected("(2,(1,3)):(1,(2,2))", "a 1 -> a", &[])
            .contains("matches mode 1 of size 3 (shape (1,3))")
    );
}

#[test]
fn pattern_rejects_omitted_source() {
    assert_eq!(
        rejected("(2,5):(1,2)", "a c -> a", &[]),
        rendered(
            "rearrange",
            "omitted source: `c` on the left, term 1 is absent from the right, but it names mode 1 of size 5; only an extent-one sublayout may be omitted",
            "a c -> a",
            "  ^"
        )
    );
    assert!(rejected("12:1", "(h w) -> h", &[("h", 4)])
        .contains("`w` on the left, term 0.1 is absent from the right, but it names a factor of the split mode 0 of size 3"));
}

#[test]
fn pattern_errors_leave_no_partial_state_and_never_panic() {
    // A batch of malformed inputs: every one is an error, none panics.
    for pattern in [
        "",
        "->",
        "a",
        "a ->",
        "-> a",
        "(",
        ")",
        "((a)) -> a",
        "a -> ((a))",
        "a->a->a",
        "...",
        "... -> ... ...",
        "a . -> a",
        "a -> 1 1 1 (1) a",
        "α -> α",
    ] {
        let _ = l("(2,3):(1,2)").rearrange(pattern, &[]);
        let _ = l("(2,3):(1,2)").repeat(pattern, &[("r", 2)]);
    }
    let huge = l("(2,3):(1,2)").repeat("a b -> a b r", &[("r", i64::MAX)]);
    assert!(huge.is_err());
    let huge = l("(2,3):(1,2)").repeat("a b -> a b r s", &[("r", 1 << 40), ("s", 1 << 40)]);
    assert!(huge.unwrap_err().to_string().contains("overflows"));
}

// ---- repeat -------------------------------------------------------------------------

#[test]
fn repeat_inserts_stride_zero_modes() {
    assert_eq!(
        repeat("(3,4):(1,3)", "h w -> b w h", &[("b", 5)]),
        "(5,4,3):(0,3,1)"
    );
    assert_eq!(
        repeat("(3,4):(1,3)", "h w -> h w r s", &[("r", 2), ("s", 1)]),
        "(3,4,2,1):(1,3,0,0)"
    );
}

#[test]
fn repeat_inserts_stride_zero_leaves_inside_groups() {
    assert_eq!(repeat("3:1", "h -> (h r)", &[("r", 2)]), "((3,2)):((1,0))");
    // einops' tile `h w -> (r h) w` in colex form `w h -> w (h r)`: r is the outer sub-mode.
    assert_eq!(
        repeat("(4,3):(1,4)", "w h -> w (h r)", &[("r", 2)]),
        "(4,(3,2)):(1,(4,0))"
    );
}

#[test]
fn repeat_follows_rearrange_rules_otherwise() {
    assert_eq!(
        repeat(
            "(12,5):(1,12)",
            "(h w) c -> c (w r) h",
            &[("h", 4), ("r", 3)]
        ),
        "(5,(3,3),4):(12,(4,0),1)"
    );
    assert_eq!(
        rejected_repeat("(3,4):(1,3)", "h w -> h w r", &[]),
        rendered(
            "repeat",
            "new symbol `r` on the right, term 2 needs an extent: give it as a keyword (r = …)",
            "h w -> h w r",
            "           ^"
        )
    );
    assert!(
        rejected_repeat("(3,4):(1,3)", "h w -> h w r", &[("r", 0)])
            .contains("keyword `r = 0` for `r` on the right, term 2: an extent must be at least 1")
    );
    assert!(rejected_repeat("(3,4):(1,3)", "h w -> h", &[]).contains("omitted source: `w`"));
    assert!(
        rejected_repeat("(3,4):(1,3)", "h w -> h w (r r)", &[("r", 2)])
            .contains("duplicate symbol `r` on the right")
    );
}

// ---- properties -------------------------------------------------------------------------

/// A random hierarchical layout with strides −12..=12 (see `support::layout_with`).
fn small_layout() -> impl Strategy<Value = Layout> {
    layout_with(-12i64..=12)
}

fn layout_and_order() -> impl Strategy<Value = (Layout, Vec<usize>)> {
    small_layout().prop_flat_map(|layout| {
        let order: Vec<usize> = (0..layout.rank()).collect();
        (Just(layout), Just(order).prop_shuffle())
    })
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("m{i}")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pattern_permutation_equals_permute((layout, order) in layout_and_order()) {
        prop_assume!(!order.is_empty());
        let n = names(order.len());
        let right: Vec<&str> = order.iter().map(|&i| n[i].as_str()).collect();
        let pattern = format!("{} -> {}", n.join(" "), right.join(" "));
        let by_pattern = layout.rearrange(&pattern, &[]).unwrap();
        prop_assert_eq!(&by_pattern, &layout.permute(&order).unwrap(), "{}", pattern);
    }

    #[test]
    fn pattern_identity_is_identity(layout in small_layout()) {
        let n = names(layout.rank());
        if !n.is_empty() {
            let pattern = format!("{} -> {}", n.join(" "), n.join(" "));
            prop_assert_eq!(&layout.rearrange(&pattern, &[]).unwrap(), &layout);
        }
        prop_assert_eq!(&layout.rearrange("... -> ...", &[]).unwrap(), &layout);
        if layout.rank() == 1 {
            prop_assert_eq!(&layout.rearrange("x -> x", &[]).unwrap(), &layout);
        }
    }

    #[test]
    fn pattern_split_then_regroup_keeps_the_index_function(
        layout in small_layout(),
        pick in any::<prop::sample::Index>(),
        factor in 1i64..=5,
    ) {
        // Split a leaf top-level mode by a divisor of its extent and keep it nested.
        let top: Vec<usize> = (0..layout.rank())
            .filter(|&i| layout.mode(i).unwrap().shape().leaves().len() == 1
                && layout.mode(i).unwrap().depth() == 0)
            .collect();
        prop_assume!(!top.is_empty());
        let i = top[pick.index(top.len())];
        let extent = layout.mode(i).unwrap().size() as i64;
        prop_assume!(extent % factor == 0);
        let n = names(layout.rank());
        let left: Vec<String> = n.iter().enumerate()
            .map(|(j, m)| if j == i { "(h w)".to_string() } else { m.clone() })
            .collect();
        let pattern = format!("{} -> {}", left.join(" "), left.join(" "));
        let v = layout.rearrange(&pattern, &[("h", factor)]).unwrap();
        prop_assert_eq!(indices(&v), indices(&layout));
        let split = v.mode(i).unwrap();
        prop_assert_eq!(split.shape().leaves(), &[factor, extent / factor][..]);
    }
}

// ---- einops translations (einops-reference.md rule (a)) --------------------------------

/// An einops side: each top-level term is a list of members (a plain axis is a one-member
/// list, `1` and `()` are empty lists, `...` is the member `...`).
type Side = Vec<Vec<String>>;

fn einops_side(text: &str) -> Side {
    let mut side = Vec::new();
    let mut group: Option<Vec<String>> = None;
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    for tok in spaced.split_whitespace() {
        match (tok, &mut group) {
            ("(", None) => group = Some(Vec::new()),
            (")", Some(_)) => side.push(group.take().unwrap()),
            ("1", None) => side.push(Vec::new()),
            ("1", Some(_)) => {}
            (name, Some(g)) => g.push(name.to_string()),
            (name, None) => side.push(vec![name.to_string()]),
        }
    }
    side
}

/// Rule (a): reverse the terms at every level.
fn reversed(text: &str) -> String {
    let mut out = Vec::new();
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == "(" {
            let end = i + toks[i..].iter().position(|t| *t == ")").unwrap();
            let members: Vec<&str> = toks[i + 1..end].iter().rev().copied().collect();
            out.push(format!("({})", members.join(" ")));
            i = end + 1;
        } else {
            out.push(toks[i].to_string());
            i += 1;
        }
    }
    out.reverse();
    out.join(" ")
}

/// einops' output on a row-major buffer of `shape`, as the buffer offsets of the output
/// elements in row-major order, computed by index arithmetic on elementary axes: split the
/// left into elementary axes (C order), take their row-major strides from
/// `Layout::row_major`, and walk the right's elementary axes last-fastest.
fn einops_offsets(pattern: &str, shape: &[i64], sizes: &[(&str, i64)]) -> Vec<i64> {
    let (l_text, r_text) = pattern.split_once("->").unwrap();
    let (mut left, mut right) = (einops_side(l_text), einops_side(r_text));
    // Expand `...` into named axes.
    let named = left
        .iter()
        .filter(|g| g.first().map(String::as_str) != Some("..."))
        .count();
    let hidden: Vec<String> = (0..shape.len() - named).map(|i| format!("_e{i}")).collect();
    for side in [&mut left, &mut right] {
        let mut out = Vec::new();
        for g in side.drain(..) {
            if g == ["..."] {
                out.extend(hidden.iter().map(|h| vec![h.clone()]));
            } else {
                let mut m = Vec::new();
                for x in g {
                    if x == "..." {
                        m.extend(hidden.iter().cloned());
                    } else {
                        m.push(x);
                    }
                }
                out.push(m);
            }
        }
        *side = out;
    }
    assert_eq!(left.len(), shape.len());
    let size_of = |n: &str| sizes.iter().find(|(k, _)| *k == n).map(|(_, v)| *v);
    let mut extent: Vec<(String, i64)> = Vec::new();
    for (g, &dim) in left.iter().zip(shape) {
        let known: i64 = g.iter().filter_map(|n| size_of(n)).product();
        for n in g {
            extent.push((n.clone(), size_of(n).unwrap_or(dim / known)));
        }
    }
    let elementary: Shape = format!(
        "({})",
        extent
            .iter()
            .map(|(_, e)| e.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
    .parse()
    .unwrap();
    let strides = Layout::row_major(&elementary).stride().leaves().to_vec();
    let out_axes: Vec<(i64, i64)> = right
        .iter()
        .flatten()
        .map(|n| match extent.iter().position(|(m, _)| m == n) {
            Some(k) => (extent[k].1, strides[k]),
            None => (size_of(n).unwrap(), 0),
        })
        .collect();
    let total: i64 = out_axes.iter().map(|a| a.0).product();
    (0..total)
        .map(|mut ord| {
            let mut off = 0;
            for &(e, d) in out_axes.iter().rev() {
                off += (ord % e) * d;
                ord /= e;
            }
            off
        })
        .collect()
}

/// Checks rule (a) on one einops case; returns the StrideWeave view.
fn check_einops(repeat_op: bool, pattern: &str, shape: &[i64], sizes: &[(&str, i64)]) -> Layout {
    let (l_text, r_text) = pattern.split_once("->").unwrap();
    let colex = format!("{} -> {}", reversed(l_text), reversed(r_text));
    let dims: Vec<String> = shape.iter().rev().map(|d| d.to_string()).collect();
    let buffer = Layout::compact(&s(&format!("({})", dims.join(","))));
    let view = if repeat_op {
        buffer.repeat(&colex, sizes)
    } else {
        buffer.rearrange(&colex, sizes)
    }
    .unwrap_or_else(|e| panic!("{pattern} as {colex}: {e}"));
    assert_eq!(
        indices(&view),
        einops_offsets(pattern, shape, sizes),
        "{pattern} as {colex}"
    );
    view
}

#[test]
fn einops_reversal_rule_on_reference_cases() {
    let v = check_einops(
        false,
        "b c (h h1) (w w1) -> b (h1 w1 c) h w",
        &[2, 4, 6, 8],
        &[("h1", 2), ("w1", 2)],
    );
    assert_eq!(v.to_string(), "(4,3,(4,2,2),2):(2,16,(48,1,8),192)");
    let v = check_einops(
        false,
        "(a a2) b c ... -> b (c a2) (a ...)",
        &[4, 5, 6, 3],
        &[("a2", 2)],
    );
    assert_eq!(v.to_string(), "((3,2),(2,6),5):((1,180),(90,3),18)");
    let v = check_einops(true, "a b c -> (c copy a b)", &[2, 3, 5], &[("copy", 2)]);
    assert_eq!(v.to_string(), "((3,2,2,5)):((5,15,0,1))");
}

#[test]
fn einops_reversal_rule_on_more_patterns() {
    check_einops(false, "b (h w) c -> b h w c", &[2, 12, 3], &[("h", 3)]);
    check_einops(false, "b h w c -> b c h w", &[2, 3, 4, 5], &[]);
    check_einops(false, "b h w c -> (b h) w c", &[2, 3, 4, 5], &[]);
    check_einops(false, "b h w c -> b (c h w)", &[2, 3, 4, 5], &[]);
    check_einops(false, "... h w -> ... w h", &[2, 3, 4, 5], &[]);
    check_einops(false, "a ... -> ... 1 a", &[3, 2, 2], &[]);
    check_einops(
        false,
        "(b1 b2) h w c -> (h b1) (w b2) c",
        &[4, 3, 5, 2],
        &[("b1", 2)],
    );
    check_einops(true, "h w -> (r h) w", &[3, 4], &[("r", 2)]);
    check_einops(true, "h w -> h (w r)", &[3, 4], &[("r", 2)]);
    check_einops(true, "b h -> b r h", &[3, 4], &[("r", 3)]);
}

// ---- no size limit at run time ---------------------------------------------------------

/// `n` leaves of extent 2 as `(2,2,…):(1,2,4,…)`.
fn flat_twos(n: usize) -> Layout {
    let shape = vec!["2"; n].join(",");
    let stride: Vec<String> = (0..n).map(|i| (1i64 << i).to_string()).collect();
    l(&format!("({shape}):({})", stride.join(",")))
}

#[test]
fn a_40_leaf_layout_rearranges_at_run_time() {
    // Ten top-level modes of four leaves each, extents 1..=3, strides 1, 3, 9, … (distinct).
    let extents: Vec<i64> = (0..40).map(|i| 1 + (i % 3)).collect();
    let strides: Vec<i64> = (0..40)
        .map(|i| 3i64.pow(i as u32 % 20) * (1 + i / 20))
        .collect();
    let group = |v: &[i64]| {
        let modes: Vec<String> = v
            .chunks(4)
            .map(|c| {
                format!(
                    "({})",
                    c.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        format!("({})", modes.join(","))
    };
    let layout = l(&format!("{}:{}", group(&extents), group(&strides)));
    assert_eq!(layout.shape().leaves().len(), 40);
    let names: Vec<String> = (0..10).map(|i| format!("m{i}")).collect();
    let reversed: Vec<String> = names.iter().rev().cloned().collect();
    let v = layout
        .rearrange(
            &format!("{} -> {}", names.join(" "), reversed.join(" ")),
            &[],
        )
        .unwrap();
    // The modes in reverse order, each keeping its leaves, extents and strides.
    let rev = |v: &[i64]| -> Vec<i64> { v.chunks(4).rev().flatten().copied().collect() };
    assert_eq!(
        v.to_string(),
        format!("{}:{}", group(&rev(&extents)), group(&rev(&strides)))
    );
    // A group on the right flattens nothing: one mode holding all ten.
    let v = layout
        .rearrange(
            &format!("{} -> ({})", names.join(" "), reversed.join(" ")),
            &[],
        )
        .unwrap();
    assert_eq!(v.rank(), 1);
    assert_eq!(v.stride().leaves(), rev(&strides).as_slice());
}

#[test]
fn a_40_symbol_pattern_rearranges_at_run_time() {
    // Twenty modes of extent 4, each split in two: forty symbols, result reversed.
    let shape = vec!["4"; 20].join(",");
    let stride: Vec<String> = (0..20).map(|i| (1i64 << (2 * i)).to_string()).collect();
    let layout = l(&format!("({shape}):({})", stride.join(",")));
    let left: Vec<String> = (0..20).map(|i| format!("(a{i} b{i})")).collect();
    let right: Vec<String> = (0..20).rev().map(|i| format!("b{i} a{i}")).collect();
    let names: Vec<String> = (0..20).map(|i| format!("a{i}")).collect();
    let sizes: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 2)).collect();
    let v = layout
        .rearrange(
            &format!("{} -> {}", left.join(" "), right.join(" ")),
            &sizes,
        )
        .unwrap();
    // a_i is the fast half of mode i (stride 4^i), b_i the slow half (stride 2·4^i): the
    // result is leaf k of the 40 compact leaves of extent 2, in reverse order.
    assert_eq!(v.to_string(), {
        let flat = flat_twos(40);
        let strides: Vec<String> = flat
            .stride()
            .leaves()
            .iter()
            .rev()
            .map(i64::to_string)
            .collect();
        format!("({}):({})", vec!["2"; 40].join(","), strides.join(","))
    });
    // And back again, each pair as a nested mode of the same elements.
    let back = v
        .rearrange(&format!("{} -> {}", right.join(" "), left.join(" ")), &[])
        .unwrap();
    let pairs: Vec<String> = (0..20)
        .map(|i| format!("({},{})", 1i64 << (2 * i), 1i64 << (2 * i + 1)))
        .collect();
    assert_eq!(
        back.to_string(),
        format!("({}):({})", vec!["(2,2)"; 20].join(","), pairs.join(","))
    );
}

#[test]
fn run_time_messages_are_not_cut() {
    // The message names a 600-mode shape: longer than the macros' fixed message buffer.
    let layout = flat_twos(60).rearrange("... -> ...", &[]).unwrap();
    let err = layout
        .repeat("a b -> b a r", &[("r", 2)])
        .unwrap_err()
        .to_string();
    let shape = format!("({})", vec!["2"; 60].join(","));
    assert!(
        err.contains(&format!(
            "but the source has 60 top-level modes (shape {shape})"
        )),
        "{err}"
    );
    let big = l(&format!(
        "({}):({})",
        vec!["1"; 600].join(","),
        vec!["0"; 600].join(",")
    ));
    let err = big.rearrange("a b -> b a", &[]).unwrap_err().to_string();
    assert!(err.len() > 1024 && !err.contains('…'), "{err}");
    assert!(err.ends_with("  a b -> b a\n  ^^^"), "{err}");
}
