//! `Tensor::einsum`: one or two inputs in the rearrangement grammar (contracts §5), lowered
//! to one rearrangement view per input (zero copy: each input's symbols become its top-level
//! modes), the batched-contraction core (`ops/contract.rs`) and one final view (the output
//! side's order, groups and `1`s). Symbols shared by the inputs and absent from the output
//! are summed, as are symbols of one input absent from the output. Every step records its
//! own backward rule, so einsum is differentiable without a rule of its own.

use std::collections::{HashMap, HashSet};

use strideweave_syntax::{Term, parse_einsum};

use crate::error::{Error, Result};
use crate::ops::contract::{Index, Spec, index, mode_shape, run};
use crate::tensor::Tensor;

/// The names errors start with: the operation, and per input its rearrangement's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Names {
    /// The operation (`einsum`, or `einsum!` for the macro).
    pub op: &'static str,
    /// Each input's rearrangement (`einsum (input 0)`, …).
    pub inputs: [&'static str; 2],
}

/// [`Tensor::einsum`]'s names.
const METHOD: Names = Names {
    op: "einsum",
    inputs: ["einsum (input 0)", "einsum (input 1)"],
};

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
    /// assert!(err.to_string().contains("keyword `z`"));
    /// ```
    pub fn einsum_with(
        pattern: &str,
        inputs: &[&Tensor],
        sizes: &[(&str, usize)],
    ) -> Result<Tensor> {
        let mut keywords: Vec<(&str, i64)> = Vec::new();
        keywords
            .try_reserve_exact(sizes.len())
            .map_err(|_| Error::TooLarge {
                op: METHOD.op,
                detail: format!("{} keyword extents", sizes.len()),
            })?;
        for &(name, value) in sizes {
            let value = i64::try_from(value).map_err(|_| Error::InvalidRearrange {
                op: METHOD.op,
                detail: format!("keyword `{name}` = {value} exceeds i64::MAX"),
            })?;
            keywords.push((name, value));
        }
        einsum_named(METHOD, pattern, inputs, &keywords)
    }
}

/// [`Tensor::einsum_with`] with the names its errors start with (`einsum!` passes its own)
/// and `i64` keyword extents (a value below 1 is the rearrangement's error).
pub(crate) fn einsum_named(
    names: Names,
    pattern: &str,
    inputs: &[&Tensor],
    keywords: &[(&str, i64)],
) -> Result<Tensor> {
    let op = names.op;
    let fail = |detail: String| Error::InvalidRearrange { op, detail };
    let e = parse_einsum(pattern).map_err(|err| fail(err.render(pattern)))?;
    if e.inputs.len() != inputs.len() {
        return Err(fail(format!(
            "the pattern names {} input(s) but {} tensor(s) were given",
            e.inputs.len(),
            inputs.len()
        )));
    }
    for &(name, _) in keywords {
        if !e.symbols.iter().any(|s| s.iter().any(|x| x == name)) {
            return Err(fail(format!(
                "keyword `{name}` names no symbol of the inputs of {pattern:?}"
            )));
        }
    }
    let arrow = pattern.find("->").unwrap_or(pattern.len());
    // One view per input: its symbols (after its `...` modes) as top-level modes.
    let mut views = Vec::with_capacity(inputs.len());
    for (i, t) in inputs.iter().enumerate() {
        let syms = &e.symbols[i];
        let ell = if e.ellipsis { "... " } else { "" };
        let text = format!("{}-> {ell}{}", &e.texts[i][..arrow], syms.join(" "));
        let kw: Vec<(&str, i64)> = (keywords.iter())
            .filter(|(n, _)| syms.iter().any(|s| s == n))
            .copied()
            .collect();
        let name = if inputs.len() == 1 {
            op
        } else {
            names.inputs[i]
        };
        views.push(t.rearrange_as(name, &text, &kw)?);
    }
    let ne: Vec<usize> = views
        .iter()
        .zip(&e.symbols)
        .map(|(v, s)| v.rank() - s.len())
        .collect();
    let spec = spec(op, &e, &views, &ne)?;
    let out_syms = output_symbols(&e.inputs[0].right.terms);
    let result = run(op, &views[0], views.get(1), spec)?;
    let out_side = &pattern[arrow + 2..];
    // The output side as plain symbols in the result's order: the final view would be
    // the identity, so the result is returned as it is.
    if !e.ellipsis
        && out_side
            .split_whitespace()
            .eq(out_syms.iter().map(String::as_str))
    {
        return Ok(result);
    }
    let ell = if e.ellipsis { "... " } else { "" };
    let text = format!("{ell}{} -> {out_side}", out_syms.join(" "));
    result.rearrange_as(op, &text, &[])
}

/// The output side's symbols in order of appearance (inside groups too).
fn output_symbols(terms: &[Term<std::ops::Range<usize>>]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![terms.iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            None => {
                stack.pop();
            }
            Some(Term::Symbol(s, _)) => out.push(s.clone()),
            Some(Term::Group(inner, _)) => stack.push(inner.iter()),
            Some(_) => {}
        }
    }
    out
}

/// The contraction of the per-input views: the `...` modes (paired by position), then the
/// output symbols, summed the rest; a symbol of both inputs must have one shape.
fn spec(
    op: &'static str,
    e: &strideweave_syntax::Einsum,
    views: &[Tensor],
    ne: &[usize],
) -> Result<Spec> {
    if let [n0, n1] = ne
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
    let places: Vec<HashMap<&str, usize>> = (e.symbols.iter().enumerate())
        .map(|(i, syms)| {
            let ne = ne[i];
            syms.iter()
                .enumerate()
                .map(|(p, s)| (s.as_str(), ne + p))
                .collect()
        })
        .collect();
    let at = |i: usize, s: &str| places.get(i).and_then(|m| m.get(s).copied());
    let out_syms = output_symbols(&e.inputs[0].right.terms);
    for s in &out_syms {
        spec.out
            .push(pair(format!("symbol `{s}`"), at(0, s), at(1, s))?);
    }
    let mut seen: HashSet<&str> = out_syms.iter().map(String::as_str).collect();
    for s in e.symbols.iter().flatten() {
        if !seen.insert(s.as_str()) {
            continue;
        }
        spec.summed
            .push(pair(format!("symbol `{s}`"), at(0, s), at(1, s))?);
    }
    Ok(spec)
}
