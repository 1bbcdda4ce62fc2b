//! No recursion depth a user controls (issue 11, item 2): every text parser refuses nesting
//! deeper than `MAX_NESTING` levels with an error naming the limit, at once and on a small
//! stack; exactly `MAX_NESTING` levels still work; hierarchies built by hand are walked
//! without recursion or refused the same way.

use std::time::{Duration, Instant};

use strideweave::{IntTuple, Layout, MAX_NESTING, Shape, Stride, Tiler, Tree};

/// `n` brackets around `inner`.
fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// Every text parser on `n` nested brackets: the operation's name (how its message starts)
/// and its result.
fn every_parser(n: usize) -> Vec<(&'static str, Result<String, String>)> {
    let cute = nested("(", "2", ")", n);
    let list = nested("[", "2", "]", n);
    let show = |r: strideweave::Result<String>| r.map_err(|e| e.to_string());
    let l: Layout = "5:1".parse().unwrap();
    let group = nested("(", "a", ")", n);
    vec![
        (
            "cannot parse layout: ",
            show(
                format!("{cute}:{cute}")
                    .parse::<Layout>()
                    .map(|v| v.to_string()),
            ),
        ),
        (
            "cannot parse layout: ",
            show(
                format!("Layout(Shape({list}), Stride({list}))")
                    .parse::<Layout>()
                    .map(|v| v.to_string()),
            ),
        ),
        (
            "cannot parse Shape: ",
            show(cute.parse::<Shape>().map(|v| v.to_string())),
        ),
        (
            "cannot parse Shape: ",
            show(
                format!("Shape({list})")
                    .parse::<Shape>()
                    .map(|v| v.to_string()),
            ),
        ),
        (
            "cannot parse Stride: ",
            show(list.parse::<Stride>().map(|v| v.to_string())),
        ),
        (
            "cannot parse IntTuple: ",
            show(cute.parse::<IntTuple>().map(|v| v.to_string())),
        ),
        (
            "rearrange: ",
            show(
                l.rearrange(&format!("{group} -> a"), &[])
                    .map(|v| v.to_string()),
            ),
        ),
        (
            "rearrange: ",
            show(
                l.rearrange(&format!("a -> {group}"), &[])
                    .map(|v| v.to_string()),
            ),
        ),
        (
            "repeat: ",
            show(
                l.repeat(&format!("a -> {}", nested("(", "a b", ")", n)), &[("b", 2)])
                    .map(|v| v.to_string()),
            ),
        ),
    ]
}

fn assert_refused_quickly(n: usize) {
    let t = Instant::now();
    let results = every_parser(n);
    let took = t.elapsed();
    // Linear from quadratic, with room for a loaded machine (the quadratic parsers took minutes).
    assert!(took < Duration::from_secs(10), "{n} levels took {took:?}");
    for (op, result) in results {
        let err = result.expect_err(op);
        assert!(err.starts_with(op), "{}", &err[..err.len().min(300)]);
        let rest = &err[op.len()..];
        assert!(
            rest.starts_with(&format!("nesting deeper than {MAX_NESTING} levels")),
            "{}",
            &err[..err.len().min(300)]
        );
    }
}

#[test]
fn every_text_parser_refuses_100000_nested_parentheses_with_an_error_naming_the_limit() {
    assert_refused_quickly(100_000);
    assert_refused_quickly(MAX_NESTING + 1);
}

