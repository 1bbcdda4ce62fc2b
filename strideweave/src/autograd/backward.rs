//! The backward traversal, in three phases so that a failure changes nothing:
//!
//! 1. **Discover and validate** every tensor and node reachable from the roots: a released
//!    node is a `Runtime` error naming `retain_graph=true`; a saved carrier version that
//!    changed is a `Runtime` error naming the tensor and both versions; a reached tensor
//!    whose aliasing broadcast modes do not explain is a `Value` error. Consumers are
//!    counted per tensor.
//! 2. **Propagate** in topological order (Kahn): a tensor's node runs once, after every
//!    consumer has added its contribution, with the summed cotangent. Leaf and retained
//!    cotangents (or, for `grad`, the requested ones) are collected, not yet stored.
//! 3. **Commit**: build every gradient buffer, then store them all in `.grad` (or return
//!    them), then release the reached nodes unless `retain_graph`.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use smallvec::SmallVec;

use crate::autograd::buffer;
use crate::autograd::cot::Cot;
use crate::autograd::node::{Node, Step};
use crate::autograd::participates;
use crate::error::{Error, Result};
use crate::tensor::{Tensor, TensorInner};

struct Entry {
    tensor: Tensor,
    /// Consumers in the reached graph that have not yet contributed.
    waiting: usize,
    cot: Option<Cot>,
    /// The node's inputs and whether each takes part (entry index when it does).
    inputs: SmallVec<[Option<usize>; 2]>,
}

fn key(t: &Tensor) -> *const TensorInner {
    Arc::as_ptr(&t.inner)
}

fn describe(t: &Tensor) -> String {
    let what = match &t.inner.autograd.node {
        Some(n) => format!("the result of `{}`", n.op),
        None => "a leaf".to_string(),
    };
    format!("{what} ({} tensor, layout {})", t.dtype(), t.layout())
}

/// The reached graph: one entry per tensor, and each tensor's entry by identity.
struct Graph {
    entries: Vec<Entry>,
    index: HashMap<*const TensorInner, usize>,
}

/// What propagation collected for the commit: the requested cotangents (for `grad`), or
/// the leaf and retained ones (for `backward`).
struct Collected {
    captured: HashMap<usize, Cot>,
    pending: Vec<(usize, Cot)>,
}

/// Runs backward from `roots` (tensor, cotangent in first-mode-fastest order). With
/// `capture`, returns the gradients of those tensors and touches no `.grad`; without it,
/// accumulates into leaves and retained tensors and returns nothing.
pub(crate) fn run(
    op: &'static str,
    roots: Vec<(Tensor, Cot)>,
    retain_graph: bool,
    capture: Option<&[&Tensor]>,
) -> Result<Vec<Option<Tensor>>> {
    let mut graph = discover(op, &roots)?;
    let wanted: Option<Vec<Option<usize>>> = capture.map(|ts| {
        ts.iter()
            .map(|t| graph.index.get(&key(t)).copied())
            .collect()
    });
    let collected = propagate(op, &mut graph, roots, wanted.as_deref())?;
    commit(
        op,
        &graph,
        collected,
        capture,
        wanted.as_deref(),
        retain_graph,
    )
}

impl Graph {
    /// The entry of `t`, added (after its target checks) and pushed on `stack` when new.
    fn visit(&mut self, op: &'static str, t: &Tensor, stack: &mut Vec<usize>) -> Result<usize> {
        if let Some(&i) = self.index.get(&key(t)) {
            return Ok(i);
        }
        buffer::check_target(op, t)?;
        let i = self.entries.len();
        self.entries.push(Entry {
            tensor: t.clone(),
            waiting: 0,
            cot: None,
            inputs: SmallVec::new(),
        });
        self.index.insert(key(t), i);
        stack.push(i);
        Ok(i)
    }
}

/// Phase 1, discover and validate: every tensor and node reachable from the roots, each
/// node's saved versions checked, consumers counted per tensor.
fn discover(op: &'static str, roots: &[(Tensor, Cot)]) -> Result<Graph> {
    let mut graph = Graph {
        entries: Vec::new(),
        index: HashMap::new(),
    };
    let mut stack: Vec<usize> = Vec::new();
    for (t, _) in roots {
        graph.visit(op, t, &mut stack)?;
    }
    while let Some(i) = stack.pop() {
        let Some(node) = graph.entries[i].tensor.inner.autograd.node.clone() else {
            continue;
        };
        let inputs: SmallVec<[Tensor; 2]> = {
            let state = node.state();
            let Some(saved) = state.as_ref() else {
                return Err(released(op, &node, &graph.entries[i].tensor));
            };
            for (k, (t, snap)) in saved.inputs.iter().zip(&saved.versions).enumerate() {
                if let Some((_, was, now)) = snap.changed() {
                    return Err(Error::Runtime {
                        op,
                        detail: format!(
                            "input {k} of `{}` — {} — was modified in place after `{}` saved it: its carrier was at version {was} when saved and is at version {now} now; recompute the forward pass after the modification",
                            node.op,
                            describe(t),
                            node.op
                        ),
                    });
                }
            }
            saved.inputs.clone()
        };
        let mut slots = SmallVec::new();
        for t in &inputs {
            if participates(t) {
                let j = graph.visit(op, t, &mut stack)?;
                graph.entries[j].waiting += 1;
                slots.push(Some(j));
            } else {
                slots.push(None);
            }
        }
        graph.entries[i].inputs = slots;
    }
    Ok(graph)
}

