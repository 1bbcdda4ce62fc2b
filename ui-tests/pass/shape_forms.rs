use strideweave::{ProfileToken::*, Shape, shape};

fn main() {
    let s: Shape = shape!(2, (3, 4));
    assert_eq!(s.to_string(), "(2,(3,4))");
    assert_eq!(s.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
    assert_eq!(s.leaves(), &[2, 3, 4]);
    assert_eq!((s.size(), s.rank(), s.depth()), (24, 2, 2));
    assert_eq!(s, "(2,(3,4))".parse::<Shape>().unwrap());

    // An integer shape, a one-mode tuple, the empty shape.
    assert_eq!(shape!(8).to_string(), "8");
    assert_eq!(shape!(8).depth(), 0);
    assert_eq!(shape!(8,).to_string(), "(8)");
    assert_eq!(shape!().to_string(), "()");
    assert_eq!(shape!().size(), 1);

    // The comma list is the root tuple, so one parenthesized mode is a nested level.
    assert_eq!(shape!((2, 3)).to_string(), "((2,3))");
    assert_eq!(shape!((2, 3)).rank(), 1);

    // String forms.
    assert_eq!(shape!("(2,(3,4))"), s);
    assert_eq!(shape!("Shape([2, [3, 4]])"), s);
    assert_eq!(shape!("7").to_string(), "7");
}
