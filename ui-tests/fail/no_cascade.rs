use strideweave::{layout, Layout, Shape, shape};

// After a mistake the macro still has the right type, so the code around it type-checks and
// the only messages are the macros' own.
fn main() {
    let l: Layout = layout!((2, 0) : (1, 2));
    let n: usize = l.size();
    let s: Shape = shape!(2, 0.5);
    let m: usize = s.size();
    println!("{n} {m}");
}
