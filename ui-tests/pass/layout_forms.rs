use strideweave::{Layout, ProfileToken::*, layout};

fn main() {
    // Token form, nested.
    let l: Layout = layout!((2, (3, 4)) : (1, (2, 6)));
    assert_eq!(l.to_string(), "(2,(3,4)):(1,(2,6))");
    assert_eq!(l.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
    assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (24, 24, 2, 2));
    assert_eq!(l, "(2,(3,4)):(1,(2,6))".parse::<Layout>().unwrap());

    // An integer layout, and the empty one.
    let l = layout!(8 : 1);
    assert_eq!(l.to_string(), "8:1");
    assert_eq!(l.depth(), 0);
    assert_eq!(l, "8:1".parse::<Layout>().unwrap());
    let e = layout!(() : ());
    assert_eq!(e.to_string(), "():()");
    assert_eq!(e.size(), 1);

    // Negative strides.
    let r = layout!((4, 3) : (-1, 4));
    assert_eq!(r.to_string(), "(4,3):(-1,4)");
    assert_eq!(r.reach(), (-3, 8));
    assert_eq!(r.index_of(1).unwrap(), -1);

    // Compact strides from a shape alone: first mode fastest.
    assert_eq!(layout!((2, (3, 4))).to_string(), "(2,(3,4)):(1,(2,6))");
    assert_eq!(layout!(8).to_string(), "8:1");
    assert_eq!(layout!(((2, 3), (2, 1, 2))).to_string(), "((2,3),(2,1,2)):((1,2),(6,12,12))");

    // String forms: CuTe's notation and the Debug notation.
    assert_eq!(layout!("(2,(3,4)):(1,(2,6))"), layout!((2, (3, 4)) : (1, (2, 6))));
    let d = layout!("Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))");
    assert_eq!(format!("{d:?}"), "Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))");
    assert_eq!(d.to_string(), "(2,(3,4)):(1,(2,6))");
    assert_eq!(layout!(r"20:2").to_string(), "20:2");

    // At the root, `n` and `(n)` are the same single mode; the shape decides the notation.
    assert_eq!(layout!(8 : (1)).to_string(), "8:1");
    assert_eq!(layout!((8) : 1).to_string(), "(8):(1)");

    // Trailing commas, and a one-element tuple inside is a real level.
    assert_eq!(layout!((2, (3,),) : (1, (2,),)).to_string(), "(2,(3)):(1,(2))");

    // Indexing agrees with the runtime (contracts L3).
    let l = layout!((2, (3, 4)) : (1, (10, 100)));
    assert_eq!(l.index_of(23).unwrap(), 321);
}
