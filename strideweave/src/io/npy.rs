//! numpy's `.npy` format: [`Tensor::read_npy`] and [`Tensor::write_npy`].
//!
//! A small parser of our own rather than a crate (`npyz`, `ndarray-npy`): those read through
//! `std::io::Read` into owned buffers, while a load here must map the file and lend its bytes
//! in place; and the header is a tiny, fixed Python-literal dictionary, which we check
//! strictly (every malformed, truncated, oversized or mislabelled header is an error naming
//! what was found).

use std::path::Path;

use super::bytes::{host_copy, tensor_bytes, write_file};
use crate::carrier::{SharedMap, invalid};
use crate::error::{Error, Result};
use crate::{Carrier, DType, IntTuple, Layout, Shape, Tensor};

/// The magic string that starts every `.npy` file.
const MAGIC: &[u8] = b"\x93NUMPY";
/// The longest header read, like numpy's own reader (`_MAX_HEADER_SIZE`).
const MAX_HEADER: usize = 10_000;
/// numpy pads the header so the data starts on a multiple of this.
const ALIGN: usize = 64;
/// numpy leaves room for this many digits in the growing axis's extent.
const GROWTH_DIGITS: usize = 21;

/// A parsed header: dtype, byte order, order flag and shape.
#[derive(Debug, PartialEq)]
struct Header {
    dtype: DType,
    little: bool,
    fortran: bool,
    shape: Vec<i64>,
}

impl Tensor {
    /// Reads a numpy `.npy` file: the file is mapped and the tensor views its bytes in place,
    /// without copying an element.
    ///
    /// The file's shape becomes the tensor's leaves: a C-order file gets the row-major layout
    /// (`Layout::row_major`), a Fortran-order file the compact first-mode-fastest one
    /// (`Layout::compact`), both over the same bytes. dtypes: `bool`, `u1`, `i1`, `i4`, `i8`,
    /// `f2` (feature `half`), `f4`, `f8`, `c8`, `c16`; any other (`i2`, `u4`, strings,
    /// structured records, ...) is an error naming it. Two cases copy once into a host carrier
    /// instead of mapping: a big-endian (`>`) file (its bytes are swapped) and data whose
    /// offset is not a multiple of the dtype's alignment (numpy always aligns it). An extent
    /// of 0 is an error (StrideWeave extents are at least 1).
    ///
    /// The map's assumption (no one modifies or truncates the file while tensors view it) is
    /// [`Carrier::map_file`]'s.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let path = std::env::temp_dir().join("strideweave-doc-read-npy.npy");
    /// let t = Tensor::from_vec_row_major(vec![1i32, 2, 3, 4, 5, 6], &"(2,3)".parse().unwrap()).unwrap();
    /// t.write_npy(&path).unwrap();
    /// let back = Tensor::read_npy(&path).unwrap();
    /// assert_eq!(back.layout().to_string(), "(2,3):(3,1)");
    /// assert_eq!(back.to_vec_row_major::<i32>().unwrap(), [1, 2, 3, 4, 5, 6]);
    /// assert_eq!(back.carrier_class().name(), "read-only map");
    /// ```
    pub fn read_npy(path: impl AsRef<Path>) -> Result<Tensor> {
        const OP: &str = "Tensor::read_npy";
        let path = path.as_ref();
        let map = SharedMap::open(OP, path)?;
        let bytes = map.bytes();
        let (header, start) = parse(bytes).map_err(|d| invalid(OP, path, d))?;
        let size = header.dtype.size_of();
        let count = header
            .shape
            .iter()
            .try_fold(1usize, |acc, &e| acc.checked_mul(e as usize))
            .filter(|&n| n.checked_mul(size).is_some());
        let Some(count) = count else {
            return Err(invalid(
                OP,
                path,
                format!(
                    "shape {:?} holds more elements than memory can address",
                    header.shape
                ),
            ));
        };
        let data = &bytes[start..];
        if data.len() != count * size {
            return Err(invalid(
                OP,
                path,
                format!(
                    "the header announces {count} {} elements ({} bytes) but {} bytes of data follow it",
                    header.dtype,
                    count * size,
                    data.len()
                ),
            ));
        }
        let shape = Shape::new(IntTuple::from(header.shape.clone()))
            .map_err(|e| invalid(OP, path, e.to_string()))?;
        let native = header.little == cfg!(target_endian = "little") || size == 1;
        let carrier: Carrier = if native && map.is_aligned(header.dtype, start) {
            map.carrier(OP, header.dtype, start, count)?
        } else {
            host_copy(OP, path, header.dtype, data, header.little)?
        };
        let layout = if header.fortran {
            Layout::compact(&shape)
        } else {
            Layout::row_major(&shape)
        };
        Tensor::new(carrier, 0, layout)
    }

