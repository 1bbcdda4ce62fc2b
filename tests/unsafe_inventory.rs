//! The `unsafe` inventory (`docs/unsafe.md`) against the code: every `unsafe` block,
//! function, impl and trait of `strideweave/src`, by file and enclosing function, must have
//! its row, with the right count, and the total stated there and in `lib.rs` must be the
//! number found.

use std::collections::BTreeMap;
use std::path::Path;

/// (file relative to `src`, innermost named function) → number of `unsafe` sites.
type Sites = BTreeMap<(String, String), usize>;

/// `text` with comments and the contents of string and character literals blanked (newlines
/// kept), so that only code is searched.
fn code_only(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = s.clone();
    let mut blank = |from: usize, to: usize| {
        for c in &mut out[from..to.min(s.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let find = |from: usize, pat: &[char]| {
        (from..s.len())
            .find(|&k| s[k..].starts_with(pat))
            .map_or(s.len(), |k| k + pat.len())
    };
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let after_ident = i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_');
        let end = if rest.starts_with(&['/', '/']) {
            find(i, &['\n'])
        } else if rest.starts_with(&['/', '*']) {
            // Block comments nest.
            let (mut depth, mut k) = (0, i);
            while k < s.len() {
                if s[k..].starts_with(&['/', '*']) {
                    (depth, k) = (depth + 1, k + 2);
                } else if s[k..].starts_with(&['*', '/']) {
                    (depth, k) = (depth - 1, k + 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            k
        } else if let Some(open) = raw_string_open(rest).filter(|_| !after_ident) {
            // r"…", r#"…"#, br"…": closed by the quote and as many `#`.
            let hashes = rest[..open].iter().filter(|c| **c == '#').count();
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            find(i + open, &close)
        } else if s[i] == '"' {
            let mut k = i + 1;
            while k < s.len() && s[k] != '"' {
                k += if s[k] == '\\' { 2 } else { 1 };
            }
            k + 1
        } else if s[i] == '\'' && (s.get(i + 2) == Some(&'\'') || s.get(i + 1) == Some(&'\\')) {
            // A character literal ('x', '\'', '\u{..}'); a lifetime has no closing quote.
            find(if s[i + 1] == '\\' { i + 3 } else { i + 2 }, &['\''])
        } else {
            i += 1;
            continue;
        };
        blank(i, end);
        i = end;
    }
    out.into_iter().collect()
}

/// The length of a raw string literal's opening (`r"`, `r#"`, `br##"`, ...) at the start of
/// `rest`, if one is there.
fn raw_string_open(rest: &[char]) -> Option<usize> {
    let r = usize::from(rest.first() == Some(&'b'));
    if rest.get(r) != Some(&'r') {
        return None;
    }
    let hashes = rest[r + 1..].iter().take_while(|c| **c == '#').count();
    (rest.get(r + 1 + hashes) == Some(&'"')).then_some(r + 2 + hashes)
}

fn word_at(code: &[char], i: usize, word: &str) -> bool {
    let w: Vec<char> = word.chars().collect();
    let ident = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    code.get(i..i + w.len()) == Some(&w[..])
        && !ident(i.checked_sub(1).and_then(|k| code.get(k)))
        && !ident(code.get(i + w.len()))
}

fn skip_space(code: &[char], mut i: usize) -> usize {
    while code.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    i
}

fn ident_at(code: &[char], i: usize) -> String {
    code[i..]
        .iter()
        .take_while(|c| c.is_alphanumeric() || **c == '_')
        .collect()
}

/// The `unsafe` sites of one file's code, counted per innermost named function (`-` outside
/// any function).
fn sites_in(file: &str, text: &str, into: &mut Sites) {
    let code: Vec<char> = code_only(text).chars().collect();
    // The named function each open brace belongs to (None: a block, closure, impl, ...).
    let mut open: Vec<Option<String>> = Vec::new();
    // A function whose body has not opened yet, with the bracket depth of its `fn`: a `;` at
    // that depth ends a bodiless declaration (one inside `[u8; 4]` does not).
    let mut pending: Option<(String, usize)> = None;
    let mut brackets = 0usize;
    let mut i = 0;
    while i < code.len() {
        match code[i] {
            '{' => open.push(pending.take().map(|(name, _)| name)),
            '}' => {
                open.pop();
            }
            '(' | '[' => brackets += 1,
            ')' | ']' => brackets = brackets.saturating_sub(1),
            ';' if pending.as_ref().is_some_and(|p| p.1 == brackets) => pending = None,
            _ if word_at(&code, i, "fn") => {
                let name = ident_at(&code, skip_space(&code, i + 2));
                if !name.is_empty() {
                    pending = Some((name, brackets));
                }
            }
            _ if word_at(&code, i, "unsafe") => {
                let next = skip_space(&code, i + "unsafe".len());
                let function = if word_at(&code, next, "fn") {
                    Some(ident_at(&code, skip_space(&code, next + 2)))
                } else if code.get(next) == Some(&'{')
                    || word_at(&code, next, "impl")
                    || word_at(&code, next, "trait")
                {
                    Some(
                        open.iter()
                            .rev()
                            .find_map(|f| f.clone())
                            .unwrap_or("-".into()),
                    )
                } else {
                    None // `unsafe extern`, `unsafe_code` never reach here (whole words)
                };
                if let Some(f) = function {
                    *into.entry((file.to_string(), f)).or_default() += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

fn scan(dir: &Path, src: &Path, into: &mut Sites) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            scan(&path, src, into);
        } else if path.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let rel = path
                .strip_prefix(src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            sites_in(&rel, &text, into);
        }
    }
}

/// The rows of the inventory's table: `| `file` | `function` | count | ...`.
fn inventory(doc: &str) -> Sites {
    let mut out = Sites::new();
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line
            .split('|')
            .map(|c| c.trim().trim_matches('`'))
            .collect();
        let count = cells[3]
            .parse()
            .unwrap_or_else(|_| panic!("docs/unsafe.md: no count in {line}"));
        let key = (cells[1].to_string(), cells[2].to_string());
        assert!(
            out.insert(key, count).is_none(),
            "docs/unsafe.md: row twice: {line}"
        );
    }
    out
}

/// The number in "Total: N unsafe" of `text`.
fn stated_total(text: &str, what: &str) -> usize {
    let at = text
        .find("Total: ")
        .unwrap_or_else(|| panic!("{what} states no `Total: N unsafe ...`"));
    let rest = &text[at + "Total: ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    assert!(
        rest[digits.len()..].starts_with(" unsafe"),
        "{what}: `Total: N unsafe ...`"
    );
    digits.parse().unwrap()
}

#[test]
fn the_unsafe_inventory_lists_every_unsafe_site_of_the_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../strideweave");
    let src = root.join("src");
    let mut found = Sites::new();
    scan(&src, &src, &mut found);
    let doc = std::fs::read_to_string(root.join("../docs/unsafe.md")).expect("docs/unsafe.md");
    let listed = inventory(&doc);
    // Every (file, function) whose count differs: `in the code` vs `in docs/unsafe.md`.
    let keys: std::collections::BTreeSet<_> = found.keys().chain(listed.keys()).collect();
    let wrong: Vec<String> = keys
        .into_iter()
        .filter(|k| found.get(*k) != listed.get(*k))
        .map(|(f, n)| {
            let count = |s: &Sites| s.get(&(f.clone(), n.clone())).copied().unwrap_or(0);
            format!(
                "  {f}, fn {n}: {} in the code, {} listed",
                count(&found),
                count(&listed)
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "docs/unsafe.md disagrees with the code (file, enclosing function):\n{}",
        wrong.join("\n")
    );
    let total: usize = found.values().sum();
    assert_eq!(
        stated_total(&doc, "docs/unsafe.md"),
        total,
        "docs/unsafe.md's total"
    );
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert_eq!(
        stated_total(&lib, "lib.rs"),
        total,
        "lib.rs's crate comment"
    );
}

#[test]
fn the_scan_sees_code_only() {
    let text = r##"
        // unsafe { in a comment }
        /* unsafe { /* nested */ unsafe fn x() {} } */
        fn outer(_: [u8; 4]) {
            let s = "unsafe { in a string \" }";
            let r = r#"unsafe { raw "quoted" }"#;
            let c = '{';
            let q = '\'';
            let l: &'static str = "";
            let f = |x: u8| unsafe { x };
            unsafe { s };
        }
        unsafe fn raw_api() {}
        unsafe impl Send for X {}
        #[allow(unsafe_code)]
        fn after() { unsafe { 1 } }
    "##;
    let mut found = Sites::new();
    sites_in("f.rs", text, &mut found);
    let want: Sites = [("outer", 2), ("raw_api", 1), ("-", 1), ("after", 1)]
        .into_iter()
        .map(|(f, n)| (("f.rs".to_string(), f.to_string()), n))
        .collect();
    assert_eq!(found, want);
}
