//! Writes SVG pictures of a few layouts: `cargo run --example pictures [DIR]` (default
//! `target/pictures`). Open them in a browser; `docs/tv_8x4.svg`, shown in the README, is
//! the thread-value picture written here.
//!
//! - `row_major_4x8.svg`: a 4×8 row-major layout, cells greyed by index (CuTe's
//!   `print_latex`);
//! - `hierarchical.svg`: `(4,(2,4)):(2,(1,8))`, its nested column mode split by a thick line
//!   between groups;
//! - `zipped_divide.svg`: the 8×8 column-major layout divided into 2×4 tiles;
//! - `tv_8x4.svg`: an 8×4 tile held by 4 threads of 8 values (CuTe's `print_latex_tv`).

use std::path::PathBuf;

use strideweave::{Layout, Tiler, shape};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(&std::env::args().skip(1).collect::<Vec<_>>())
}

/// The example with its command-line arguments (`[DIR]`).
pub fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let dir = args
        .first()
        .map_or_else(|| PathBuf::from("target/pictures"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    let tile: Layout = "(8,4):(1,8)".parse()?;
    let pictures = [
        (
            "row_major_4x8.svg",
            Layout::row_major(&shape!(4, 8)).to_svg(),
        ),
        (
            "hierarchical.svg",
            "(4,(2,4)):(2,(1,8))".parse::<Layout>()?.to_svg(),
        ),
        (
            "zipped_divide.svg",
            Layout::compact(&shape!(8, 8))
                .zipped_divide(&Tiler::from(&shape!(2, 4)))?
                .to_svg(),
        ),
        ("tv_8x4.svg", tile.to_svg_tv(&"(4,8):(8,1)".parse()?)?),
    ];
    for (name, svg) in pictures {
        let path = dir.join(name);
        std::fs::write(&path, svg)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
