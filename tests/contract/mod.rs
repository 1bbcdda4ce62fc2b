//! The contraction family of issue 13 (seed 004's `x`, Dot, Outer, Contract; contracts §5's
//! two-input einsum): one test per requirement, named after it (`requirements`); numpy
//! reference cases of einsum, values and gradients (`reference`,
//! `tests/data/einsum_numpy.json`); finite differences of every form (`gradients`);
//! random inputs (`random`: no panic, errors with messages, carriers unchanged, results
//! equal a naive sum); the gemm kernel's operand placements and threads (`gemm`).

mod gemm;
mod gradients;
mod random;
mod reference;
mod requirements;
