//! A two-layer network trained with cross-entropy on three synthetic clusters:
//! `cargo run --example classifier`.
//!
//! Samples are columns (first-mode-fastest: `X` is 2×N, features × samples). The model is
//! `logits = W2 · relu(W1 · X + b1) + b2`; the loss is cross-entropy written from the
//! library's functions, `-(log_softmax(logits) gathered at the targets).mean()`.

use strideweave::{DType, Result, Shape, Tensor, no_grad};

fn shape(text: &str) -> Shape {
    text.parse().expect("a valid shape")
}

/// A deterministic value in [-1, 1) from an index (no random-number crate needed).
fn noise(i: usize) -> f64 {
    let z = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((z >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// A parameter of `rows × cols`, small values, requiring gradients.
fn parameter(rows: usize, cols: usize, seed: usize) -> Result<Tensor> {
    let n = rows * cols;
    let scale = (1.0 / cols as f64).sqrt();
    let v: Vec<f64> = (0..n).map(|i| noise(seed * 1000 + i) * scale).collect();
    let p = Tensor::from_vec(v, &shape(&format!("({rows},{cols})")))?;
    p.set_requires_grad(true)?;
    Ok(p)
}

pub fn main() -> Result<()> {
    const N: usize = 300;
    const CLASSES: usize = 3;
    const HIDDEN: usize = 16;
    // Three clusters around the corners of a triangle, 100 samples each.
    let centres = [(0.0, 1.5), (-1.3, -0.75), (1.3, -0.75)];
    let mut x = Vec::with_capacity(2 * N);
    let mut targets = Vec::with_capacity(N);
    for j in 0..N {
        let c = j % CLASSES;
        x.push(centres[c].0 + 0.6 * noise(2 * j));
        x.push(centres[c].1 + 0.6 * noise(2 * j + 1));
        targets.push(c as i64);
    }
    let x = Tensor::from_vec(x, &shape(&format!("(2,{N})")))?;
    // The class of each sample as a (1, N) index tensor: gather's index has the input's rank.
    let targets = Tensor::from_vec(targets, &shape(&format!("(1,{N})")))?;

    let (w1, b1) = (parameter(HIDDEN, 2, 1)?, parameter(HIDDEN, 1, 2)?);
    let (w2, b2) = (parameter(CLASSES, HIDDEN, 3)?, parameter(CLASSES, 1, 4)?);
    let params = [&w1, &b1, &w2, &b2];
    let wide = |b: &Tensor, rows: usize| -> Result<Tensor> {
        b.broadcast_to(&shape(&format!("({rows},{N})")))
    };

    let learning_rate = 0.5;
    let (mut first, mut last) = (None, 0.0);
    for step in 0..=150 {
        let hidden = w1.matmul(&x)?.add(&wide(&b1, HIDDEN)?)?.relu()?;
        let logits = w2.matmul(&hidden)?.add(&wide(&b2, CLASSES)?)?;
        let picked = logits.log_softmax(0)?.gather(0, &targets)?;
        let loss = picked.mean()?.neg()?;
        last = loss.item::<f64>()?;
        first.get_or_insert(last);
        if step % 15 == 0 {
            let predicted = logits.argmax(0)?;
            let right = predicted
                .eq(&targets.reshape(&shape(&N.to_string()))?)?
                .to_dtype(DType::F64)?
                .mean()?
                .item::<f64>()?;
            println!(
                "step {step:>3}  loss {last:.4}  accuracy {:.1}%",
                100.0 * right
            );
        }
        loss.backward()?;
        let _off = no_grad();
        for p in params {
            let g = p.grad().expect("every parameter reaches the loss");
            p.copy_from(&p.sub(&g.mul_scalar(learning_rate)?)?)?;
            p.zero_grad();
        }
    }
    let first = first.expect("at least one step");
    assert!(last < first / 4.0, "the loss went down: {first} → {last}");
    println!("\ncross-entropy {first:.4} → {last:.4}");
    Ok(())
}
