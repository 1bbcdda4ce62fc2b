use strideweave::layout;

fn main() {
    // The Debug form is accepted; this one misses the `Stride(...)` part's closing bracket.
    let _ = layout!("Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]))");
    // And this one's stride is not congruent.
    let _ = layout!("Layout(Shape([2, [3, 4]]), Stride([1, [2]]))");
}
