//! Cheap by construction: common layout operations on layouts of up to 8 leaves allocate
//! nothing. A counting global allocator proves it (in this test binary).

use strideweave::{IntTuple, Layout, Shape, Tensor, Tree, autograd};

use crate::counting::{allocations, large_allocations};

fn l(text: &str) -> Layout {
    text.parse().unwrap()
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 100]);
    assert_eq!(n, 1);
    assert_eq!(v.len(), 100);
}

#[test]
fn index_size_cosize_allocate_nothing() {
    let a = l("((2,3),(4,(5,2)),7,2):((1,2),(6,(24,120)),240,1680)");
    let coord: IntTuple = "((1,2),(3,(4,1)),6,1)".parse().unwrap();
    let (n, v) = allocations(|| {
        a.index(&coord).unwrap() + a.index_of(1234).unwrap() + a.size() as i64 + a.cosize() as i64
    });
    assert_eq!(n, 0, "index/size/cosize allocated");
    assert!(v > 0);
}

#[test]
fn permute_broadcast_coalesce_allocate_nothing() {
    let a = l("((2,3),4,(1,5),6):((1,2),6,(0,24),120)");
    let target: Shape = "((2,3),4,(7,5),6)".parse().unwrap();
    let (n, (p, b, c, f)) = allocations(|| {
        (
            a.permute(&[3, 1, 0, 2]).unwrap(),
            a.broadcast_to(&target).unwrap(),
            a.coalesce(),
            a.flatten(),
        )
    });
    assert_eq!(n, 0, "permute/broadcast/coalesce/flatten allocated");
    assert_eq!(p.to_string(), "(6,4,(2,3),(1,5)):(120,6,(1,2),(0,24))");
    assert_eq!(b.to_string(), "((2,3),4,(7,5),6):((1,2),6,(0,24),120)");
    assert_eq!(c.to_string(), "720:1");
    assert_eq!(f.rank(), 6);
}

#[test]
fn compose_on_small_layouts_allocates_nothing() {
    let a = l("(6,2):(8,2)");
    let b = l("(4,3):(3,1)");
    let t = l("(4,2,3):(2,1,8)");
    let (n, (r, c)) = allocations(|| (a.compose(&b).unwrap(), t.compose(&l_noalloc()).unwrap()));
    assert_eq!(n, 0, "compose allocated");
    assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
    assert_eq!(c.to_string(), "4:2");
}

fn l_noalloc() -> Layout {
    // Built by value, not parsed, so building it allocates nothing either.
    strideweave::__private::layout(&[strideweave::ProfileToken::Leaf], &[4], &[1], true)
}

#[test]
fn is_injective_by_the_sorted_stride_test_allocates_nothing() {
    let inj = l("((2,3),(4,5)):((1,2),(6,24))");
    let not = l("(4,2,3):(0,1,2)");
    let (n, (x, y)) = allocations(|| (inj.is_injective(), not.is_injective()));
    assert_eq!(n, 0, "is_injective allocated");
    assert!(x && !y);
}

#[test]
fn complement_and_inverses_allocate_nothing() {
    let a = l("(2,2):(1,6)");
    let (n, (c, r, li)) = allocations(|| {
        (
            a.complement(24).unwrap(),
            a.right_inverse().unwrap(),
            a.left_inverse().unwrap(),
        )
    });
    assert_eq!(n, 0, "complement/inverses allocated");
    assert_eq!(c.to_string(), "(3,2):(2,12)");
    assert_eq!(r.to_string(), "2:1");
    assert_eq!(li.size(), 12);
}

