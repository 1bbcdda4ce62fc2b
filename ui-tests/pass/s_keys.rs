//! `s!` builds `[Key; N]` for `Tensor::slice`: literal and expression bounds, negative bounds,
//! steps, whole modes, forwarding through `macro_rules!`, const use.

use strideweave::{Indexed, Key, Tensor, s, shape};

const WHOLE: [Key; 2] = s![.., ..];

macro_rules! forwarded {
    ($k:expr, $r:expr) => {
        s![$k, $r]
    };
}

fn main() {
    let t = Tensor::arange::<f32>(&shape!(5, 10));

    // The forms of one key.
    let keys = s![2, 1..9;2, .., ..5, 3.., ..;2, -3.., -4..-1, 0..10;5,];
    assert_eq!(
        keys,
        [
            Key::Int(2),
            Key::slice(Some(1), Some(9), Some(2)),
            Key::all(),
            Key::slice(None, Some(5), None),
            Key::slice(Some(3), None, None),
            Key::slice(None, None, Some(2)),
            Key::slice(Some(-3), None, None),
            Key::slice(Some(-4), Some(-1), None),
            Key::slice(Some(0), Some(10), Some(5)),
        ]
    );
    assert_eq!(s![].len(), 0);
    assert_eq!(WHOLE, [Key::all(), Key::all()]);

    // Applied: a view at the first selected element, or a value.
    let v = t.slice(&s![2, 1..9;2]).unwrap();
    assert_eq!((v.layout().to_string(), v.offset()), ("4:10".to_string(), 7));
    assert_eq!(v.to_vec::<f32>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
    let v = t.slice(&s![-2.., ..;5]).unwrap();
    assert_eq!(v.shape(), &shape!(2, 2));
    assert_eq!(v.to_vec::<f32>().unwrap(), [3.0, 4.0, 28.0, 29.0]);
    assert!(matches!(t.index(&s![4, 9]).unwrap(), Indexed::Value(_)));
    assert_eq!(t.index(&s![4, 9]).unwrap().value().unwrap().to_f64(), 49.0);
    assert_eq!(t.slice(&WHOLE).unwrap().shape(), t.shape());

    // Expressions of any integer type, checked at run time.
    let (i, n, step): (usize, i32, u8) = (1, 9, 2);
    assert_eq!(s![i, 1..n;step], s![1, 1..9;2]);
    let last = t.shape().mode(1).unwrap().size() - 1;
    assert_eq!(s![.., last], [Key::all(), Key::Int(9)]);
    let r = &3i64;
    assert_eq!(s![r, (n - 1) as i64..], [Key::Int(3), Key::slice(Some(8), None, None)]);
    assert_eq!(t.slice(&s![.., 0..n;3]).unwrap().shape(), &shape!(5, 3));
    assert!(t.index(&s![.., 1..n;3]).unwrap_err().to_string().contains("not a multiple of the step 3"));
    let zero = 0;
    assert!(t.index(&s![.., ..;zero]).unwrap_err().to_string().contains("must be positive"));

    // Through `macro_rules!`.
    assert_eq!(forwarded!(2, 1..9), s![2, 1..9]);
}
