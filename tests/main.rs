//! StrideWeave's integration tests, one module per requirement family, in one test binary
//! (one link instead of one per family). Run one family with a filter:
//! `cargo test -p strideweave-tests --test integration typed::`.
//!
//! | module | what it checks |
//! | --- | --- |
//! | `layout` | the layout contracts, their worked examples, the algebra's laws, pycute's reference cases |
//! | `algebra` | `Tensor::reduce` against einops and a naive reference, promotion, vector products, their gradients |
//! | `alloc` | layout operations on small layouts allocate nothing |
//! | `autograd` | gradients through views and arithmetic, against references and finite differences |
//! | `bounded` | adversarial inputs answered in milliseconds, without allocating near their domain's size |
//! | `carrier` | carriers over storage written outside the crate: locks, transfers, storage classes |
//! | `contract` | dot, outer, contract and einsum, values and gradients against numpy |
//! | `convert` | the one casting rule of `Scalar::cast` and writes through aliasing views |
//! | `copy` | the copy engine on random placements |
//! | `display` | text grids, SVG pictures and tensor printing |
//! | `einops_reading` | `strideweave::einops` (einops' reading of patterns) against einops' reference data, its errors and macros |
//! | `functions` | the functions of a model (math, softmax, comparisons, casts, gathers): definitions, edge values, gradients |
//! | `hostile` | hostile input: deep nesting, huge extents, malformed text |
//! | `integer` | arithmetic and sums on integer and bool tensors |
//! | `io` | `.npy` and safetensors files, memory maps |
//! | `statics` | the compile-time checked macros against the run-time API |
//! | `tiling` | CuTe's tensor algebra on tensors (compose, divides, partitions) and the layouts for threads |
//! | `typed` | the borrowed rank-typed views |
//! | `views` | the tensor views and their representation rules |
//! | `zip` | the elementwise engine and the gemm call on random placements |
//! | `unsafe_inventory` | `docs/unsafe.md` lists every `unsafe` site of `strideweave/src` with the right counts |

// The counting global allocator: per-thread counters, so the families that measure
// allocations (`alloc`, `io`) are not disturbed by tests running beside them.
#[path = "common/counting.rs"]
mod counting;
// Helpers several families share: random layouts with naive references, the notation
// shorthands, the PyTorch reference programs.
#[path = "common/layouts.rs"]
mod layouts;
#[path = "common/notation.rs"]
mod notation;
#[path = "common/torch_programs.rs"]
pub(crate) mod torch_programs;

/// Every reduction, for the families that run each one.
pub(crate) const REDUCTIONS: [strideweave::Reduction; 6] = [
    strideweave::Reduction::Sum,
    strideweave::Reduction::Mean,
    strideweave::Reduction::Max,
    strideweave::Reduction::Min,
    strideweave::Reduction::Prod,
    strideweave::Reduction::LogSumExp,
];

mod algebra;
mod alloc;
mod autograd;
mod bounded;
mod carrier;
mod contract;
mod convert;
mod copy;
mod display;
mod einops_reading;
mod functions;
mod hostile;
mod integer;
mod io;
mod layout;
mod statics;
mod tiling;
mod typed;
mod unsafe_inventory;
mod views;
mod zip;
