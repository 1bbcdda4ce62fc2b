//! Laying out printed values: numpy's nested brackets, one common width, `…` for left-out
//! positions and separators between the groups of a hierarchical mode.

use std::fmt::{self, Write};

use crate::dtype::Scalar;
use crate::layout::picture::{Axis, Slot};

/// Writes `values` (in printing order over `axes`) as nested brackets.
pub(super) fn write(
    f: &mut fmt::Formatter<'_>,
    axes: &[Axis],
    values: &[Scalar],
    precision: Option<usize>,
) -> fmt::Result {
    let texts: Vec<String> = values.iter().map(|v| value(*v, precision)).collect();
    let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    if axes.is_empty() {
        return f.write_str(texts.first().map_or("", String::as_str));
    }
    let slots: Vec<Vec<Slot>> = axes.iter().map(Axis::slots).collect();
    // The width of one innermost row, for the rules between groups of outer modes.
    let last = &slots[slots.len() - 1];
    let row = 2 + last
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Slot::Skipped => 2,
            Slot::Shown { group_start, .. } => {
                width + usize::from(i > 0) + if *group_start { 2 } else { 0 }
            }
        })
        .sum::<usize>();
    let mut out = String::new();
    let p = Printer {
        slots: &slots,
        texts: &texts,
        width,
        row,
    };
    p.block(&mut out, 0, 0);
    f.write_str(&out)
}

/// What a recursive print needs.
struct Printer<'a> {
    slots: &'a [Vec<Slot>],
    texts: &'a [String],
    width: usize,
    row: usize,
}

impl Printer<'_> {
    /// The block of mode `d` whose first value is `texts[base]`.
    fn block(&self, out: &mut String, d: usize, base: usize) {
        let rank = self.slots.len();
        // values per shown position of mode d
        let step: usize = self.slots[d + 1..]
            .iter()
            .map(|s| s.iter().filter(|x| matches!(x, Slot::Shown { .. })).count())
            .product();
        out.push('[');
        let indent = " ".repeat(d + 1);
        let newlines = "\n".repeat((rank - d - 1).max(1));
        for (i, slot) in self.slots[d].iter().enumerate() {
            if d + 1 == rank {
                match slot {
                    Slot::Skipped => out.push_str(" …"),
                    Slot::Shown { k, group_start, .. } => {
                        if *group_start {
                            out.push_str(" |");
                        }
                        if i > 0 {
                            out.push(' ');
                        }
                        let _ = write!(out, "{:>w$}", self.texts[base + k * step], w = self.width);
                    }
                }
                continue;
            }
            if i > 0 {
                out.push_str(&newlines);
                out.push_str(&indent);
            }
            match slot {
                Slot::Skipped => out.push('…'),
                Slot::Shown { k, group_start, .. } => {
                    if *group_start {
                        out.push_str(&"-".repeat(self.row));
                        out.push_str(&newlines);
                        out.push_str(&indent);
                    }
                    self.block(out, d + 1, base + k * step);
                }
            }
        }
        out.push(']');
    }
}

/// One value as text: floats shortest (`{:?}`) or with `precision` decimals.
fn value(v: Scalar, precision: Option<usize>) -> String {
    let float = |x: f64, short: &dyn Fn() -> String| match precision {
        Some(p) => format!("{x:.p$}"),
        None => short(),
    };
    match v {
        Scalar::F32(x) => float(f64::from(x), &|| format!("{x:?}")),
        Scalar::F64(x) => float(x, &|| format!("{x:?}")),
        Scalar::ComplexF32(c) => complex(
            float(f64::from(c.re), &|| format!("{:?}", c.re)),
            c.im.is_sign_negative() && !c.im.is_nan(),
            float(f64::from(c.im.abs()), &|| format!("{:?}", c.im.abs())),
        ),
        Scalar::ComplexF64(c) => complex(
            float(c.re, &|| format!("{:?}", c.re)),
            c.im.is_sign_negative() && !c.im.is_nan(),
            float(c.im.abs(), &|| format!("{:?}", c.im.abs())),
        ),
        #[cfg(feature = "half")]
        Scalar::F16(x) => float(x.to_f64(), &|| format!("{:?}", x.to_f32())),
        #[cfg(feature = "half")]
        Scalar::BF16(x) => float(x.to_f64(), &|| format!("{:?}", x.to_f32())),
        other => other.to_string(),
    }
}

/// `re±imi`.
fn complex(re: String, negative: bool, im: String) -> String {
    format!("{re}{}{im}i", if negative { '-' } else { '+' })
}
