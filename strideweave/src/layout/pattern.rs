//! Rearrangement patterns on layouts (contracts §5): `"a (b c) -> c b a"`, compiled to the
//! selection and output trees of L12.
//!
//! The grammar and the pattern-only rules live in `strideweave-syntax` (shared with the
//! macros); this module adds the rules that need the source's shape and builds the view:
//!
//! 1. leaves that a left group splits (`(h w)` on a leaf mode) are replaced by a nested mode
//!    whose first member varies fastest, and new `repeat` symbols are appended as stride-0
//!    modes, giving an intermediate layout with the same index function;
//! 2. the left side becomes the selection tree, the right side the output tree;
//! 3. [`Layout::rearrange`] does the rest.

use std::ops::Range;

use strideweave_syntax::{
    NotationError, Pattern, PatternKind, Term, check_keywords, check_pattern, parse_pattern,
    term_path,
};

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::int_tuple::Node;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tree::Tree;

type Span = Range<usize>;

impl Layout {
    /// Rearranges the layout by a pattern (contracts §5): a zero-copy view.
    ///
    /// The left side mirrors the source hierarchy top-down: each top-level term matches a
    /// top-level mode, a symbol names the whole sublayout at its place (leaf or nested), a
    /// group matches a nested mode child by child, `1` matches an extent-one sublayout (which
    /// is dropped) and `...` matches zero or more whole top-level modes. On the right every
    /// left symbol appears once (a left symbol of extent 1 may be omitted), `1` inserts an
    /// extent-one, stride-zero mode, a group builds one nested mode from its contents (which
    /// keep their own hierarchy) and `...` places the captured modes in order.
    ///
    /// `sizes` gives keyword extents. A left group on a *leaf* mode splits that leaf: all of
    /// its names but at most one need a keyword, the missing one is inferred, the product must
    /// equal the leaf's extent, and the first name varies fastest (strides `d, d·e₁, …`). A
    /// keyword on any other symbol asserts the extent (size) of the sublayout it names.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.rearrange_pattern("a (b c) -> c b a", &[]).unwrap().to_string(), "(4,3,2):(6,2,1)");
    /// // A symbol names a whole nested mode; a group builds one.
    /// assert_eq!(l.rearrange_pattern("a bc -> (bc a) 1", &[]).unwrap().to_string(), "(((3,4),2),1):(((2,6),1),0)");
    ///
    /// // Splitting a leaf: the first name varies fastest.
    /// let l: Layout = "(12,5):(1,12)".parse().unwrap();
    /// let v = l.rearrange_pattern("(h w) c -> h w c", &[("h", 4)]).unwrap();
    /// assert_eq!(v.to_string(), "(4,3,5):(1,4,12)");
    ///
    /// // `...` stands for whole top-level modes.
    /// let l: Layout = "(2,3,4,5):(1,2,6,24)".parse().unwrap();
    /// let v = l.rearrange_pattern("a ... d -> d ... a", &[]).unwrap();
    /// assert_eq!(v.to_string(), "(5,3,4,2):(24,2,6,1)");
    ///
    /// // Errors quote the pattern and mark the offending term.
    /// let err = "(10,5):(1,10)".parse::<Layout>().unwrap()
    ///     .rearrange_pattern("(h w) c -> h w c", &[("h", 3)]).unwrap_err();
    /// assert_eq!(err.kind(), strideweave::ErrorKind::Value);
    /// assert_eq!(err.to_string(), "\
    /// rearrange: h = 3 does not divide extent 10 of mode 0, which the group `(h w)` on the left, term 0 splits
    ///   (h w) c -> h w c
    ///   ^^^^^");
    /// ```
    pub fn rearrange_pattern(&self, pattern: &str, sizes: &[(&str, usize)]) -> Result<Layout> {
        compile(self, "rearrange", PatternKind::Rearrange, pattern, sizes)
    }