/// A string `Tensor::rearrange` reads its pattern once, also when autograd records the view
/// (which applies the view's plan to the compact layout of the source's shape): the call
/// allocates no more than one `Layout::rearrange` of the pattern (parse, check, encode,
/// compile) plus the same view made from a tree (no pattern), recording included.
#[test]
fn a_string_rearrange_reads_its_pattern_once_also_when_recording() {
    let t = Tensor::arange::<f32>(&"(2,3,4,5)".parse().unwrap());
    t.set_requires_grad(true).unwrap();
    let pattern = "a b c d -> d b a c";
    let tree = Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)]);
    let layout = t.layout().clone();
    let (once, by_layout) = allocations(|| layout.rearrange(pattern, &[]).unwrap());
    let (view, by_tree) = allocations(|| t.rearrange_tree(&tree, None).unwrap());
    let (n, v) = allocations(|| t.rearrange(pattern, &[]).unwrap());
    assert!(once >= 10, "reading a pattern allocates ({once})");
    assert!(
        n <= once + view,
        "Tensor::rearrange allocated {n}: more than one reading of the pattern ({once}) and the view ({view})"
    );
    assert_eq!(v.layout(), &by_layout);
    assert_eq!(v.layout(), by_tree.layout());
    assert!(v.requires_grad());
}

/// Issue 27, item 3: a pattern a thread compiled on a shape is kept, so `Tensor::rearrange`
/// with that pattern and `rearrange!` on a `Tensor` of that shape allocate no more than
/// the view itself (at most the new handle's `Arc`), and give the same view as a tree.
#[test]
fn a_kept_pattern_view_allocates_at_most_once() {
    let t = Tensor::arange::<f32>(&"(8,16,32,64)".parse().unwrap());
    let pattern = "a b c d -> d b a c";
    let tree = Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)]);
    let by_tree = t.rearrange_tree(&tree, None).unwrap();
    let by_macro = || strideweave::rearrange!(&t, "a b c d -> d b a c").unwrap();
    let (first, _) = allocations(|| t.rearrange(pattern, &[]).unwrap());
    let (first_macro, _) = allocations(by_macro);
    assert!(first >= 10, "the first call reads the pattern ({first})");
    assert!(
        first_macro >= 2,
        "the first macro call compiles the plan ({first_macro})"
    );
    for _ in 0..2 {
        let (n, v) = allocations(|| t.rearrange(pattern, &[]).unwrap());
        assert!(
            n <= 1,
            "Tensor::rearrange with a kept pattern allocated {n} times"
        );
        assert_eq!(v.layout(), by_tree.layout());
        let (n, v) = allocations(by_macro);
        assert!(n <= 1, "rearrange! with a kept plan allocated {n} times");
        assert_eq!(v.layout(), by_tree.layout());
    }
}

/// Issue 10, item 5: each view of a plain rank-4 tensor (permute, slice, broadcast_to,
/// reshape, unsqueeze, rearrange_tree) allocates at most once, the new handle's `Arc`, and
/// gives the layout the view defines.
#[test]
fn each_view_allocates_at_most_once() {
    let t = Tensor::arange::<f32>(&"(8,16,32,64)".parse().unwrap());
    let b = Tensor::arange::<f32>(&"(8,1,32,64)".parse().unwrap());
    let keys = [
        strideweave::Key::Int(2),
        (1..9).into(),
        strideweave::Key::all(),
        strideweave::Key::slice(None, None, Some(2)),
    ];
    let target: Shape = "(8,16,32,64)".parse().unwrap();
    let merged: Shape = "(128,32,64)".parse().unwrap();
    let tree = Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)]);
    type View<'a> = Box<dyn Fn() -> Tensor + 'a>;
    // The benches' grouping `a b c d -> a (b c) d`: a nested output tree.
    let group = Tree::node([
        Tree::id(0),
        Tree::node([Tree::id(1), Tree::id(2)]),
        Tree::id(3),
    ]);
    let cases: [(&str, View, &str); 7] = [
        (
            "permute",
            Box::new(|| t.permute(&[3, 1, 0, 2]).unwrap()),
            "(64,16,8,32):(4096,8,1,128)",
        ),
        (
            "slice",
            Box::new(|| t.slice(&keys).unwrap()),
            "(8,32,32):(8,128,8192)",
        ),
        (
            "broadcast_to",
            Box::new(|| b.broadcast_to(&target).unwrap()),
            "(8,16,32,64):(1,0,8,256)",
        ),
        (
            "reshape",
            Box::new(|| t.reshape(&merged).unwrap()),
            "(128,32,64):(1,128,4096)",
        ),
        (
            "unsqueeze",
            Box::new(|| t.unsqueeze(2).unwrap()),
            "(8,16,1,32,64):(1,8,0,128,4096)",
        ),
        (
            "rearrange_tree",
            Box::new(|| t.rearrange_tree(&tree, None).unwrap()),
            "(64,16,8,32):(4096,8,1,128)",
        ),
        (
            "rearrange_tree (grouped)",
            Box::new(|| t.rearrange_tree(&group, None).unwrap()),
            "(8,(16,32),64):(1,(8,128),4096)",
        ),
    ];
    for (op, view, layout) in &cases {
        let (n, v) = allocations(view);
        assert!(n <= 1, "{op} allocated {n} times");
        assert_eq!(v.layout().to_string(), *layout, "{op}");
    }
}

