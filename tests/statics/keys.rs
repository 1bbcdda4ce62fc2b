//! `s!` (issue 4 item 4): the keys it builds are the `Key` values written out, and
//! `Tensor::index` gives the same views with either.

use strideweave::{Key, Tensor, s, shape};

#[test]
fn s_builds_the_keys_written_out() {
    let k = |start, stop, step| Key::slice(start, stop, step);
    assert_eq!(
        s![2, 1..9;2, .., ..5, 3.., ..;2, -3.., -4..-1, 0..10;5],
        [
            Key::Int(2),
            k(Some(1), Some(9), Some(2)),
            Key::all(),
            k(None, Some(5), None),
            k(Some(3), None, None),
            k(None, None, Some(2)),
            k(Some(-3), None, None),
            k(Some(-4), Some(-1), None),
            k(Some(0), Some(10), Some(5)),
        ]
    );
    let (i, n, step): (usize, u32, i8) = (1, 9, 2);
    assert_eq!(
        s![i, 1..n;step, -(n as i64)..],
        [
            Key::Int(1),
            k(Some(1), Some(9), Some(2)),
            k(Some(-9), None, None)
        ]
    );
    assert_eq!(
        s![u64::MAX, ..i128::MIN],
        [Key::Int(i64::MAX), k(None, Some(i64::MIN), None)]
    );
    let empty: [Key; 0] = s![];
    assert!(empty.is_empty());
}

#[test]
fn index_with_s_is_index_with_keys() {
    let t = Tensor::arange::<f64>(&shape!(6, (2, 5), 4));
    let cases: Vec<(Vec<Key>, Vec<Key>)> = vec![
        (
            s![1..5;2, .., 3].to_vec(),
            vec![Key::slice(Some(1), Some(5), Some(2)), Key::all(), 3.into()],
        ),
        (
            s![-2.., 3, ..;2].to_vec(),
            vec![
                Key::slice(Some(-2), None, None),
                3.into(),
                Key::slice(None, None, Some(2)),
            ],
        ),
        (
            s![0, .., -3..-1].to_vec(),
            vec![0.into(), Key::all(), (-3..-1).into()],
        ),
    ];
    for (by_macro, by_hand) in cases {
        assert_eq!(by_macro, by_hand);
        let a = t.slice(&by_macro).unwrap();
        let b = t.slice(&by_hand).unwrap();
        assert_eq!((a.layout(), a.offset()), (b.layout(), b.offset()));
        assert_eq!(a.to_vec::<f64>().unwrap(), b.to_vec::<f64>().unwrap());
    }
    // Expressions are checked at run time, by `Tensor::index`, with its messages.
    let (zero, eight) = (0, 8);
    let e = t.index(&s![..;zero, .., ..]).unwrap_err().to_string();
    assert!(e.contains("slice step 0 on mode 0 must be positive"), "{e}");
    let e = t.index(&s![1..eight;3, .., ..]).unwrap_err().to_string();
    assert!(e.contains("not a multiple of the step 3"), "{e}");
    let e = t.index(&s![.., .., -(zero + 1)]).unwrap_err().to_string();
    assert!(e.contains("integer key"), "{e}");
    assert_eq!(
        t.index(&s![5, 9, 3]).unwrap().value().unwrap().to_f64(),
        239.0
    );
}
