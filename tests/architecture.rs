//! The architecture rules of issue 34, checked on the crate's own `src/`:
//! no source file over 700 lines, no import cycle between files, and no
//! module importing from a module of a higher layer (see `LAYERS`).
//!
//! The import graph is read from the source text by a small lexer (no
//! parser dependency). Comments (doc comments included), string, raw string
//! and char literals, and every item under `#[cfg(test)]` are dropped; then
//! every path naming a module of this crate (`crate::`, `super::`, `self::`,
//! a child module, or a module a `use` brought in) is an edge from its file
//! to the file of the path's longest prefix that is a module with a file.
//! `src/main.rs` and `src/bin/` are separate crates and are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

const MAX_LINES: usize = 700;

/// Top-level modules by layer, bottom first. The rule: a file in a module of
/// layer L may import from layers up to L, never from a higher one. The
/// first layer is utility code anyone may use. Modules listed but absent are
/// fine; a top-level module missing from the list fails the layering test,
/// so that each new module is given its place here.
#[rustfmt::skip]
const LAYERS: &[&[&str]] = &[
    &["diagnostics", "names"],
    &["frontend"], &["model"], &["deps"], &["schedule"], &["tile"], &["storage"], &["scan"], &["multifor"],
    &["options"], &["plan"], &["emit"], &["report"], &["driver"], &["batch"], &["cc"],
];

struct SourceFile {
    /// Path under `src/`, e.g. `driver/plan/mod.rs`.
    name: String,
    /// `driver/plan/mod.rs` and `driver/plan.rs` are `["driver", "plan"]`;
    /// the crate root `lib.rs` is empty.
    module: Vec<String>,
    text: String,
}

/// The files of one crate, and for each the files it imports from, each
/// with one path that shows the import (`target -> path as written`).
struct Crate {
    files: Vec<SourceFile>,
    by_module: BTreeMap<Vec<String>, usize>,
    imports: Vec<BTreeMap<usize, String>>,
}

fn module_of(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = name.trim_end_matches(".rs").split('/').map(String::from).collect();
    if parts == ["lib"] || parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    parts
}

/// Every `.rs` file under `src`, as (path under `src`, text), the binaries'
/// own (`main.rs`, `bin/`) left out.
fn read_sources(src: &Path) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("readable src directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
                if name != "main.rs" && !name.starts_with("bin/") {
                    found.push((name, fs::read_to_string(&path).expect("readable source")));
                }
            }
        }
    }
    found.sort();
    found
}