/// Issue 27, item 3: a chain of borrowed views (`Tensor::view`) allocates nothing — no
/// handle per step — once its pattern is kept, and gives the owned chain's layout.
#[test]
fn a_chain_of_borrowed_views_allocates_nothing() {
    let t = Tensor::arange::<f32>(&"(8,16,32,64)".parse().unwrap());
    let merged: Shape = "(128,32,64)".parse().unwrap();
    let target: Shape = "(3,32,128,8)".parse().unwrap();
    let keys = [
        strideweave::Key::slice(None, None, Some(2)),
        strideweave::Key::all(),
        (1..9).into(),
    ];
    // The same steps on a `Tensor` and on a `TensorView` (the methods share their names).
    macro_rules! steps {
        ($start:expr) => {
            $start
                .reshape(&merged)
                .unwrap()
                .permute(&[2, 0, 1])
                .unwrap()
                .slice(&keys)
                .unwrap()
                .unsqueeze(0)
                .unwrap()
                .broadcast_to(&target)
                .unwrap()
                .rearrange("o a b c -> (o c) b a", &[])
                .unwrap()
        };
    }
    let chain = || steps!(t.view());
    let owned = steps!(t);
    let _ = chain();
    let (n, v) = allocations(chain);
    assert_eq!(n, 0, "a chain of six borrowed views allocated {n} times");
    assert_eq!(v.layout(), owned.layout());
    assert_eq!(v.offset(), owned.offset());
}

/// A (256,256) f64 leaf (512 KiB) and a chain of 10 views of it: permutes, reversals,
/// unsqueeze/squeeze pairs and a tree rearrangement, in turn.
fn ten_views() -> (Tensor, Tensor) {
    let x = Tensor::arange::<f64>(&"(256,256)".parse().unwrap());
    x.set_requires_grad(true).unwrap();
    let swap = Tree::node([Tree::id(1), Tree::id(0)]);
    let mut v = x.clone();
    for k in 0..10 {
        v = match k % 5 {
            0 => v.permute(&[1, 0]),
            1 => v.reverse(k % 2),
            2 => v.unsqueeze(1),
            3 => v.squeeze(1),
            _ => v.rearrange_tree(&swap, None),
        }
        .unwrap();
    }
    (x, v)
}

/// Issue 10 item 4: the backward of a chain of views writes the source's gradient in one
/// pass, so its buffer is the one buffer of elements it allocates (not one per view); a
/// second backward adds into the unshared `.grad` in place and allocates none.
#[test]
fn backward_through_ten_views_allocates_one_gradient_buffer() {
    let (x, v) = ten_views();
    let c = v.detach();
    let (big, g) = large_allocations(|| autograd::grad(&[&v], &[&x], &[Some(&c)], true).unwrap());
    assert_eq!(big, 1, "buffers of elements allocated");
    assert_eq!(g[0].as_ref().unwrap().size(), 256 * 256);
    let (big, ()) = large_allocations(|| v.backward_with(Some(&c), true).unwrap());
    assert_eq!(big, 1, "the first .grad");
    let (big, ()) = large_allocations(|| v.backward_with(Some(&c), false).unwrap());
    assert_eq!(big, 0, "accumulating into the unshared .grad");
    assert_eq!(
        x.grad().unwrap().to_vec::<f64>().unwrap()[..3],
        [0.0, 2.0, 4.0]
    );
}

