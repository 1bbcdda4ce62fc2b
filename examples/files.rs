//! Tensors in and out of files, loaded without copying: `cargo run --example files`.
//!
//! The task: a small linear classifier's parameters are saved as one safetensors file (four
//! tensors of three dtypes) and a batch of inputs as a numpy `.npy` file. Both are loaded
//! back memory-mapped: the loaded tensors view the files' bytes in place, and the example
//! shows it (the carriers are read-only maps, the model's `f32` tensors share one carrier
//! over the whole file at their bytes' positions, a write is refused). The batch is then
//! classified with the loaded tensors, checked against plain Rust arithmetic, and the results
//! are saved (`.npy` and safetensors) and read back. The files live in a fresh directory
//! under the system's temporary directory, removed at the end.

use std::path::{Path, PathBuf};

use strideweave::{Carrier, DType, Scalar, Shape, Tensor, io};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Features per sample, classes, samples in the batch.
const FEATURES: usize = 4;
const CLASSES: usize = 3;
const SAMPLES: usize = 6;

fn shape(text: &str) -> strideweave::Result<Shape> {
    text.parse()
}

/// A directory of its own under the system's temporary directory, removed when dropped
/// (also when the example fails half-way).
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_nanos();
        let dir =
            std::env::temp_dir().join(format!("strideweave-files-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Best effort: a directory left behind in the temporary directory is harmless.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn file_size(path: &Path) -> Result<u64> {
    Ok(std::fs::metadata(path)?.len())
}

pub fn main() -> Result<()> {
    // Declared first, so dropped (and removed) last, after every map of its files.
    let scratch = Scratch::new()?;
    let dir = &scratch.0;

    // 1. The model: weight (classes × features, row-major as PyTorch keeps it), bias, the
    //    inputs' mean (f64) and the label of each class (i64), in one safetensors file.
    let w_rows: [[f32; FEATURES]; CLASSES] = [
        [1.0, -0.5, 0.0, 0.2],
        [-0.5, 1.0, 0.3, 0.0],
        [0.0, 0.2, -0.4, 1.0],
    ];
    let b_vals = [0.1f32, 0.0, -0.1];
    let mean_vals = [0.5f64; FEATURES];
    let label_vals = [7i64, 42, 99];
    let weight = Tensor::from_vec_row_major(w_rows.concat(), &shape("(3,4)")?)?;
    let bias = Tensor::from_vec(b_vals.to_vec(), &shape("3")?)?;
    let mean = Tensor::from_vec(mean_vals.to_vec(), &shape("4")?)?;
    let labels = Tensor::from_vec(label_vals.to_vec(), &shape("3")?)?;
    let model_path = dir.join("model.safetensors");
    io::save_safetensors(
        &model_path,
        &[
            ("weight", &weight),
            ("bias", &bias),
            ("mean", &mean),
            ("labels", &labels),
        ],
    )?;
    println!(
        "wrote model.safetensors ({} bytes): weight f32 (3,4), bias f32 (3), mean f64 (4), labels i64 (3)",
        file_size(&model_path)?
    );

    // 2. The batch: samples are columns, (features, samples), first-mode-fastest; sample j
    //    leans towards class j % 3. Saved as .npy (Fortran order, as numpy saves an
    //    F-contiguous array) and read back.
    let mut x_vals = Vec::with_capacity(FEATURES * SAMPLES);
    for j in 0..SAMPLES {
        let lean = [0, 1, 3][j % CLASSES];
        for (f, &m) in mean_vals.iter().enumerate() {
            let wobble = ((j * 7 + f * 3) % 5) as f32 / 50.0 - 0.04;
            x_vals.push(m as f32 + if f == lean { 1.0 } else { 0.0 } + wobble);
        }
    }
    let batch = Tensor::from_vec(x_vals.clone(), &shape(&format!("({FEATURES},{SAMPLES})"))?)?;
    let batch_path = dir.join("batch.npy");
    batch.write_npy(&batch_path)?;
    let x = Tensor::read_npy(&batch_path)?;
    assert_eq!(
        x.to_vec::<f32>()?,
        x_vals,
        "the batch reads back as written"
    );
    println!(
        "wrote batch.npy ({} bytes), read back: {:?}, carrier: {} of {} f32",
        file_size(&batch_path)?,
        x,
        x.carrier_class(),
        x.carrier().len()
    );

    // 3. The model, loaded: mapped, not copied.
    let model = io::load_safetensors(&model_path)?;
    let (w, b, mu, ids) = (
        &model["weight"],
        &model["bias"],
        &model["mean"],
        &model["labels"],
    );
    let model_bytes = file_size(&model_path)? as usize;
    println!("\nloaded model.safetensors, tensors sorted by name:");
    for (name, t) in &model {
        let size = t.dtype().size_of();
        println!(
            "  {name:<7} {:<11} carrier: {} of {} {} (the file's {model_bytes} bytes), bytes {}..{}",
            t.layout().to_string(),
            t.carrier_class(),
            t.carrier().len(),
            t.dtype(),
            t.offset() * size,
            (t.offset() + t.size()) * size,
        );
    }
    // The evidence that nothing was copied: one carrier over the whole file for the f32
    // tensors, each at its bytes' position, and the file's own bytes there are its values.
    assert_eq!(w.carrier_class().name(), "read-only map");
    assert!(Carrier::same(w.carrier(), b.carrier()));
    assert_eq!(w.carrier().len(), model_bytes / 4);
    let raw = Carrier::map_file(&model_path)?;
    let at = w.offset() * 4;
    let (header, first) = raw.read(|bytes: &[u8]| {
        let mut len = [0u8; 8];
        len.copy_from_slice(&bytes[..8]);
        let value = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        (u64::from_le_bytes(len), value)
    })?;
    assert_eq!(first, w_rows[0][0]);
    println!(
        "  weight and bias share one carrier: {}",
        Carrier::same(w.carrier(), b.carrier())
    );
    println!(
        "  the file: bytes 0..8 the header's length, 8..{} the header, then the tensors' bytes",
        8 + header
    );
    println!(
        "  the file's bytes {at}..{} read as f32: {first} = weight[0, 0]",
        at + 4
    );
    let refused = w.carrier().set(0, Scalar::F32(0.0)).unwrap_err();
    println!("  writing into it: {refused}");

    // 4. Classify the batch with the loaded tensors: logits = W · (X − mean) + b, the class
    //    with the largest logit, and its label.
    let wide =
        |t: &Tensor, rows: usize| t.broadcast_in_dim(&shape(&format!("({rows},{SAMPLES})"))?, &[0]);
    let centred = x.sub(&wide(&mu.to_dtype(DType::F32)?, FEATURES)?)?;
    let logits = w.matmul(&centred)?.add(&wide(b, CLASSES)?)?;
    let class = logits.argmax(0)?;
    let predicted = ids.gather(0, &class)?;
    println!("\nlogits {logits:?}, carrier: {}", logits.carrier_class());
    println!("{logits}");
    println!("predicted labels {:?}", predicted.to_vec::<i64>()?);

    // The same, in plain Rust on the values that were saved.
    let reference: Vec<i64> = (0..SAMPLES)
        .map(|j| {
            let logit = |c: usize| -> f32 {
                let dot: f32 = (0..FEATURES)
                    .map(|f| w_rows[c][f] * (x_vals[f + FEATURES * j] - mean_vals[f] as f32))
                    .sum();
                dot + b_vals[c]
            };
            let best = (0..CLASSES)
                .max_by(|&a, &c| logit(a).total_cmp(&logit(c)))
                .unwrap_or(0);
            label_vals[best]
        })
        .collect();
    assert_eq!(predicted.to_vec::<i64>()?, reference);
    assert_eq!(
        reference,
        [7, 42, 99, 7, 42, 99],
        "each sample's leaning class"
    );

    // 5. Save the results, read them back.
    let out_npy = dir.join("predicted.npy");
    let out_st = dir.join("results.safetensors");
    predicted.write_npy(&out_npy)?;
    io::save_safetensors(&out_st, &[("logits", &logits), ("predicted", &predicted)])?;
    let again = Tensor::read_npy(&out_npy)?;
    let results = io::load_safetensors(&out_st)?;
    assert_eq!(again.to_vec::<i64>()?, reference);
    assert_eq!(results["predicted"].to_vec::<i64>()?, reference);
    assert_eq!(results["logits"].to_vec::<f32>()?, logits.to_vec::<f32>()?);
    println!(
        "\nwrote predicted.npy ({} bytes) and results.safetensors ({} bytes); both read back equal",
        file_size(&out_npy)?,
        file_size(&out_st)?
    );
    println!("files in {} (removed now)", dir.display());
    Ok(())
}
