//! CI runs every example: each example's file is compiled here as a module and its `main`
//! (or `run`, with arguments) called, so `cargo test` fails when an example fails, not only
//! when it stops compiling. The examples check their own results (the classifier's loss
//! falls, the attention gradient matches finite differences, the tiled GEMM matches
//! `matmul`, the files read back as written) and fail with an error or a panic.
//!
//! `cargo test -p strideweave-examples`

#[path = "attention.rs"]
#[allow(dead_code)] // its `main`: the test calls `run`
mod attention;
#[path = "classifier.rs"]
mod classifier;
#[path = "files.rs"]
mod files;
#[path = "least_squares.rs"]
mod least_squares;
#[path = "pictures.rs"]
#[allow(dead_code)] // its `main`: the test calls `run`
mod pictures;
#[path = "quickstart.rs"]
mod quickstart;
#[path = "tiled_gemm.rs"]
#[allow(dead_code)] // its `main`: the test calls `run`
mod tiled_gemm;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.to_string()).collect()
}

#[test]
fn quickstart_runs() {
    quickstart::main().unwrap();
}

#[test]
fn least_squares_fits_its_parameters() {
    least_squares::main().unwrap();
}

#[test]
fn classifier_trains_with_cross_entropy() {
    classifier::main().unwrap();
}

#[test]
fn attention_gradient_matches_finite_differences() {
    attention::run(&args(&["2", "3"])).unwrap();
}

#[test]
fn tiled_gemm_matches_matmul() {
    // Two blocks of C and eight k-tiles: the whole structure at a size that runs in well
    // under a second unoptimised.
    tiled_gemm::run(&args(&["128", "256", "64"])).unwrap();
}

#[test]
fn files_round_trip_through_npy_and_safetensors() {
    files::main().unwrap();
}

#[test]
fn pictures_writes_four_svg_files() {
    let dir = std::env::temp_dir().join(format!("strideweave-pictures-{}", std::process::id()));
    pictures::run(&args(&[dir.to_str().unwrap()])).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "hierarchical.svg",
            "row_major_4x8.svg",
            "tv_8x4.svg",
            "zipped_divide.svg"
        ]
    );
    for name in &names {
        let svg = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(svg.starts_with("<svg"), "{name}");
        assert!(svg.trim_end().ends_with("</svg>"), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
