//! What `ops` and `autograd` share, below both and below `tensor`: element arithmetic and
//! dense value vectors, strided walks over layouts, and the gemm call.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `int` | [`int::Int`] (the integer element types, wrapping arithmetic), `with_int!` (dtype → type) |
//! | `math` | [`math::Math`] (the analytic functions of the floating and complex types, computed in f32 for f16/bf16), [`math::Real`] (the ordered ones) |
//! | `num` | [`num::Num`] (the floating and complex element types), [`num::Dense`] (dense ordinal vectors), `with_num!` (dtype → type) |
//! | `plan` | the one loop planner: the joint plan of a destination and its sources (drop, turn, order, merge leaves; [`plan::Order`] says which order), the walk over its outer leaves ([`plan::outer`]) and the tile partner of a transposed source; every kernel below plans through it |
//! | `copy` | the copy engine on the plan in destination-stride order: one strided placement into another (memcpy runs, fills, blocked transposes) |
//! | `scatter` | the scatter-add kernel on the plan with stride-0 destination leaves outside in ordinal order: one strided placement added into another (gradients of views) |
//! | `fold` | reductions read in place on the plan in ordinal order (kept leaves turned), ordinal order per output kept |
//! | `zip` | the elementwise engine on the plan in destination-stride order: `f` of one or two strided sources straight into a strided destination |
//! | `strided` | iteration over strided (and stride-zero) layouts in ordinal order without copying, on the plan in ordinal order |
//! | `contract` | the batched-contraction kernel: lines classed batch / left / right / contracted, folded, gemm once per batch index or a plain offset-table loop (integers wrap) |
//! | `lanes` | register building blocks the copy and elementwise engines' x86-64 kernels share (the 8×8 in-register transpose) |
//! | `gemm` | the `gemm` crate's f32/f64/c32/c64 kernels at any strides, on rayon's pool above a size threshold: one `unsafe` block |
//!
//! Nothing here knows a `Tensor`: kernels see slices, offsets and layouts.

pub(crate) mod contract;
pub(crate) mod copy;
pub(crate) mod fold;
pub(crate) mod gemm;
pub(crate) mod int;
#[cfg(target_arch = "x86_64")]
pub(crate) mod lanes;
pub(crate) mod math;
pub(crate) mod num;
pub(crate) mod plan;
pub(crate) mod scatter;
pub(crate) mod strided;
pub(crate) mod zip;
