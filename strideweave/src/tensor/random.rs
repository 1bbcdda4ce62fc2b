//! Random initialisation (feature `rand`): a tensor of samples of any `rand` distribution.

use rand::Rng;
use rand::distr::Distribution;

use crate::budget::reserved_vec;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Shape;
use crate::tensor::Tensor;

impl Tensor {
    /// A compact tensor of `shape` holding samples of `distribution` drawn from `rng`, in
    /// first-mode-fastest order, as ndarray-rand's `random_using`: the same seeded `rng`
    /// gives the same tensor. The element type is the distribution's (annotate it where a
    /// distribution samples several, as `StandardNormal` does). `strideweave::rand` and
    /// `strideweave::rand_distr` are the versions this crate was built with. An impossible
    /// size is an error (`TooLarge`), not an abort.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// use strideweave::rand::{SeedableRng, rngs::StdRng};
    /// use strideweave::rand_distr::{StandardNormal, Uniform};
    /// let shape = "(2,3)".parse().unwrap();
    /// let mut rng = StdRng::seed_from_u64(7);
    /// let w = Tensor::random_using(&shape, Uniform::new(-1.0f32, 1.0).unwrap(), &mut rng).unwrap();
    /// assert!(w.to_vec::<f32>().unwrap().iter().all(|x| (-1.0..1.0).contains(x)));
    /// let n = Tensor::random_using::<f64, _, _>(&shape, StandardNormal, &mut rng).unwrap();
    /// let again = Tensor::random_using::<f64, _, _>(&shape, StandardNormal, &mut StdRng::seed_from_u64(7));
    /// assert_eq!(n.dtype(), strideweave::DType::F64);
    /// assert_eq!(again.unwrap().size(), 6);
    /// ```
    pub fn random_using<T, D, R>(shape: &Shape, distribution: D, rng: &mut R) -> Result<Tensor>
    where
        T: Element,
        D: Distribution<T>,
        R: Rng + ?Sized,
    {
        let mut v = reserved_vec("Tensor::random_using", shape.size())?;
        v.extend(distribution.sample_iter(rng).take(shape.size()));
        Tensor::from_vec(v, shape)
    }
}
