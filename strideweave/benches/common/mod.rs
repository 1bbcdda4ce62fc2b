//! The setup shared by the storage-producing benches (`copy`, `elementwise`): the divan
//! configuration and the 4096² shape of their workloads.

use strideweave::Shape;

/// Runs the benches of the calling binary: 10 samples of one iteration each (each
/// iteration moves 64 MiB or more), overridable from the command line.
pub fn run() {
    divan::Divan::default()
        .sample_count(10)
        .sample_size(1)
        .config_with_args()
        .main();
}

/// The side of the square workloads.
pub const N: usize = 4096;
/// The side of the hand-written kernels' tiles.
pub const B: usize = 32;

pub fn shape(text: &str) -> Shape {
    text.parse().unwrap()
}

/// The `N × N` shape.
pub fn sq() -> Shape {
    shape(&format!("({N},{N})"))
}
