//! What a static layout operation refuses ([`CodeError`]), and its message: the run-time
//! algebra's words, written by `const fn`s so that a refusal in const evaluation is a
//! compile error that reads like the run-time `Error`. `layout/fixed/tests.rs` holds the two
//! wordings together: every refusal of a random operation is compared, text for text.

use super::code::{LayoutCode, MAX_LEAVES, MAX_TOKENS};
use super::text::Text;
use crate::budget::EXACT_STEPS;
use crate::error::Error;
use crate::layout::compose::ComposeFault;

/// A refusal: the operation the user called and what went wrong.
#[derive(Clone, Copy)]
pub(crate) struct CodeError {
    pub(crate) op: &'static str,
    pub(crate) kind: Kind,
}

/// Where a value lies outside its domain.
#[derive(Clone, Copy)]
pub(crate) enum Place {
    /// `the layout of size {size}`.
    Layout { size: i64 },
    /// `mode {mode} of extent {extent}`.
    Mode { mode: usize, extent: i64 },
    /// `the {rank} top-level modes`.
    Modes { rank: usize },
    /// `mode {mode} of the {count} tiles` (a by-mode tiler), `the {count} tiles` (a layout).
    Tiles { mode: Option<usize>, count: i64 },
    /// `the thread layout of size {size}`.
    Threads { size: i64 },
}

/// Which stride is negative.
#[derive(Clone, Copy)]
pub(crate) enum StrideAt {
    /// Leaf `leaf` of `layout`, its path followed by `suffix`.
    Leaf {
        layout: LayoutCode,
        leaf: usize,
        suffix: &'static str,
    },
}

/// A question whose exact answer is beyond the work budget.
#[derive(Clone, Copy)]
pub(crate) enum Question {
    /// `whether {layout} is injective`.
    Injective { layout: LayoutCode },
    /// `whether {a} ∘ {b} distributes over the modes of the non-injective right operand`.
    Distributes { a: LayoutCode, b: LayoutCode },
}

