use strideweave::layout;

fn main() {
    // The positive strides reach beyond i64::MAX.
    let _ = layout!((2, 2) : (9223372036854775807, 1));
    // The negative strides reach below i64::MIN.
    let _ = layout!((2, 2) : (-9223372036854775807, -2));
    // One mode alone spans more than i64 holds.
    let _ = layout!(3 : 4611686018427387904);
}