fn this_crate() -> Crate {
    Crate::new(read_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")))
}

impl Crate {
    fn new(sources: Vec<(String, String)>) -> Crate {
        let files: Vec<SourceFile> =
            sources.into_iter().map(|(name, text)| SourceFile { module: module_of(&name), name, text }).collect();
        let by_module = files.iter().enumerate().map(|(i, f)| (f.module.clone(), i)).collect();
        let mut krate = Crate { files, by_module, imports: Vec::new() };
        krate.imports = (0..krate.files.len()).map(|f| krate.imports_of(f)).collect();
        krate
    }

    fn imports_of(&self, file: usize) -> BTreeMap<usize, String> {
        let from = &self.files[file].module;
        let paths = written_paths(&without_test_items(tokens(&self.files[file].text)));
        // `use` binds names for the whole file, wherever it stands: bind first.
        let mut aliases = BTreeMap::new();
        for path in paths.iter().filter(|p| p.binds.is_some()) {
            if let Some(module) = self.absolute(from, &aliases, &path.segments) {
                if self.by_module.contains_key(&module) {
                    aliases.insert(path.binds.clone().unwrap(), module);
                }
            }
        }
        let mut imports = BTreeMap::new();
        for path in &paths {
            let target = self.absolute(from, &aliases, &path.segments).and_then(|abs| self.file_of(&abs));
            if let Some(target) = target.filter(|&t| t != file) {
                imports.entry(target).or_insert_with(|| path.segments.join("::"));
            }
        }
        imports
    }

    /// The absolute module path of `segments` written in module `from`, or
    /// `None` if the path does not start in this crate.
    fn absolute(
        &self,
        from: &[String],
        aliases: &BTreeMap<String, Vec<String>>,
        segments: &[String],
    ) -> Option<Vec<String>> {
        let (first, mut rest) = segments.split_first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => from.to_vec(),
            "super" => from[..from.len().saturating_sub(1)].to_vec(),
            name if aliases.contains_key(name) => aliases[name].clone(),
            _ => {
                let child: Vec<String> = from.iter().chain([first]).cloned().collect();
                self.by_module.contains_key(&child).then_some(child)?
            }
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().filter(|s| *s != "self" && *s != "*").cloned());
        Some(base)
    }

    /// The file of the longest prefix of `module` that has one.
    fn file_of(&self, module: &[String]) -> Option<usize> {
        (0..=module.len()).rev().find_map(|k| self.by_module.get(&module[..k]).copied())
    }

    fn show_import(&self, from: usize, to: usize) -> String {
        format!("src/{} -> src/{} (via {})", self.files[from].name, self.files[to].name, self.imports[from][&to])
    }

    /// Each strongly connected component of more than one file, with its edges.
    fn cycles(&self) -> Vec<String> {
        let graph: Vec<Vec<usize>> = self.imports.iter().map(|m| m.keys().copied().collect()).collect();
        let mut reports = Vec::new();
        for mut component in strongly_connected(&graph).into_iter().filter(|c| c.len() > 1) {
            component.sort(); // files are in name order
            let names: Vec<&str> = component.iter().map(|&f| self.files[f].name.as_str()).collect();
            let mut report = format!("cycle of {} files: {}", names.len(), names.join(", "));
            for &from in &component {
                for &to in self.imports[from].keys().filter(|t| component.contains(t)) {
                    report += &format!("\n    {}", self.show_import(from, to));
                }
            }
            reports.push(report);
        }
        reports.sort();
        reports
    }

    fn layer_of(&self, file: usize) -> Option<usize> {
        let top = self.files[file].module.first()?;
        LAYERS.iter().position(|layer| layer.contains(&top.as_str()))
    }

    /// Files of a top-level module not in `LAYERS`, then imports from a
    /// lower layer into a higher one. The crate root is in no layer.
    fn layering_offences(&self) -> Vec<String> {
        let unplaced: BTreeSet<&str> = (0..self.files.len())
            .filter(|&f| !self.files[f].module.is_empty() && self.layer_of(f).is_none())
            .map(|f| self.files[f].module[0].as_str())
            .collect();
        let mut offences: Vec<String> =
            unplaced.iter().map(|m| format!("top-level module `{m}` has no place in LAYERS")).collect();
        for (from, targets) in self.imports.iter().enumerate() {
            for &to in targets.keys() {
                if let (Some(low), Some(high)) = (self.layer_of(from), self.layer_of(to)) {
                    if high > low {
                        offences.push(format!("{} [layer {low} imports layer {high}]", self.show_import(from, to)));
                    }
                }
            }
        }
        offences
    }
}

/// Tarjan's algorithm with an explicit call stack of (node, next edge).
fn strongly_connected(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let (mut index, mut low) = (vec![UNSEEN; graph.len()], vec![0; graph.len()]);
    let (mut on_stack, mut stack, mut components, mut next) = (vec![false; graph.len()], Vec::new(), Vec::new(), 0);
    for root in 0..graph.len() {
        if index[root] != UNSEEN {
            continue;
        }
        let mut calls = vec![(root, 0)];
        (index[root], low[root], on_stack[root]) = (next, next, true);
        stack.push(root);
        next += 1;
        while let Some(&(v, edge)) = calls.last() {
            if let Some(&w) = graph[v].get(edge) {
                calls.last_mut().unwrap().1 += 1;
                if index[w] == UNSEEN {
                    (index[w], low[w], on_stack[w]) = (next, next, true);
                    stack.push(w);
                    next += 1;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

#[derive(Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The tokens that matter for paths: identifiers (keywords included), `::`
/// and single punctuation characters. Comments, literals and lifetimes go.
fn tokens(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        let (c, next) = (chars[i], chars.get(i + 1).copied());
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            i = chars[i..].iter().position(|&c| c == '\n').map_or(chars.len(), |n| i + n);
        } else if c == '/' && next == Some('*') {
            i = after_block_comment(&chars, i);
        } else if c == '"' {
            i = after_string(&chars, i + 1);
        } else if c == '\'' {
            i = after_char_or_lifetime_quote(&chars, i);
        } else if c == ':' && next == Some(':') {
            out.push(Tok::PathSep);
            i += 2;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if let Some(end) = after_raw_string(&chars, &word, i) {
                i = end;
            } else if !c.is_ascii_digit() {
                out.push(Tok::Ident(word));
            }
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// Block comments nest in Rust.
fn after_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('*')) => (depth, i) = (depth + 1, i + 2),
            ('*', Some('/')) => (depth, i) = (depth - 1, i + 2),
            _ => i += 1,
        }
        if depth == 0 {
            break;
        }
    }
    i
}

/// `i` is just past the opening quote.
fn after_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] != '"' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// `r"…"`, `r#"…"#`, `br##"…"##`, `cr"…"`: `i` is just past the prefix.
fn after_raw_string(chars: &[char], prefix: &str, i: usize) -> Option<usize> {
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    if !matches!(prefix, "r" | "br" | "cr") || chars.get(i + hashes) != Some(&'"') {
        return None;
    }
    let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let body = i + hashes + 1;
    let end = chars[body..].windows(closing.len()).position(|w| w == closing);
    Some(end.map_or(chars.len(), |n| body + n + closing.len()))
}

/// `'x'`, `'\n'`, `'\u{7f}'` are skipped whole; a lifetime's quote alone.
fn after_char_or_lifetime_quote(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let rest = chars.get(i + 3..).unwrap_or_default();
        rest.iter().position(|&c| c == '\'').map_or(chars.len(), |n| i + 3 + n + 1)
    } else if chars.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i + 1
    }
}

