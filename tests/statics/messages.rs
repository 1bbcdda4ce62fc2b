//! The dynamic path reports the compile-time message: each static-shape case of `ui-tests/`
//! is run here on a dynamic tensor of the same shape, and its error must be the message
//! recorded in the case's `.stderr`. The runtime API (`Tensor::rearrange`) says the same
//! thing in the same words.

use std::path::Path;

use strideweave::{ErrorKind, Result, Tensor, rearrange, repeat, shape};

/// The compile-time message of a recorded ui case: the text after "evaluation panicked: ",
/// with rustc's indentation of continuation lines removed.
pub(crate) fn recorded(case: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../ui-tests/fail")
        .join(format!("{case}.stderr"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (_, rest) = text
        .split_once("error[E0080]: evaluation panicked: ")
        .unwrap_or_else(|| panic!("{case}: no const-evaluation error in the snapshot"));
    let mut lines = rest.lines();
    let mut message = lines.next().expect("a first line").to_string();
    const INDENT: &str = "              "; // "error[E0080]: " is 14 columns
    for line in lines {
        if line.starts_with(" --> ") {
            break;
        }
        message.push('\n');
        message.push_str(line.strip_prefix(INDENT).unwrap_or(line));
    }
    message
}

fn t(shape: &strideweave::Shape) -> Tensor {
    Tensor::arange::<f32>(shape)
}

/// Each static-shape ui case, run on a dynamic tensor of the same shape.
fn cases() -> Vec<(&'static str, Result<Tensor>)> {
    vec![
        (
            "static_rank_too_many_terms",
            rearrange!(&t(&shape!(10, 4)), "a b c -> c b a"),
        ),
        (
            "static_rank_too_few_terms",
            rearrange!(&t(&shape!(2, 3, 4)), "a b -> b a"),
        ),
        (
            "static_rank_with_ellipsis",
            rearrange!(&t(&shape!(2)), "a b ... -> ... b a"),
        ),
        (
            "static_group_arity",
            rearrange!(&t(&shape!(2, (3, 4))), "a (b c d) -> a b c d"),
        ),
        (
            "static_split_not_dividing",
            rearrange!(&t(&shape!(10, 4)), "(h w) c -> h w c", h = 3),
        ),
        (
            "static_annotated_split",
            rearrange!(&t(&shape!(10, 4)), "(h w) c -> h w c", h = 3),
        ),
        (
            "static_annotated_token_repeat",
            repeat!(&t(&shape!(2, 3)), "a b 1 -> a b r", r = 2),
        ),
        (
            "static_split_two_unknowns",
            rearrange!(&t(&shape!(12, 4)), "(h w) c -> h w c"),
        ),
        (
            "static_split_product_mismatch",
            rearrange!(&t(&shape!(10, 4)), "(h w) c -> h w c", h = 2, w = 3),
        ),
        (
            "static_split_one_given_mismatch",
            rearrange!(&t(&shape!(10, 4)), "(h 1) c -> h c", h = 5),
        ),
        (
            "static_keyword_disagrees",
            rearrange!(&t(&shape!(10, 4)), "a b -> b a", a = 11),
        ),
        (
            "static_keyword_disagrees_nested",
            rearrange!(&t(&shape!(2, (3, 4))), "a bc -> bc a", bc = 10),
        ),
        (
            "static_unit_against_non_unit",
            rearrange!(&t(&shape!(10, 4)), "1 c -> c"),
        ),
        (
            "static_omitted_source",
            rearrange!(&t(&shape!(10, 4)), "a b -> a"),
        ),
        (
            "static_omitted_split_factor",
            rearrange!(&t(&shape!(10, 4)), "(h w) c -> h c", h = 2),
        ),
        (
            "static_omitted_nested_source",
            rearrange!(&t(&shape!(2, (3, 4))), "a bc -> a"),
        ),
        (
            "static_chained_second_fails",
            rearrange!(&t(&shape!(5, 4, 3)), "c h w -> h (w c)", w = 2),
        ),
        (
            "static_chained_first_fails",
            rearrange!(&t(&shape!(12, 5)), "(h w) c -> c h w", h = 5),
        ),
        (
            "static_repeat_size_overflow",
            repeat!(&t(&shape!(2, 3)), "h w -> h w r", r = 9223372036854775807),
        ),
        (
            "static_repeat_rank",
            repeat!(&t(&shape!(2, 3)), "h -> h r", r = 2),
        ),
        (
            "static_by_value_rank",
            rearrange!(t(&shape!(2, 3)), "a -> a"),
        ),
        (
            "static_token_form_split",
            rearrange!(&t(&shape!(10, 4)), (h w) c -> h w c, h = 3),
        ),
        (
            "static_einops_indivisible",
            strideweave::einops::rearrange!(&t(&shape!(2, 10)), "b (h w) -> b w h", h = 3),
        ),
    ]
}

#[test]
fn dynamic_messages_are_the_compile_time_messages() {
    for (case, result) in cases() {
        let err = result.expect_err(case);
        assert_eq!(err.kind(), ErrorKind::Value, "{case}");
        assert_eq!(err.to_string(), recorded(case), "{case}");
    }
}

#[test]
fn every_static_case_is_compared() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui-tests/fail");
    let compared: Vec<&str> = cases().iter().map(|(c, _)| *c).collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        // A constant keyword of 0 is a pattern mistake: a compile error for every tensor.
        if let Some(case) = name.strip_suffix(".stderr")
            && case.starts_with("static_")
            && case != "static_keyword_constant_zero"
        {
            assert!(
                compared.contains(&case),
                "ui case {case} has no dynamic twin here"
            );
        }
    }
}