    /// einops' `repeat` as a zero-copy view: like [`rearrange_pattern`](Layout::rearrange_pattern),
    /// and a right symbol absent on the left is a new mode of the keyword extent (≥ 1) with
    /// stride 0, at top level or inside a group.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "(3,4):(1,3)".parse().unwrap();
    /// let v = l.repeat_pattern("h w -> h (w r)", &[("r", 2)]).unwrap();
    /// assert_eq!(v.to_string(), "(3,(4,2)):(1,(3,0))");
    /// let v = l.repeat_pattern("h w -> b w h", &[("b", 5)]).unwrap();
    /// assert_eq!(v.to_string(), "(5,4,3):(0,3,1)");
    /// let err = l.repeat_pattern("h w -> h w r", &[]).unwrap_err();
    /// assert!(err.to_string().contains("new symbol `r` on the right, term 2 needs an extent"));
    /// ```
    pub fn repeat_pattern(&self, pattern: &str, sizes: &[(&str, usize)]) -> Result<Layout> {
        compile(self, "repeat", PatternKind::Repeat, pattern, sizes)
    }
}

/// What one selection leaf extracts, in selection (depth-first) order.
enum Part<'p> {
    /// A left symbol: its name, term span and path, the size of the sublayout it names and
    /// where that is in the source (`mode 2`, `mode 1, shape (3,4)`).
    Symbol {
        name: &'p str,
        span: Span,
        term: String,
        size: i64,
        place: String,
    },
    /// A left `1` (always dropped).
    Unit,
    /// A top-level mode captured by `...`.
    Captured,
    /// A new `repeat` symbol, appended as a stride-0 mode.
    New(&'p str),
}

