//! The layout algebra on 2^40-element domains: decided from the strides, never enumerated.

use crate::bounded::{HUGE, l};

/// `(2^40,15):(16,7)`: injective (16a + 7b = 16a' + 7b' needs |b - b'| ≥ 16), but neither
/// sorted stride exceeds the reach of the other, so only a number-theoretic test decides it.
fn tangled() -> strideweave::Layout {
    l(&format!("({HUGE},15):(16,7)"))
}

#[test]
fn is_injective_of_a_huge_domain_is_decided_without_allocating() {
    assert!(tangled().is_injective());
    assert!(!l(&format!("({HUGE},15):(16,8)")).is_injective());
    assert!(l(&format!("(15,{HUGE}):(-7,16)")).is_injective());
    assert!(!l(&format!("({HUGE},2,17):(16,1,1)")).is_injective());
    assert!(l(&format!("({HUGE},3,5):(15,1,3)")).is_injective());
}

#[test]
fn is_injective_beyond_the_budget_is_an_error_from_try_is_injective() {
    // Three tangled modes of 2^11: no closed form, and 4095² coefficient vectors to try.
    let big = l("(2048,2048,2048):(10000019,10000079,10000103)");
    let err = big.try_is_injective().unwrap_err().to_string();
    assert!(
        err.starts_with("try_is_injective: ") && err.contains("too large to decide exactly"),
        "{err}"
    );
    assert!(
        !big.is_injective(),
        "undecided counts as possibly overlapping"
    );
}

#[test]
fn compose_with_a_huge_injective_right_operand_is_decided_without_allocating() {
    let a = l("17592186044416:1");
    assert_eq!(a.compose(&tangled()).unwrap(), tangled());
}

#[test]
fn compose_with_a_huge_broadcast_right_operand_does_not_walk_its_domain() {
    let r = l("2:1").compose(&l(&format!("({HUGE},2):(0,1)"))).unwrap();
    assert_eq!(r.to_string(), format!("({HUGE},2):(0,1)"));
}

#[test]
fn compose_with_a_huge_non_injective_right_operand_is_an_answer_or_an_error_not_a_walk() {
    // A linear left operand distributes over any right operand: decided at once.
    let b = l(&format!("({HUGE},2):(1,1)"));
    assert_eq!(l("17592186044416:1").compose(&b).unwrap(), b);
    // Otherwise the check over B's domain is bounded: beyond the budget it is an error.
    let err = l("(3,17592186044416):(1,5)")
        .compose(&l(&format!("({HUGE},2):(3,3)")))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("compose: ") && err.contains("too large to decide exactly"),
        "{err}"
    );
}

#[test]
fn complement_of_a_huge_layout_is_decided_without_allocating() {
    let err = tangled().complement(1 << 50).unwrap_err().to_string();
    assert!(
        err.starts_with("complement: ") && err.contains("not a multiple"),
        "{err}"
    );
    let overlap = l(&format!("({HUGE},15):(16,8)"));
    assert!(
        overlap
            .complement(8)
            .unwrap_err()
            .to_string()
            .contains("not injective")
    );
}

#[test]
fn left_inverse_of_a_huge_layout_is_decided_without_allocating() {
    let err = tangled().left_inverse().unwrap_err().to_string();
    assert!(err.starts_with("left_inverse: "), "{err}");
    let inv = l(&format!("({HUGE},15):(15,1)")).left_inverse().unwrap();
    assert_eq!(inv.to_string(), format!("(15,{HUGE}):({HUGE},1)"));
}

#[test]
fn logical_divide_and_product_by_a_huge_layout_are_decided_without_allocating() {
    let a = l("17592186044416:1");
    assert!(a.logical_divide(&tangled()).is_err());
    assert!(l("4:1").logical_product(&tangled()).is_ok());
}

#[test]
fn compose_affine_with_a_huge_injective_selector_is_decided_without_allocating() {
    let a = l("35184372088832:1");
    assert_eq!(a.compose_affine(&tangled()).unwrap(), tangled());
}

#[test]
fn compose_affine_on_a_large_injective_layout_is_an_answer_or_an_error_not_a_walk() {
    // Affine, but the composition refuses the leaf 2:4 (stride divisibility): no closed form
    // here, so the answer is the budget's error.
    let a = l(&format!("(6,{HUGE}):(1,7)"));
    let b = l("(2,549755813888):(4,12)");
    let err = a.compose_affine(&b).unwrap_err().to_string();
    assert!(
        err.starts_with("compose_affine: ") && err.contains("too large to decide exactly"),
        "{err}"
    );
    // Not affine, and the composition proves it at once.
    let a = l(&format!("({HUGE},2):(0,1)"));
    let err = a
        .compose_affine(&l("1099511627776:2"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("compose_affine: ") && err.contains("not a layout"),
        "{err}"
    );
}