/// The runtime API's message (`rearrange: …`) is the macros' (`rearrange!: …`) without the
/// last line naming the tensor's shape: both come from the one engine.
#[test]
fn the_runtime_api_says_the_same() {
    let runtime = |shape: strideweave::Shape, pattern: &str, sizes: &[(&str, i64)]| {
        t(&shape).rearrange(pattern, sizes).unwrap_err().to_string()
    };
    let pairs = [
        (
            runtime(shape!(10, 4), "a b c -> c b a", &[]),
            "static_rank_too_many_terms",
        ),
        (
            runtime(shape!(2, 3, 4), "a b -> b a", &[]),
            "static_rank_too_few_terms",
        ),
        (
            runtime(shape!(2), "a b ... -> ... b a", &[]),
            "static_rank_with_ellipsis",
        ),
        (
            runtime(shape!(10, 4), "(h w) c -> h w c", &[("h", 3)]),
            "static_split_not_dividing",
        ),
        (
            runtime(shape!(12, 4), "(h w) c -> h w c", &[]),
            "static_split_two_unknowns",
        ),
        (
            runtime(shape!(10, 4), "(h w) c -> h w c", &[("h", 2), ("w", 3)]),
            "static_split_product_mismatch",
        ),
        (
            runtime(shape!(10, 4), "(h 1) c -> h c", &[("h", 5)]),
            "static_split_one_given_mismatch",
        ),
        (
            runtime(shape!(10, 4), "a b -> b a", &[("a", 11)]),
            "static_keyword_disagrees",
        ),
        (
            runtime(shape!(2, (3, 4)), "a bc -> bc a", &[("bc", 10)]),
            "static_keyword_disagrees_nested",
        ),
        (
            runtime(shape!(10, 4), "1 c -> c", &[]),
            "static_unit_against_non_unit",
        ),
        (
            runtime(shape!(10, 4), "a b -> a", &[]),
            "static_omitted_source",
        ),
        (
            runtime(shape!(10, 4), "(h w) c -> h c", &[("h", 2)]),
            "static_omitted_split_factor",
        ),
        (
            runtime(shape!(2, (3, 4)), "a bc -> a", &[]),
            "static_omitted_nested_source",
        ),
        (runtime(shape!(2, 3), "a -> a", &[]), "static_by_value_rank"),
        (
            runtime(shape!(2, (3, 4)), "a (b c d) -> a b c d", &[]),
            "static_group_arity",
        ),
    ];
    for (runtime, case) in pairs {
        let recorded = recorded(case);
        let expected = recorded
            .strip_prefix("rearrange!: ")
            .expect("a rearrange! message");
        let expected = match expected.rsplit_once("\n  the tensor's shape is ") {
            Some((before, _)) => before,
            None => expected,
        };
        assert_eq!(runtime, format!("rearrange: {expected}"), "{case}");
    }
}

/// The README's tour shows a recorded diagnostic verbatim; re-recording the ui snapshots
/// must update it.
#[test]
fn the_readme_quotes_a_recorded_diagnostic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let snapshot = read("ui-tests/fail/static_split_not_dividing.stderr");
    let readme = read("README.md");
    assert!(
        readme.contains(&format!("```text\n{}```", snapshot)),
        "README.md no longer shows ui-tests/fail/static_split_not_dividing.stderr verbatim"
    );
}
