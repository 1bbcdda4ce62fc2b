//! The const rules of `contract`, `dot` and `outer` against their messages, the runtime
//! operations and the ui snapshots.

use super::*;
use crate::Leaf;
use crate::statics::arith::tests::{SHAPES, code, recorded};

type L<const N: i64> = Leaf<N>;

/// An [`Axes`] list of `axes`.
fn list(axes: &[usize]) -> [usize; MAX_AXES] {
    let mut l = [NONE; MAX_AXES];
    l[..axes.len()].copy_from_slice(axes);
    l
}

fn contract(a: &str, b: &str, l: &[usize], r: &[usize]) -> Option<String> {
    let mut buf = [0u8; MSG_CAP];
    contract_message(&code(a), &code(b), &list(l), &list(r), &mut buf)
        .map(|st| st.text(&buf).to_string())
}

fn vectors(dot: bool, a: &str, b: &str) -> Option<String> {
    let mut buf = [0u8; MSG_CAP];
    vectors_message(dot, &code(a), &code(b), &mut buf).map(|st| st.text(&buf).to_string())
}

#[test]
fn axes_lists_count_their_leading_axes() {
    assert_eq!(count(&<Axes>::AXES), (0, false));
    assert_eq!(count(&<Axes<3, 0, 2>>::AXES), (3, false));
    assert_eq!(count(&<Axes<NONE, 1>>::AXES), (0, true));
    let got = contract("(2,3)", "(3,2)", &[], &[NONE, 0]).unwrap();
    assert!(
        got.contains("the right list names an axis after an unused position"),
        "{got}"
    );
}

#[test]
fn contracted_shapes_are_the_free_left_then_the_free_right_modes() {
    type A = (L<2>, (L<3>, L<1>), L<4>);
    type B = (L<4>, L<5>, (L<3>, L<1>));
    assert_eq!(
        <Contracted<A, B, Axes<2, 1>, Axes<0, 2>>>::SHAPE.to_string(),
        "(2,5)"
    );
    assert_eq!(
        <Contracted<A, B, Axes<2>, Axes<0>>>::SHAPE.to_string(),
        "(2,(3,1),5,(3,1))"
    );
    assert_eq!(
        <Contracted<A, A, Axes<0, 1, 2>, Axes<0, 1, 2>>>::SHAPE.to_string(),
        "()"
    );
    assert_eq!(
        <Contracted<(L<2>,), L<3>, Axes, Axes>>::SHAPE.to_string(),
        "(2,3)"
    );
    assert!(<Contracted<A, B, Axes<0>, Axes<0>>>::SHAPE.is_poisoned());
    assert!(<Contracted<crate::__private::Poisoned, B, Axes<9>, Axes>>::SHAPE.is_poisoned());
}

#[test]
fn contract_messages_name_both_shapes_both_lists_and_the_fault() {
    let got = contract("(2,3,4)", "(4,5,3)", &[1, 2], &[0, 2]).unwrap();
    assert_eq!(
        got.lines().take(2).collect::<Vec<_>>(),
        [
            "contract: the static shapes (2,3,4) and (4,5,3) do not contract along left axes [1, 2] and right axes [0, 2]",
            "  left axis 1 (extent 3) and right axis 0 (extent 4) are paired but differ: paired extents must match exactly",
        ]
    );
    assert!(
        contract("(2,3)", "(3,2)", &[2], &[0])
            .unwrap()
            .contains("axis 2 of the left operand is out of range for rank 2")
    );
    assert!(
        contract("(2,3)", "(3,2)", &[1, 1], &[0, 0])
            .unwrap()
            .contains("axis 1 appears more than once in the left operand's axes")
    );
    assert!(
        contract("(2,3)", "(3,2)", &[1], &[0, 1])
            .unwrap()
            .contains("1 left axes [1] but 2 right axes [0, 1]: the lists pair by position")
    );
    let big = contract("(4294967296,1)", "(1,4294967296)", &[], &[]).unwrap();
    assert!(big.contains("is larger than a static shape holds"), "{big}");
    assert_eq!(contract("(2,3)", "(3,2)", &[1], &[0]), None);
}