/// The tokens with every item under `#[cfg(test)]` removed.
fn without_test_items(toks: Vec<Tok>) -> Vec<Tok> {
    let cfg_test: Vec<Tok> = ["#", "[", "cfg", "(", "test", ")", "]"]
        .iter()
        .map(|s| if s.len() > 1 { Tok::Ident(s.to_string()) } else { Tok::Punct(s.chars().next().unwrap()) })
        .collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < toks.len() {
        if toks[i..].starts_with(&cfg_test) {
            i = end_of_item(&toks, i + cfg_test.len());
        } else {
            out.push(toks[i].clone());
            i += 1;
        }
    }
    out
}

/// Past the item starting at `i` (further attributes included): its `;`
/// or the `}` closing its body.
fn end_of_item(toks: &[Tok], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < toks.len() {
        i += 1;
        match toks[i - 1] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']') => depth = depth.saturating_sub(1),
            Tok::Punct('}') if depth <= 1 => return i,
            Tok::Punct('}') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return i,
            _ => {}
        }
    }
    i
}

/// A path as written; a leaf of a `use` tree also binds a name (its last
/// segment or its `as` name), a glob binds none.
struct WrittenPath {
    segments: Vec<String>,
    binds: Option<String>,
}

fn ident(tok: Option<&Tok>) -> Option<&str> {
    match tok {
        Some(Tok::Ident(word)) => Some(word),
        _ => None,
    }
}