    /// Writes the tensor as a numpy `.npy` file (format 1.0, little-endian), byte for byte
    /// what `numpy.save` writes for the same array: its leaves are the file's shape; a tensor
    /// whose layout is the compact first-mode-fastest one (and not also row-major) is written
    /// in Fortran order, like numpy's F-contiguous arrays, every other in C order.
    ///
    /// The file is written beside `path` and renamed over it, so a failed write leaves `path`
    /// as it was and tensors mapping the old file keep their values. `bf16` has no `.npy`
    /// code and block-scaled tensors are two carriers: both are errors.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let path = std::env::temp_dir().join("strideweave-doc-write-npy.npy");
    /// let t = Tensor::arange::<f64>(&"(2,2)".parse().unwrap());
    /// t.write_npy(&path).unwrap();
    /// let bytes = std::fs::read(&path).unwrap();
    /// assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    /// assert_eq!(bytes.len(), 128 + 4 * 8);
    /// assert!(std::str::from_utf8(&bytes[10..128]).unwrap().contains("'fortran_order': True"));
    /// ```
    pub fn write_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        const OP: &str = "Tensor::write_npy";
        let path = path.as_ref();
        let descr = descr(self.dtype()).ok_or_else(|| Error::NotImplemented {
            op: OP,
            reason: format!("{} has no .npy dtype code", self.dtype()),
        })?;
        let shape = self.shape();
        let fortran =
            *self.layout() == Layout::compact(shape) && *self.layout() != Layout::row_major(shape);
        let data = tensor_bytes(OP, self, fortran)?;
        let header = header_bytes(descr, fortran, shape.leaves());
        write_file(OP, path, &[&header, &data])
    }
}

/// numpy's code of a dtype (`<f4`, `|b1`, ...); `None` for one `.npy` cannot hold.
fn descr(dtype: DType) -> Option<&'static str> {
    Some(match dtype {
        DType::Bool => "|b1",
        DType::U8 => "|u1",
        DType::I8 => "|i1",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::ComplexF32 => "<c8",
        DType::ComplexF64 => "<c16",
        #[cfg(feature = "half")]
        DType::F16 => "<f2",
        _ => return None,
    })
}

