//! Atomicity of every view (seed 000; contracts §1 D1–D6, §2, §4) as property tests.
//!
//! For a random source tensor (a random hierarchical placement with signed strides over an
//! f64 carrier of distinct values, or a block-scaled two-subtensor tensor) and a random view
//! operation whose arguments are valid or invalid in every way seed 000 lists:
//!
//! - the operation leaves every source carrier's values, version and release state as they
//!   were, whatever it returns;
//! - it fails exactly when an independent predicate computed here says the input is invalid,
//!   and then with the exception class seed 000 / the contracts specify;
//! - a view it returns has the expected shape and dtype, shares the identical carriers
//!   (`Carrier::same`), keeps the offsets the seed says it keeps, and reads exactly the values
//!   of a naive gather from the source.
//!
//! Nothing here uses StrideWeave's layout algebra to compute an expectation: the test keeps
//! its own model of hierarchical shapes ([`N`]), its own first-mode-fastest coordinate
//! arithmetic ([`decode`], [`encode`]) and its own evaluation of the source placement and of
//! the block-scaled adjacent layout `S_0`.

use ErrorKind::{NotImplemented, Value};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use strideweave::{
    Carrier, Error, ErrorKind, Indexed, IntTuple, Key, Layout, Scalar, Shape, Stride, Tensor, Tree,
};

const CASES: u32 = 2000;

