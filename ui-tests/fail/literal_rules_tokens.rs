// The mistakes of `literal_rules_string.rs` that the token form can make, in the same order.
use strideweave::{layout, shape};

fn main() {
    let _ = layout!((2, (0, 4)) : (1, (2, 6)));
    let _ = layout!((2, (3, 4)) : (1, 2));
    let _ = layout!((4294967296, 4294967296) : (1, 0));
    let _ = layout!(3 : 4611686018427387904);
    let _ = layout!((2, 2) : (9223372036854775807, 1));
    let _ = layout!((2, 2) : (-9223372036854775807, -2));
    let _ = layout!((2, 3) : (1, 99999999999999999999));
    let _ = shape!(2, (3, 0));
    let _ = shape!(65536, (65536, 65536), 65536);
}
