use strideweave::layout;

fn main() {
    // The largest reach that still fits: 9223372036854775806 + 1 = i64::MAX.
    let l = layout!((2, 2) : (9223372036854775806, 1));
    assert_eq!(l.reach(), (0, i64::MAX));

    // The smallest: -9223372036854775807 - 1 = i64::MIN.
    let l = layout!((2, 2) : (-9223372036854775807, -1));
    assert_eq!(l.reach(), (i64::MIN, 0));

    // i64::MIN itself is a legal stride of an extent-one mode.
    let l = layout!((1, 3) : (-9223372036854775808, 1));
    assert_eq!(l.stride().leaves(), &[i64::MIN, 1]);

    // A size of exactly 2^62 fits.
    assert_eq!(layout!((2147483648, 2147483648)).size(), 1usize << 62);

    // Integer spellings Rust allows: underscores, hex, an explicit i64 suffix.
    assert_eq!(layout!((1_000, 0x10) : (1i64, 1_000)).to_string(), "(1000,16):(1,1000)");
}