/// Issue 10 item 4: an identity rule (`add_scalar`) above the chain hands the caller's
/// cotangent on as it is, so the gradient is still written in one pass: one buffer of
/// elements (no vector of the cotangent for the rule).
#[test]
fn backward_through_add_scalar_and_ten_views_allocates_one_gradient_buffer() {
    let (x, v) = ten_views();
    let y = v.add_scalar(0.0).unwrap();
    let c = Tensor::arange::<f64>(y.shape());
    let (big, g) = large_allocations(|| autograd::grad(&[&y], &[&x], &[Some(&c)], true).unwrap());
    assert_eq!(big, 1, "buffers of elements allocated");
    // The same gradient through a rule that takes its cotangent as a vector (`* 1`): the
    // vector is one more buffer.
    let z = v.mul_scalar(1.0).unwrap();
    let (big, want) =
        large_allocations(|| autograd::grad(&[&z], &[&x], &[Some(&c)], true).unwrap());
    assert_eq!(big, 2, "the cotangent vector and the gradient");
    let (g, want) = (g[0].as_ref().unwrap(), want[0].as_ref().unwrap());
    assert_eq!(g.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
}

/// Issue 10 item 4: `sum`'s backward reads its one cotangent value through stride 0: no
/// tensor of ones and no vector of copies, only the gradient buffer — also through views.
#[test]
fn sum_backward_allocates_no_ones_buffer() {
    let (x, v) = ten_views();
    let rows = v.sum_modes(&[0]).unwrap().sum().unwrap();
    for loss in [x.sum().unwrap(), v.sum().unwrap(), v.mean().unwrap(), rows] {
        let (big, g) =
            large_allocations(|| autograd::grad(&[&loss], &[&x], &[None], true).unwrap());
        assert_eq!(big, 1, "buffers of elements allocated");
        assert_eq!(g[0].as_ref().unwrap().size(), 256 * 256);
    }
    let loss = v.sum().unwrap();
    loss.backward_with(Some(&Tensor::scalar(1.0f64)), true)
        .unwrap();
    let (big, ()) = large_allocations(|| loss.backward().unwrap());
    assert_eq!(
        big, 0,
        "accumulating a sum's gradient into the unshared .grad"
    );
    assert!(
        x.grad()
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .all(|&g| g == 2.0)
    );
}

/// `to_shape` (the Shaped Types document's `ToShape`: "no element copy and no allocation")
/// allocates only the new handle's `Arc`, whatever the size of the storage it keeps.
#[test]
fn to_shape_allocates_only_the_new_handle() {
    let t = Tensor::arange::<f32>(&"(8,16,32,64)".parse().unwrap());
    let flat: Shape = "(128,(32,64))".parse().unwrap();
    let (n, v) = allocations(|| t.to_shape(&flat).unwrap());
    assert!(n <= 1, "to_shape allocated {n} times");
    assert_eq!(v.layout().to_string(), "(128,(32,64)):(1,(128,4096))");
}

/// Issue 27, item 3: `rearrange!` on a `Tensor` keeps its plan per call site and shape (the
/// pattern constant's address is the key): two call sites with different patterns on one
/// shape, and one call site on two shapes, each keep and return their own view, whatever
/// order they run in.
#[test]
fn a_kept_macro_plan_belongs_to_its_call_site_and_shape() {
    let a = Tensor::arange::<f32>(&"(2,3,4)".parse().unwrap());
    let b = Tensor::arange::<f32>(&"(4,3,2)".parse().unwrap());
    let swap = |t: &Tensor| strideweave::rearrange!(t, "a b c -> c b a").unwrap();
    let group = |t: &Tensor| strideweave::rearrange!(t, "a b c -> (a b) c").unwrap();
    for _ in 0..3 {
        for t in [&a, &b] {
            let by_swap = t.rearrange("a b c -> c b a", &[]).unwrap();
            let by_group = t.rearrange("a b c -> (a b) c", &[]).unwrap();
            assert_eq!(swap(t).layout(), by_swap.layout());
            assert_eq!(group(t).layout(), by_group.layout());
            assert_ne!(swap(t).layout(), group(t).layout());
        }
    }
}
