//! The README's main command: `cargo run --example quickstart`.
//!
//! Prints layouts in CuTe notation, an indexing table, a layout grid, a printed tensor, results of the algebra, zero-copy
//! tensor views, a compile-time checked `rearrange!`, and two errors as a user sees them.

use strideweave::{
    Carrier, Key, Layout, Result, StaticTensor, Tensor, Tiler, layout, rearrange, s, shape, shape_t,
};

pub fn main() -> Result<()> {
    // A layout checked at compile time: a mistake here is a compiler error, not a panic.
    let tv: Layout = layout!((2, (3, 4)) : (12, (1, 3)));
    println!("layout        {tv}");
    println!("debug         {tv:?}");
    println!(
        "size {}  cosize {}  rank {}  depth {}  injective {}",
        tv.size(),
        tv.cosize(),
        tv.rank(),
        tv.depth(),
        tv.is_injective()
    );

    // The same layout read at run time, from either notation.
    let parsed: Layout = "Layout(Shape([2, [3, 4]]), Stride([12, [1, 3]]))".parse()?;
    assert_eq!(parsed, tv);

    // Indexing table: first-mode-fastest ordinals, their natural coordinates, their indices.
    println!("\nordinal  coordinate   index");
    for i in 0..tv.size() {
        let coord = tv.shape().coordinate(i)?;
        println!(
            "{i:>7}  {:<11}  {:>5}",
            coord.to_string(),
            tv.index(&coord)?
        );
    }

    // The layout as CuTe's print_layout draws it: one row per coordinate of mode 0, the
    // nested mode (3,4) flattened across, its groups of 3 split by ‖.
    println!("\n{}", tv.to_text_grid());

    // A row-major matrix, seen through the algebra.
    let m = Layout::row_major(&shape!(4, 6));
    println!("\nrow-major 4x6       {m}");
    println!("coalesced           {}", m.coalesce());
    println!("transposed          {}", m.permute(&[1, 0])?);
    let tiles = m.zipped_divide(&Tiler::from(&shape!(2, 3)))?;
    println!("2x3 tiles (zipped)  {tiles}");
    println!(
        "complement of 4:2 in 24   {}",
        layout!(4 : 2).complement(24)?
    );
    println!(
        "(6,2):(8,2) o (4,3):(3,1) = {}",
        layout!((6, 2) : (8, 2)).compose(&layout!((4, 3) : (3, 1)))?
    );
    println!(
        "right inverse of (2,4,6):(4,1,8) = {}",
        layout!((2, 4, 6) : (4, 1, 8)).right_inverse()?
    );

    // Tensors: zero-copy views over one shared carrier.
    let t = Tensor::arange::<f32>(&shape!(4, 6));
    let v = t.slice(&s![1..4, ..;2])?;
    println!("\ntensor {:?}", t);
    // Printed as numpy prints an array: mode 0 outermost, 4 rows of 6.
    println!("{t}");
    println!(
        "t[1..4, ::2]        {} at offset {}  values {:?}",
        v.layout(),
        v.offset(),
        v.to_vec::<f32>()?
    );
    println!(
        "same carrier        {}",
        Carrier::same(v.carrier(), t.carrier())
    );
    let w = v
        .rearrange("r c -> c r", &[])?
        .unsqueeze(0)?
        .broadcast_to(&shape!(2, 3, 3))?;
    println!(
        "-> c r, broadcast   {}  first values {:?}",
        w.layout(),
        &w.to_vec::<f32>()?[..6]
    );
    let last = t.slice(&[Key::Int(3), Key::all()])?;
    println!(
        "t[3, :] reversed    {:?}",
        last.reverse(0)?.to_vec::<f32>()?
    );

    // Static shapes: the pattern and the shapes are checked by the compiler.
    let img = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    let hwc = rearrange!(&img, "(h w) c -> c h w", h = 4);
    println!(
        "rearrange! (12,5) '(h w) c -> c h w' h=4  => {}",
        hwc.layout()
    );

    // Errors name the operation, the mode and the values.
    let err = m.broadcast_to(&shape!(4, 7)).unwrap_err();
    println!("\nerror ({}): {err}", err.kind());
    let err = t.rearrange("(h w) c -> h w c", &[("h", 5)]).unwrap_err();
    println!("error ({}): {err}", err.kind());
    Ok(())
}
