//! Every new error of `strideweave::einops`: the name as the user wrote it first, the
//! pattern quoted as written with carets under the right term, the materialize-first
//! refusal naming the group and its strides; the input untouched.

use strideweave::{ErrorKind, Reduction, Tensor, einops, shape};

fn x() -> Tensor {
    Tensor::from_vec_row_major((0..24).collect::<Vec<i32>>(), &shape!(2, 3, 4)).unwrap()
}

#[test]
fn engine_messages_quote_the_pattern_as_written() {
    let t = x();
    // The split's group is quoted and marked as written, though the engine reads it mirrored.
    let err = einops::rearrange(&t, "b (h w) c -> b h w c", &[("h", 2)]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "einops::rearrange: h = 2 does not divide extent 3 of mode 1, which the group `(h w)` on the left, term 1 splits\n  b (h w) c -> b h w c\n    ^^^^^"
    );
    // A member's path is the one written: `w` is term 1.1.
    let err = einops::rearrange(&t, "b (h w) c -> b h c", &[("h", 1)]).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("einops::rearrange: "), "{text}");
    assert!(text.contains("term 1.1"), "{text}");
    assert!(text.ends_with("\n  b (h w) c -> b h c\n       ^"), "{text}");
    // Grammar mistakes are the default reading's, under the einops name.
    let err = einops::repeat(&t, "b n c -> b n c r", &[]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::repeat: new symbol `r` on the right, term 3 needs an extent"),
        "{err}"
    );
    let err = einops::reduce(&t, "b n c -> b x", Reduction::Sum, &[]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::reduce: unknown identifier `x`"),
        "{err}"
    );
    let err = einops::einsum("i j, j k -> i q", &[&t, &t]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::einsum: unknown identifier `q`"),
        "{err}"
    );
    // Nothing changed.
    assert_eq!(
        t.to_vec_row_major::<i32>().unwrap(),
        (0..24).collect::<Vec<_>>()
    );
}

#[test]
fn a_group_whose_strides_do_not_merge_is_refused_materialize_first() {
    let t = x();
    let before = t.layout().clone();
    let err = einops::rearrange(&t, "b n c -> b (c n)", &[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    let text = err.to_string();
    assert!(
        text.starts_with(
            "einops::rearrange: the group `(c n)` on the right, term 1 cannot be one mode"
        ),
        "{text}"
    );
    // The strides, fastest first, and the one that breaks the merge.
    assert!(text.contains("n 3:4, c 4:1"), "{text}");
    assert!(text.contains("c's stride 1 would have to be 12"), "{text}");
    assert!(text.contains("materialize first"), "{text}");
    assert!(
        text.ends_with("\n  b n c -> b (c n)\n             ^^^^^"),
        "{text}"
    );
    assert_eq!(t.layout(), &before);
    // What the message says works: without the group, row-major, then the group.
    let m = einops::rearrange(&t, "b n c -> b c n", &[])
        .unwrap()
        .relayout(&strideweave::Layout::row_major(&shape!(2, 4, 3)))
        .unwrap();
    let g = einops::rearrange(&m, "b c n -> b (c n)", &[]).unwrap();
    assert_eq!(g.shape(), &shape!(2, 12));
    // numpy: x.transpose(0, 2, 1).reshape(2, 12)[1, 5] = x[1, 2, 1] (c = 1, n = 2).
    assert_eq!(
        g.get(&[1, 5].into()).unwrap().to_f64(),
        12.0 + 2.0 * 4.0 + 1.0
    );
    // A repeat's new axis inside a group is einops' np.tile: a copy, so refused too.
    let err = einops::repeat(&t, "b n c -> b (n r) c", &[("r", 2)]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::repeat: the group `(n r)` on the right, term 1"),
        "{err}"
    );
    // Merging strides are fine, extent-1 members ignored.
    let ok = einops::rearrange(&t, "b n c -> (b n 1) c", &[]).unwrap();
    assert_eq!(ok.layout().to_string(), "(6,4):(4,1)");
}

#[test]
fn macro_errors_start_with_the_macro_name() {
    let t = x();
    let err = einops::rearrange!(&t, "b (h w) c -> b h w c", h = 2).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("einops::rearrange!: h = 2 does not divide extent 3"),
        "{text}"
    );
    assert!(
        text.contains("\n  b (h w) c -> b h w c\n    ^^^^^\n"),
        "{text}"
    );
    assert!(text.ends_with("the tensor's shape is (2,3,4)"), "{text}");
    let err = einops::rearrange!(&t, "b n c -> b (c n)").unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("einops::rearrange!: the group `(c n)`"),
        "{text}"
    );
    assert!(
        text.ends_with("^^^^^\n  the tensor's shape is (2,3,4)"),
        "{text}"
    );
    let err = einops::repeat!(&t, "b n c -> b (n r) c", r = 2).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("einops::repeat!: the group `(n r)`"),
        "{err}"
    );
    let err = einops::reduce!(&t, "b n c -> b n", mean).unwrap_err();
    assert!(err.to_string().starts_with("einops::reduce!: "), "{err}");
    let err = einops::einsum!(&t, &t, "i j k, k j q -> i q").unwrap_err();
    assert!(err.to_string().starts_with("einops::einsum!"), "{err}");
}
