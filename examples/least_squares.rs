//! A tiny least-squares fit trained by gradient descent: `cargo run --example least_squares`.
//!
//! The model `Ŷ = W·X + b` has its eight parameters in ONE carrier, and reaches them only
//! through zero-copy views: `W` is a slice reshaped to 2×3, `b` a slice broadcast along the
//! samples. Backward scatters the views' gradients into the one parameter gradient.

use strideweave::{Key, Result, Shape, Tensor, no_grad};

fn shape(text: &str) -> Shape {
    text.parse().expect("a valid shape")
}

pub fn main() -> Result<()> {
    const SAMPLES: usize = 32;
    // Data: X is 3×32 (first-mode-fastest: X[k, j] at k + 3j), Y = W*·X + b* + noise.
    let w_true = [[1.5, -2.0, 0.5], [0.25, 1.0, -1.0]];
    let b_true = [0.75, -0.5];
    let x: Vec<f64> = (0..3 * SAMPLES)
        .map(|i| ((i * 37 % 101) as f64 / 50.0) - 1.0)
        .collect();
    let mut y = vec![0.0; 2 * SAMPLES];
    for j in 0..SAMPLES {
        for i in 0..2 {
            let noise = (((i + 7 * j) * 13 % 17) as f64 - 8.0) / 400.0;
            y[i + 2 * j] =
                (0..3).map(|k| w_true[i][k] * x[k + 3 * j]).sum::<f64>() + b_true[i] + noise;
        }
    }
    let x = Tensor::from_vec(x, &shape(&format!("(3,{SAMPLES})")))?;
    let y = Tensor::from_vec(y, &shape(&format!("(2,{SAMPLES})")))?;

    // All parameters in one leaf: p[0..6] is W (2×3, first-mode-fastest), p[6..8] is b.
    let p = Tensor::zeros::<f64>(&shape("8"));
    p.set_requires_grad(true)?;

    let learning_rate = 0.3;
    let mut first = None;
    let mut last = 0.0;
    for step in 0..=200 {
        // The model, through views of p only.
        let w = p
            .slice(&[Key::slice(Some(0), Some(6), None)])?
            .reshape(&shape("(2,3)"))?;
        let b = p
            .slice(&[Key::slice(Some(6), Some(8), None)])?
            .broadcast_in_dim(&shape(&format!("(2,{SAMPLES})")), &[0])?;
        let residual = w.matmul(&x)?.add(&b)?.sub(&y)?;
        let loss = residual.mul(&residual)?.mean()?;
        last = loss.item::<f64>()?;
        first.get_or_insert(last);
        if step % 20 == 0 {
            println!("step {step:>3}  loss {last:.6}");
        }

        loss.backward()?;
        let g = p.grad().expect("p is reached by the loss");
        {
            // The update is not part of any graph.
            let _off = no_grad();
            p.copy_from(&p.sub(&g.mul_scalar(learning_rate)?)?)?;
        }
        p.zero_grad();
    }
    let first = first.expect("at least one step");
    assert!(last < first / 100.0, "the loss went down: {first} → {last}");

    let learned = p.to_vec::<f64>()?;
    println!(
        "\nlearned W = [{:.3} {:.3} {:.3}; {:.3} {:.3} {:.3}]  (true [1.5 -2 0.5; 0.25 1 -1])",
        learned[0], learned[2], learned[4], learned[1], learned[3], learned[5]
    );
    println!(
        "learned b = [{:.3} {:.3}]  (true [0.75 -0.5])",
        learned[6], learned[7]
    );
    Ok(())
}