#[test]
fn every_text_parser_refuses_deep_nesting_on_a_thread_with_a_64_kib_stack() {
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| {
            assert_refused_quickly(100_000);
            assert_refused_quickly(10_000);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn the_error_points_at_the_first_bracket_beyond_the_limit() {
    let text = nested("(", "2", ")", MAX_NESTING + 5);
    let err = text.parse::<IntTuple>().unwrap_err().to_string();
    assert!(
        err.starts_with(
            "cannot parse IntTuple: nesting deeper than 256 levels: this bracket opens level 257\n"
        ),
        "{}",
        &err[..200]
    );
    let carets = err.lines().last().unwrap();
    assert_eq!(carets, format!("  {}^", " ".repeat(MAX_NESTING)));
    let err = "5:1"
        .parse::<Layout>()
        .unwrap()
        .rearrange(
            &format!("{} -> a", nested("(", "a", ")", MAX_NESTING + 1)),
            &[],
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(
            "rearrange: nesting deeper than 256 levels on the left: this `(` opens level 257\n"
        ),
        "{}",
        &err[..200]
    );
}

#[test]
fn exactly_max_nesting_levels_parse_and_print() {
    let cute = nested("(", "2", ")", MAX_NESTING);
    let one = nested("(", "1", ")", MAX_NESTING);
    let l: Layout = format!("{cute}:{one}").parse().unwrap();
    assert_eq!(l.to_string(), format!("{cute}:{one}"));
    assert_eq!(l.shape().depth(), MAX_NESTING);
    let debug = format!("{l:?}");
    assert_eq!(debug.parse::<Layout>().unwrap(), l);
    assert_eq!(cute.parse::<Shape>().unwrap().depth(), MAX_NESTING);
    assert_eq!(cute.parse::<IntTuple>().unwrap().to_string(), cute);
    assert_eq!(one.parse::<Stride>().unwrap().to_string(), one);
}

#[test]
fn a_pattern_nested_exactly_max_nesting_levels_rearranges() {
    // A shape nested 256 levels: its one top-level mode nests 255 levels around a leaf,
    // which the left side's 255 groups mirror.
    let inner = MAX_NESTING - 1;
    let l: Layout = format!(
        "{}:{}",
        nested("(", "6", ")", MAX_NESTING),
        nested("(", "1", ")", MAX_NESTING)
    )
    .parse()
    .unwrap();
    let left = nested("(", "a", ")", inner);
    let v = l.rearrange(&format!("{left} -> a"), &[]).unwrap();
    assert_eq!(v.to_string(), "(6):(1)");
    // Splitting the innermost leaf: the left side's groups are 256 levels deep.
    let left = nested("(", "(h w)", ")", inner);
    let v = l.rearrange(&format!("{left} -> w h"), &[("h", 2)]).unwrap();
    assert_eq!(v.to_string(), "(3,2):(2,1)");
    // On the right: the result's root tuple and 255 groups nest 256 levels; one more group
    // is refused.
    let flat: Layout = "6:1".parse().unwrap();
    let right = |n| format!("a -> {}", nested("(", "a", ")", n));
    let v = flat.rearrange(&right(MAX_NESTING - 1), &[]).unwrap();
    assert_eq!(v.shape().depth(), MAX_NESTING);
    let err = flat
        .rearrange(&right(MAX_NESTING), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("rearrange: the result would nest 257 levels"),
        "{err}"
    );
}

#[test]
fn a_rearrangement_with_a_nested_left_side_at_depth_7000_and_100000_errors_cleanly() {
    for n in [7_000, 100_000] {
        let l: Layout = "5:1".parse().unwrap();
        let t = Instant::now();
        let err = l
            .rearrange(&format!("{} -> a", nested("(", "a", ")", n)), &[])
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("rearrange: nesting deeper than 256 levels on the left"),
            "{}",
            &err[..200]
        );
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    }
}

#[test]
fn a_rearrangement_result_deeper_than_max_nesting_is_refused() {
    // Both within the limit, together beyond it: a group of depth 256 around a node of
    // depth 2.
    let l: Layout = "((2,3)):((1,2))".parse().unwrap();
    let err = l
        .rearrange(&format!("a -> {}", nested("(", "a", ")", MAX_NESTING)), &[])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("rearrange: the result would nest 258 levels, deeper than the limit of 256 levels (MAX_NESTING)"),
        "{err}"
    );
}

/// A hand-built tuple nested `n` levels around `2`, built bottom-up.
fn deep_int_tuple(n: usize) -> IntTuple {
    let mut t = IntTuple::int(2);
    for _ in 0..n {
        t = IntTuple::tuple([t]);
    }
    t
}

#[test]
fn a_hand_built_tuple_deeper_than_the_limit_prints_and_is_refused_as_a_shape() {
    let t = deep_int_tuple(5_000);
    assert_eq!(t.depth(), 5_000);
    let text = t.to_string();
    assert_eq!(text, nested("(", "2", ")", 5_000));
    assert_eq!(format!("{t:?}"), nested("[", "2", "]", 5_000));
    let err = Shape::new(t.clone()).unwrap_err().to_string();
    assert_eq!(
        err,
        "Shape::new: the tuple nests 5000 levels, deeper than the limit of 256 levels (MAX_NESTING)"
    );
    let err = Stride::new(t).unwrap_err().to_string();
    assert!(
        err.starts_with("Stride::new: the tuple nests 5000 levels"),
        "{err}"
    );
    let ok = deep_int_tuple(MAX_NESTING);
    assert_eq!(Shape::new(ok).unwrap().depth(), MAX_NESTING);
}

#[test]
fn a_layout_built_deeper_than_the_limit_by_appending_is_refused() {
    let mut l: Layout = "2:1".parse().unwrap();
    let unit: Layout = "(1):(0)".parse().unwrap();
    let mut refused = None;
    for _ in 0..MAX_NESTING + 5 {
        match unit.append(&l) {
            Ok(next) => l = next,
            Err(e) => {
                refused = Some(e.to_string());
                break;
            }
        }
    }
    assert_eq!(l.shape().depth(), MAX_NESTING);
    let err = refused.expect("refused beyond the limit");
    assert!(
        err.starts_with("append: the result would nest 257 levels, deeper than the limit of 256 levels (MAX_NESTING)"),
        "{err}"
    );
}

/// A hand-built tree: `n` nodes around one identified leaf.
fn deep_tree(n: usize) -> Tree {
    let mut t = Tree::id(0);
    for _ in 0..n {
        t = Tree::node([t]);
    }
    t
}