/// Every `use` leaf, and every other path of two segments or more.
fn written_paths(toks: &[Tok]) -> Vec<WrittenPath> {
    let (mut out, mut i) = (Vec::new(), 0);
    while i < toks.len() {
        let continues_path = i > 0 && matches!(toks[i - 1], Tok::PathSep | Tok::Punct('.'));
        let in_visibility = i > 1 && ident(toks.get(i - 1)) == Some("in") && toks[i - 2] == Tok::Punct('(');
        match ident(toks.get(i)) {
            Some("use") => i = read_use_tree(toks, i + 1, &mut out),
            Some(first) if !continues_path && !in_visibility => {
                let mut segments = vec![first.to_string()];
                while let (Some(Tok::PathSep), Some(next)) = (toks.get(i + 1), ident(toks.get(i + 2))) {
                    segments.push(next.to_string());
                    i += 2;
                }
                if segments.len() > 1 {
                    out.push(WrittenPath { segments, binds: None });
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The leaves of the `use` tree starting at `i`, flattened: `use
/// crate::a::{b::C, d as e}` gives `crate::a::b::C` and `crate::a::d` (binding
/// `e`). Returns the index past the closing `;`.
fn read_use_tree(toks: &[Tok], mut i: usize, out: &mut Vec<WrittenPath>) -> usize {
    let (mut path, mut group_bases, mut alias): (Vec<String>, Vec<usize>, Option<String>) = Default::default();
    let mut leaf_pending = false;
    while i < toks.len() {
        let tok = &toks[i];
        i += 1;
        if matches!(tok, Tok::Punct(',' | '}' | ';')) && leaf_pending {
            let mut segments = path.clone();
            if segments.len() > 1 && segments.last().is_some_and(|s| s == "self") {
                segments.pop();
            }
            let binds = alias.take().or_else(|| segments.last().cloned()).filter(|name| name != "*");
            out.push(WrittenPath { segments, binds });
            leaf_pending = false;
        }
        match tok {
            Tok::Ident(word) if word == "as" => {
                alias = ident(toks.get(i)).map(String::from);
                i += 1;
            }
            Tok::Ident(word) => {
                path.push(word.clone());
                leaf_pending = true;
            }
            Tok::Punct('*') => {
                path.push("*".into());
                leaf_pending = true;
            }
            Tok::Punct('{') => group_bases.push(path.len()),
            Tok::Punct(',') => path.truncate(group_bases.last().copied().unwrap_or(0)),
            Tok::Punct('}') => {
                group_bases.pop();
                path.truncate(group_bases.last().copied().unwrap_or(0));
            }
            Tok::Punct(';') => return i,
            _ => {}
        }
    }
    i
}

#[test]
fn no_source_file_over_700_lines() {
    let krate = this_crate();
    let mut offenders: Vec<(usize, &str)> =
        krate.files.iter().map(|f| (f.text.lines().count(), f.name.as_str())).filter(|&(n, _)| n > MAX_LINES).collect();
    offenders.sort_by(|a, b| b.cmp(a));
    let listed: Vec<String> = offenders.iter().map(|(n, name)| format!("src/{name}: {n} lines")).collect();
    assert!(listed.is_empty(), "{} files over {MAX_LINES} lines:\n{}", listed.len(), listed.join("\n"));
}

#[test]
fn no_import_cycle_between_files() {
    let cycles = this_crate().cycles();
    assert!(cycles.is_empty(), "{} import cycles:\n{}", cycles.len(), cycles.join("\n"));
}

#[test]
fn lower_layers_do_not_import_upper_ones() {
    let offences = this_crate().layering_offences();
    assert!(offences.is_empty(), "{} layering offences:\n{}", offences.len(), offences.join("\n"));
}

fn made_up(files: &[(&str, &str)]) -> Crate {
    Crate::new(files.iter().map(|(name, text)| (name.to_string(), text.to_string())).collect())
}

/// The checks bite: on a made-up crate they find the cycle between two
/// files and the imports of `driver` from `frontend` (one through an alias).
#[test]
fn the_checks_find_a_cycle_and_an_upward_import() {
    let krate = made_up(&[
        ("lib.rs", "pub mod frontend; pub mod driver;"),
        ("frontend/mod.rs", "mod unit;\nfn f() -> unit::Unit { todo!() }"),
        (
            "frontend/unit.rs",
            "use super::{Stmt, other::{X}};\nuse crate::driver::{self as d};\nfn g() { d::plan::run() }",
        ),
        ("driver/mod.rs", "mod plan;"),
        ("driver/plan.rs", "pub fn run() {}"),
    ]);
    let cycles = krate.cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(cycles[0].starts_with("cycle of 2 files: frontend/mod.rs, frontend/unit.rs"), "{cycles:?}");
    let offences = krate.layering_offences();
    assert_eq!(offences.len(), 2, "{offences:?}");
    assert!(offences[0].starts_with("src/frontend/unit.rs -> src/driver/mod.rs (via crate::driver)"), "{offences:?}");
    assert!(offences[1].starts_with("src/frontend/unit.rs -> src/driver/plan.rs (via d::plan::run)"), "{offences:?}");
}

/// Paths in comments, literals, `pub(in …)` and `#[cfg(test)]` items are no
/// imports; the path after them still is. Unlisted modules are offences.
#[test]
fn comments_literals_and_test_items_import_nothing() {
    let b = r##"//! crate::a::A
        /// crate::a::A
        /* /* */ crate::a::A */
        fn f<'a>(_: &'a str) -> [char; 2] {
            let _ = ("crate::a::A\"", r#""crate::a::A"#, b"crate::a::A");
            ['"', '{']
        }
        pub(in crate::a) fn g() -> crate::c::C { todo!() }
        #[cfg(test)]
        mod tests { use crate::a::A; }"##;
    let krate = made_up(&[("lib.rs", "pub mod a; pub mod b; pub mod c;"), ("a.rs", ""), ("b.rs", b), ("c.rs", "")]);
    let imports: Vec<&String> = krate.imports[2].values().collect();
    assert_eq!(imports, ["crate::c::C"]);
    assert_eq!(krate.layering_offences().len(), 3, "{:?}", krate.layering_offences());
}
