//! Near-linear pattern checking (issue 11, item 5): a pattern of 100,000 terms is parsed,
//! checked and compiled — or refused — in near-linear time, whatever it gets wrong.
//! `STRIDEWEAVE_TIMES=1` prints each time.

use std::time::{Duration, Instant};

use strideweave::{Layout, MAX_NESTING};

const N: usize = 100_000;

/// A bound that tells near-linear from quadratic (the quadratic checks took minutes here)
/// with room for the test profile's unoptimised build (the slowest linear case takes about
/// 2 s there), on the thread's CPU time where Linux tells it, so that a loaded machine does
/// not fail the test.
const BOUND: Duration = Duration::from_secs(10);

/// The CPU time this thread has used, from `/proc/thread-self/stat` (user and system
/// time, in ticks of 10 ms); `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (wall, cpu) = (Instant::now(), thread_cpu());
    let out = f();
    let wall = wall.elapsed();
    let took = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    if std::env::var_os("STRIDEWEAVE_TIMES").is_some() {
        eprintln!("{what}: {took:?} CPU, {wall:?} wall");
    }
    assert!(
        took < BOUND,
        "{what} took {took:?} (CPU time; {wall:?} wall)"
    );
    out
}

/// `a0 a1 … a{n-1}`, separated by spaces.
fn symbols(n: usize) -> String {
    (0..n)
        .map(|i| format!("a{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A flat layout of `n` modes: the first of extent 2, the others of extent 1.
fn flat(n: usize) -> Layout {
    let shape = format!("(2{})", ",1".repeat(n - 1));
    let stride = format!("(1{})", ",0".repeat(n - 1));
    format!("{shape}:{stride}").parse().unwrap()
}

fn head(s: &str) -> &str {
    &s[..s.len().min(200)]
}

#[test]
fn a_100000_term_pattern_reports_a_rank_mismatch_in_near_linear_time() {
    let pattern = format!("{} -> {}", symbols(N), symbols(N));
    let l: Layout = "5:1".parse().unwrap();
    let err = timed("rank mismatch", || {
        l.rearrange(&pattern, &[]).unwrap_err().to_string()
    });
    assert!(
        err.starts_with(
            "rearrange: the left side has 100000 terms but the source has 1 top-level mode"
        ),
        "{}",
        head(&err)
    );
}

#[test]
fn a_100000_term_pattern_rearranges_in_near_linear_time() {
    let l = flat(N);
    let mut right: Vec<String> = (0..N).map(|i| format!("a{i}")).collect();
    right.reverse();
    let pattern = format!("{} -> {}", symbols(N), right.join(" "));
    let v = timed("reverse", || l.rearrange(&pattern, &[]).unwrap());
    assert_eq!(v.shape().rank(), N);
    assert_eq!(v.shape().leaves()[N - 1], 2);
    // Grouped in pairs on the right.
    let pairs: Vec<String> = (0..N / 2)
        .map(|i| format!("(a{} a{})", 2 * i + 1, 2 * i))
        .collect();
    let pattern = format!("{} -> {}", symbols(N), pairs.join(" "));
    let v = timed("pairs", || l.rearrange(&pattern, &[]).unwrap());
    assert_eq!(v.shape().rank(), N / 2);
}

#[test]
fn a_100000_term_pattern_reports_its_mistakes_in_near_linear_time() {
    let l = flat(N);
    let all = symbols(N);
    let without_a0 = all.replacen("a0 ", "", 1);
    let cases = [
        (
            format!("{all} -> {all} zz"),
            "rearrange: unknown identifier `zz` on the right, term 100000",
        ),
        (
            format!("{all} a0 -> {all}"),
            "rearrange: duplicate symbol `a0` on the left",
        ),
        (
            format!("{all} -> {without_a0}"),
            "rearrange: omitted source: `a0` on the left, term 0",
        ),
    ];
    for (pattern, start) in cases {
        let err = timed(start, || {
            l.rearrange(&pattern, &[]).unwrap_err().to_string()
        });
        assert!(err.starts_with(start), "{}", head(&err));
    }
    let err = timed("keyword", || {
        l.rearrange(&format!("{all} -> {all}"), &[("a0", 3)])
            .unwrap_err()
            .to_string()
    });
    assert!(
        err.starts_with("rearrange: keyword a0 = 3 disagrees"),
        "{}",
        head(&err)
    );
}

#[test]
fn a_repeat_with_100000_keywords_is_checked_in_near_linear_time() {
    let l: Layout = "2:1".parse().unwrap();
    let names: Vec<String> = (0..N).map(|i| format!("r{i}")).collect();
    let sizes: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    let pattern = format!("a -> a {}", names.join(" "));
    let v = timed("repeat", || l.repeat(&pattern, &sizes).unwrap());
    assert_eq!(v.shape().rank(), N + 1);
    // The same keywords, one given twice at the end.
    let mut twice = sizes.clone();
    twice.push(("r0", 2));
    let err = timed("twice", || {
        l.repeat(&pattern, &twice).unwrap_err().to_string()
    });
    assert!(
        err.starts_with("repeat: keyword `r0` is given twice"),
        "{}",
        head(&err)
    );
    // A rank mismatch with every keyword given.
    let err = timed("repeat rank", || {
        l.repeat(&format!("a b -> a b {}", names.join(" ")), &sizes)
            .unwrap_err()
            .to_string()
    });
    assert!(
        err.starts_with("repeat: the left side has 2 terms"),
        "{}",
        head(&err)
    );
}

#[test]
fn a_pattern_nested_to_the_limit_with_many_terms_is_checked_quickly() {
    // MAX_NESTING levels of groups, each holding 300 more symbols: 76,800 terms.
    let mut left = String::new();
    let mut k = 0;
    for _ in 0..MAX_NESTING {
        left.push('(');
        for _ in 0..300 {
            left.push_str(&format!("a{k} "));
            k += 1;
        }
    }
    left.push_str(&")".repeat(MAX_NESTING));
    let l: Layout = "5:1".parse().unwrap();
    let err = timed("nested", || {
        l.rearrange(&format!("{left} -> a0"), &[])
            .unwrap_err()
            .to_string()
    });
    assert!(err.starts_with("rearrange: "), "{}", head(&err));
}

#[test]
fn a_100000_term_pattern_whose_mistake_comes_last_is_explained_in_near_linear_time() {
    // The checked path runs through every term before the mistake: each look-up of a
    // symbol's keyword, side or part must be constant time.
    let all = symbols(N);
    // An omitted source of extent 2, the last term.
    let shape = format!("({}2)", "1,".repeat(N - 1));
    let stride = format!("({}1)", "0,".repeat(N - 1));
    let l: Layout = format!("{shape}:{stride}").parse().unwrap();
    let pattern = format!("{all} -> {}", symbols(N - 1));
    let err = timed("omitted last", || {
        l.rearrange(&pattern, &[]).unwrap_err().to_string()
    });
    assert!(
        err.starts_with("rearrange: omitted source: `a99999` on the left, term 99999"),
        "{}",
        head(&err)
    );
    // Every symbol's extent given, the last one wrong.
    let names: Vec<String> = (0..N).map(|i| format!("a{i}")).collect();
    let mut sizes: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    sizes[N - 1].1 = 3;
    let err = timed("keyword last", || {
        l.rearrange(&format!("{all} -> {all}"), &sizes)
            .unwrap_err()
            .to_string()
    });
    assert!(
        err.starts_with("rearrange: keyword a99999 = 3 disagrees"),
        "{}",
        head(&err)
    );
    // A repeat whose size overflows at its last new mode.
    let l: Layout = "2:1".parse().unwrap();
    let names: Vec<String> = (0..N).map(|i| format!("r{i}")).collect();
    let mut sizes: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    sizes[N - 1].1 = i64::MAX;
    let pattern = format!("a -> a {}", names.join(" "));
    let err = timed("repeat overflow last", || {
        l.repeat(&pattern, &sizes).unwrap_err().to_string()
    });
    assert!(
        err.starts_with("repeat: the repeated layout's size overflows i64"),
        "{}",
        head(&err)
    );
    // A split of one leaf into 100,000 factors, the inferred one not dividing.
    let l: Layout = "7:1".parse().unwrap();
    let mut sizes: Vec<(&str, i64)> = names.iter().map(|n| (n.as_str(), 1)).collect();
    sizes.pop();
    sizes.push(("r0", 1));
    sizes.swap(0, N - 1);
    sizes.pop();
    sizes[0].1 = 2;
    let pattern = format!("({}) -> {}", names.join(" "), names.join(" "));
    let err = timed("split last", || {
        l.rearrange(&pattern, &sizes).unwrap_err().to_string()
    });
    assert!(err.starts_with("rearrange: "), "{}", head(&err));
}
