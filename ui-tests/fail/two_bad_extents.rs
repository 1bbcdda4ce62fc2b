use strideweave::layout;

// Two mistakes, two messages; the stride's incongruence is a third.
fn main() {
    let _ = layout!((0, (3, -1)) : (1, 2));
}
