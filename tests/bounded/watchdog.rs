//! The watchdog (issue 11 item 7, the part about huge domains): random layouts with extents
//! up to 2^40 go through the layout algebra and the views in a child process of this test
//! binary that runs under a 1.5 GiB address-space limit (`ulimit -v`) and a time limit. An
//! abort (a failed allocation), a panic or a hang fails the test instead of the machine.
//! `STRIDEWEAVE_LONG=1` runs 200,000 cases instead of 150.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use strideweave::{Layout, Tensor};

const CHILD: &str = "STRIDEWEAVE_BOUNDED_WATCHDOG_CHILD";
const NAME: &str = "watchdog::huge_domains_finish_in_bounded_time_and_memory";

#[test]
fn huge_domains_finish_in_bounded_time_and_memory() {
    if std::env::var_os(CHILD).is_some() {
        adversarial_cases();
        return;
    }
    let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
    let limit = Duration::from_secs(if long { 3600 } else { 60 });
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1500000 && exec \"$0\" --exact \"$1\" --test-threads=1 --nocapture")
        .arg(exe)
        .arg(NAME)
        .env(CHILD, "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the adversarial cases did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "the child failed ({status}):\n{err}");
}

/// xorshift64*: reproducible cases without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[(self.next() % from.len() as u64) as usize]
    }
}

const EXTENTS: [i64; 9] = [
    1,
    2,
    3,
    15,
    16,
    1 << 20,
    (1 << 20) + 1,
    1 << 40,
    (1 << 40) + 1,
];
const STRIDES: [i64; 12] = [
    0,
    1,
    -1,
    2,
    7,
    16,
    15,
    1 << 20,
    (1 << 20) + 1,
    1 << 40,
    -(1 << 20),
    3,
];

fn layout(rng: &mut Rng) -> Option<Layout> {
    let n = 1 + rng.next() % 4;
    let (mut s, mut d) = (Vec::new(), Vec::new());
    for _ in 0..n {
        s.push(rng.pick(&EXTENTS).to_string());
        d.push(rng.pick(&STRIDES).to_string());
    }
    format!("({}):({})", s.join(","), d.join(",")).parse().ok()
}

fn adversarial_cases() {
    let cases = if std::env::var_os("STRIDEWEAVE_LONG").is_some() {
        200_000
    } else {
        150
    };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let source = Tensor::arange::<f32>(&"4".parse().unwrap());
    let wide = source
        .broadcast_in_dim(&"(18014398509481984,4)".parse().unwrap(), &[1])
        .unwrap();
    for _ in 0..cases {
        let (Some(a), Some(b)) = (layout(&mut rng), layout(&mut rng)) else {
            continue;
        };
        let _ = a.try_is_injective();
        let _ = a.compose(&b);
        let _ = a.complement(1 << 50);
        let _ = a.left_inverse();
        let _ = a.right_inverse();
        let _ = a.logical_divide(&b);
        let _ = a.logical_product(&b);
        let _ = a.compose_affine(&b);
        for t in [&source, &wide] {
            let _ = t.as_strided(b.shape(), b.stride());
        }
    }
    unallocatable_results();
}

/// Results of 2^30 `f32` (4 GiB), more than the child's address space: each is reserved
/// before it is filled, so each is an error here, not an abort.
fn unallocatable_results() {
    let big = Tensor::arange::<f32>(&"(1,1)".parse().unwrap())
        .broadcast_to(&"(32768,32768)".parse().unwrap())
        .unwrap();
    let shape = big.shape().clone();
    for r in [
        big.add(&big),
        big.neg(),
        big.mul_scalar(2.0f32),
        big.matmul(&big),
        big.sum_modes(&[1]).and(big.materialize()),
        Tensor::zeros_of(strideweave::DType::F64, &shape),
        Tensor::try_arange::<f32>(&shape),
    ] {
        assert!(r.is_err(), "a 4 GiB result fit in the child's 1.5 GB");
    }
    assert!(big.to_vec::<f32>().is_err());
}
