use strideweave::rand::{SeedableRng, rngs::StdRng};
use strideweave::rand_distr::{Normal, StandardNormal, Uniform};
use strideweave::{DType, Shape, Tensor};

#[test]
fn random_using_is_reproducible_from_a_seeded_rng_and_samples_the_distribution() {
    let shape: Shape = "(100,50)".parse().unwrap();
    let draw = |seed| {
        Tensor::random_using::<f64, _, _>(&shape, StandardNormal, &mut StdRng::seed_from_u64(seed))
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
    };
    let (a, b, c) = (draw(1), draw(1), draw(2));
    assert_eq!(a, b);
    assert_ne!(a, c);
    let mean = a.iter().sum::<f64>() / a.len() as f64;
    let var = a.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / a.len() as f64;
    assert!(mean.abs() < 0.1 && (var - 1.0).abs() < 0.1, "{mean} {var}");
    let mut rng = StdRng::seed_from_u64(3);
    let u = Tensor::random_using(&shape, Uniform::new(2u8, 5).unwrap(), &mut rng).unwrap();
    assert_eq!((u.dtype(), u.shape()), (DType::U8, &shape));
    assert!(u.to_vec::<u8>().unwrap().iter().all(|x| (2..5).contains(x)));
    let n = Tensor::random_using(&shape, Normal::new(10.0f32, 0.5).unwrap(), &mut rng).unwrap();
    assert_eq!(n.dtype(), DType::F32);
    // The first sample lands at ordinal 0 (first-mode-fastest order).
    let mut r = StdRng::seed_from_u64(9);
    let one = Tensor::random_using::<f64, _, _>(&"(2,2)".parse().unwrap(), StandardNormal, &mut r)
        .unwrap();
    let mut r = StdRng::seed_from_u64(9);
    let first: f64 = strideweave::rand::distr::Distribution::sample(&StandardNormal, &mut r);
    assert_eq!(one.get_ordinal(0).unwrap(), strideweave::Scalar::F64(first));
}