/// What went wrong, with every value the message names.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// An extent below 1 (a hand-written `Mode<0, _>`, `LayoutCode::leaf(0, _)`).
    InvalidExtent { extent: i64 },
    /// Checked arithmetic overflowed `i64`.
    Overflow { what: &'static str },
    /// A value outside its domain.
    OutOfDomain {
        what: &'static str,
        value: i64,
        place: Place,
        bound: i64,
    },
    /// A count that does not fit.
    RankMismatch {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    /// A negative stride where the algebra needs non-negative ones.
    NegativeStride { stride: i64, at: StrideAt },
    /// A layout that must be injective (once its stride-0 modes are ignored) is not.
    NotInjective { layout: LayoutCode },
    /// An exact check beyond the work budget.
    TooLarge { question: Question, steps: u128 },
    /// Composition with the leaf `s:d` has no layout.
    Compose { fault: ComposeFault, s: i64, d: i64 },
    /// `a ∘ b` does not distribute over `b`'s modes (`b` not injective), first at ordinal `at`.
    NotDistributive {
        a: LayoutCode,
        b: LayoutCode,
        at: i64,
    },
    /// The complement of `layout` has no layout: `stride` is not a multiple of `covered`.
    NotMultiple {
        stride: i64,
        covered: i64,
        layout: LayoutCode,
    },
    /// The result needs more than a static layout holds.
    Capacity { leaves: usize, tokens: usize },
    /// Tiles of `tile` elements cover `covered` elements of a mode (`None`: the whole layout)
    /// of extent `extent`: a residue past the layout's elements.
    Residue {
        mode: Option<usize>,
        tile: i64,
        covered: i64,
        extent: i64,
    },
}

impl std::fmt::Debug for CodeError {
    /// The message.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl CodeError {
    pub(crate) const fn new(op: &'static str, kind: Kind) -> CodeError {
        CodeError { op, kind }
    }

    /// Panics with the message: in const evaluation a compile error at the caller's
    /// (`#[track_caller]`) location.
    #[cold]
    #[inline(never)]
    #[track_caller]
    pub(crate) const fn fail(&self) -> ! {
        let mut t = Text::new();
        t.str(self.op);
        t.str(": ");
        self.detail(&mut t);
        panic!("{}", t.as_str())
    }

    /// The message, `{op}: …`.
    pub(crate) fn message(&self) -> String {
        let mut t = Text::new();
        t.str(self.op);
        t.str(": ");
        self.detail(&mut t);
        t.as_str().to_string()
    }

    /// The run-time [`Error`] of the same refusal, of the variant the run-time algebra uses
    /// (so its kind and its text match).
    pub(crate) fn to_error(self) -> Error {
        let op = self.op;
        let text = |write: &dyn Fn(&mut Text)| {
            let mut t = Text::new();
            write(&mut t);
            t.as_str().to_string()
        };
        match self.kind {
            Kind::InvalidExtent { extent } => Error::InvalidExtent {
                op,
                mode: "0".into(),
                extent,
            },
            Kind::Overflow { what } => Error::Overflow { op, what },
            Kind::OutOfDomain {
                what,
                value,
                place,
                bound,
            } => Error::OutOfDomain {
                op,
                what,
                value,
                place: text(&|t| write_place(t, &place)),
                bound,
            },
            Kind::RankMismatch {
                what,
                expected,
                found,
            } => Error::RankMismatch {
                op,
                what,
                expected,
                found,
            },
            Kind::NegativeStride { stride, at } => Error::NegativeStride {
                op,
                mode: text(&|t| write_stride_at(t, &at)),
                stride,
            },
            Kind::NotInjective { layout } => Error::NotInjective {
                op,
                layout: text(&|t| write_broadcast_note(t, &layout)),
            },
            Kind::TooLarge { .. } => Error::TooLarge {
                op,
                detail: text(&|t| self.detail(t)),
            },
            Kind::Compose {
                fault: ComposeFault::NegativeStride,
                d,
                ..
            } => Error::NegativeStride {
                op,
                mode: "of the right operand".into(),
                stride: d,
            },
            Kind::Compose {
                fault: ComposeFault::Overflow,
                ..
            } => Error::Overflow {
                op,
                what: "a stride of the composition",
            },
            _ => Error::NotRepresentable {
                op,
                reason: text(&|t| self.detail(t)),
            },
        }
    }

    /// The message after `{op}: `, in the run-time `Error`'s words.
    const fn detail(&self, t: &mut Text) {
        match self.kind {
            Kind::InvalidExtent { extent } => {
                t.str("extent ");
                t.int(extent);
                t.str(" at mode 0 must be at least 1");
            }
            Kind::Overflow { what } => {
                t.str("integer overflow while computing ");
                t.str(what);
            }
            Kind::OutOfDomain {
                what,
                value,
                place,
                bound,
            } => {
                t.str(what);
                t.str(" ");
                t.int(value);
                t.str(" is outside ");
                write_place(t, &place);
                t.str(" (valid: 0..");
                t.int(bound);
                t.str(")");
            }
            Kind::RankMismatch {
                what,
                expected,
                found,
            } => {
                t.str("expected ");
                t.uint(expected as u128);
                t.str(" ");
                t.str(what);
                t.str(", found ");
                t.uint(found as u128);
            }
            Kind::NegativeStride { stride, at } => {
                t.str("stride ");
                t.int(stride);
                t.str(" at mode ");
                write_stride_at(t, &at);
                t.str(" is negative; this operation is defined only for non-negative strides");
            }
            Kind::NotInjective { layout } => {
                t.str("layout ");
                write_broadcast_note(t, &layout);
                t.str(" is not injective (two coordinates reach the same index)");
            }
            Kind::TooLarge { question, steps } => {
                match question {
                    Question::Injective { layout } => {
                        t.str("whether ");
                        t.layout(&layout);
                        t.str(" is injective");
                    }
                    Question::Distributes { a, b } => {
                        t.str("whether ");
                        t.layout(&a);
                        t.str(" ∘ ");
                        t.layout(&b);
                        t.str(" distributes over the modes of the non-injective right operand");
                    }
                }
                t.str(" is too large to decide exactly: the exact check takes ");
                t.uint(steps);
                t.str(" steps, more than the budget of ");
                t.uint(EXACT_STEPS);
            }
            Kind::Compose { fault, s, d } => write_compose(t, fault, s, d),
            Kind::NotDistributive { a, b, at } => {
                t.layout(&a);
                t.str(" ∘ ");
                t.layout(&b);
                t.str(" does not distribute over the modes of the non-injective right operand (at ordinal ");
                t.int(at);
                t.str(")");
            }
            Kind::NotMultiple {
                stride,
                covered,
                layout,
            } => {
                t.str("stride ");
                t.int(stride);
                t.str(" of ");
                t.layout(&layout);
                t.str(" is not a multiple of ");
                t.int(covered);
                t.str(
                    ", the extent the smaller modes cover; the holes between them are not a layout",
                );
            }
            Kind::Capacity { leaves, tokens } => {
                t.str("the result needs ");
                t.uint(leaves as u128);
                t.str(" leaves and ");
                t.uint(tokens as u128);
                t.str(" profile tokens; a static layout holds at most ");
                t.uint(MAX_LEAVES as u128);
                t.str(" leaves and ");
                t.uint(MAX_TOKENS as u128);
                t.str(" profile tokens (use the run-time Layout)");
            }
            Kind::Residue {
                mode,
                tile,
                covered,
                extent,
            } => {
                t.str("tiles of ");
                t.int(tile);
                t.str(" elements cover ");
                t.int(covered);
                match mode {
                    Some(m) => {
                        t.str(" elements of mode ");
                        t.uint(m as u128);
                        t.str(", whose extent is ");
                    }
                    None => t.str(" elements of the layout, whose size is "),
                }
                t.int(extent);
                t.str(": the last tile would reach past the layout's elements (CuTe leaves this residue to predication)");
            }
        }
    }
}

/// The words of [`ComposeFault::error`], in const context.
const fn write_compose(t: &mut Text, fault: ComposeFault, s: i64, d: i64) {
    match fault {
        ComposeFault::NegativeStride => {
            t.str("stride ");
            t.int(d);
            t.str(" at mode of the right operand is negative; this operation is defined only for non-negative strides");
        }
        ComposeFault::Overflow => {
            t.str("integer overflow while computing a stride of the composition")
        }
        ComposeFault::StrideDivisibility { stride, extent } => {
            t.str("stride divisibility fails: the right operand's stride ");
            t.int(stride);
            t.str(" neither divides nor is a multiple of the left operand's extent ");
            t.int(extent);
            t.str(" (composing with ");
            t.int(s);
            t.str(":");
            t.int(d);
            t.str(")");
        }
        ComposeFault::ShapeDivisibility {
            remaining,
            split,
            extent,
            stride,
        } => {
            t.str("shape divisibility fails: ");
            t.int(remaining);
            t.str(" remaining elements of ");
            t.int(s);
            t.str(":");
            t.int(d);
            t.str(" do not split evenly over ");
            t.int(split);
            t.str(" elements of the left operand's mode ");
            t.int(extent);
            t.str(":");
            t.int(stride);
        }
    }
}

const fn write_place(t: &mut Text, place: &Place) {
    match *place {
        Place::Layout { size } => {
            t.str("the layout of size ");
            t.int(size);
        }
        Place::Mode { mode, extent } => {
            t.str("mode ");
            t.uint(mode as u128);
            t.str(" of extent ");
            t.int(extent);
        }
        Place::Modes { rank } => {
            t.str("the ");
            t.uint(rank as u128);
            t.str(" top-level modes");
        }
        Place::Tiles { mode, count } => {
            if let Some(m) = mode {
                t.str("mode ");
                t.uint(m as u128);
                t.str(" of ");
            }
            t.str("the ");
            t.int(count);
            t.str(" tiles");
        }
        Place::Threads { size } => {
            t.str("the thread layout of size ");
            t.int(size);
        }
    }
}

const fn write_stride_at(t: &mut Text, at: &StrideAt) {
    match at {
        StrideAt::Leaf {
            layout,
            leaf,
            suffix,
        } => {
            t.leaf_path(layout, *leaf);
            t.str(suffix);
        }
    }
}

/// The layout, followed by what is left of it once its stride-0 modes are ignored when it
/// has any (the run-time complement's `without_broadcast_note`).
const fn write_broadcast_note(t: &mut Text, layout: &LayoutCode) {
    t.layout(layout);
    let mut k = 0;
    while k < layout.nleaves as usize {
        if layout.strides[k] == 0 {
            t.str(" (without its stride-0 modes: ");
            t.layout(&layout.filter());
            t.str(")");
            return;
        }
        k += 1;
    }
}