struct Compiler<'p> {
    op: &'static str,
    text: &'p str,
    sizes: Vec<(&'p str, i64)>,
    builder: LayoutBuilder,
    parts: Vec<Part<'p>>,
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn mode_name(path: &[usize]) -> String {
    format!("mode {}", term_path(path))
}

fn node_size(s: Node<'_>) -> i64 {
    // The source's size fits in i64, hence so does every sublayout's.
    s.leaves().iter().product()
}

/// "extent 5" for a leaf, "size 12 (shape (3,4))" for a nested sublayout.
fn describe(s: Node<'_>) -> String {
    match s {
        Node::Leaf(e) => format!("extent {e}"),
        Node::Tuple(_) => format!("size {} (shape {})", node_size(s), s.to_int_tuple()),
    }
}

fn compile(
    layout: &Layout,
    op: &'static str,
    kind: PatternKind,
    text: &str,
    sizes: &[(&str, usize)],
) -> Result<Layout> {
    let whole = 0..text.len();
    let fail = |span: Span, message: String| Error::InvalidRearrange {
        op,
        detail: NotationError {
            position: span,
            message,
        }
        .render(text),
    };
    let lift = |e: NotationError<Span>| Error::InvalidRearrange {
        op,
        detail: e.render(text),
    };
    let pattern = parse_pattern(text).map_err(lift)?;
    let found = check_pattern(&pattern, kind).map_err(lift)?;
    let mut keywords: Vec<(&str, i64, Span)> = Vec::with_capacity(sizes.len());
    for &(name, value) in sizes {
        let value = i64::try_from(value).map_err(|_| {
            fail(
                whole.clone(),
                format!("keyword `{name} = {value}` does not fit in i64"),
            )
        })?;
        keywords.push((name, value, whole.clone()));
    }
    check_keywords(&pattern, kind, &keywords).map_err(lift)?;

    let mut c = Compiler {
        op,
        text,
        sizes: keywords.iter().map(|(n, v, _)| (*n, *v)).collect(),
        builder: LayoutBuilder::default(),
        parts: Vec::new(),
    };
    let mut selection = c.match_left(layout, &pattern)?;

    // Omitted left symbols are valid only at extent 1.
    for (name, _) in &found.omitted {
        if let Some(Part::Symbol {
            span,
            term,
            size,
            place,
            ..
        }) = c.symbol(name)
            && *size > 1
        {
            return Err(c.fail(
                span.clone(),
                format!(
                    "omitted source: `{name}` on the left, term {term} is absent from the right, but it names {place} of size {size}; only an extent-one sublayout may be omitted"
                ),
            ));
        }
    }

    // New repeat symbols: stride-0 modes appended to the intermediate layout.
    let mut total = layout.size() as i64;
    for (name, span) in &found.new {
        let extent = c.keyword(name).expect("check_keywords requires one");
        total = total.checked_mul(extent).ok_or_else(|| {
            c.fail(
                span.clone(),
                format!(
                    "the repeated layout's size overflows i64 (source size {}, `{name} = {extent}`)",
                    layout.size()
                ),
            )
        })?;
        c.builder.leaf(extent, 0);
        selection.push(Tree::Leaf);
        c.parts.push(Part::New(name));
    }

    let mut output = Vec::new();
    c.place(&pattern.right.terms, &mut output);

    let lift_layout = |e: Error| match e {
        Error::InvalidRearrange { detail, .. } => fail(whole.clone(), detail),
        other => fail(whole.clone(), other.to_string()),
    };
    let intermediate = std::mem::take(&mut c.builder)
        .tuple(op)
        .map_err(lift_layout)?;
    intermediate
        .rearrange(&Tree::Node(output), Some(&Tree::Node(selection)))
        .map_err(lift_layout)
}

impl<'p> Compiler<'p> {
    fn fail(&self, span: Span, message: String) -> Error {
        Error::InvalidRearrange {
            op: self.op,
            detail: NotationError {
                position: span,
                message,
            }
            .render(self.text),
        }
    }

    fn keyword(&self, name: &str) -> Option<i64> {
        self.sizes.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    fn symbol(&self, name: &str) -> Option<&Part<'p>> {
        self.parts
            .iter()
            .find(|p| matches!(p, Part::Symbol { name: n, .. } if *n == name))
    }

    fn id_of(&self, name: &str) -> usize {
        self.parts
            .iter()
            .position(|p| match p {
                Part::Symbol { name: n, .. } | Part::New(n) => *n == name,
                _ => false,
            })
            .expect("check_pattern guarantees every right symbol is on the left or new")
    }

    /// Matches the left side against the top-level modes; builds the intermediate layout's
    /// source modes and returns the selection's top-level children.
    fn match_left(&mut self, layout: &Layout, pattern: &'p Pattern<Span>) -> Result<Vec<Tree>> {
        let top: Vec<(Node<'_>, Node<'_>)> = layout.top().collect();
        let rank = top.len();
        let terms = &pattern.left.terms;
        let ellipsis = terms.iter().any(|t| matches!(t, Term::Ellipsis(_)));
        let named = terms.len() - usize::from(ellipsis);
        if ellipsis && named > rank {
            return Err(self.fail(
                pattern.left.span.clone(),
                format!(
                    "the left side has {} besides `...` but the source has only {} (shape {})",
                    plural(named, "term"),
                    plural(rank, "top-level mode"),
                    layout.shape()
                ),
            ));
        }
        if !ellipsis && named != rank {
            let span = if named > rank {
                terms[rank].span().start..pattern.left.span.end
            } else {
                pattern.left.span.clone()
            };
            return Err(self.fail(
                span,
                format!(
                    "the left side has {} but the source has {} (shape {})",
                    plural(named, "term"),
                    plural(rank, "top-level mode"),
                    layout.shape()
                ),
            ));
        }
        let captured = rank - named;
        let mut selection = Vec::with_capacity(rank);
        let mut mode = 0;
        for (i, term) in terms.iter().enumerate() {
            if let Term::Ellipsis(_) = term {
                for &(s, d) in &top[mode..mode + captured] {
                    self.builder.node(s, d);
                    selection.push(Tree::Leaf);
                    self.parts.push(Part::Captured);
                }
                mode += captured;
            } else {
                let (s, d) = top[mode];
                self.match_term(term, s, d, &mut vec![i], &mut vec![mode], &mut selection)?;
                mode += 1;
            }
        }
        Ok(selection)
    }

    /// Matches one left term against the sublayout `(s, d)` at term path `tp` and mode path
    /// `mp`.
    fn match_term(
        &mut self,
        term: &'p Term<Span>,
        s: Node<'_>,
        d: Node<'_>,
        tp: &mut Vec<usize>,
        mp: &mut Vec<usize>,
        selection: &mut Vec<Tree>,
    ) -> Result<()> {
        match term {
            Term::Symbol(name, span) => {
                let size = node_size(s);
                if let Some(k) = self.keyword(name)
                    && k != size
                {
                    return Err(self.fail(
                        span.clone(),
                        format!(
                            "keyword {name} = {k} disagrees with {} of {}, which `{name}` names on the left, term {}",
                            describe(s),
                            mode_name(mp),
                            term_path(tp)
                        ),
                    ));
                }
                self.builder.node(s, d);
                selection.push(Tree::Leaf);
                let place = match s {
                    Node::Leaf(_) => mode_name(mp),
                    Node::Tuple(_) => format!("{} (shape {})", mode_name(mp), s.to_int_tuple()),
                };
                self.parts.push(Part::Symbol {
                    name,
                    span: span.clone(),
                    term: term_path(tp),
                    size,
                    place,
                });
                Ok(())
            }
            Term::Unit(span) => {
                if node_size(s) != 1 {
                    return Err(self.fail(
                        span.clone(),
                        format!(
                            "`1` on the left, term {} matches {} of {}; only an extent-one mode can be dropped",
                            term_path(tp),
                            mode_name(mp),
                            describe(s)
                        ),
                    ));
                }
                self.builder.node(s, d);
                selection.push(Tree::Leaf);
                self.parts.push(Part::Unit);
                Ok(())
            }
            Term::Group(members, span) => match (s, d) {
                (Node::Tuple(ss), Node::Tuple(ds)) => {
                    let children: Vec<(Node<'_>, Node<'_>)> = ss.zip(ds).collect();
                    if children.len() != members.len() {
                        return Err(self.fail(
                            span.clone(),
                            format!(
                                "the group `{term}` on the left, term {} has {} but {} of the source, {}:{}, has {}",
                                term_path(tp),
                                plural(members.len(), "member"),
                                mode_name(mp),
                                s.to_int_tuple(),
                                d.to_int_tuple(),
                                if children.len() == 1 {
                                    "1 child".to_string()
                                } else {
                                    format!("{} children", children.len())
                                }
                            ),
                        ));
                    }
                    self.builder.push();
                    let mut sub = Vec::with_capacity(members.len());
                    for (j, (m, &(cs, cd))) in members.iter().zip(&children).enumerate() {
                        tp.push(j);
                        mp.push(j);
                        self.match_term(m, cs, cd, tp, mp, &mut sub)?;
                        tp.pop();
                        mp.pop();
                    }
                    self.builder.pop();
                    selection.push(Tree::Node(sub));
                    Ok(())
                }
                (Node::Leaf(extent), Node::Leaf(stride)) => {
                    self.split(term, extent, stride, tp, mp, selection)
                }
                _ => unreachable!("shape and stride are congruent"),
            },
            Term::Ellipsis(span) => Err(self.fail(
                span.clone(),
                format!(
                    "`...` inside a group on the left, term {}: on the left, `...` must be a top-level term",
                    term_path(tp)
                ),
            )),
        }
    }

    /// Splits the leaf `extent:stride` by the left group `group`.
    fn split(
        &mut self,
        group: &'p Term<Span>,
        extent: i64,
        stride: i64,
        tp: &[usize],
        mp: &[usize],
        selection: &mut Vec<Tree>,
    ) -> Result<()> {
        let span = group.span().clone();
        let mut factors: Vec<&'p Term<Span>> = Vec::new();
        collect_factors(group, &mut factors);
        let where_ = || {
            format!(
                "{}, which the group `{group}` on the left, term {} splits",
                mode_name(mp),
                term_path(tp)
            )
        };
        let mut unknown: Vec<&str> = Vec::new();
        let mut given: Vec<String> = Vec::new();
        let mut known: Option<i64> = Some(1);
        for f in &factors {
            match f {
                Term::Symbol(name, _) => match self.keyword(name) {
                    Some(k) => {
                        given.push(format!("{name} = {k}"));
                        known = known.and_then(|p| p.checked_mul(k));
                    }
                    None => unknown.push(name),
                },
                Term::Ellipsis(s) => {
                    return Err(self.fail(
                        s.clone(),
                        "`...` inside a group on the left: on the left, `...` must be a top-level term"
                            .to_string(),
                    ));
                }
                _ => {}
            }
        }
        let given_text = match given.len() {
            0 => "the group's members".to_string(),
            1 => given[0].clone(),
            n => format!("{} and {}", given[..n - 1].join(", "), given[n - 1]),
        };
        let inferred = match unknown.len() {
            0 => {
                if known != Some(extent) {
                    let message = match known {
                        Some(_) if given.len() == 1 => {
                            format!("{given_text} is not extent {extent} of {}", where_())
                        }
                        Some(p) => format!(
                            "{given_text} multiply to {p}, not extent {extent} of {}",
                            where_()
                        ),
                        None => format!(
                            "{given_text} multiply to more than i64 holds, not extent {extent} of {}",
                            where_()
                        ),
                    };
                    return Err(self.fail(span, message));
                }
                None
            }
            1 => match known {
                Some(k) if extent % k == 0 => Some(extent / k),
                _ => {
                    let verb = if given.len() == 1 { "does" } else { "do" };
                    return Err(self.fail(
                        span,
                        format!(
                            "{given_text} {verb} not divide extent {extent} of {}",
                            where_()
                        ),
                    ));
                }
            },
            n => {
                let names: Vec<String> = unknown.iter().map(|u| format!("`{u}`")).collect();
                let names = format!("{} and {}", names[..n - 1].join(", "), names[n - 1]);
                let all = if n == 2 { "both" } else { "all" };
                return Err(self.fail(
                    span,
                    format!(
                        "cannot split extent {extent} of {}: {names} {all} lack an extent; give all but one of them as keywords",
                        where_()
                    ),
                ));
            }
        };
        // Emit the nested mode, first factor fastest.
        let mut prefix = 1i64;
        let mut sub = Vec::new();
        let Term::Group(members, _) = group else {
            unreachable!("split is called on groups")
        };
        self.builder.push();
        self.emit_split(members, stride, inferred, &mut prefix, tp, mp, &mut sub);
        self.builder.pop();
        selection.push(Tree::Node(sub));
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_split(
        &mut self,
        members: &'p [Term<Span>],
        stride: i64,
        inferred: Option<i64>,
        prefix: &mut i64,
        tp: &[usize],
        mp: &[usize],
        selection: &mut Vec<Tree>,
    ) {
        for (j, m) in members.iter().enumerate() {
            let tp = [tp, &[j]].concat();
            let e = match m {
                Term::Group(inner, _) => {
                    self.builder.push();
                    let mut sub = Vec::new();
                    self.emit_split(inner, stride, inferred, prefix, &tp, mp, &mut sub);
                    self.builder.pop();
                    selection.push(Tree::Node(sub));
                    continue;
                }
                Term::Symbol(name, _) => self.keyword(name).or(inferred).unwrap_or(1),
                _ => 1,
            };
            // `stride · prefix` can only overflow at an extent-one factor after the prefix
            // has reached the whole extent; such a leaf's stride is immaterial (D5).
            let d = stride.checked_mul(*prefix).unwrap_or(0);
            self.builder.leaf(e, d);
            selection.push(Tree::Leaf);
            match m {
                Term::Symbol(name, span) => self.parts.push(Part::Symbol {
                    name,
                    span: span.clone(),
                    term: term_path(&tp),
                    size: e,
                    place: format!("a factor of the split {}", mode_name(mp)),
                }),
                _ => self.parts.push(Part::Unit),
            }
            // The prefix stays ≤ extent, which fits.
            *prefix *= e;
        }
    }

    /// Compiles right terms to output trees.
    fn place(&self, terms: &'p [Term<Span>], out: &mut Vec<Tree>) {
        for t in terms {
            match t {
                Term::Symbol(name, _) => out.push(Tree::Id(self.id_of(name))),
                Term::Unit(_) => out.push(Tree::Leaf),
                Term::Group(members, _) => {
                    let mut sub = Vec::with_capacity(members.len());
                    self.place(members, &mut sub);
                    out.push(Tree::Node(sub));
                }
                Term::Ellipsis(_) => out.extend(
                    self.parts
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| matches!(p, Part::Captured))
                        .map(|(i, _)| Tree::Id(i)),
                ),
            }
        }
    }
}

/// The leaf terms of a group in depth-first order.
fn collect_factors<'p>(term: &'p Term<Span>, out: &mut Vec<&'p Term<Span>>) {
    match term {
        Term::Group(members, _) => members.iter().for_each(|m| collect_factors(m, out)),
        leaf => out.push(leaf),
    }
}
