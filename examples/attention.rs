//! Multi-head self-attention with a batch size and a sequence length known only at run time,
//! and the model's sizes (4 heads of width 8, model width 32) checked by the compiler.
//!
//! `cargo run --example attention [batch] [tokens]`
//!
//! The patterns are written as einops writes them (`strideweave::einops`: a group's first
//! symbol is its slowest), so they read like the PyTorch code they come from. The tensors'
//! static shapes are `(_, _, 32)`: every check that needs only the pattern and the static
//! extents (that 4 heads divide 32, that the projections' inner modes are 32) runs at compile
//! time; what needs the batch or the sequence length runs at run time, and each call returns a
//! `Result`. The gradient of a loss through every view and product is then checked against
//! central finite differences.

use strideweave::{Result, StaticShape, StaticTensor, einops, shape_t};

/// Heads.
const HEADS: i64 = 4;
/// Width of one head.
const HEAD: usize = 8;

/// A batch of token sequences: (batch, tokens, model width), the first two known at run time.
type Tokens = shape_t!(_, _, 32);
/// A projection of the model width.
type Projection = shape_t!(32, 32);

/// The four projections of one attention layer.
struct Attention {
    query: StaticTensor<f64, Projection>,
    key: StaticTensor<f64, Projection>,
    value: StaticTensor<f64, Projection>,
    out: StaticTensor<f64, Projection>,
}

/// Deterministic weights in (-0.25, 0.25) (a linear congruential sequence: no dependency).
fn weights(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.5
        })
        .collect()
}

impl Attention {
    fn new() -> Result<Attention> {
        let w = |seed| StaticTensor::<f64, Projection>::from_vec(weights(seed, 32 * 32));
        Ok(Attention {
            query: w(1)?,
            key: w(2)?,
            value: w(3)?,
            out: w(4)?,
        })
    }

    /// softmax(q kᵀ / √8) v per head, the heads merged and projected.
    fn forward(
        &self,
        x: &StaticTensor<f64, Tokens>,
    ) -> Result<StaticTensor<f64, impl StaticShape>> {
        // Project, then split the model width into heads as einops reads `(h k)`: h slowest.
        let q = einops::einsum!(x, &self.query, "b n d, d e -> b n e")?;
        let q = einops::rearrange!(&q, "b n (h k) -> b h n k", h = HEADS)?;
        let k = einops::einsum!(x, &self.key, "b n d, d (h k) -> b h n k", h = HEADS)?;
        let v = einops::einsum!(x, &self.value, "b n d, d (h k) -> b h n k", h = HEADS)?;
        let scores = einops::einsum!(&q, &k, "b h n k, b h m k -> b h n m")?;
        let scores = (&scores * (1.0 / (HEAD as f64).sqrt()))?;
        let attention = scores.softmax(-1)?;
        // The heads merge back into one mode of width 32, `(h k)` as einops writes it.
        let merged = einops::einsum!(&attention, &v, "b h n m, b h m k -> b n (h k)")?;
        einops::einsum!(&merged, &self.out, "b n e, e d -> b n d")
    }
}

/// The loss: the sum of squares of the layer's output.
fn loss(layer: &Attention, x: &StaticTensor<f64, Tokens>) -> Result<strideweave::Tensor> {
    let y = layer.forward(x)?;
    y.as_dynamic().mul(y.as_dynamic())?.sum()
}

fn main() -> Result<()> {
    run(&std::env::args().skip(1).collect::<Vec<_>>())
}

/// The example with its command-line arguments (`[batch] [tokens]`).
pub fn run(args: &[String]) -> Result<()> {
    let mut args = args.iter().map(|a| a.parse::<i64>().unwrap_or(0));
    let batch = args.next().unwrap_or(2).max(1);
    let tokens = args.next().unwrap_or(5).max(1);

    let layer = Attention::new()?;
    let n = (batch * tokens * 32) as usize;
    let x = StaticTensor::<f64, Tokens>::from_vec_with(weights(7, n), &[batch, tokens])?;
    let y = layer.forward(&x)?;
    println!("input  {x:?}");
    println!("output {y:?}");

    // The gradient of the loss with respect to the query projection, through every view.
    layer.query.as_dynamic().set_requires_grad(true)?;
    loss(&layer, &x)?.backward()?;
    let grad = layer
        .query
        .grad()
        .expect("the query projection requires a gradient");
    let grad = grad.to_vec()?;

    // Central differences on a few entries. Their rounding error is about the loss's
    // rounding error over `eps`, the same for every entry: differences are measured against
    // the gradient's largest entry, so that a tiny entry is not held to a tighter bound.
    let scale = grad.iter().fold(0f64, |m, g| m.max(g.abs()));
    let eps = 1e-6;
    let mut worst: f64 = 0.0;
    for entry in [0usize, 37, 200, 511, 1023] {
        let nudged = |delta: f64| -> Result<f64> {
            let mut w = layer.query.to_vec()?;
            w[entry] += delta;
            let probe = Attention {
                query: StaticTensor::from_vec(w)?,
                key: layer.key.clone(),
                value: layer.value.clone(),
                out: layer.out.clone(),
            };
            let _no_grad = strideweave::no_grad();
            loss(&probe, &x)?.item::<f64>()
        };
        let numeric = (nudged(eps)? - nudged(-eps)?) / (2.0 * eps);
        let error = (numeric - grad[entry]).abs() / scale;
        worst = worst.max(error);
        println!(
            "d loss / d query[{entry:4}]  autograd {:+.9}  finite differences {numeric:+.9}",
            grad[entry]
        );
    }
    println!("largest difference / largest |gradient| = {worst:.2e}");
    assert!(
        worst < 1e-5,
        "the gradient disagrees with finite differences"
    );
    Ok(())
}