/// Phase 2, propagate (Kahn): each node runs once, after every consumer contributed, with
/// the summed cotangent; leaf, retained and requested cotangents are collected, not stored.
fn propagate(
    op: &'static str,
    graph: &mut Graph,
    roots: Vec<(Tensor, Cot)>,
    wanted: Option<&[Option<usize>]>,
) -> Result<Collected> {
    let entries = &mut graph.entries;
    let index = &graph.index;
    let root_ids: Vec<usize> = roots.iter().map(|(t, _)| index[&key(t)]).collect();
    for ((_, cot), &i) in roots.into_iter().zip(&root_ids) {
        Cot::add(&mut entries[i].cot, cot);
    }
    let mut captured: HashMap<usize, Cot> = HashMap::new();
    let mut pending: Vec<(usize, Cot)> = Vec::new();
    let mut ready: Vec<usize> = root_ids
        .iter()
        .copied()
        .filter(|&i| entries[i].waiting == 0)
        .collect();
    ready.dedup();
    let mut done = vec![false; entries.len()];
    while let Some(i) = ready.pop() {
        if std::mem::replace(&mut done[i], true) {
            continue;
        }
        let mut cot = entries[i].cot.take();
        let node = entries[i].tensor.inner.autograd.node.clone();
        // A collected cotangent is moved when nothing propagates it further, else cloned.
        let collect = |cot: &mut Option<Cot>| match &node {
            None => cot.take(),
            Some(_) => cot.clone(),
        };
        if cot.is_some() {
            match wanted {
                Some(w) => {
                    if w.contains(&Some(i))
                        && let Some(c) = collect(&mut cot)
                    {
                        captured.insert(i, c);
                    }
                }
                None => {
                    let meta = &entries[i].tensor.inner.autograd;
                    if (node.is_none() || meta.retain.load(Ordering::Relaxed))
                        && let Some(c) = collect(&mut cot)
                    {
                        pending.push((i, c));
                    }
                }
            }
        }
        let Some(node) = node else { continue };
        let slots = entries[i].inputs.clone();
        let outs = match cot {
            Some(cot) => {
                let state = node.state();
                let Some(saved) = state.as_ref() else {
                    return Err(released(op, &node, &entries[i].tensor));
                };
                // A view, or a chain of views whose intermediate results nothing else
                // needs: the cotangent moves onto the chain's base as it is, placed by the
                // last view's layout, and is written once where the base's gradient or
                // cotangent is made.
                if let Some(view) = saved.rule.view() {
                    let (base, onto) = match &view.base {
                        Some((base, onto)) => (base, onto),
                        None => (&saved.inputs[0], &view.direct),
                    };
                    if let Some((path, b)) = fusable(entries, index, i, base, wanted, &root_ids) {
                        let g = cot.through_view(op, &entries[i].tensor, base, onto)?;
                        for k in path {
                            done[k] = true;
                        }
                        Cot::add(&mut entries[b].cot, g);
                        entries[b].waiting -= 1;
                        if entries[b].waiting == 0 {
                            ready.push(b);
                        }
                        continue;
                    }
                }
                let needs: SmallVec<[bool; 2]> = slots.iter().map(Option::is_some).collect();
                if let Some(outs) = passed_on(&cot, &needs, |k| saved.rule.passes_through(k)) {
                    outs
                } else {
                    dense_rule(op, node.op, saved, cot, &entries[i].tensor, &needs)?
                }
            }
            None => slots.iter().map(|_| None).collect(),
        };
        for (slot, out) in slots.iter().zip(outs) {
            let Some(j) = *slot else { continue };
            if let Some(g) = out {
                Cot::add(&mut entries[j].cot, g);
            }
            entries[j].waiting -= 1;
            if entries[j].waiting == 0 {
                ready.push(j);
            }
        }
    }
    Ok(Collected { captured, pending })
}

/// The cotangent handed on unchanged to every input that takes part, when the rule's
/// backward is the identity for each of them; `None` when a vector rule must run.
fn passed_on(
    cot: &Cot,
    needs: &[bool],
    passes: impl Fn(usize) -> bool,
) -> Option<SmallVec<[Option<Cot>; 2]>> {
    let pass = (0..needs.len()).all(|k| !needs[k] || passes(k));
    pass.then(|| needs.iter().map(|&n| n.then(|| cot.clone())).collect())
}

