//! Helpers shared by the statics tests.

use strideweave::{Carrier, Layout, Tensor};

/// A tensor with `layout` at `offset` over a carrier holding 0, 1, 2, … (f64), long enough
/// for negative strides too.
pub fn tensor(layout: &str, offset: usize) -> Tensor {
    let layout: Layout = layout
        .parse()
        .unwrap_or_else(|e| panic!("bad test layout {layout}: {e}"));
    let (_, max) = layout.reach();
    let len = (offset as i64 + max + 1) as usize;
    Tensor::new(
        Carrier::from_vec((0..len).map(|i| i as f64).collect()),
        offset,
        layout,
    )
    .unwrap()
}

/// Asserts that two tensors are the same view: layout, offset, carrier and values.
#[track_caller]
pub fn same_view(macro_path: &Tensor, runtime: &Tensor, what: &str) {
    assert_eq!(
        macro_path.layout(),
        runtime.layout(),
        "{what}: layouts differ ({} against {})",
        macro_path.layout(),
        runtime.layout()
    );
    assert_eq!(
        macro_path.offset(),
        runtime.offset(),
        "{what}: offsets differ"
    );
    assert!(
        Carrier::same(macro_path.carrier(), runtime.carrier()),
        "{what}: not a view of the same carrier"
    );
    assert_eq!(
        macro_path.to_vec::<f64>().unwrap(),
        runtime.to_vec::<f64>().unwrap(),
        "{what}: values differ"
    );
}
