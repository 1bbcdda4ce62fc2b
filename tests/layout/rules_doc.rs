//! Every rule identifier the sources and the top-level documents use (`L12`, `RT004`, `C5`,
//! `D6`, `contracts §5`, `seed 000`, `layout-algebra.md §9`) has its text in `docs/rules.md`,
//! under an anchor of its own.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives in the workspace")
        .to_path_buf()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The anchors the identifiers in `text` need: `L12`, `RT004`, `C5`, `D6`, `contracts-5`,
/// `seed-000`, `algebra-9`.
fn rule_anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '§' || c == '.' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '.' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
            n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        if let Some(n) = w.strip_prefix("RT").filter(|n| digits(n, 3..=3)) {
            out.insert(format!("RT{n}"));
        } else if let Some(n) = w.strip_prefix('L').filter(|n| digits(n, 1..=2)) {
            out.insert(format!("L{n}"));
        } else if let Some(n) = w.strip_prefix('C').filter(|n| digits(n, 1..=1)) {
            out.insert(format!("C{n}"));
        } else if let Some(n) = w.strip_prefix('D').filter(|n| digits(n, 1..=1)) {
            out.insert(format!("D{n}"));
        }
        let next = words.get(i + 1).copied().unwrap_or("");
        let section = next.strip_prefix('§').unwrap_or("");
        if *w == "contracts" && digits(section, 1..=2) {
            out.insert(format!("contracts-{section}"));
        }
        if (*w == "layout-algebra.md" || *w == "layout-algebra") && digits(section, 1..=2) {
            out.insert(format!("algebra-{section}"));
        }
        if (*w == "seed" || *w == "seeds") && digits(next, 3..=3) {
            out.insert(format!("seed-{next}"));
        }
    }
    out
}

#[test]
fn rules_doc_recognises_every_kind_of_identifier() {
    let found = rule_anchors(
        "contracts L12, RT004 (C5; D6), contracts §5, seed 000, `layout-algebra.md` §9; \
         make_layout(A, B) and L_0 are not rules",
    );
    let want = [
        "L12",
        "RT004",
        "C5",
        "D6",
        "contracts-5",
        "seed-000",
        "algebra-9",
    ];
    assert_eq!(found, want.iter().map(|s| s.to_string()).collect());
}

#[test]
fn rules_doc_holds_every_rule_the_sources_name() {
    let root = root();
    let rules = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for dir in [
        "strideweave/src",
        "strideweave-macros/src",
        "strideweave-syntax/src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    let mut missing = Vec::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for anchor in rule_anchors(&text) {
            if !rules.contains(&format!("<a id=\"{anchor}\"></a>")) {
                let shown = file.strip_prefix(&root).unwrap_or(file);
                missing.push(format!("{}: {anchor}", shown.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rule identifiers without their text in docs/rules.md:\n{}",
        missing.join("\n")
    );
}
