//! Contracts C5 for arithmetic: every allocating operation has a form that writes into
//! caller-provided storage; those forms are checked before anything is written, and never
//! silently drop a gradient.

use strideweave::{Carrier, ErrorKind, Tensor, no_grad};

use crate::autograd::support::{compact, l, leaf, s, vals};

type Into = fn(&Tensor, &Tensor, &Tensor) -> strideweave::Result<()>;
type Fresh = fn(&Tensor, &Tensor) -> strideweave::Result<Tensor>;

#[test]
fn arithmetic_writes_into_caller_storage() {
    let a = compact(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "(2,3)");
    let b = a
        .permute(&[1, 0])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reverse(1)
        .unwrap();
    let cases: [(&str, Into, Fresh); 12] = [
        ("add", |a, b, o| a.add_into(b, o), |a, b| a.add(b)),
        ("sub", |a, b, o| a.sub_into(b, o), |a, b| a.sub(b)),
        ("mul", |a, b, o| a.mul_into(b, o), |a, b| a.mul(b)),
        ("div", |a, b, o| a.div_into(b, o), |a, b| a.div(b)),
        ("neg", |a, _, o| a.neg_into(o), |a, _| a.neg()),
        (
            "add_scalar",
            |a, _, o| a.add_scalar_into(2.0, o),
            |a, _| a.add_scalar(2.0),
        ),
        (
            "sub_scalar",
            |a, _, o| a.sub_scalar_into(2.0, o),
            |a, _| a.sub_scalar(2.0),
        ),
        (
            "mul_scalar",
            |a, _, o| a.mul_scalar_into(2.0, o),
            |a, _| a.mul_scalar(2.0),
        ),
        (
            "div_scalar",
            |a, _, o| a.div_scalar_into(2.0, o),
            |a, _| a.div_scalar(2.0),
        ),
        ("sum", |a, _, o| a.sum_into(o), |a, _| a.sum()),
        ("mean", |a, _, o| a.mean_into(o), |a, _| a.mean()),
        (
            "sum_modes",
            |a, _, o| a.sum_modes_into(&[1], o),
            |a, _| a.sum_modes(&[1]),
        ),
    ];
    for (name, into, fresh) in cases {
        let expected = fresh(&a, &b).unwrap();
        // A strided destination with holes and an offset: only its elements are written.
        let layout = Tensor::zeros::<f64>(expected.shape()).layout().clone();
        let strided = strideweave::Layout::new(
            layout.shape().clone(),
            layout
                .stride()
                .leaves()
                .iter()
                .map(|d| d * 2)
                .collect::<Vec<_>>()
                .as_slice()
                .into_stride(),
        )
        .unwrap();
        let out = Tensor::new(
            Carrier::from_vec(vec![-1.0f64; 1 + strided.cosize()]),
            1,
            strided,
        )
        .unwrap();
        into(&a, &b, &out).unwrap();
        assert_eq!(vals(&out), vals(&expected), "{name}");
        assert_eq!(out.carrier().version(), 1, "{name}: one version increment");
        assert_eq!(
            out.carrier().get(0).unwrap().to_f64(),
            -1.0,
            "{name}: before the offset"
        );
    }
    // matmul, also into a transposed view.
    let m = compact(vec![1.0, 2.0, 3.0, 4.0], "(2,2)");
    let out = Tensor::zeros::<f64>(&s("(2,2)"));
    m.matmul_into(&m, &out.permute(&[1, 0]).unwrap().permute(&[1, 0]).unwrap())
        .unwrap();
    assert_eq!(vals(&out), vals(&m.matmul(&m).unwrap()));
    // The destination may be an operand.
    let x = compact(vec![1.0, 2.0], "2");
    x.mul_into(&x, &x).unwrap();
    assert_eq!(vals(&x), [1.0, 4.0]);
}

trait IntoStride {
    fn into_stride(self) -> strideweave::Stride;
}

impl IntoStride for &[i64] {
    fn into_stride(self) -> strideweave::Stride {
        let text = if self.len() == 1 {
            self[0].to_string()
        } else {
            format!(
                "({})",
                self.iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        text.parse().unwrap()
    }
}

#[test]
fn an_invalid_destination_is_refused_before_any_write() {
    let a = compact(vec![1.0, 2.0, 3.0], "3");
    let state = |t: &Tensor| {
        let v: Vec<f64> = t.to_scalars().unwrap().iter().map(|s| s.to_f64()).collect();
        (v, t.carrier().version())
    };
    let check = |out: &Tensor, kind: ErrorKind| {
        let before = state(out);
        assert_eq!(a.add_into(&a, out).unwrap_err().kind(), kind, "{out:?}");
        assert_eq!(state(out), before);
    };
    check(
        &Tensor::from_vec(vec![0.0f32; 3], &s("3")).unwrap(),
        ErrorKind::Type,
    );
    check(&compact(vec![0.0; 4], "4"), ErrorKind::Value);
    check(&compact(vec![0.0; 3], "(3,1)"), ErrorKind::Value);
    let aliased = Tensor::new(Carrier::from_vec(vec![0.0f64; 1]), 0, l("3:0")).unwrap();
    check(&aliased, ErrorKind::Value);
    // With recording on, neither an operand nor the destination may require grad.
    let w = leaf("3:1", 0);
    check(&w, ErrorKind::Runtime);
    let out = compact(vec![0.0; 3], "3");
    assert_eq!(w.add_into(&a, &out).unwrap_err().kind(), ErrorKind::Runtime);
    assert_eq!(out.carrier().version(), 0);
    {
        let _g = no_grad();
        w.add_into(&a, &out).unwrap();
        a.add_into(&a, &w).unwrap();
    }
    assert_eq!(vals(&out), [11.0, 13.0, 15.0]);
    assert_eq!(vals(&w), [2.0, 4.0, 6.0]);
    // matmul's destination has the product's shape.
    let m = compact(vec![1.0; 6], "(2,3)");
    let wrong = Tensor::zeros::<f64>(&s("(2,3)"));
    assert_eq!(
        m.matmul_into(&m.permute(&[1, 0]).unwrap(), &wrong)
            .unwrap_err()
            .kind(),
        ErrorKind::Value
    );
}