/// Runs `saved`'s rule on the cotangent as a first-mode-fastest vector of `result`'s shape.
fn dense_rule(
    op: &'static str,
    node_op: &'static str,
    saved: &crate::autograd::node::Saved,
    cot: Cot,
    result: &Tensor,
    needs: &[bool],
) -> Result<SmallVec<[Option<Cot>; 2]>> {
    let cot = cot.into_dense(op, result)?;
    let inputs = &saved.inputs;
    let outs = saved.rule.backward(Step {
        op,
        cot,
        inputs,
        needs,
    })?;
    if outs.len() != needs.len() {
        return Err(Error::InvalidGradient {
            op,
            detail: format!(
                "the backward rule of `{}` returned {} cotangents for {} saved inputs",
                node_op,
                outs.len(),
                needs.len()
            ),
        });
    }
    Ok(outs.into_iter().map(|g| g.map(Cot::dense)).collect())
}

/// Phase 3, commit: build every gradient buffer, then store them all in `.grad` (or return
/// the requested ones), then release the reached nodes unless `retain_graph`.
fn commit(
    op: &'static str,
    graph: &Graph,
    collected: Collected,
    capture: Option<&[&Tensor]>,
    wanted: Option<&[Option<usize>]>,
    retain_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let entries = &graph.entries;
    let Collected {
        mut captured,
        pending,
    } = collected;
    let result = match wanted {
        Some(w) => {
            let mut out = Vec::with_capacity(w.len());
            for (t, i) in capture.unwrap_or_default().iter().zip(w) {
                // The same input asked twice gets its own buffer each time.
                let cot = i.and_then(|i| match w.iter().filter(|&&x| x == Some(i)).count() {
                    1 => captured.remove(&i),
                    _ => captured.get(&i).cloned(),
                });
                out.push(match cot {
                    Some(cot) => Some(buffer::gradient(op, t, cot, None)?),
                    None => None,
                });
            }
            out
        }
        None => {
            // Build every fresh buffer first (fallible); a `.grad` that no other handle
            // reaches (no earlier `.grad()` clone, no view, no carrier handle) is instead
            // accumulated into in place, under its lock, when everything is built.
            let mut built = Vec::with_capacity(pending.len());
            for (i, cot) in pending {
                let t = &entries[i].tensor;
                let sole = grad_slot(t).as_ref().is_some_and(buffer::is_sole);
                built.push((
                    i,
                    if sole {
                        Built::InPlace(cot)
                    } else {
                        Built::Fresh(buffer::gradient(op, t, cot, t.grad().as_ref())?)
                    },
                ));
            }
            for (i, b) in built {
                let t = &entries[i].tensor;
                let mut slot = grad_slot(t);
                match b {
                    Built::Fresh(g) => *slot = Some(g),
                    Built::InPlace(cot) => {
                        if let Some(g) = slot.as_ref().filter(|g| buffer::is_sole(g)) {
                            buffer::accumulate_in_place(op, t, g, cot)?;
                        } else {
                            // Another thread took a handle (or zeroed the grad) meanwhile.
                            let old = slot.clone();
                            *slot = Some(buffer::gradient(op, t, cot, old.as_ref())?);
                        }
                    }
                }
            }
            Vec::new()
        }
    };
    if !retain_graph {
        for e in entries {
            if let Some(node) = &e.tensor.inner.autograd.node {
                node.release();
            }
        }
    }
    Ok(result)
}

/// The intermediate entries between view entry `i` and its chain's `base` (none for one
/// view of its base), when every one of them is consumed only by the next link, holds no
/// cotangent yet and is neither a root, retained, nor requested: skipping them changes no
/// result. `None` otherwise.
fn fusable(
    entries: &[Entry],
    index: &HashMap<*const TensorInner, usize>,
    i: usize,
    base: &Tensor,
    wanted: Option<&[Option<usize>]>,
    roots: &[usize],
) -> Option<(Vec<usize>, usize)> {
    let b = *index.get(&key(base))?;
    let mut path = Vec::new();
    let mut j = (*entries[i].inputs.first()?)?;
    while j != b {
        let e = &entries[j];
        let requested = wanted.is_some_and(|w| w.contains(&Some(j)));
        if e.waiting != 1
            || e.cot.is_some()
            || e.inputs.len() != 1
            || requested
            || roots.contains(&j)
            || e.tensor.inner.autograd.retain.load(Ordering::Relaxed)
        {
            return None;
        }
        path.push(j);
        j = e.inputs[0]?;
    }
    Some((path, b))
}

/// A gradient buffer to store: a fresh one, or a cotangent to add into the existing `.grad`.
enum Built {
    Fresh(Tensor),
    InPlace(Cot),
}

/// The locked `.grad` slot of `t`.
fn grad_slot(t: &Tensor) -> std::sync::MutexGuard<'_, Option<Tensor>> {
    t.inner
        .autograd
        .grad
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

fn released(op: &'static str, node: &Node, t: &Tensor) -> Error {
    Error::Runtime {
        op,
        detail: format!(
            "the graph through `{}` (which produced a {} tensor of layout {}) was already released by an earlier backward; pass retain_graph=true to that earlier call to traverse the graph again",
            node.op,
            t.dtype(),
            t.layout()
        ),
    }
}
