//! Tensors of the block-scaled dtype `BlockScaledI8F32`: 8-bit codes in subtensor 0, one
//! `f32` scale per block in subtensor 1, `S_0` sending each element to its scale; value =
//! code × scale. Its own representation rule (the scale placement is injective) is in
//! `repr`.

use crate::carrier::Carrier;
use crate::dtype::{DType, HostSlice};
use crate::error::{Error, Result};
use crate::layout::{IntTuple, Layout, Shape, Stride};
use crate::repr::{Representation, Subtensor};
use crate::tensor::Tensor;

impl Tensor {
    /// A block-scaled tensor over `codes` (first-mode-fastest order of `shape`) and `scales`,
    /// one per block of `block` consecutive coordinates along top-level leaf mode `mode`.
    ///
    /// Its logical shape nests that mode as `(block, extent / block)`, so that the adjacent
    /// layout `S_0` is a layout: stride 0 inside a block, the scales' compact strides across.
    /// The pure views (permute, slices with a positive step, reshapes that need no copy,
    /// `as_strided`, the broadcasts, squeeze, unsqueeze) apply to it without copying; other
    /// operations (element access, arithmetic, backward) refuse it with a `NotImplemented`
    /// error; [`dequantize`](Tensor::dequantize) produces the values.
    ///
    /// ```
    /// use strideweave::{DType, Tensor};
    /// let codes: Vec<i8> = (0..8).collect();
    /// // A 4×2 matrix with blocks of 2 along mode 0: 2×2 scales.
    /// let t = Tensor::block_scaled(codes, vec![1.0, 0.5, 2.0, 0.25], &"(4,2)".parse().unwrap(), 0, 2).unwrap();
    /// assert_eq!(t.dtype(), DType::BlockScaledI8F32);
    /// assert_eq!(t.shape().to_string(), "((2,2),2)");
    /// assert_eq!(t.representation().adjacent()[0].to_string(), "((2,2),2):((0,1),2)");
    /// assert_eq!(t.dequantize().unwrap().to_vec::<f32>().unwrap(), [0.0, 1.0, 1.0, 1.5, 8.0, 10.0, 1.5, 1.75]);
    /// ```
    pub fn block_scaled(
        codes: Vec<i8>,
        scales: Vec<f32>,
        shape: &Shape,
        mode: usize,
        block: usize,
    ) -> Result<Tensor> {
        const OP: &str = "Tensor::block_scaled";
        let extents = shape.as_int_tuple();
        let rank = shape.rank();
        let m = extents.get(mode).ok_or_else(|| Error::OutOfDomain {
            op: OP,
            what: "block mode",
            value: mode as i64,
            place: format!("the {rank} top-level modes of {shape}"),
            bound: rank as i64,
        })?;
        let e = m.as_int().ok_or_else(|| Error::InvalidAxes {
            op: OP,
            detail: format!("block mode {mode} of {shape} is nested; blocks run along a leaf mode"),
        })?;
        let b = block as i64;
        if b < 1 || e % b != 0 {
            return Err(Error::InvalidAxes {
                op: OP,
                detail: format!("block size {block} does not divide extent {e} of mode {mode}"),
            });
        }
        // Logical shape: mode `mode` becomes (block, e / block); scale shape: it becomes e / block.
        let modes: Vec<IntTuple> = (0..rank).filter_map(|i| extents.get(i)).collect();
        let logical = Shape::new(IntTuple::tuple(modes.iter().enumerate().map(|(i, t)| {
            if i == mode {
                IntTuple::from([b, e / b])
            } else {
                t.clone()
            }
        })))?;
        let scale_shape = Shape::new(IntTuple::tuple(modes.iter().enumerate().map(|(i, t)| {
            if i == mode {
                IntTuple::int(e / b)
            } else {
                t.clone()
            }
        })))?;
        for (what, expected, found) in [
            ("codes", logical.size(), codes.len()),
            ("scales", scale_shape.size(), scales.len()),
        ] {
            if expected != found {
                return Err(Error::RankMismatch {
                    op: OP,
                    what,
                    expected,
                    found,
                });
            }
        }
        let l0 = Layout::compact(&logical);
        let l1 = Layout::compact(&scale_shape);
        // S_0: the scale ordinal of each element — the scales' compact strides, 0 inside a block.
        let mut s0 = Vec::with_capacity(logical.leaves().len());
        let scale_strides = l1.stride().leaves();
        let mut k = 0;
        for (i, t) in modes.iter().enumerate() {
            if i == mode {
                s0.push(IntTuple::from([0, scale_strides[k]]));
                k += 1;
            } else {
                let n = t.leaves().len();
                let mode_strides = &scale_strides[k..k + n];
                s0.push(t.with_leaves(mode_strides.iter().copied().collect()));
                k += n;
            }
        }
        let s0 = Layout::new(logical.clone(), Stride::new(IntTuple::tuple(s0))?)?;
        let repr = Representation::new(
            DType::BlockScaledI8F32,
            vec![
                Subtensor {
                    carrier: Carrier::from_vec(codes),
                    offset: 0,
                    layout: l0,
                },
                Subtensor {
                    carrier: Carrier::from_vec(scales),
                    offset: 0,
                    layout: l1,
                },
            ],
            vec![s0],
        )?;
        Ok(Tensor::from_repr(repr))
    }

    /// The values of a block-scaled tensor, `code × scale`, as a new compact `f32` tensor of
    /// the same shape (an explicitly named copy).
    ///
    /// ```
    /// let t = strideweave::Tensor::block_scaled(vec![2, -4], vec![0.25], &"2".parse().unwrap(), 0, 2).unwrap();
    /// let v = t.permute(&[0]).unwrap().dequantize().unwrap();
    /// assert_eq!(v.to_vec::<f32>().unwrap(), [0.5, -1.0]);
    /// ```
    pub fn dequantize(&self) -> Result<Tensor> {
        self.dequantize_as("dequantize")
    }

    /// [`dequantize`](Self::dequantize) reporting errors as `op`, the operation called.
    pub(crate) fn dequantize_as(&self, op: &'static str) -> Result<Tensor> {
        let r = self.representation();
        if r.dtype != DType::BlockScaledI8F32 {
            return Err(Error::WrongType {
                op,
                expected: "a block-scaled tensor".into(),
                found: format!("a {} tensor", r.dtype),
            });
        }
        let (codes, scales) = (&r.subtensors[0], &r.subtensors[1]);
        let s0 = &r.adjacent[0];
        let n = codes.layout.size();
        let carriers = [&codes.carrier, &scales.carrier];
        // Reserved before the locks: a broadcast view's size may be too large to allocate.
        let mut values = crate::budget::reserved_vec::<f32>(op, n)?;
        Carrier::with_hosts(op, &carriers, None, |hosts, _| {
            let (HostSlice::I8(c), HostSlice::F32(s)) = (hosts[0], hosts[1]) else {
                return Err(Error::Runtime {
                    op,
                    detail: "a block-scaled tensor's carriers are not i8 codes and f32 scales"
                        .into(),
                });
            };
            values.extend((0..n as i64).map(|i| {
                let code = c[(codes.offset as i64 + codes.layout.eval(i)) as usize];
                let scale = s[(scales.offset as i64 + scales.layout.eval(s0.eval(i))) as usize];
                f32::from(code) * scale
            }));
            Ok(())
        })?;
        Tensor::from_vec(values, codes.layout.shape())
    }
}