#[test]
fn a_hand_built_tree_deeper_than_the_limit_is_walked_without_recursion_or_refused() {
    let t = deep_tree(100_000);
    assert_eq!(t.size(), 1);
    assert_eq!(t.recipe().len(), 2 * 100_000 - 1);
    assert_eq!(t.to_string().len(), 2 * 100_000 + 2);
    let l: Layout = "(2,3):(1,2)".parse().unwrap();
    let err = l.rearrange_tree(&t, None).unwrap_err().to_string();
    assert!(
        err.starts_with("rearrange_tree: the output tree nests 100000 levels, deeper than the limit of 256 levels (MAX_NESTING)"),
        "{err}"
    );
    let err = l
        .rearrange_tree(&Tree::node([Tree::id(0), Tree::id(1)]), Some(&t))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("rearrange_tree: the selection tree nests 100000 levels"),
        "{err}"
    );
    // Dropping it takes no recursion either.
    drop(t);
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| drop(deep_tree(100_000)))
        .unwrap()
        .join()
        .unwrap();
}

/// A hand-built by-mode tiler: `n` levels around one layout.
fn deep_tiler(n: usize) -> Tiler {
    let mut t = Tiler::from("1:1".parse::<Layout>().unwrap());
    for _ in 0..n {
        t = Tiler::by_mode([t]);
    }
    t
}

#[test]
fn a_hand_built_tiler_deeper_than_the_limit_is_refused_not_recursed() {
    // On a leaf a by-mode tiler applies to the leaf itself: nesting alone sets the depth.
    let l: Layout = "8:1".parse().unwrap();
    let t = deep_tiler(100_000);
    for (op, result) in [
        ("compose_tiler", l.compose_tiler(&t).map(|_| ())),
        (
            "logical_divide_tiler",
            l.logical_divide_tiler(&t).map(|_| ()),
        ),
        ("zipped_divide", l.zipped_divide(&t).map(|_| ())),
    ] {
        let err = result.unwrap_err().to_string();
        assert!(
            err.starts_with(&format!(
                "{op}: the by-mode tiler nests 257 levels, deeper than the limit of 256 levels"
            )),
            "{err}"
        );
    }
    drop(t);
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| drop(deep_tiler(100_000)))
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_tiler_at_the_nesting_limit_divides_on_a_2_mib_thread_even_unoptimised() {
    // 256 levels is the deepest tiler accepted; the algebra descends it on a 2 MiB thread (the
    // test harness's default) in the test profile's unoptimised build.
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let l: Layout = "8:1".parse().unwrap();
            let t = deep_tiler(256);
            let composed = l.compose_tiler(&t).unwrap();
            assert_eq!((composed.size(), composed.depth()), (1, 256));
            // A divide nests its result one level deeper than the tiler.
            let t = deep_tiler(255);
            let (divided, zipped) = (
                l.logical_divide_tiler(&t).unwrap(),
                l.zipped_divide(&t).unwrap(),
            );
            assert_eq!((divided.size(), divided.depth()), (8, 256));
            assert_eq!((zipped.size(), zipped.depth()), (8, 256));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_hand_built_tree_is_cloned_compared_hashed_and_formatted_without_recursion() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    // On a 256 KiB stack: a recursive clone, `==` or hash of 100,000 levels overflows it.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let t = deep_tree(100_000);
            let c = t.clone();
            assert!(c == t);
            assert!(c != deep_tree(99_999));
            assert!(Tree::node([Tree::Leaf, Tree::id(3)]) != Tree::node([Tree::Leaf, Tree::id(4)]));
            let hash = |t: &Tree| {
                let mut h = DefaultHasher::new();
                t.hash(&mut h);
                h.finish()
            };
            assert_eq!(hash(&c), hash(&t));
            let shallow = Tree::node([Tree::id(1), Tree::Leaf, Tree::node([Tree::id(0)])]);
            assert_eq!(
                format!("{:?}", shallow.clone()),
                "Node([Id(1), Leaf, Node([Id(0)])])"
            );
            assert_eq!(format!("{:?}", c).len(), format!("{:?}", t).len());
            assert_eq!(c.depth(), 100_000);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_hand_built_tiler_is_cloned_compared_and_formatted_without_recursion() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let t = deep_tiler(100_000);
            let c = t.clone();
            assert!(c == t);
            assert!(c != deep_tiler(99_999));
            let debug = format!("{c:?}");
            assert!(debug.starts_with("ByMode([ByMode(["), "{}", &debug[..40]);
            assert_eq!(debug.matches("Layout(Layout(").count(), 1);
            let shallow =
                Tiler::by_mode([Tiler::Keep, Tiler::from("3:4".parse::<Layout>().unwrap())]);
            assert_eq!(
                format!("{shallow:?}"),
                "ByMode([Keep, Layout(Layout(Shape(3), Stride(4)))])"
            );
            assert!(shallow.clone() == shallow);
            assert!(Tiler::Keep != shallow);
        })
        .unwrap()
        .join()
        .unwrap();
}