/// `CASES` per property; `STRIDEWEAVE_LONG=1` (issue 11's long mode) runs a million.
fn config() -> ProptestConfig {
    let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
    ProptestConfig {
        cases: if long { 1_000_000 } else { CASES },
        max_global_rejects: 1 << 20,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------
// The test's own model of hierarchical shapes and first-mode-fastest coordinates.
// ---------------------------------------------------------------------------------------

/// A hierarchical integer tuple: an integer (`L`) or a tuple of them (`T`). At the root,
/// `L(n)` is an integer shape with one top-level mode.
#[derive(Clone, Debug, PartialEq)]
enum N {
    L(i64),
    T(Vec<N>),
}

impl N {
    fn leaves(&self) -> Vec<i64> {
        fn go(n: &N, out: &mut Vec<i64>) {
            match n {
                N::L(e) => out.push(*e),
                N::T(c) => c.iter().for_each(|n| go(n, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    fn nleaves(&self) -> usize {
        match self {
            N::L(_) => 1,
            N::T(c) => c.iter().map(N::nleaves).sum(),
        }
    }

    fn size(&self) -> i64 {
        self.leaves().iter().product()
    }

    /// The top-level modes (an integer root is its own single mode).
    fn top(&self) -> Vec<N> {
        match self {
            N::L(_) => vec![self.clone()],
            N::T(c) => c.clone(),
        }
    }

    fn is_leaf(&self) -> bool {
        matches!(self, N::L(_))
    }

    fn int_tuple(&self) -> IntTuple {
        match self {
            N::L(e) => IntTuple::int(*e),
            N::T(c) => IntTuple::tuple(c.iter().map(N::int_tuple)),
        }
    }

    fn shape(&self) -> Shape {
        Shape::new(self.int_tuple()).expect("test shapes have extents >= 1")
    }

    fn stride(&self) -> Stride {
        Stride::new(self.int_tuple()).expect("any integers form a stride")
    }

    /// The same hierarchy with the leaves replaced, in depth-first order.
    fn with_leaves(&self, vals: &[i64]) -> N {
        fn go(n: &N, it: &mut std::slice::Iter<'_, i64>) -> N {
            match n {
                N::L(_) => N::L(*it.next().expect("one value per leaf")),
                N::T(c) => N::T(c.iter().map(|n| go(n, it)).collect()),
            }
        }
        go(self, &mut vals.iter())
    }

    /// The leaf-and-nesting recipe below the root (`n` and `(n)` agree at the root).
    fn profile(&self) -> String {
        fn go(n: &N, out: &mut String) {
            match n {
                N::L(_) => out.push('L'),
                N::T(c) => {
                    out.push('(');
                    c.iter().for_each(|n| go(n, out));
                    out.push(')');
                }
            }
        }
        let mut out = String::new();
        self.top().iter().for_each(|n| go(n, &mut out));
        out
    }
}

/// The first-mode-fastest (colexicographic) digits of `i` over `extents`.
fn decode(extents: &[i64], mut i: i64) -> Vec<i64> {
    extents
        .iter()
        .map(|&e| {
            let c = i % e;
            i /= e;
            c
        })
        .collect()
}

/// The first-mode-fastest ordinal of the digits `coords` over `extents`.
fn encode(extents: &[i64], coords: &[i64]) -> i64 {
    let (mut acc, mut weight) = (0, 1);
    for (&e, &c) in extents.iter().zip(coords) {
        acc += c * weight;
        weight *= e;
    }
    acc
}

fn dot(a: &[i64], b: &[i64]) -> i64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn top_sizes(n: &N) -> Vec<i64> {
    n.top().iter().map(N::size).collect()
}

fn compact(extents: &[i64]) -> Vec<i64> {
    let mut acc = 1;
    extents
        .iter()
        .map(|&e| {
            let d = acc;
            acc *= e;
            d
        })
        .collect()
}

fn divisors(n: i64) -> Vec<i64> {
    (1..=n).filter(|d| n % d == 0).collect()
}

fn all_distinct(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

/// `seq` is `0, b, 2b, …` for some `b >= 0` (seed 000's reshape-compatible condition).
fn regular(seq: &[i64]) -> bool {
    seq.len() <= 1 || (seq[1] >= 0 && seq.iter().enumerate().all(|(i, &k)| k == i as i64 * seq[1]))
}

// ---------------------------------------------------------------------------------------
// Source tensors.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Spec {
    /// A one-subtensor f64 tensor: `shape` with leaf `strides`, placed `front` past the
    /// smallest offset that fits, in a carrier `back` longer than needed.
    Plain {
        shape: N,
        strides: Vec<i64>,
        front: usize,
        back: usize,
    },
    /// `Tensor::block_scaled` over `dims` with blocks of `block` along `mode`.
    Block {
        dims: Vec<i64>,
        mode: usize,
        block: i64,
    },
}

impl Spec {
    fn shape(&self) -> N {
        match self {
            Spec::Plain { shape, .. } => shape.clone(),
            Spec::Block { dims, mode, block } => N::T(
                dims.iter()
                    .enumerate()
                    .map(|(i, &e)| {
                        if i == *mode {
                            N::T(vec![N::L(*block), N::L(e / block)])
                        } else {
                            N::L(e)
                        }
                    })
                    .collect(),
            ),
        }
    }
}

struct Src {
    tensor: Tensor,
    shape: N,
    multi: bool,
    /// `L_0` of every source ordinal (computed here; compact for a block-scaled tensor).
    place: Vec<i64>,
    /// `S_0` of every source ordinal (block-scaled only; computed here).
    adj: Vec<i64>,
    /// The logical value of every source ordinal.
    vals: Vec<f64>,
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

fn build(spec: &Spec) -> Result<Src, TestCaseError> {
    let shape = spec.shape();
    let size = shape.size();
    match spec {
        Spec::Plain {
            strides,
            front,
            back,
            ..
        } => {
            let ext = shape.leaves();
            let (mut lo, mut hi) = (0i64, 0i64);
            for (&e, &d) in ext.iter().zip(strides) {
                let span = (e - 1) * d;
                if span < 0 {
                    lo += span;
                } else {
                    hi += span;
                }
            }
            let offset = (-lo) as usize + front;
            let len = offset + hi as usize + 1 + back;
            let data: Vec<f64> = (0..len).map(|i| 1000.0 + i as f64).collect();
            let layout = Layout::new(shape.shape(), shape.with_leaves(strides).stride())
                .map_err(|e| fail(format!("building the source layout of {spec:?}: {e}")))?;
            let tensor = Tensor::new(Carrier::from_vec(data.clone()), offset, layout)
                .map_err(|e| fail(format!("building the source {spec:?}: {e}")))?;
            let place: Vec<i64> = (0..size).map(|i| dot(&decode(&ext, i), strides)).collect();
            let vals: Vec<f64> = place
                .iter()
                .map(|&k| data[(offset as i64 + k) as usize])
                .collect();
            let read = tensor
                .to_vec::<f64>()
                .map_err(|e| fail(format!("reading the source {spec:?}: {e}")))?;
            prop_assert_eq!(&read, &vals, "source {:?} reads wrong values", spec);
            Ok(Src {
                tensor,
                shape,
                multi: false,
                place,
                adj: Vec::new(),
                vals,
            })
        }
        Spec::Block { dims, mode, block } => {
            let codes: Vec<i8> = (0..size).map(|i| (i + 1) as i8).collect();
            let scale_dims: Vec<i64> = dims
                .iter()
                .enumerate()
                .map(|(i, &e)| if i == *mode { e / block } else { e })
                .collect();
            let nscales: i64 = scale_dims.iter().product();
            let scales: Vec<f32> = (0..nscales).map(|j| 1.0 + j as f32 * 0.25).collect();
            let tensor = Tensor::block_scaled(
                codes.clone(),
                scales.clone(),
                &N::T(dims.iter().map(|&e| N::L(e)).collect()).shape(),
                *mode,
                *block as usize,
            )
            .map_err(|e| fail(format!("building the source {spec:?}: {e}")))?;
            // S_0: the scale ordinal of each logical coordinate; in the block mode the scale
            // coordinate is the block index, the second leaf of that mode.
            let ext = shape.leaves();
            let adj: Vec<i64> = (0..size)
                .map(|i| {
                    let q = decode(&ext, i);
                    let mut k = 0;
                    let c: Vec<i64> = (0..dims.len())
                        .map(|m| {
                            let c = if m == *mode { q[k + 1] } else { q[k] };
                            k += if m == *mode { 2 } else { 1 };
                            c
                        })
                        .collect();
                    encode(&scale_dims, &c)
                })
                .collect();
            let vals: Vec<f64> = (0..size as usize)
                .map(|i| f64::from(f32::from(codes[i]) * scales[adj[i] as usize]))
                .collect();
            let read = dequantized(&tensor)
                .map_err(|e| fail(format!("dequantizing the source {spec:?}: {e}")))?;
            prop_assert_eq!(&read, &vals, "source {:?} dequantizes wrongly", spec);
            Ok(Src {
                tensor,
                shape,
                multi: true,
                place: (0..size).collect(),
                adj,
                vals,
            })
        }
    }
}

fn dequantized(t: &Tensor) -> Result<Vec<f64>, Error> {
    Ok(t.dequantize()?
        .to_vec::<f32>()?
        .into_iter()
        .map(f64::from)
        .collect())
}

/// A top-level mode (or a child of one): a leaf, a tuple nested at most two levels, or
/// rarely an empty tuple.
fn mode_strategy(depth: u32) -> BoxedStrategy<N> {
    let leaf = (1i64..=4).prop_map(N::L);
    if depth >= 2 {
        return leaf.boxed();
    }
    prop_oneof![
        8 => leaf,
        3 => prop::collection::vec(mode_strategy(depth + 1), 1..=3).prop_map(N::T),
        1 => Just(N::T(vec![])),
    ]
    .boxed()
}

fn source_shape() -> impl Strategy<Value = N> {
    prop_oneof![
        1 => (1i64..=4).prop_map(N::L),
        7 => prop::collection::vec(mode_strategy(0), 0..=4).prop_map(N::T),
    ]
    .prop_filter("at most 8 leaves and 1024 elements", |n| {
        n.nleaves() <= 8 && n.size() <= 1024
    })
}

fn plain_spec() -> impl Strategy<Value = Spec> {
    source_shape()
        .prop_flat_map(|shape| {
            let n = shape.nleaves();
            (
                Just(shape),
                prop::collection::vec(-6i64..=6, n),
                0usize..3,
                0usize..3,
            )
        })
        .prop_map(|(shape, strides, front, back)| Spec::Plain {
            shape,
            strides,
            front,
            back,
        })
}

fn block_spec() -> impl Strategy<Value = Spec> {
    (
        prop::collection::vec(1i64..=4, 1..=3),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(dims, m, b)| {
            let mode = m.index(dims.len());
            let divs = divisors(dims[mode]);
            let block = divs[b.index(divs.len())];
            Spec::Block { dims, mode, block }
        })
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![6 => plain_spec(), 1 => block_spec()]
}

// ---------------------------------------------------------------------------------------
// Operations and their random arguments.
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    Index(Vec<Key>),
    Permute(Vec<usize>),
    Reshape(N),
    /// Selector shape and stride (the stride may be incongruent).
    AsStrided(N, N),
    BroadcastTo(N),
    BroadcastInDim(N, Vec<usize>),
    BroadcastRight(N),
    Squeeze(usize),
    Unsqueeze(usize),
    Reverse(usize),
    Rearrange(Tree, Option<Tree>),
}

/// splitmix64: the arguments of an operation derive from one proptest-drawn seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    fn coin(&mut self) -> bool {
        self.one_in(2)
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
    fn opt(&mut self, lo: i64, hi: i64) -> Option<i64> {
        if self.one_in(4) {
            None
        } else {
            Some(self.range(lo, hi))
        }
    }
}

fn rand_mode(rng: &mut Rng, depth: u32) -> N {
    if depth >= 2 || !rng.one_in(4) {
        N::L(rng.range(1, 4))
    } else if rng.one_in(12) {
        N::T(vec![])
    } else {
        N::T(
            (0..rng.range(1, 3))
                .map(|_| rand_mode(rng, depth + 1))
                .collect(),
        )
    }
}

fn rand_shape(rng: &mut Rng, max_top: i64) -> N {
    loop {
        let s = if rng.one_in(7) {
            N::L(rng.range(1, 4))
        } else {
            N::T(
                (0..rng.range(0, max_top))
                    .map(|_| rand_mode(rng, 0))
                    .collect(),
            )
        };
        if s.nleaves() <= 6 && s.size() <= 256 {
            return s;
        }
    }
}

/// A random hierarchy of size exactly `size`.
fn factor_shape(rng: &mut Rng, size: i64) -> N {
    let mut ext = Vec::new();
    let mut rem = size;
    for _ in 0..rng.range(0, 4) {
        let d = divisors(rem);
        let x = d[rng.below(d.len())];
        ext.push(x);
        rem /= x;
    }
    if rem > 1 || (ext.is_empty() && rng.coin()) {
        ext.push(rem);
    }
    rng.shuffle(&mut ext);
    let mut modes = Vec::new();
    let mut i = 0;
    while i < ext.len() {
        if i + 1 < ext.len() && rng.one_in(3) {
            let k = (rng.range(2, 3) as usize).min(ext.len() - i);
            modes.push(N::T(ext[i..i + k].iter().map(|&e| N::L(e)).collect()));
            i += k;
        } else {
            modes.push(N::L(ext[i]));
            i += 1;
        }
    }
    match modes.as_slice() {
        [N::L(e)] if rng.coin() => N::L(*e),
        _ => N::T(modes),
    }
}

fn gen_key(mode: &N, rng: &mut Rng) -> Key {
    let n = mode.size();
    let whole = |rng: &mut Rng| match rng.below(5) {
        0 => Key::all(),
        1 => Key::slice(Some(0), None, None),
        2 => Key::slice(None, Some(n), None),
        3 => Key::slice(None, Some(n + rng.range(1, 3)), Some(1)),
        _ => Key::slice(Some(-n - rng.range(0, 2)), None, None),
    };
    let raw = |rng: &mut Rng| Key::slice(rng.opt(-6, 6), rng.opt(-6, 8), rng.opt(-2, 3));
    match rng.below(10) {
        0..=2 => Key::Int(rng.range(0, n - 1)),
        3 => Key::Int(if rng.coin() {
            n + rng.range(0, 2)
        } else {
            -rng.range(1, 3)
        }),
        4..=6 if mode.is_leaf() => {
            // A valid slice, spelled in one of Python's ways.
            let a = rng.range(0, n - 1);
            let mut st = rng.range(1, 3);
            if st > n - a {
                st = 1;
            }
            let k = rng.range(1, (n - a) / st);
            let z = a + k * st;
            let start = match rng.below(3) {
                0 if a == 0 => None,
                1 => Some(a - n),
                _ => Some(a),
            };
            let stop = match rng.below(3) {
                0 if z == n => None,
                1 if z < n => Some(z - n),
                2 if z == n => Some(n + rng.range(0, 3)),
                _ => Some(z),
            };
            let step = if st == 1 && rng.coin() {
                None
            } else {
                Some(st)
            };
            Key::slice(start, stop, step)
        }
        4..=6 => whole(rng),
        7 | 8 => raw(rng),
        _ => whole(rng),
    }
}

fn gen_keys(shape: &N, rng: &mut Rng) -> Vec<Key> {
    let mut keys: Vec<Key> = shape.top().iter().map(|m| gen_key(m, rng)).collect();
    match rng.below(12) {
        0 => {
            keys.pop();
        }
        1 => keys.push(gen_key(&N::L(rng.range(1, 4)), rng)),
        _ => {}
    }
    keys
}

fn gen_order(rank: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rank).collect();
    rng.shuffle(&mut order);
    match rng.below(10) {
        0 if rank > 0 => {
            let (a, b) = (rng.below(rank), rng.below(rank));
            order[a] = order[b];
        }
        1 => {
            if rank > 0 {
                order.remove(rng.below(rank));
            } else {
                order.push(0);
            }
        }
        2 => {
            if rank > 0 {
                let k = rng.below(rank);
                order[k] = rank + rng.below(3);
            } else {
                order.push(rng.below(2));
            }
        }
        3 => order.push(rng.below(rank + 2)),
        4 => {
            order = (0..rng.below(rank + 2))
                .map(|_| rng.below(rank + 2))
                .collect()
        }
        _ => {}
    }
    order
}

fn gen_reshape(src: &Src, rng: &mut Rng) -> N {
    let size = src.shape.size();
    match rng.below(8) {
        0..=4 => factor_shape(rng, size),
        5 => {
            let k = rng.range(2, 3);
            factor_shape(rng, size * k)
        }
        6 => factor_shape(rng, size + 1),
        _ => rand_shape(rng, 4),
    }
}

/// A stride tuple whose hierarchy differs from `n`'s (below the root).
fn incongruent(n: &N, rng: &mut Rng) -> N {
    match n {
        N::L(e) => N::T(vec![N::L(*e), N::L(1)]),
        N::T(c) if c.is_empty() => N::T(vec![N::L(1)]),
        N::T(c) => {
            let mut c = c.clone();
            match rng.below(3) {
                0 => c.push(N::L(1)),
                1 => {
                    c.pop();
                }
                _ => c[0] = N::T(vec![c[0].clone()]),
            }
            N::T(c)
        }
    }
}

fn gen_as_strided(src: &Src, rng: &mut Rng) -> Op {
    let size = src.shape.size();
    let shape = match rng.below(3) {
        0 => rand_shape(rng, 3),
        _ => {
            let t = if rng.coin() {
                let d = divisors(size);
                d[rng.below(d.len())]
            } else {
                rng.range(1, size)
            };
            factor_shape(rng, t)
        }
    };
    let ext = shape.leaves();
    let mut strides: Vec<i64> = match rng.below(5) {
        0 | 1 => ext.iter().map(|_| rng.range(-2, 8)).collect(),
        2 => {
            let m = rng.range(1, 2);
            compact(&ext).iter().map(|d| d * m).collect()
        }
        3 => {
            let mut rev = ext.clone();
            rev.reverse();
            let mut d = compact(&rev);
            d.reverse();
            d
        }
        _ => compact(&ext),
    };
    if !strides.is_empty() && rng.one_in(4) {
        let k = rng.below(strides.len());
        strides[k] = if rng.coin() {
            0
        } else {
            strides[rng.below(strides.len())]
        };
    }
    let mut stride = shape.with_leaves(&strides);
    if rng.one_in(10) {
        stride = incongruent(&stride, rng);
    }
    Op::AsStrided(shape, stride)
}

/// Widens some extent-one leaves.
fn widen(n: &N, rng: &mut Rng) -> N {
    match n {
        N::L(1) if rng.coin() => N::L(rng.range(1, 4)),
        N::L(e) => N::L(*e),
        N::T(c) => N::T(c.iter().map(|m| widen(m, rng)).collect()),
    }
}

/// Changes one extent other than one (an invalid broadcast), if there is one.
fn bump(n: &N, rng: &mut Rng) -> N {
    let ext = n.leaves();
    let big: Vec<usize> = (0..ext.len()).filter(|&k| ext[k] > 1).collect();
    if big.is_empty() {
        return n.clone();
    }
    let k = big[rng.below(big.len())];
    let mut ext = ext;
    ext[k] = if rng.coin() { ext[k] + 1 } else { ext[k] - 1 };
    n.with_leaves(&ext)
}

fn gen_broadcast_to(shape: &N, rng: &mut Rng) -> N {
    let t = widen(shape, rng);
    match rng.below(10) {
        0 => bump(&t, rng),
        1 => match t {
            N::L(e) => N::T(vec![N::L(e), N::L(1)]),
            N::T(mut c) => {
                match rng.below(4) {
                    0 => c.push(N::L(1)),
                    1 => {
                        c.pop();
                    }
                    2 if !c.is_empty() => {
                        let k = rng.below(c.len());
                        c[k] = N::T(vec![c[k].clone()]);
                    }
                    _ => c = N::T(c).leaves().into_iter().map(N::L).collect(),
                }
                N::T(c)
            }
        },
        2 => match t {
            N::L(e) => N::T(vec![N::L(e)]),
            N::T(c) => match c.as_slice() {
                [N::L(e)] => N::L(*e),
                _ => N::T(c),
            },
        },
        _ => t,
    }
}

fn gen_broadcast_in_dim(shape: &N, rng: &mut Rng) -> (N, Vec<usize>) {
    let modes = shape.top();
    let rank = modes.len();
    let trank = rank + rng.below(3);
    let mut pos: Vec<usize> = (0..trank).collect();
    rng.shuffle(&mut pos);
    pos.truncate(rank);
    pos.sort_unstable();
    let mut tmodes = Vec::new();
    let mut i = 0;
    for j in 0..trank {
        if i < rank && pos[i] == j {
            tmodes.push(widen(&modes[i], rng));
            i += 1;
        } else if rng.one_in(8) {
            tmodes.push(N::T(vec![N::L(rng.range(1, 4)), N::L(rng.range(1, 4))]));
        } else {
            tmodes.push(N::L(rng.range(1, 4)));
        }
    }
    if rng.one_in(10) && !tmodes.is_empty() {
        let k = rng.below(tmodes.len());
        tmodes[k] = bump(&tmodes[k], rng);
    }
    let target = match tmodes.as_slice() {
        [N::L(e)] if rng.coin() => N::L(*e),
        _ => N::T(tmodes),
    };
    let mut dims = pos;
    match rng.below(10) {
        0 => {
            if rng.coin() {
                dims.pop();
            } else {
                dims.push(rng.below(trank + 1));
            }
        }
        1 if !dims.is_empty() => {
            let k = rng.below(dims.len());
            dims[k] = trank + rng.below(2);
        }
        2 if dims.len() >= 2 => {
            let k = rng.below(dims.len() - 1);
            if rng.coin() {
                dims.swap(k, k + 1);
            } else {
                dims[k + 1] = dims[k];
            }
        }
        _ => {}
    }
    (target, dims)
}

fn gen_broadcast_right(shape: &N, rng: &mut Rng) -> N {
    let mut modes: Vec<N> = (0..rng.below(3))
        .map(|_| {
            if rng.one_in(6) {
                N::T(vec![N::L(rng.range(1, 4)), N::L(rng.range(1, 4))])
            } else {
                N::L(rng.range(1, 4))
            }
        })
        .collect();
    let mut trailing: Vec<N> = shape.top().iter().map(|m| widen(m, rng)).collect();
    match rng.below(8) {
        0 if !trailing.is_empty() => {
            trailing.remove(0);
        }
        1 if !trailing.is_empty() => {
            let k = rng.below(trailing.len());
            trailing[k] = bump(&trailing[k], rng);
        }
        _ => {}
    }
    modes.extend(trailing);
    match modes.as_slice() {
        [N::L(e)] if rng.coin() => N::L(*e),
        _ => N::T(modes),
    }
}

/// A selection tree mirroring the top of `shape` (sometimes not), and its leaf count.
fn gen_selection(shape: &N, rng: &mut Rng) -> (Tree, usize) {
    if rng.one_in(8) {
        return (if rng.coin() { Tree::Leaf } else { Tree::id(3) }, 1);
    }
    fn mode(m: &N, rng: &mut Rng, n: &mut usize) -> Tree {
        match m {
            N::T(c) if rng.coin() => {
                Tree::node(c.iter().map(|x| mode(x, rng, n)).collect::<Vec<_>>())
            }
            _ => {
                *n += 1;
                if rng.one_in(6) {
                    Tree::id(5)
                } else {
                    Tree::Leaf
                }
            }
        }
    }
    let mut n = 0;
    let mut children: Vec<Tree> = shape.top().iter().map(|m| mode(m, rng, &mut n)).collect();
    match rng.below(8) {
        0 => {
            if rng.coin() {
                children.pop();
            } else {
                children.push(Tree::Leaf);
            }
        }
        1 if !children.is_empty() => {
            let k = rng.below(children.len());
            children[k] = Tree::node([Tree::Leaf]);
        }
        _ => {}
    }
    (Tree::Node(children), n)
}

fn gen_rearrange(shape: &N, rng: &mut Rng) -> (Tree, Option<Tree>) {
    let (selection, nparts) = if rng.one_in(4) {
        let (t, n) = gen_selection(shape, rng);
        (Some(t), n)
    } else {
        (None, shape.nleaves())
    };
    let mut ids: Vec<usize> = (0..nparts).collect();
    rng.shuffle(&mut ids);
    ids.retain(|_| !rng.one_in(6));
    let mut items: Vec<Tree> = ids.into_iter().map(Tree::id).collect();
    for _ in 0..rng.below(3) {
        let at = rng.below(items.len() + 1);
        items.insert(at, Tree::Leaf);
    }
    match rng.below(10) {
        0 if !items.is_empty() => {
            let k = rng.below(items.len());
            let dup = items[k].clone();
            items.insert(rng.below(items.len() + 1), dup);
        }
        1 => items.push(Tree::id(nparts + rng.below(2))),
        _ => {}
    }
    // Random nesting of consecutive runs, and rarely an empty nested tree.
    let mut nested = Vec::new();
    let mut i = 0;
    while i < items.len() {
        if i + 1 < items.len() && rng.one_in(4) {
            let k = rng.below(items.len() - i) + 1;
            nested.push(Tree::node(items[i..i + k].to_vec()));
            i += k;
        } else {
            nested.push(items[i].clone());
            i += 1;
        }
    }
    if rng.one_in(20) {
        nested.push(Tree::node([]));
    }
    let output = if nested.len() == 1 && rng.coin() {
        nested.pop().expect("one item")
    } else {
        Tree::Node(nested)
    };
    (output, selection)
}

#[derive(Clone, Copy, Debug)]
enum Family {
    Index,
    Permute,
    Reshape,
    AsStrided,
    BroadcastTo,
    BroadcastInDim,
    BroadcastRight,
    Squeeze,
    Reverse,
    Rearrange,
}

const FAMILIES: [Family; 10] = [
    Family::Index,
    Family::Permute,
    Family::Reshape,
    Family::AsStrided,
    Family::BroadcastTo,
    Family::BroadcastInDim,
    Family::BroadcastRight,
    Family::Squeeze,
    Family::Reverse,
    Family::Rearrange,
];

fn gen_op(family: Family, src: &Src, seed: u64) -> Op {
    let rng = &mut Rng(seed);
    let shape = &src.shape;
    let rank = shape.top().len();
    match family {
        Family::Index => Op::Index(gen_keys(shape, rng)),
        Family::Permute => Op::Permute(gen_order(rank, rng)),
        Family::Reshape => Op::Reshape(gen_reshape(src, rng)),
        Family::AsStrided => gen_as_strided(src, rng),
        Family::BroadcastTo => Op::BroadcastTo(gen_broadcast_to(shape, rng)),
        Family::BroadcastInDim => {
            let (t, d) = gen_broadcast_in_dim(shape, rng);
            Op::BroadcastInDim(t, d)
        }
        Family::BroadcastRight => Op::BroadcastRight(gen_broadcast_right(shape, rng)),
        Family::Squeeze => {
            let dim = rng.below(rank + 2);
            if rng.coin() {
                Op::Squeeze(dim)
            } else {
                Op::Unsqueeze(dim)
            }
        }
        Family::Reverse => Op::Reverse(rng.below(rank + 2)),
        Family::Rearrange => {
            let (o, s) = gen_rearrange(shape, rng);
            Op::Rearrange(o, s)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Running an operation and the independent expectation.
// ---------------------------------------------------------------------------------------

#[derive(Debug)]
enum Outcome {
    View(Tensor),
    Value(Scalar),
    Err(Error),
}

fn run(t: &Tensor, op: &Op) -> Outcome {
    let r = match op {
        Op::Index(keys) => {
            return match t.index(keys) {
                Ok(Indexed::View(v)) => Outcome::View(v),
                Ok(Indexed::Value(s)) => Outcome::Value(s),
                Err(e) => Outcome::Err(e),
            };
        }
        Op::Permute(order) => t.permute(order),
        Op::Reshape(target) => t.reshape(&target.shape()),
        Op::AsStrided(shape, stride) => t.as_strided(&shape.shape(), &stride.stride()),
        Op::BroadcastTo(target) => t.broadcast_to(&target.shape()),
        Op::BroadcastInDim(target, dims) => t.broadcast_in_dim(&target.shape(), dims),
        Op::BroadcastRight(target) => t.broadcast_right(&target.shape()),
        Op::Squeeze(dim) => t.squeeze(*dim),
        Op::Unsqueeze(dim) => t.unsqueeze(*dim),
        Op::Reverse(mode) => t.reverse(*mode),
        Op::Rearrange(output, selection) => t.rearrange_tree(output, selection.as_ref()),
    };
    match r {
        Ok(v) => Outcome::View(v),
        Err(e) => Outcome::Err(e),
    }
}

#[derive(Debug)]
enum Expect {
    /// An error of one of these classes.
    Fail(Vec<ErrorKind>),
    /// The value at this source ordinal (an all-integer key).
    Value(i64),
    /// A view of this shape whose ordinal `i` reads source ordinal `gather[i]`.
    View {
        shape: N,
        gather: Vec<i64>,
        keeps_offset: bool,
    },
}

fn value_error() -> Expect {
    Expect::Fail(vec![Value])
}

fn view(shape: N, gather: Vec<i64>) -> Expect {
    Expect::View {
        shape,
        gather,
        keeps_offset: true,
    }
}

/// The source ordinal read at every view ordinal, when view leaf `j` carries source leaf
/// `map[j]` (`None`: an inserted leaf). Source leaves no view leaf carries, and source leaves
/// of extent one (widened by a broadcast), read coordinate 0.
fn leaf_gather(view: &N, map: &[Option<usize>], src: &N) -> Vec<i64> {
    let (vext, sext) = (view.leaves(), src.leaves());
    assert_eq!(vext.len(), map.len());
    (0..view.size())
        .map(|i| {
            let q = decode(&vext, i);
            let mut c = vec![0; sext.len()];
            for (j, m) in map.iter().enumerate() {
                if let Some(k) = *m {
                    c[k] = if sext[k] == 1 { 0 } else { q[j] };
                }
            }
            encode(&sext, &c)
        })
        .collect()
}

/// The source ordinal read at every view ordinal, from top-level coordinates.
fn top_gather(view: &N, src: &N, f: impl Fn(&[i64]) -> Vec<i64>) -> Vec<i64> {
    let (vsizes, ssizes) = (top_sizes(view), top_sizes(src));
    (0..view.size())
        .map(|i| encode(&ssizes, &f(&decode(&vsizes, i))))
        .collect()
}

fn expect(src: &Src, op: &Op) -> Expect {
    match op {
        Op::Index(keys) => expect_index(src, keys),
        Op::Permute(order) => expect_permute(src, order),
        Op::Reshape(target) => {
            if target.size() != src.shape.size()
                || !regular(&src.place)
                || (src.multi && !regular(&src.adj))
            {
                return value_error();
            }
            view(target.clone(), (0..target.size()).collect())
        }
        Op::AsStrided(shape, stride) => expect_as_strided(src, shape, stride),
        Op::BroadcastTo(target) => {
            let map: Vec<Option<usize>> = (0..src.shape.nleaves()).map(Some).collect();
            expect_broadcast(&src.shape, &src.shape, &map, target)
        }
        Op::BroadcastInDim(target, dims) => expect_broadcast_in_dim(&src.shape, target, dims),
        Op::BroadcastRight(target) => {
            let (rank, trank) = (src.shape.top().len(), target.top().len());
            if rank > trank {
                return value_error();
            }
            let dims: Vec<usize> = (trank - rank..trank).collect();
            expect_broadcast_in_dim(&src.shape, target, &dims)
        }
        Op::Squeeze(dim) => {
            let modes = src.shape.top();
            let at = *dim;
            if at >= modes.len() || modes[at] != N::L(1) {
                return value_error();
            }
            let first: usize = modes[..at].iter().map(N::nleaves).sum();
            let mut kept = modes;
            kept.remove(at);
            let out = N::T(kept);
            let map: Vec<Option<usize>> = (0..out.nleaves())
                .map(|j| Some(if j < first { j } else { j + 1 }))
                .collect();
            let gather = leaf_gather(&out, &map, &src.shape);
            view(out, gather)
        }
        Op::Unsqueeze(dim) => {
            let modes = src.shape.top();
            let at = *dim;
            if at > modes.len() {
                return value_error();
            }
            let first: usize = modes[..at].iter().map(N::nleaves).sum();
            let mut out = modes;
            out.insert(at, N::L(1));
            let out = N::T(out);
            let map: Vec<Option<usize>> = (0..out.nleaves())
                .map(|j| match j.cmp(&first) {
                    std::cmp::Ordering::Less => Some(j),
                    std::cmp::Ordering::Equal => None,
                    std::cmp::Ordering::Greater => Some(j - 1),
                })
                .collect();
            let gather = leaf_gather(&out, &map, &src.shape);
            view(out, gather)
        }
        Op::Reverse(mode) => {
            if src.multi {
                return Expect::Fail(vec![NotImplemented]);
            }
            let sizes = top_sizes(&src.shape);
            if *mode >= sizes.len() {
                return value_error();
            }
            let gather = top_gather(&src.shape, &src.shape, |c| {
                let mut c = c.to_vec();
                c[*mode] = sizes[*mode] - 1 - c[*mode];
                c
            });
            Expect::View {
                shape: src.shape.clone(),
                gather,
                keeps_offset: false,
            }
        }
        Op::Rearrange(output, selection) => {
            if src.multi {
                return Expect::Fail(vec![NotImplemented]);
            }
            expect_rearrange(&src.shape, output, selection.as_ref())
        }
    }
}

fn expect_index(src: &Src, keys: &[Key]) -> Expect {
    let modes = src.shape.top();
    if keys.len() != modes.len() {
        return value_error();
    }
    let (mut bad, mut off_origin, mut any_slice) = (false, false, false);
    let mut fixed = vec![0i64; modes.len()];
    // (source mode, start, step, view mode)
    let mut kept: Vec<(usize, i64, i64, N)> = Vec::new();
    for (m, (key, mode)) in keys.iter().zip(&modes).enumerate() {
        let n = mode.size();
        match *key {
            Key::Int(c) => {
                if (0..n).contains(&c) {
                    fixed[m] = c;
                    off_origin |= c != 0;
                } else {
                    bad = true;
                }
            }
            Key::Slice { start, stop, step } => {
                any_slice = true;
                let st = step.unwrap_or(1);
                if st <= 0 {
                    bad = true;
                    continue;
                }
                let norm = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
                let a = start.map_or(0, norm);
                let z = stop.map_or(n, norm);
                if z <= a || (z - a) % st != 0 || (!mode.is_leaf() && (a, z, st) != (0, n, 1)) {
                    bad = true;
                    continue;
                }
                off_origin |= a != 0;
                let out = if mode.is_leaf() {
                    N::L((z - a) / st)
                } else {
                    mode.clone()
                };
                kept.push((m, a, st, out));
            }
        }
    }
    if bad {
        // A multi-subtensor key that is also off the origin (or integers only) breaks two
        // rules at once; the seed does not order them.
        return if src.multi && (off_origin || !any_slice) {
            Expect::Fail(vec![Value, NotImplemented])
        } else {
            value_error()
        };
    }
    if src.multi && (off_origin || !any_slice) {
        return Expect::Fail(vec![NotImplemented]);
    }
    if !any_slice {
        return Expect::Value(encode(&top_sizes(&src.shape), &fixed));
    }
    let out = N::T(kept.iter().map(|k| k.3.clone()).collect());
    let gather = top_gather(&out, &src.shape, |c| {
        let mut s = fixed.clone();
        for (&(m, a, st, _), &cj) in kept.iter().zip(c) {
            s[m] = a + cj * st;
        }
        s
    });
    Expect::View {
        shape: out,
        gather,
        keeps_offset: src.multi,
    }
}

fn expect_permute(src: &Src, order: &[usize]) -> Expect {
    let modes = src.shape.top();
    let mut sorted = order.to_vec();
    sorted.sort_unstable();
    if sorted != (0..modes.len()).collect::<Vec<_>>() {
        return value_error();
    }
    let out = match &src.shape {
        N::L(_) => src.shape.clone(),
        N::T(_) => N::T(order.iter().map(|&i| modes[i].clone()).collect()),
    };
    let gather = top_gather(&out, &src.shape, |c| {
        let mut s = vec![0; order.len()];
        for (j, &i) in order.iter().enumerate() {
            s[i] = c[j];
        }
        s
    });
    view(out, gather)
}

/// `F(q) = seq[B(q)]` equals `Σ q_k · seq[d_k]` over every coordinate `q` (D6).
fn affine(seq: &[i64], ext: &[i64], d: &[i64], b: &[i64]) -> bool {
    let unit: Vec<i64> = ext
        .iter()
        .zip(d)
        .map(|(&e, &dk)| if e > 1 { seq[dk as usize] } else { 0 })
        .collect();
    b.iter()
        .enumerate()
        .all(|(i, &bi)| seq[bi as usize] == dot(&decode(ext, i as i64), &unit))
}

/// The source ordinal `B(q)` of every selector ordinal, when the selector is congruent,
/// injective and inside the source.
fn selector(src: &Src, shape: &N, stride: &N) -> Option<Vec<i64>> {
    if shape.profile() != stride.profile() {
        return None;
    }
    let (ext, d) = (shape.leaves(), stride.leaves());
    let b: Vec<i64> = (0..shape.size())
        .map(|i| dot(&decode(&ext, i), &d))
        .collect();
    let size = src.shape.size();
    (all_distinct(&b) && b.iter().all(|&x| (0..size).contains(&x))).then_some(b)
}

fn expect_as_strided(src: &Src, shape: &N, stride: &N) -> Expect {
    let Some(b) = selector(src, shape, stride) else {
        return value_error();
    };
    let (ext, d) = (shape.leaves(), stride.leaves());
    if !affine(&src.place, &ext, &d, &b) {
        return value_error();
    }
    let composed: Vec<i64> = b.iter().map(|&x| src.place[x as usize]).collect();
    if !all_distinct(&composed) || (src.multi && !affine(&src.adj, &ext, &d, &b)) {
        return value_error();
    }
    view(shape.clone(), b)
}

/// Broadcasting `inter` (whose leaf `k` carries source leaf `map[k]`) to `target`.
fn expect_broadcast(src: &N, inter: &N, map: &[Option<usize>], target: &N) -> Expect {
    if inter.profile() != target.profile() {
        return value_error();
    }
    let (iext, text) = (inter.leaves(), target.leaves());
    if iext.iter().zip(&text).any(|(&a, &b)| a != b && a != 1) {
        return value_error();
    }
    // A widened leaf reads source coordinate 0: leaf_gather does that for extent-one leaves.
    let gather = leaf_gather(target, map, src);
    view(target.clone(), gather)
}

fn expect_broadcast_in_dim(src: &N, target: &N, dims: &[usize]) -> Expect {
    let modes = src.top();
    let trank = target.top().len();
    if dims.len() != modes.len()
        || dims.iter().any(|&d| d >= trank)
        || dims.windows(2).any(|w| w[0] >= w[1])
    {
        return value_error();
    }
    let mut inter = Vec::new();
    let mut map = Vec::new();
    let mut leaf = 0;
    let mut i = 0;
    for j in 0..trank {
        if dims.contains(&j) {
            let n = modes[i].nleaves();
            map.extend((leaf..leaf + n).map(Some));
            leaf += n;
            inter.push(modes[i].clone());
            i += 1;
        } else {
            map.push(None);
            inter.push(N::L(1));
        }
    }
    expect_broadcast(src, &N::T(inter), &map, target)
}

fn expect_rearrange(src: &N, output: &Tree, selection: Option<&Tree>) -> Expect {
    // The extracted sublayouts: (hierarchy, first source leaf).
    let mut parts: Vec<(N, usize)> = Vec::new();
    match selection {
        None => {
            for (k, e) in src.leaves().into_iter().enumerate() {
                parts.push((N::L(e), k));
            }
        }
        Some(Tree::Leaf | Tree::Id(_)) => parts.push((src.clone(), 0)),
        Some(Tree::Node(children)) => {
            fn mirror(
                children: &[Tree],
                modes: &[N],
                mut leaf: usize,
                parts: &mut Vec<(N, usize)>,
            ) -> bool {
                if children.len() != modes.len() {
                    return false;
                }
                for (c, m) in children.iter().zip(modes) {
                    match (c, m) {
                        (Tree::Leaf | Tree::Id(_), m) => parts.push((m.clone(), leaf)),
                        (Tree::Node(kids), N::T(sub)) => {
                            if !mirror(kids, sub, leaf, parts) {
                                return false;
                            }
                        }
                        (Tree::Node(_), N::L(_)) => return false,
                    }
                    leaf += m.nleaves();
                }
                true
            }
            if !mirror(children, &src.top(), 0, &mut parts) {
                return value_error();
            }
        }
    }
    let mut used = vec![false; parts.len()];
    let mut map: Vec<Option<usize>> = Vec::new();
    fn place(
        t: &Tree,
        parts: &[(N, usize)],
        used: &mut [bool],
        map: &mut Vec<Option<usize>>,
    ) -> Option<N> {
        match t {
            Tree::Leaf => {
                map.push(None);
                Some(N::L(1))
            }
            Tree::Id(n) => {
                let (part, first) = parts.get(*n)?;
                if std::mem::replace(&mut used[*n], true) {
                    return None;
                }
                map.extend((*first..first + part.nleaves()).map(Some));
                Some(part.clone())
            }
            Tree::Node(c) => Some(N::T(
                c.iter()
                    .map(|t| place(t, parts, used, map))
                    .collect::<Option<Vec<_>>>()?,
            )),
        }
    }
    let Some(out) = place(output, &parts, &mut used, &mut map) else {
        return value_error();
    };
    if parts
        .iter()
        .zip(&used)
        .any(|((p, _), &u)| !u && p.size() > 1)
    {
        return value_error();
    }
    let gather = leaf_gather(&out, &map, src);
    view(out, gather)
}

// ---------------------------------------------------------------------------------------
// The checks.
// ---------------------------------------------------------------------------------------

type CarrierState = (Vec<Result<Scalar, Error>>, u64, bool);

/// Every carrier's values, version and release state.
fn state(t: &Tensor) -> Vec<CarrierState> {
    t.representation()
        .subtensors()
        .iter()
        .map(|s| {
            let c = &s.carrier;
            (
                (0..c.len()).map(|i| c.get(i)).collect(),
                c.version(),
                c.is_released(),
            )
        })
        .collect()
}

fn values(src: &Src, v: &Tensor) -> Result<Vec<f64>, Error> {
    if src.multi {
        dequantized(v)
    } else {
        v.to_vec::<f64>()
    }
}

fn check_view(
    src: &Src,
    v: &Tensor,
    shape: &N,
    gather: &[i64],
    keeps_offset: bool,
    op: &Op,
) -> Result<(), TestCaseError> {
    let ctx = || format!("{op:?} on {:?} gave {v:?}", src.tensor);
    prop_assert_eq!(v.shape(), &shape.shape(), "shape: {}", ctx());
    prop_assert_eq!(v.dtype(), src.tensor.dtype(), "dtype: {}", ctx());
    let (a, b) = (v.representation(), src.tensor.representation());
    prop_assert_eq!(a.subtensors().len(), b.subtensors().len(), "{}", ctx());
    prop_assert_eq!(a.adjacent().len(), b.adjacent().len(), "{}", ctx());
    for (x, y) in a.subtensors().iter().zip(b.subtensors()) {
        prop_assert!(
            Carrier::same(&x.carrier, &y.carrier),
            "carriers not shared: {}",
            ctx()
        );
    }
    if src.multi {
        for (x, y) in a.subtensors().iter().zip(b.subtensors()) {
            prop_assert_eq!(x.offset, y.offset, "offsets: {}", ctx());
        }
        for (x, y) in a.subtensors().iter().zip(b.subtensors()).skip(1) {
            prop_assert_eq!(&x.layout, &y.layout, "deeper layouts: {}", ctx());
        }
    } else if keeps_offset {
        prop_assert_eq!(v.offset(), src.tensor.offset(), "offset: {}", ctx());
    }
    let got = values(src, v).map_err(|e| fail(format!("reading the view: {e}; {}", ctx())))?;
    let want: Vec<f64> = gather.iter().map(|&k| src.vals[k as usize]).collect();
    prop_assert_eq!(got, want, "values: {}", ctx());
    Ok(())
}

/// How closely success must follow the independent predicate.
#[derive(Clone, Copy, PartialEq)]
enum Strictness {
    /// Success exactly when the predicate says the input is valid.
    Exact,
    /// as_strided's minimum: an error is a ValueError; an accepted selector must be congruent,
    /// injective and inside the source, and the view must read the gathered values.
    Gather,
}

fn check(
    spec: &Spec,
    family: Family,
    seed: u64,
    strictness: Strictness,
) -> Result<(), TestCaseError> {
    let src = build(spec)?;
    let op = gen_op(family, &src, seed);
    let before = state(&src.tensor);
    let out = run(&src.tensor, &op);
    prop_assert_eq!(
        &state(&src.tensor),
        &before,
        "{:?} on {:?} changed a carrier",
        op,
        src.tensor
    );
    let want = expect(&src, &op);
    match (&out, &want) {
        (Outcome::Err(e), Expect::Fail(kinds)) => prop_assert!(
            kinds.contains(&e.kind()),
            "{:?} on {:?}: error {} of kind {:?}, expected one of {:?}",
            op,
            src.tensor,
            e,
            e.kind(),
            kinds
        ),
        (Outcome::Value(s), Expect::Value(k)) => prop_assert_eq!(
            *s,
            Scalar::F64(src.vals[*k as usize]),
            "{:?} on {:?}",
            op,
            src.tensor
        ),
        (
            Outcome::View(v),
            Expect::View {
                shape,
                gather,
                keeps_offset,
            },
        ) => check_view(&src, v, shape, gather, *keeps_offset, &op)?,
        (Outcome::Err(e), Expect::View { .. }) if strictness == Strictness::Gather => {
            prop_assert_eq!(e.kind(), Value, "{:?} on {:?}: {}", op, src.tensor, e)
        }
        (Outcome::View(v), Expect::Fail(_)) if strictness == Strictness::Gather => {
            let Op::AsStrided(shape, stride) = &op else {
                return Err(fail(format!(
                    "{op:?} on {:?}: got {v:?}, expected an error",
                    src.tensor
                )));
            };
            let Some(b) = selector(&src, shape, stride) else {
                return Err(fail(format!(
                    "{op:?} on {:?}: accepted a selector that is incongruent, aliases or leaves the source: {v:?}",
                    src.tensor
                )));
            };
            check_view(&src, v, shape, &b, true, &op)?;
        }
        _ => {
            return Err(fail(format!(
                "{op:?} on {:?} (spec {spec:?}): got {out:?}, expected {want:?}",
                src.tensor
            )));
        }
    }
    // Reading the view's values did not touch the carriers either.
    prop_assert_eq!(
        &state(&src.tensor),
        &before,
        "{:?}: reading the view changed a carrier",
        op
    );
    Ok(())
}

/// The same operation after the source's carriers are released: the same error, or a view
/// with the same layout whose values can no longer be read (Runtime); never a panic.
fn check_released(spec: &Spec, family: Family, seed: u64) -> Result<(), TestCaseError> {
    let src = build(spec)?;
    let op = gen_op(family, &src, seed);
    let live = run(&src.tensor, &op);
    for s in src.tensor.representation().subtensors() {
        s.carrier.release().unwrap();
    }
    let versions: Vec<u64> = src
        .tensor
        .representation()
        .subtensors()
        .iter()
        .map(|s| s.carrier.version())
        .collect();
    let dead = run(&src.tensor, &op);
    for (s, v) in src
        .tensor
        .representation()
        .subtensors()
        .iter()
        .zip(&versions)
    {
        prop_assert!(s.carrier.is_released());
        prop_assert_eq!(s.carrier.version(), *v, "{:?}: version changed", op);
    }
    let runtime = |r: Result<Vec<f64>, Error>, what: &str| -> Result<(), TestCaseError> {
        match r {
            Err(e) if e.kind() == ErrorKind::Runtime => Ok(()),
            other => Err(fail(format!(
                "{op:?}: {what} of a released view gave {other:?}, expected a Runtime error"
            ))),
        }
    };
    match (&live, &dead) {
        (Outcome::Err(a), Outcome::Err(b)) => {
            prop_assert_eq!(a, b, "{:?}: another error after release", op)
        }
        (Outcome::View(a), Outcome::View(b)) => {
            prop_assert_eq!(a.layout(), b.layout(), "{:?}", op);
            prop_assert_eq!(a.offset(), b.offset(), "{:?}", op);
            for (x, y) in b
                .representation()
                .subtensors()
                .iter()
                .zip(src.tensor.representation().subtensors())
            {
                prop_assert!(Carrier::same(&x.carrier, &y.carrier), "{:?}", op);
            }
            runtime(values(&src, b), "reading the values")?;
            if !src.multi {
                match b.get_ordinal(0) {
                    Err(e) if e.kind() == ErrorKind::Runtime => {}
                    other => {
                        return Err(fail(format!(
                            "{op:?}: get_ordinal(0) of a released view gave {other:?}"
                        )));
                    }
                }
            }
        }
        (Outcome::Value(_), Outcome::Err(e)) => prop_assert_eq!(
            e.kind(),
            ErrorKind::Runtime,
            "{:?}: an element read after release gave {}",
            op,
            e
        ),
        _ => {
            return Err(fail(format!(
                "{op:?} on {spec:?}: before release {live:?}, after release {dead:?}"
            )));
        }
    }
    Ok(())
}

/// The borrowed form of `op` (`Tensor::view`, then the view of the same name, made into an
/// owned handle) beside the owned form it must equal; `None` for a family the borrowed
/// view does not offer. An index becomes a slice (the borrowed view only slices).
fn run_borrowed(t: &Tensor, op: &Op) -> Option<[Result<Tensor, Error>; 2]> {
    let v = t.view();
    let owned = |r: Result<strideweave::TensorView<'_>, Error>| r.map(|v| v.to_tensor());
    Some(match op {
        Op::Index(keys) => [owned(v.slice(keys)), t.slice(keys)],
        Op::Permute(order) => [owned(v.permute(order)), t.permute(order)],
        Op::Reshape(target) => [
            owned(v.reshape(&target.shape())),
            t.reshape(&target.shape()),
        ],
        Op::BroadcastTo(target) => [
            owned(v.broadcast_to(&target.shape())),
            t.broadcast_to(&target.shape()),
        ],
        Op::Squeeze(dim) => [owned(v.squeeze(*dim)), t.squeeze(*dim)],
        Op::Unsqueeze(dim) => [owned(v.unsqueeze(*dim)), t.unsqueeze(*dim)],
        Op::Rearrange(output, selection) => [
            owned(v.rearrange_tree(output, selection.as_ref())),
            t.rearrange_tree(output, selection.as_ref()),
        ],
        _ => return None,
    })
}

/// `op` through a borrowed view gives the owned view's error text, or a view with the same
/// dtype, layout, offset, carriers and values, and changes no carrier.
fn check_borrowed(spec: &Spec, family: Family, seed: u64) -> Result<(), TestCaseError> {
    let src = build(spec)?;
    let op = gen_op(family, &src, seed);
    let before = state(&src.tensor);
    let Some([borrowed, owned]) = run_borrowed(&src.tensor, &op) else {
        return Ok(());
    };
    prop_assert_eq!(&state(&src.tensor), &before, "{:?} changed a carrier", op);
    match (&borrowed, &owned) {
        (Err(b), Err(o)) => prop_assert_eq!(b.to_string(), o.to_string(), "{:?}", op),
        (Ok(b), Ok(o)) => {
            let seen = |t: &Tensor| {
                let r = t.representation();
                (
                    r.dtype(),
                    t.layout().to_string(),
                    t.offset(),
                    r.subtensors().len(),
                )
            };
            prop_assert_eq!(seen(b), seen(o), "{:?} on {:?}", op, src.tensor);
            for (x, y) in b
                .representation()
                .subtensors()
                .iter()
                .zip(o.representation().subtensors())
            {
                prop_assert!(
                    Carrier::same(&x.carrier, &y.carrier),
                    "{:?}: another carrier",
                    op
                );
            }
            let (bv, ov) = (values(&src, b), values(&src, o));
            prop_assert_eq!(format!("{bv:?}"), format!("{ov:?}"), "{:?}: values", op);
        }
        _ => {
            return Err(fail(format!(
                "{op:?} on {:?}: borrowed {borrowed:?}, owned {owned:?}",
                src.tensor
            )));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn atomicity_slice(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Index, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_permute(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Permute, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_reshape(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Reshape, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_as_strided(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::AsStrided, seed, Strictness::Gather)?;
    }

    /// D6: as_strided succeeds exactly when the selector is valid and the composed index
    /// functions (`L_0 ∘ B`, and `S_0 ∘ B`) are affine, `L_0 ∘ B` injective.
    #[test]
    fn atomicity_as_strided_exact(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::AsStrided, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_broadcast_to(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::BroadcastTo, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_broadcast_in_dim(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::BroadcastInDim, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_broadcast_right(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::BroadcastRight, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_squeeze_unsqueeze(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Squeeze, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_reverse(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Reverse, seed, Strictness::Exact)?;
    }

    #[test]
    fn atomicity_rearrange(spec in spec(), seed in any::<u64>()) {
        check(&spec, Family::Rearrange, seed, Strictness::Exact)?;
    }

    /// `Tensor::view`'s borrowed views: the owned view's results and errors, on random input.
    #[test]
    fn borrowed_views_on_random_input_match_the_owned_views(
        spec in spec(),
        family in prop::sample::select(FAMILIES.to_vec()),
        seed in any::<u64>(),
    ) {
        check_borrowed(&spec, family, seed)?;
    }

    #[test]
    fn atomicity_after_release(
        spec in spec(),
        family in prop::sample::select(FAMILIES.to_vec()),
        seed in any::<u64>(),
    ) {
        check_released(&spec, family, seed)?;
    }
}
