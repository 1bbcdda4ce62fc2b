//! The vector kernels under the public copies (issue 27): on a machine with AVX2 the copy
//! engine runs them (8×8 register transposes, step-2 shuffles, 32-byte and streaming
//! stores); elsewhere the portable loops. Either way every element must carry the exact
//! bits of its source, at odd sizes, unaligned offsets and tails, and above the streaming
//! threshold. (The crate's unit tests compare each vector kernel with the portable path
//! directly.)

use strideweave::{Key, Shape, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

/// f32 bit patterns a float operation could alter, where a move must not: NaN payloads,
/// signalling NaNs, negative zero, subnormals, mixed with the ordinal.
fn bits(k: usize) -> u32 {
    [
        0x7fc0_1234u32,
        0x7f80_0001,
        0x8000_0000,
        0x0000_0001,
        0xffff_ffff,
    ][k % 5]
        ^ ((k as u32) << 9)
}

/// An `n × m` f32 tensor (first mode fastest) holding `bits(k)` at ordinal `k`.
fn source(n: usize, m: usize) -> Tensor {
    let data: Vec<f32> = (0..n * m).map(|k| f32::from_bits(bits(k))).collect();
    Tensor::from_vec(data, &sh(&format!("({n},{m})"))).unwrap()
}

fn to_bits(t: &Tensor) -> Vec<u32> {
    t.to_vec::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

#[test]
fn vector_copies_keep_every_bit_at_odd_sizes_offsets_and_tails() {
    for (n, m) in [
        (7, 9),
        (8, 8),
        (9, 70),
        (63, 65),
        (64, 64),
        (65, 130),
        (130, 67),
    ] {
        let x = source(n, m);
        // Transpose: element (j, i) of the view is source element i + j·n.
        let t = x.permute(&[1, 0]).unwrap();
        let want: Vec<u32> = (0..n * m).map(|k| bits(k / m + (k % m) * n)).collect();
        assert_eq!(to_bits(&t), want, "transpose of ({n},{m})");
        // Into an offset, unaligned window of a larger destination (a slice starting at 1).
        let big = Tensor::zeros::<f32>(&sh(&format!("({},{})", m + 3, n + 1)));
        let win = big
            .slice(&[
                Key::slice(Some(1), Some(m as i64 + 1), None),
                Key::slice(Some(1), None, None),
            ])
            .unwrap();
        win.copy_from(&t).unwrap();
        assert_eq!(to_bits(&win), want, "transpose of ({n},{m}) into a window");
        // [1:1+2a:2, :2b:2] (a slice's width is a multiple of its step): odd starts, odd
        // tails.
        let (a, b) = ((n - 1) / 2, m / 2);
        let step2 = |start: usize, count: usize| {
            Key::slice(
                Some(start as i64),
                Some((start + 2 * count) as i64),
                Some(2),
            )
        };
        let s = x.slice(&[step2(1, a), step2(0, b)]).unwrap();
        let want: Vec<u32> = (0..a * b)
            .map(|k| bits(1 + 2 * (k % a) + 2 * (k / a) * n))
            .collect();
        assert_eq!(to_bits(&s), want, "[1::2, ::2] of ({n},{m})");
        // Mode 0 at step 2 (the fastest source mode strided) over a transposed destination.
        let a = n / 2;
        let rows = x
            .slice(&[step2(0, a), Key::slice(None, None, None)])
            .unwrap();
        let want: Vec<u32> = (0..a * m)
            .map(|k| bits(2 * (k % a) + (k / a) * n))
            .collect();
        assert_eq!(to_bits(&rows), want, "[::2] of ({n},{m})");
        // A column broadcast to every row.
        let c: Vec<f32> = (0..n).map(|k| f32::from_bits(bits(k))).collect();
        let c = Tensor::from_vec(c, &sh(&format!("{n}"))).unwrap();
        let col = c
            .broadcast_in_dim(&sh(&format!("({n},{m})")), &[0])
            .unwrap();
        let want: Vec<u32> = (0..n * m).map(|k| bits(k % n)).collect();
        assert_eq!(to_bits(&col), want, "broadcast of a column to ({n},{m})");
    }
}

/// 1024² f32 is 4 MiB, the smallest copy written with streaming stores: a transposed
/// `to_vec` (the streamed transpose by whole lines, into a fresh allocation that starts
/// 16 bytes past a line) and a rank-4 permutation's `to_vec` write every element. (The unit
/// tests run every streaming kernel on small inputs; this one runs the engine's decision at
/// the threshold.)
#[test]
fn copies_at_the_streaming_threshold_write_every_element() {
    let n = 1024;
    let x = Tensor::arange::<f32>(&sh(&format!("({n},{n})")));
    let t = x.permute(&[1, 0]).unwrap().to_vec::<f32>().unwrap();
    assert!(
        t.iter()
            .enumerate()
            .all(|(k, &v)| v == (k / n + (k % n) * n) as f32)
    );
    // The reversed [32,64,64,32] permutation (16 MiB): rows of 131072 positions over three
    // leaves, cut by positions across the pool's threads when it has two or more.
    let x = Tensor::arange::<f32>(&sh("(32,64,64,32)"));
    let p = x.permute(&[3, 2, 1, 0]).unwrap().to_vec::<f32>().unwrap();
    assert!(p.iter().enumerate().all(|(k, &v)| {
        let (a, b, c, d) = (k % 32, k / 32 % 64, k / 2048 % 64, k / 131072);
        v == (d + 32 * (c + 64 * (b + 64 * a))) as f32
    }));
}
