//! The macros read fragments that `macro_rules!` forwards, including `expr` fragments, which
//! arrive wrapped in invisible groups.

use strideweave::{layout, shape};

macro_rules! row {
    ($n:literal, $d:expr) => {
        layout!(($n, 4) : ($d, 1))
    };
}

macro_rules! tokens {
    ($($t:tt)*) => {
        layout!($($t)*)
    };
}

fn main() {
    assert_eq!(row!(3, 4).to_string(), "(3,4):(4,1)");
    assert_eq!(row!(3, -4).to_string(), "(3,4):(-4,1)");
    assert_eq!(tokens!((2, 3) : (1, 2)).to_string(), "(2,3):(1,2)");
    assert_eq!(tokens!("(2,3):(1,2)").to_string(), "(2,3):(1,2)");
    assert_eq!(shape!(2, (3, 4)).size(), 24);
}