/// The magic, version, length and padded header numpy writes for this array.
fn header_bytes(descr: &str, fortran: bool, shape: &[i64]) -> Vec<u8> {
    let tuple = match shape {
        [] => "()".to_string(),
        [e] => format!("({e},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let py_bool = if fortran { "True" } else { "False" };
    let mut dict =
        format!("{{'descr': '{descr}', 'fortran_order': {py_bool}, 'shape': {tuple}, }}");
    let growth = if fortran { shape.last() } else { shape.first() };
    if let Some(e) = growth {
        let digits = e.to_string().len();
        dict.push_str(&" ".repeat(GROWTH_DIGITS.saturating_sub(digits)));
    }
    let hlen = dict.len() + 1;
    let pad = ALIGN - (MAGIC.len() + 2 + 2 + hlen) % ALIGN;
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + hlen + pad);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    // A header of at most a few hundred bytes: at most 32 leaves of 19 digits.
    out.extend_from_slice(&u16::try_from(hlen + pad).unwrap_or(u16::MAX).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    out
}

/// The header of a `.npy` file and the byte offset of its data; the reason it is not one.
fn parse(bytes: &[u8]) -> std::result::Result<(Header, usize), String> {
    if !bytes.starts_with(MAGIC) {
        return Err(format!(
            "not an .npy file: it does not start with the magic string \\x93NUMPY ({} bytes)",
            bytes.len()
        ));
    }
    let (major, minor) = match bytes.get(6..8) {
        Some(&[a, b]) => (a, b),
        _ => return Err("truncated .npy header: the version bytes are missing".into()),
    };
    let width = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => return Err(format!("unsupported .npy format version {major}.{minor}")),
    };
    let len_bytes = bytes
        .get(8..8 + width)
        .ok_or("truncated .npy header: the header length is missing")?;
    let hlen = len_bytes
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
    if hlen > MAX_HEADER {
        return Err(format!(
            "the header length {hlen} is larger than {MAX_HEADER} bytes (numpy's limit)"
        ));
    }
    let start = 8 + width;
    let text = bytes.get(start..start + hlen).ok_or_else(|| {
        format!(
            "truncated .npy header: it announces {hlen} bytes but the file has {} after the length",
            bytes.len() - start
        )
    })?;
    let text = std::str::from_utf8(text).map_err(|e| format!("the header is not text: {e}"))?;
    Ok((parse_dict(text)?, start + hlen))
}

/// The dictionary `{'descr': ..., 'fortran_order': ..., 'shape': (...), }`, in any key order,
/// followed only by spaces and a newline.
fn parse_dict(text: &str) -> std::result::Result<Header, String> {
    let mut p = Cursor { text, at: 0 };
    p.expect('{')?;
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    loop {
        p.skip_space();
        if p.eat('}') {
            break;
        }
        let key = p.string()?;
        p.skip_space();
        p.expect(':')?;
        p.skip_space();
        let seen = match key {
            "descr" => descr.replace(p.string()?).is_some(),
            "fortran_order" => fortran.replace(p.boolean()?).is_some(),
            "shape" => shape.replace(p.tuple()?).is_some(),
            other => return Err(format!("unexpected key '{other}' in the header")),
        };
        if seen {
            return Err(format!("the header names '{key}' twice"));
        }
        p.skip_space();
        if !p.eat(',') {
            p.skip_space();
            p.expect('}')?;
            break;
        }
    }
    if !p.rest().trim_end_matches([' ', '\n', '\0']).is_empty() {
        return Err(format!(
            "unexpected text after the header's dictionary: {:?}",
            p.rest().chars().take(20).collect::<String>()
        ));
    }
    let descr = descr.ok_or("the header has no 'descr'")?;
    let (dtype, little) = dtype_of(descr)?;
    Ok(Header {
        dtype,
        little,
        fortran: fortran.ok_or("the header has no 'fortran_order'")?,
        shape: shape.ok_or("the header has no 'shape'")?,
    })
}

/// The dtype and byte order of a numpy type code.
fn dtype_of(descr: &str) -> std::result::Result<(DType, bool), String> {
    let (order, code) = descr.split_at_checked(1).unwrap_or(("", descr));
    let little = match order {
        "<" | "|" => true,
        "=" => cfg!(target_endian = "little"),
        ">" => false,
        _ => {
            return Err(format!(
                "dtype '{descr}' has no byte-order mark (<, >, = or |)"
            ));
        }
    };
    let dtype = match code {
        "b1" => DType::Bool,
        "u1" => DType::U8,
        "i1" => DType::I8,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "f4" => DType::F32,
        "f8" => DType::F64,
        "c8" => DType::ComplexF32,
        "c16" => DType::ComplexF64,
        #[cfg(feature = "half")]
        "f2" => DType::F16,
        #[cfg(not(feature = "half"))]
        "f2" => {
            return Err(format!(
                "dtype '{descr}' (float16) needs the `half` feature"
            ));
        }
        _ => return Err(format!("dtype '{descr}' has no StrideWeave dtype")),
    };
    Ok((dtype, little))
}

/// A position in the header text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }
    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start_matches([' ', '\n', '\t']).len();
    }
    fn eat(&mut self, c: char) -> bool {
        let found = self.rest().starts_with(c);
        if found {
            self.at += c.len_utf8();
        }
        found
    }
    fn expect(&mut self, c: char) -> std::result::Result<(), String> {
        if self.eat(c) {
            return Ok(());
        }
        Err(format!(
            "malformed header: expected '{c}' at byte {} of the dictionary, found {:?}",
            self.at,
            self.rest().chars().take(12).collect::<String>()
        ))
    }
    /// A quoted string without escapes: `'...'` or `"..."`.
    fn string(&mut self) -> std::result::Result<&'a str, String> {
        let quote = self
            .rest()
            .chars()
            .next()
            .filter(|c| *c == '\'' || *c == '"');
        let Some(q) = quote else {
            return Err(format!(
                "malformed header: expected a quoted string at byte {}",
                self.at
            ));
        };
        self.at += 1;
        let rest = self.rest();
        let end = rest
            .find(q)
            .ok_or("malformed header: an unterminated string")?;
        self.at += end + 1;
        Ok(&rest[..end])
    }
    fn boolean(&mut self) -> std::result::Result<bool, String> {
        for (word, v) in [("True", true), ("False", false)] {
            if self.rest().starts_with(word) {
                self.at += word.len();
                return Ok(v);
            }
        }
        Err(format!(
            "malformed header: 'fortran_order' must be True or False, found {:?}",
            self.rest().chars().take(8).collect::<String>()
        ))
    }
    /// A tuple of extents `()`, `(n,)`, `(n, m)`, `(n, m,)`; each at least 1.
    fn tuple(&mut self) -> std::result::Result<Vec<i64>, String> {
        self.expect('(')?;
        let mut out = Vec::new();
        loop {
            self.skip_space();
            if self.eat(')') {
                return Ok(out);
            }
            let rest = self.rest();
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                return Err(format!(
                    "malformed header: expected an extent in 'shape' at byte {}",
                    self.at
                ));
            }
            let e: i64 = rest[..digits]
                .parse()
                .map_err(|_| format!("the extent {} in 'shape' is too large", &rest[..digits]))?;
            if e == 0 {
                return Err(format!(
                    "'shape' has an extent 0 at position {}: StrideWeave extents are at least 1",
                    out.len()
                ));
            }
            if out.len() == 64 {
                return Err("'shape' has more than 64 extents".into());
            }
            out.push(e);
            self.at += digits;
            self.skip_space();
            if !self.eat(',') {
                self.skip_space();
                self.expect(')')?;
                if out.len() == 1 {
                    return Err(
                        "malformed header: a one-extent 'shape' needs a comma, as in (n,)".into(),
                    );
                }
                return Ok(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_bytes_match_numpys_padding_to_64() {
        let h = header_bytes("<f4", false, &[2, 3]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(parse(&h).unwrap().1, h.len());
    }

    #[test]
    fn parse_dict_reads_any_key_order_and_rejects_duplicates() {
        let h = parse_dict("{'shape': (4,), 'fortran_order': False, 'descr': '|u1'}").unwrap();
        assert_eq!(
            h,
            Header {
                dtype: DType::U8,
                little: true,
                fortran: false,
                shape: vec![4]
            }
        );
        let e =
            parse_dict("{'shape': (4,), 'shape': (4,), 'fortran_order': False, 'descr': '|u1'}");
        assert!(e.unwrap_err().contains("twice"));
        assert!(parse_dict("{'shape': (4), 'fortran_order': False, 'descr': '|u1'}").is_err());
    }
}
