//! Reading only the printed elements of a tensor, in printing order (mode 0 outermost, the
//! last mode fastest), under one lock of its carriers.

use super::axes_of;
use crate::carrier::Carrier;
use crate::dtype::{DType, HostSlice, Scalar};
use crate::error::{Error, Result};
use crate::layout::picture::Axis;
use crate::tensor::Tensor;

/// The operation named in a read error.
const OP: &str = "Display";

/// The `count` printed elements of `t` (`count` is the product of the shown positions).
pub(super) fn read(t: &Tensor, axes: &[Axis], count: usize) -> Result<Vec<Scalar>> {
    let r = t.representation();
    let mut out = crate::budget::reserved_vec(OP, count)?;
    match r.dtype {
        DType::BlockScaledI8F32 => {
            let (codes, scales) = (&r.subtensors[0], &r.subtensors[1]);
            // S_0's own axes: the scale ordinal each printed element reads.
            let s0 = axes_of(&r.adjacent[0], t.size());
            let carriers = [&codes.carrier, &scales.carrier];
            Carrier::with_hosts(OP, &carriers, None, |hosts, _| {
                let (HostSlice::I8(c), HostSlice::F32(s)) = (hosts[0], hosts[1]) else {
                    return Err(Error::Runtime {
                        op: OP,
                        detail: "a block-scaled tensor's carriers are not i8 codes and f32 scales"
                            .into(),
                    });
                };
                each_index(axes, |ks| {
                    let code = c[(codes.offset as i64 + sum(axes, ks)) as usize];
                    let ordinal = sum(&s0, ks);
                    let scale = s[(scales.offset as i64 + scales.layout.eval(ordinal)) as usize];
                    out.push(Scalar::F32(f32::from(code) * scale));
                });
                Ok(())
            })?;
        }
        dtype if dtype.is_plain() => {
            let s = &r.subtensors[0];
            s.carrier.with_host(OP, |b| {
                each_index(axes, |ks| {
                    out.push(b.get((s.offset as i64 + sum(axes, ks)) as usize))
                });
                Ok(())
            })?;
        }
        dtype => {
            return Err(Error::NotImplemented {
                op: OP,
                reason: format!("no printer reads {dtype} values"),
            });
        }
    }
    Ok(out)
}

/// Calls `f` with the shown-position numbers of every printed element, in printing order.
fn each_index(axes: &[Axis], mut f: impl FnMut(&[usize])) {
    let mut ks = vec![0usize; axes.len()];
    if axes.iter().any(|a| a.shown.is_empty()) {
        return;
    }
    loop {
        f(&ks);
        // the last mode fastest
        let mut m = axes.len();
        loop {
            if m == 0 {
                return;
            }
            m -= 1;
            ks[m] += 1;
            if ks[m] < axes[m].shown.len() {
                break;
            }
            ks[m] = 0;
        }
    }
}

/// The layout index of the element at shown positions `ks` (a sum over the modes).
fn sum(axes: &[Axis], ks: &[usize]) -> i64 {
    axes.iter().zip(ks).map(|(a, &k)| a.offsets[k]).sum()
}
