//! The elementwise engine's wide paths (issue 27): the AVX2/AVX-512 loops, the in-register
//! transposes of a transposed f32 operand and the split across threads, through the public
//! API on this machine's widest unit, bit for bit against a naive per-element reference
//! (the crate's unit tests run the same cases on the forced portable path).

use strideweave::{Key, Tensor};

/// f32 values with every class of bits: NaN payloads, negative zero, subnormals.
fn weird(k: usize) -> f32 {
    match k % 7 {
        0 => f32::from_bits(0x7fc0_0000 | k as u32),
        1 => -0.0,
        2 => f32::from_bits(k as u32 & 0x7f_ffff),
        _ => k as f32 * 0.37 - 500.0,
    }
}

/// A `rows × cols` f32 tensor of `weird(k + salt)`, compact.
fn matrix(rows: i64, cols: i64, salt: usize) -> Tensor {
    let v: Vec<f32> = (0..(rows * cols) as usize)
        .map(|k| weird(k * 3 + salt))
        .collect();
    Tensor::from_vec(v, &format!("({rows},{cols})").parse().unwrap()).unwrap()
}

fn bits(t: &Tensor) -> Vec<u32> {
    (0..t.size())
        .map(|i| (t.get_ordinal(i).unwrap().to_f64() as f32).to_bits())
        .collect()
}

/// `a - b` element by element through the layouts.
fn naive(a: &Tensor, b: &Tensor) -> Vec<u32> {
    let (x, y) = (bits(a), bits(b));
    x.iter()
        .zip(&y)
        .map(|(p, q)| (f32::from_bits(*p) - f32::from_bits(*q)).to_bits())
        .collect()
}

/// Odd sizes and tails, unaligned starts (slices from offset 1), transposed operands (the
/// tiled path, with partial tiles), a broadcast operand, and a 613×517 call above the 1 MiB
/// split threshold: fresh results and `_into` a transposed destination.
#[test]
fn f32_elementwise_on_the_wide_paths_matches_the_naive_reference_bit_for_bit() {
    let from1 = Key::slice(Some(1), None, None);
    let all = Key::slice(None, None, None);
    for (r, c) in [(97i64, 131i64), (1, 1003), (1003, 3), (33, 33), (613, 517)] {
        let a = matrix(r + 1, c, 1).slice(&[from1, all]).unwrap();
        let b = matrix(c, r, 2).permute(&[1, 0]).unwrap();
        let row = matrix(1, c, 3)
            .broadcast_to(&format!("({r},{c})").parse().unwrap())
            .unwrap();
        // Above the split threshold one pair of operands suffices.
        let pairs = [(&a, &b), (&b, &a), (&a, &row), (&b, &b)];
        for (x, y) in pairs.into_iter().take(if r > 600 { 1 } else { 4 }) {
            let want = naive(x, y);
            assert_eq!(bits(&x.sub(y).unwrap()), want, "{r}×{c} fresh");
            let out = matrix(c, r, 0).permute(&[1, 0]).unwrap();
            x.sub_into(y, &out).unwrap();
            assert_eq!(bits(&out), want, "{r}×{c} into a transposed destination");
        }
    }
}

/// In place (`a -= b` through `sub_into(…, &a)`) and with an operand aliasing the
/// destination through a transposed view of the same carrier (staged), above the split
/// threshold and with odd sizes.
#[test]
fn f32_elementwise_in_place_and_aliasing_on_the_wide_paths_match_the_reference() {
    for n in [37i64, 613] {
        let a = matrix(n, n, 5);
        let b = matrix(n, n, 6).permute(&[1, 0]).unwrap();
        let want = naive(&a, &b);
        a.sub_into(&b, &a).unwrap();
        assert_eq!(bits(&a), want, "{n}: in place");
        let t = a.permute(&[1, 0]).unwrap();
        let want = naive(&a, &t);
        a.sub_into(&t, &a).unwrap();
        assert_eq!(
            bits(&a),
            want,
            "{n}: aliasing a transposed view of the destination"
        );
    }
}

/// At the streaming threshold (a 1024² f32 destination is the copy engine's 4 MiB):
/// `sub_into` a compact destination from compact operands (streamed runs) and from a
/// transposed operand (fused tiles, not streamed), bit for bit against a plain loop over
/// the operands' values (fresh results are never streamed: covered above).
#[test]
fn f32_elementwise_at_the_streaming_threshold_matches_a_plain_loop_bit_for_bit() {
    let n = 1024i64;
    let (a, b) = (matrix(n, n, 1), matrix(n, n, 2));
    let bt = b.permute(&[1, 0]).unwrap();
    let out = Tensor::zeros::<f32>(&format!("({n},{n})").parse().unwrap());
    let values = |t: &Tensor| t.to_vec::<f32>().unwrap();
    let x = values(&a);
    for y in [&b, &bt] {
        let want = x.iter().zip(values(y)).map(|(p, q)| (p - q).to_bits());
        a.sub_into(y, &out).unwrap();
        let transposed = std::ptr::eq(y, &bt);
        let got = values(&out);
        assert!(
            got.iter().map(|v| v.to_bits()).eq(want),
            "into, transposed: {transposed}"
        );
    }
}
