//! [`Key`]: one entry of a slice key, an integer or a Python-style slice. Slicing itself is
//! [`Layout::slice`](crate::Layout::slice) (in `views.rs`).

use std::fmt;

/// One entry of a slice key: an integer or a Python-style slice. Slice bounds
/// are normalised as Python does (negative bounds count from the end, bounds beyond the
/// extent are clamped), and the step must be positive.
///
/// ```
/// use strideweave::Key;
/// let k: Vec<Key> = vec![2.into(), (1..9).into(), Key::all(), Key::slice(Some(1), None, Some(2))];
/// assert_eq!(k[1], Key::Slice { start: Some(1), stop: Some(9), step: None });
/// assert_eq!(format!("{:?}", k.iter().map(|k| k.to_string()).collect::<Vec<_>>()), r#"["2", "1:9", ":", "1::2"]"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// One coordinate; removes the mode from a view.
    Int(i64),
    /// A regularly spaced range; keeps the mode. Bounds follow Python's normalisation.
    Slice {
        /// First coordinate (default 0; negative counts from the end).
        start: Option<i64>,
        /// One past the last coordinate (default the extent; negative counts from the end).
        stop: Option<i64>,
        /// Step (default 1; must be positive).
        step: Option<i64>,
    },
}

impl Key {
    /// The whole mode, `:`.
    ///
    /// ```
    /// assert_eq!(strideweave::Key::all().to_string(), ":");
    /// ```
    pub fn all() -> Key {
        Key::Slice {
            start: None,
            stop: None,
            step: None,
        }
    }

    /// `start:stop:step`.
    ///
    /// ```
    /// assert_eq!(strideweave::Key::slice(None, Some(-1), None).to_string(), ":-1");
    /// ```
    pub fn slice(start: Option<i64>, stop: Option<i64>, step: Option<i64>) -> Key {
        Key::Slice { start, stop, step }
    }
}

impl From<i64> for Key {
    fn from(i: i64) -> Key {
        Key::Int(i)
    }
}

impl From<std::ops::Range<i64>> for Key {
    fn from(r: std::ops::Range<i64>) -> Key {
        Key::slice(Some(r.start), Some(r.end), None)
    }
}

impl From<std::ops::RangeFrom<i64>> for Key {
    fn from(r: std::ops::RangeFrom<i64>) -> Key {
        Key::slice(Some(r.start), None, None)
    }
}

impl From<std::ops::RangeTo<i64>> for Key {
    fn from(r: std::ops::RangeTo<i64>) -> Key {
        Key::slice(None, Some(r.end), None)
    }
}

impl From<std::ops::RangeFull> for Key {
    fn from(_: std::ops::RangeFull) -> Key {
        Key::all()
    }
}

impl fmt::Display for Key {
    /// Python notation: `2`, `1:9`, `::2`, `:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        match *self {
            Key::Int(i) => write!(f, "{i}"),
            Key::Slice {
                start,
                stop,
                step: None,
            } => write!(f, "{}:{}", opt(start), opt(stop)),
            Key::Slice { start, stop, step } => {
                write!(f, "{}:{}:{}", opt(start), opt(stop), opt(step))
            }
        }
    }
}