#[test]
fn dot_and_outer_messages_name_both_shapes() {
    assert_eq!(vectors(true, "3", "(3)"), None);
    assert_eq!(vectors(false, "3", "(4)"), None);
    assert_eq!(
        vectors(true, "3", "4").unwrap().lines().next(),
        Some("dot: the operands' lengths differ: 3 on the left, 4 on the right")
    );
    let got = vectors(false, "(2,3)", "4").unwrap();
    assert!(got.starts_with("outer: the static shapes (2,3) and 4 are not two vectors: the left operand has 2 top-level modes\n"), "{got}");
    let got = vectors(false, "4294967296", "4294967296").unwrap();
    assert!(got.contains("is larger than a static shape holds"), "{got}");
}

/// Axis lists of up to three axes over ranks up to 3, valid and not.
fn lists() -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for a in 0..4 {
        out.push(vec![a]);
        for b in 0..3 {
            out.push(vec![a, b]);
            out.push(vec![b, a, 0]);
        }
    }
    out
}

#[test]
fn the_static_contract_rule_agrees_with_tensor_contract() {
    let shapes = [
        "(2,3)",
        "(3,2)",
        "(3,(2))",
        "3",
        "(3)",
        "(2,3,2)",
        "((2,1),3)",
        "()",
    ];
    let mut accepted = 0;
    for a in shapes {
        for b in shapes {
            let (ta, tb) = (
                Tensor::zeros::<f64>(&a.parse().unwrap()),
                Tensor::zeros::<f64>(&b.parse().unwrap()),
            );
            for l in lists() {
                for r in lists() {
                    let (la, lb) = (list(&l), list(&r));
                    let mut buf = [0u8; MSG_CAP];
                    let msg = contract_message(&code(a), &code(b), &la, &lb, &mut buf)
                        .map(|st| st.text(&buf).to_string());
                    let case = format!("{a} {b} {l:?} {r:?}");
                    match (ta.contract(&tb, &l, &r), msg) {
                        (Ok(c), None) => {
                            accepted += 1;
                            let s = contract_shape(&code(a), &code(b), &la, &lb);
                            assert_eq!(s.to_string(), c.shape().to_string(), "{case}");
                        }
                        (Err(e), Some(m)) => {
                            let runtime = e.to_string();
                            let detail = runtime.strip_prefix("contract: ").unwrap();
                            assert_eq!(m.lines().nth(1), Some(&*format!("  {detail}")), "{case}");
                        }
                        (r, m) => panic!("{case}: runtime {r:?}, static {m:?}"),
                    }
                }
            }
        }
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn the_static_dot_and_outer_rules_agree_with_the_tensor_ops() {
    for a in SHAPES.iter().chain(&["3", "(3)", "((3))", "4", "(3,1)"]) {
        for b in SHAPES.iter().chain(&["3", "(3)", "((3))", "4"]) {
            let (ta, tb) = (
                Tensor::zeros::<f64>(&a.parse().unwrap()),
                Tensor::zeros::<f64>(&b.parse().unwrap()),
            );
            let dot = ta.dot(&tb);
            assert_eq!(vectors(true, a, b).is_none(), dot.is_ok(), "{a} · {b}");
            if let (Err(e), Some(m)) = (dot, vectors(true, a, b))
                && e.to_string().contains("lengths differ")
            {
                assert_eq!(m.lines().next(), Some(&*e.to_string()), "{a} · {b}");
            }
            let outer = ta.outer(&tb);
            assert_eq!(vectors(false, a, b).is_none(), outer.is_ok(), "{a} ⊗ {b}");
            if let Ok(c) = outer {
                let s = contract_shape(&code(a), &code(b), &list(&[]), &list(&[]));
                assert_eq!(s.to_string(), c.shape().to_string(), "{a} ⊗ {b}");
            }
        }
    }
}

#[test]
fn the_ui_snapshots_record_these_messages() {
    let cases = [
        (
            "contract_extents_differ",
            contract("(2,3,4)", "(4,5,3)", &[1, 2], &[0, 2]),
        ),
        (
            "contract_axis_out_of_range",
            contract("(2,3)", "(3,4)", &[2], &[0]),
        ),
        (
            "contract_axis_twice",
            contract("(3,3)", "(3,3)", &[1, 1], &[0, 1]),
        ),
        (
            "contract_unequal_counts",
            contract("(2,3)", "(3,2)", &[1], &[0, 1]),
        ),
        ("dot_lengths_differ", vectors(true, "3", "4")),
        ("outer_not_vectors", vectors(false, "(2,3)", "3")),
    ];
    for (case, message) in cases {
        assert_eq!(recorded(case), message.unwrap(), "{case}");
    }
}
