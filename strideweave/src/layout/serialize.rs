//! serde support (feature `serde`): [`Layout`], [`Shape`], [`Stride`] and [`IntTuple`]
//! serialize as their notation string (`"(2,3):(1,2)"`, `"(2,(3,4))"`) and deserialize by
//! parsing it, so a parse error becomes a serde error with the parser's message.
//!
//! ```
//! use strideweave::Layout;
//! let l: Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
//! let json = serde_json::to_string(&l).unwrap();
//! assert_eq!(json, r#""(2,(3,4)):(1,(2,6))""#);
//! assert_eq!(serde_json::from_str::<Layout>(&json).unwrap(), l);
//! let err = serde_json::from_str::<Layout>(r#""(2,0):(1,2)""#).unwrap_err();
//! assert!(err.to_string().starts_with("cannot parse layout:"));
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::{IntTuple, Layout, Shape, Stride};

/// Reads a notation string and parses it as `T`.
struct Notation<T>(PhantomData<T>, &'static str);

impl<T: FromStr<Err = crate::Error>> Visitor<'_> for Notation<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in its notation, as a string", self.1)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        text.parse().map_err(E::custom)
    }
}

macro_rules! as_notation {
    ($ty:ty, $what:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                d.deserialize_str(Notation(PhantomData, $what))
            }
        }
    };
}

as_notation!(Layout, "a layout");
as_notation!(Shape, "a shape");
as_notation!(Stride, "a stride");
as_notation!(IntTuple, "an integer tuple");

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(text: &str)
    where
        T: Serialize
            + for<'de> Deserialize<'de>
            + FromStr<Err = crate::Error>
            + PartialEq
            + fmt::Debug,
    {
        let v: T = text.parse().unwrap();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), v);
    }

    #[test]
    fn layout_shape_stride_and_int_tuple_round_trip_through_their_notation() {
        round_trip::<Layout>("((2,3),(4,(5,2))):((1,2),(6,(24,120)))");
        round_trip::<Layout>("7:0");
        round_trip::<Layout>("():()");
        round_trip::<Shape>("(2,(3,4))");
        round_trip::<Stride>("(1,(-2,6))");
        round_trip::<IntTuple>("((1,2),3)");
        round_trip::<IntTuple>("5");
    }

    #[test]
    fn serde_errors_carry_the_parsers_message() {
        let err = serde_json::from_str::<Shape>(r#""(2,0)""#).unwrap_err();
        let text: Shape = "(2,3)".parse().unwrap();
        let parse_err = "(2,0)".parse::<Shape>().unwrap_err().to_string();
        assert!(err.to_string().starts_with(&parse_err), "{err}");
        assert_eq!(text.to_string(), "(2,3)");
        let err = serde_json::from_str::<Layout>("[2, 3]").unwrap_err();
        assert!(
            err.to_string()
                .contains("a layout in its notation, as a string"),
            "{err}"
        );
        let err = serde_json::from_str::<Stride>(r#""(1,2"#).unwrap_err();
        assert!(err.is_eof() || err.is_syntax());
    }

    proptest::proptest! {
        /// Any string: deserializing succeeds exactly when parsing does, to the same value,
        /// and fails with the parser's message.
        #[test]
        fn deserialize_agrees_with_parse_on_any_string(text in "[()0-9,: -]{0,16}") {
            let json = serde_json::to_string(&text).unwrap();
            match (text.parse::<Layout>(), serde_json::from_str::<Layout>(&json)) {
                (Ok(a), Ok(b)) => {
                    proptest::prop_assert_eq!(&a, &b);
                    let again = serde_json::to_string(&a).unwrap();
                    proptest::prop_assert_eq!(serde_json::from_str::<Layout>(&again).unwrap(), a);
                }
                (Err(a), Err(b)) => proptest::prop_assert!(b.to_string().starts_with(&a.to_string())),
                (a, b) => proptest::prop_assert!(false, "parse {:?} but serde {:?}", a, b),
            }
            match (text.parse::<Shape>(), serde_json::from_str::<Shape>(&json)) {
                (Ok(a), Ok(b)) => proptest::prop_assert_eq!(a, b),
                (Err(a), Err(b)) => proptest::prop_assert!(b.to_string().starts_with(&a.to_string())),
                (a, b) => proptest::prop_assert!(false, "parse {:?} but serde {:?}", a, b),
            }
        }
    }

    #[test]
    fn a_struct_of_layouts_serializes_as_strings() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Plan {
            tile: Layout,
            grid: Shape,
        }
        let p = Plan {
            tile: "(4,8):(8,1)".parse().unwrap(),
            grid: "(16,16)".parse().unwrap(),
        };
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#"{"tile":"(4,8):(8,1)","grid":"(16,16)"}"#);
        assert_eq!(serde_json::from_str::<Plan>(&json).unwrap(), p);
    }
}
