use strideweave::layout;

fn main() {
    // The shape's mode 1 is a tuple, the stride's a leaf.
    let _ = layout!((2, (3, 4)) : (1, 2));
    // The shape's mode 1 is a leaf, the stride's a tuple.
    let _ = layout!((2, 3) : (1, (2, 4)));
    // Three modes against two.
    let _ = layout!((2, 3, 4) : (1, 2));
    // A nested mode of three against two.
    let _ = layout!((2, (3, 4, 5)) : (1, (2, 6)));
    // An integer shape against a tuple of two.
    let _ = layout!(8 : (1, 2));
}
