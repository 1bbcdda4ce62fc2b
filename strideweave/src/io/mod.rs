//! Files: numpy's `.npy` ([`Tensor::read_npy`](crate::Tensor::read_npy),
//! [`Tensor::write_npy`](crate::Tensor::write_npy)) and safetensors ([`load_safetensors`],
//! [`save_safetensors`]).
//!
//! Loading maps the file ([`Carrier::map_file`](crate::Carrier::map_file)'s storage class)
//! and builds tensors over its bytes: no element is copied, whatever the file's size. Saving
//! writes the elements in the format's order (a copy, as it must be) to a file beside the
//! target and renames it over the target.
//!
//! ```
//! use strideweave::{Tensor, io};
//! let dir = std::env::temp_dir();
//! let t = Tensor::from_vec_row_major(vec![1u8, 2, 3, 4], &"(2,2)".parse().unwrap()).unwrap();
//! io::save_safetensors(dir.join("strideweave-doc-io.safetensors"), &[("t", &t)]).unwrap();
//! t.write_npy(dir.join("strideweave-doc-io.npy")).unwrap();
//! let a = &io::load_safetensors(dir.join("strideweave-doc-io.safetensors")).unwrap()["t"];
//! let b = Tensor::read_npy(dir.join("strideweave-doc-io.npy")).unwrap();
//! assert_eq!(a.to_vec::<u8>().unwrap(), b.to_vec::<u8>().unwrap());
//! ```

mod bytes;
mod npy;
mod safetensors;

pub use self::safetensors::{load_safetensors, save_safetensors};
