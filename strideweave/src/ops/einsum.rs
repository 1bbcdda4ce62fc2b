//! `Tensor::einsum`: one or two inputs in the rearrangement grammar, lowered to one
//! rearrangement view per input (zero copy: each input's symbols become its top-level
//! modes), the batched-contraction core (`ops/contract.rs`) and one final view (the output
//! side's order, groups and `1`s). Symbols shared by the inputs and absent from the output
//! are summed, as are symbols of one input absent from the output. Every step records its
//! own backward rule, so einsum is differentiable without a rule of its own.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use strideweave_syntax::{
    EinsumCallError, EncodedPattern, NotationError, encode_pattern, parse_einsum,
};

use crate::error::{Error, Result};
use crate::ops::contract::{Index, Spec, index, mode_shape, run};
use crate::pattern::run::Plan;
use crate::pattern::{Op, Side, TokKind};
use crate::tensor::Tensor;

/// The name errors of input `k`'s view start with, among `n` inputs of `op` (`einsum`, or
/// `einsum!` for the macro): the operation's alone, else `<op> (input k)`.
pub(crate) fn view_name(op: &'static str, k: usize, n: usize) -> &'static str {
    match (n, op, k) {
        (1, ..) => op,
        (_, "einsum", 0) => "einsum (input 0)",
        (_, "einsum", _) => "einsum (input 1)",
        (_, "einops::einsum", 0) => "einops::einsum (input 0)",
        (_, "einops::einsum", _) => "einops::einsum (input 1)",
        (_, "einops::einsum!", 0) => "einops::einsum! (input 0)",
        (_, "einops::einsum!", _) => "einops::einsum! (input 1)",
        (_, _, 0) => "einsum! (input 0)",
        _ => "einsum! (input 1)",
    }
}

impl Tensor {
    /// Einstein summation over one or two tensors, written in the rearrangement grammar
    /// (first mode fastest, like [`rearrange`](Self::rearrange)): `"i k, k j -> i j"` is
    /// the matrix product, `"b h q d, b h k d -> b h q k"` a batched one, `"i j -> j i"` a
    /// transposed copy and `"i j -> i"` sums `j`. Symbols of the inputs absent from the
    /// output are summed; a symbol named by both inputs must have equal extents there (no
    /// broadcasting). Groups split leaves and build nested result modes, `...` stands for
    /// whole top-level modes (on every input and the output, or nowhere; the inputs'
    /// `...` modes pair by position) and `1` inserts an extent-one result mode, as in
    /// `rearrange`. The result is a fresh tensor (viewed by the output side); recorded for
    /// autograd; integer tensors wrap.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let b = Tensor::arange::<f64>(&"(3,4)".parse().unwrap());
    /// let c = Tensor::einsum("i k, k j -> i j", &[&a, &b]).unwrap();
    /// assert_eq!(c.to_vec::<f64>().unwrap(), a.matmul(&b).unwrap().to_vec::<f64>().unwrap());
    /// let s = Tensor::einsum("i j -> i", &[&a]).unwrap();
    /// assert_eq!(s.to_vec::<f64>().unwrap(), [6.0, 9.0]);
    /// let err = Tensor::einsum("i k, k j -> i x", &[&a, &b]).unwrap_err();
    /// assert!(err.to_string().starts_with("einsum: unknown identifier `x`"));
    /// ```
    pub fn einsum(pattern: &str, inputs: &[&Tensor]) -> Result<Tensor> {
        Tensor::einsum_with(pattern, inputs, &[])
    }

    /// [`einsum`](Self::einsum) with keyword extents: `("h", 4)` splits a leaf in a group
    /// `(h w)` of an input, or asserts the extent of a symbol, as in
    /// [`rearrange`](Self::rearrange). Each input's split needs its own keywords.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f32>(&"(6,2)".parse().unwrap());
    /// let b = Tensor::arange::<f32>(&"(3,2)".parse().unwrap());
    /// // Split a's first mode into (h w), h = 2, and contract w and k with b.
    /// let c = Tensor::einsum_with("(h w) k, w k -> h", &[&a, &b], &[("h", 2)]).unwrap();
    /// assert_eq!(c.shape().to_string(), "(2)");
    /// let err = Tensor::einsum_with("i k, k j -> i j", &[&a, &b], &[("z", 2)]).unwrap_err();
    /// assert!(err.to_string().starts_with("einsum: keyword `z = 2` names no symbol of the pattern"));
    /// ```
    pub fn einsum_with(
        pattern: &str,
        inputs: &[&Tensor],
        sizes: &[(&str, usize)],
    ) -> Result<Tensor> {
        let op = "einsum";
        // Keywords have no text of their own: their mistakes point at the whole pattern.
        let mut keywords: Vec<(&str, i64, Range<usize>)> = Vec::new();
        keywords
            .try_reserve_exact(sizes.len())
            .map_err(|_| Error::TooLarge {
                op,
                detail: format!("{} keyword extents", sizes.len()),
            })?;
        for &(name, value) in sizes {
            let value = i64::try_from(value).map_err(|_| Error::InvalidRearrange {
                op,
                detail: format!("keyword `{name}` = {value} exceeds i64::MAX"),
            })?;
            keywords.push((name, value, 0..pattern.len()));
        }
        einsum_run(op, false, pattern, inputs, &keywords).map(|(t, _)| t)
    }
}

/// Einsum's run after the keywords are read: the pattern read and checked once, each input's
/// view and the output's encoded from the parsed pattern (for einops' reading, `einops`,
/// mirrored: `EncodedPattern::mirror_groups`), then the contraction and the output's view.
/// Returns the result and the output's encoding (whose right side is the output). Errors
/// start with `op` (per input, [`view_name`]).
pub(crate) fn einsum_run(
    op: &'static str,
    einops: bool,
    pattern: &str,
    inputs: &[&Tensor],
    keywords: &[(&str, i64, Range<usize>)],
) -> Result<(Tensor, EncodedPattern)> {
    let fail = |detail: String| Error::InvalidRearrange { op, detail };
    let lift = |err: NotationError<Range<usize>>| fail(err.render(pattern));
    let mirror = |e: EncodedPattern| if einops { e.mirror_groups() } else { e };
    let e = parse_einsum(pattern).map_err(lift)?;
    e.check_call(pattern, inputs.len(), keywords)
        .map_err(|err| match err {
            EinsumCallError::Tensors(err) => lift(err),
            EinsumCallError::Keyword(err) => lift(err.into()),
        })?;
    let mut views = Vec::with_capacity(inputs.len());
    for (k, t) in inputs.iter().enumerate() {
        let name = view_name(op, k, inputs.len());
        let code = mirror(encode_pattern(pattern, &e.input_view(k)).map_err(fail)?);
        let plan = Plan::encoded(t.shape(), Op::Rearrange, pattern, &code, keywords)
            .map_err(|detail| Error::InvalidRearrange { op: name, detail })?;
        views.push(t.view_by(name, &plan)?);
    }
    let out = mirror(encode_pattern(pattern, &e.output_view()).map_err(fail)?);
    let symbols: Vec<&[String]> = e.symbols.iter().map(Vec::as_slice).collect();
    let result = contract_views(op, &views, &symbols, &out.names)?;
    if plain(&Side {
        toks: &out.right.toks,
        strings: &out.right.strings,
    }) {
        return Ok((result, out));
    }
    let plan = Plan::encoded(result.shape(), Op::Rearrange, pattern, &out, &[]).map_err(fail)?;
    Ok((result.view_by(op, &plan)?, out))
}

/// Whether an output side is its symbols in order of appearance, one top-level mode each (no
/// `...`, group or `1`): the contraction's result as it is.
pub(crate) fn plain(side: &Side<'_>) -> bool {
    (0..side.len()).all(|i| matches!(side.kind(i), TokKind::Symbol))
}

/// The contraction of the per-input views (each: its `...` modes, then its `symbols` in
/// order as top-level modes): the `...` modes (paired by position), then the `out` symbols,
/// summed the rest; a symbol of both inputs must have one shape.
pub(crate) fn contract_views<S: AsRef<str>>(
    op: &'static str,
    views: &[Tensor],
    symbols: &[&[S]],
    out: &[S],
) -> Result<Tensor> {
    let ne: Vec<usize> = (views.iter().zip(symbols))
        .map(|(v, s)| v.rank() - s.len())
        .collect();
    if let [n0, n1] = ne[..]
        && n0 != n1
    {
        return Err(Error::DimensionMismatch {
            op,
            detail: format!(
                "`...` stands for {n0} mode(s) of input 0 and {n1} of input 1: they pair by position, so the counts must be equal"
            ),
        });
    }
    let pair = |what: String, a: Option<usize>, b: Option<usize>| -> Result<Index> {
        let sa = a.map(|m| mode_shape(&views[0], m)).transpose()?;
        let sb = b.map(|m| mode_shape(&views[1], m)).transpose()?;
        match (sa, sb) {
            (Some(x), Some(y)) if x != y => Err(Error::DimensionMismatch {
                op,
                detail: format!("{what} has extent {x} in input 0 and {y} in input 1"),
            }),
            (Some(s), _) | (None, Some(s)) => Ok(index(a, b, &s)),
            // Unreachable from user input: parse_einsum checked that every symbol is named
            // by some input.
            (None, None) => Err(Error::Runtime {
                op,
                detail: format!("{what} is named by no input"),
            }),
        }
    };
    let two = views.len() == 2;
    let mut spec = Spec::default();
    for k in 0..ne[0] {
        spec.out
            .push(pair(format!("`...` mode {k}"), Some(k), two.then_some(k))?);
    }
    // Looked up in constant time: a pattern may hold any number of symbols.
    let places: Vec<HashMap<&str, usize>> = (symbols.iter().zip(&ne))
        .map(|(syms, &ne)| {
            (syms.iter().enumerate())
                .map(|(p, s)| (s.as_ref(), ne + p))
                .collect()
        })
        .collect();
    let at = |i: usize, s: &str| places.get(i).and_then(|m| m.get(s).copied());
    for s in out.iter().map(AsRef::as_ref) {
        spec.out
            .push(pair(format!("symbol `{s}`"), at(0, s), at(1, s))?);
    }
    let mut seen: HashSet<&str> = out.iter().map(AsRef::as_ref).collect();
    for s in symbols.iter().flat_map(|s| s.iter()).map(AsRef::as_ref) {
        if !seen.insert(s) {
            continue;
        }
        spec.summed
            .push(pair(format!("symbol `{s}`"), at(0, s), at(1, s))?);
    }
    run(op, &views[0], views.get(1), spec)
}
