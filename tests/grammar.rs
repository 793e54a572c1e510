//! The grammar (grammar/grammar.js: tree-sitter-c plus `multifor`) without
//! the tree-sitter CLI:
//!
//! - the corpus grammar/test/corpus/*.txt, read and compared the way
//!   `tree-sitter test` does (see grammar/README.md);
//! - plain C parses exactly as with tree-sitter-c: every `.c` file of the
//!   repository's corpus/ and tests/, a few tricky snippets, and every
//!   corpus case whose tree has no multifor node;
//! - the node kinds and fields src/frontend relies on exist.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tree_sitter::{Language, Parser, Tree};

fn polyc_c() -> Language {
    polyc::frontend::language::language()
}

fn plain_c() -> Language {
    tree_sitter_c::LANGUAGE.into()
}

fn parse(language: &Language, text: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(language).expect("the grammar's ABI is not the tree-sitter crate's");
    parser.parse(text, None).expect("the parser gave up")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------
// The corpus format of `tree-sitter test` (tree-sitter-cli 0.25, test.rs):
//
//   ====...           (three or more `=`)
//   name              (one or more lines)
//   :error            (optional attributes: :error, :skip, :fail-fast)
//   ====...
//   input
//   ----...           (the longest line of three or more `-` is the divider)
//   expected S-expression
//
// The input is everything between the header and the divider, less one
// newline. In the expected tree, lines starting with `;` are comments,
// whitespace runs become one space and ` )` becomes `)`; fields are compared
// only if the expected tree has some (` name: (`). A case marked :error
// passes if its tree has an error. Header and divider suffixes (`===|||`)
// are not supported.
// ---------------------------------------------------------------------------

#[derive(Debug)]
struct Case {
    file: String,
    name: String,
    input: String,
    expected: String,
    error: bool,
    skip: bool,
}

fn all_of(line: &str, c: char) -> bool {
    line.len() >= 3 && line.chars().all(|x| x == c)
}

/// Byte offsets of the lines of `text`: (start, end without the newline,
/// start of the next line).
fn lines(text: &str) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let next = text[start..].find('\n').map_or(text.len(), |i| start + i + 1);
        let mut end = if text[..next].ends_with('\n') { next - 1 } else { next };
        if text[..end].ends_with('\r') {
            end -= 1;
        }
        out.push((start, end, next));
        start = next;
    }
    out
}

fn read_corpus(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let lines = lines(&text);
    let line = |i: usize| &text[lines[i].0..lines[i].1];

    // Headers: (first byte, byte after, name lines, attribute lines).
    let mut headers = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if all_of(line(i), '=') && i + 1 < lines.len() && !line(i + 1).starts_with('=') {
            let mut j = i + 1;
            while j < lines.len() && !line(j).is_empty() && !line(j).starts_with('=') {
                j += 1;
            }
            if j < lines.len() && all_of(line(j), '=') {
                let (mut name, mut attributes) = (Vec::new(), Vec::new());
                for k in i + 1..j {
                    let l = line(k).trim();
                    // As in tree-sitter: name lines up to the first marker,
                    // then markers (other lines are ignored).
                    if l.starts_with(':') {
                        attributes.push(l.to_string());
                    } else if attributes.is_empty() {
                        name.push(line(k));
                    }
                }
                headers.push((lines[i].0, lines[j].2, name.join("\n").trim_end().to_string(), attributes));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }

    let mut cases = Vec::new();
    for (h, (_, body_start, name, attributes)) in headers.iter().enumerate() {
        let body_end = headers.get(h + 1).map_or(text.len(), |next| next.0);
        // The longest divider line of the body (the last of equal ones, as
        // `max_by_key` picks in tree-sitter).
        let divider = lines
            .iter()
            .filter(|l| l.0 >= *body_start && l.2 <= body_end && all_of(&text[l.0..l.1], '-'))
            .max_by_key(|l| l.2 - l.0);
        let Some(divider) = divider else {
            panic!("{file}: case '{name}' has no `---` divider");
        };
        let mut input = text[*body_start..divider.0].to_string();
        input.pop();
        let expected: String = text[divider.2..body_end]
            .lines()
            .filter(|l| !l.trim_start().starts_with(';'))
            .collect::<Vec<_>>()
            .join("\n");
        let (mut error, mut skip) = (false, false);
        for a in attributes {
            match a.split('(').next().unwrap() {
                ":error" => error = true,
                ":skip" => skip = true,
                ":fail-fast" => {}
                other => panic!("{file}: case '{name}': attribute {other} is not supported by this runner"),
            }
        }
        cases.push(Case {
            file: file.clone(),
            name: name.clone(),
            input,
            expected: normalise(&expected),
            error: error && !skip,
            skip,
        });
    }
    cases
}

/// Whitespace as `tree-sitter test` normalises it.
fn normalise(sexp: &str) -> String {
    sexp.split_whitespace().collect::<Vec<_>>().join(" ").replace(" )", ")")
}

/// Whether the S-expression names a field: ` name: (`.
fn has_fields(sexp: &str) -> bool {
    field_spans(sexp).next().is_some()
}

/// Byte ranges of ` name: (` less the final `(`.
fn field_spans(sexp: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = sexp.as_bytes();
    (0..b.len()).filter_map(move |i| {
        if b[i] != b' ' {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        (j > i + 1 && b[j..].starts_with(b": (")).then_some((i, j + 2))
    })
}

/// ` name: (` becomes ` (`.
fn strip_fields(sexp: &str) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (start, end) in field_spans(sexp) {
        if start >= at {
            out.push_str(&sexp[at..start]);
            out.push(' ');
            at = end;
        }
    }
    out.push_str(&sexp[at..]);
    out
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = root().join("grammar/test/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());
    files
}

fn contains_multifor_node(tree: &Tree) -> bool {
    let mut cursor = tree.walk();
    loop {
        if cursor.node().kind().starts_with("multifor_") {
            return true;
        }
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return false;
            }
            if cursor.goto_next_sibling() {
                break;
            }
        }
    }
}

#[test]
fn corpus_runner_reads_the_format() {
    let dir = std::env::temp_dir().join(format!("polyc-grammar-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.txt");
    std::fs::write(
        &path,
        "=====\nfirst\n=====\n\nx;\n\n---\n\n; a comment\n(translation_unit\n  (expression_statement (identifier)))\n\n\
         ==========\nsecond\n:error\n==========\nmultifor\n------\n-----------\n\n",
    )
    .unwrap();
    let cases = read_corpus(&path);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].name, "first");
    assert_eq!(cases[0].input, "\nx;\n");
    assert_eq!(cases[0].expected, "(translation_unit (expression_statement (identifier)))");
    assert!(!cases[0].error);
    assert_eq!(cases[1].name, "second");
    assert_eq!(cases[1].input, "multifor\n------");
    assert!(cases[1].error);
    assert!(has_fields("(a b: (c))"));
    assert!(!has_fields("(a (c))"));
    assert_eq!(strip_fields("(a left: (b) right: (c d: (e)))"), "(a (b) (c (e)))");
}

#[test]
fn corpus() {
    let (polyc, c) = (polyc_c(), plain_c());
    let mut failures = String::new();
    let mut count = 0;
    for path in corpus_files() {
        for case in read_corpus(&path) {
            if case.skip {
                continue;
            }
            count += 1;
            let tree = parse(&polyc, &case.input);
            let sexp = tree.root_node().to_sexp();
            if case.error {
                if !tree.root_node().has_error() {
                    writeln!(failures, "{} / {}: expected a syntax error, got\n  {sexp}\n", case.file, case.name)
                        .unwrap();
                }
                continue;
            }
            let actual = if has_fields(&case.expected) { sexp.clone() } else { strip_fields(&sexp) };
            if actual != case.expected {
                writeln!(
                    failures,
                    "{} / {}:\n  expected {}\n  actual   {actual}\n",
                    case.file, case.name, case.expected
                )
                .unwrap();
            }
            // A tree without multifor is plain C: tree-sitter-c agrees.
            if !tree.root_node().has_error() && !contains_multifor_node(&tree) {
                let plain = parse(&c, &case.input).root_node().to_sexp();
                if plain != sexp {
                    writeln!(
                        failures,
                        "{} / {}: plain C parsed differently\n  tree-sitter-c {plain}\n  polyc_c       {sexp}\n",
                        case.file, case.name
                    )
                    .unwrap();
                }
            }
        }
    }
    assert!(count > 0, "no corpus cases");
    assert!(failures.is_empty(), "corpus failures:\n\n{failures}");
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            c_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "c") {
            out.push(path);
        }
    }
}

#[test]
fn plain_c_files_parse_as_with_tree_sitter_c() {
    let (polyc, c) = (polyc_c(), plain_c());
    let mut files = Vec::new();
    c_files(&root().join("corpus"), &mut files);
    c_files(&root().join("tests"), &mut files);
    let mut compared = 0;
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        if text.contains("multifor") {
            continue;
        }
        compared += 1;
        let expected = parse(&c, &text).root_node().to_sexp();
        let actual = parse(&polyc, &text).root_node().to_sexp();
        if expected != actual {
            failures.push(format!(
                "{}:\n  tree-sitter-c {expected}\n  polyc_c       {actual}",
                path.strip_prefix(root()).unwrap_or(path).display()
            ));
        }
    }
    assert!(compared > 50, "only {compared} C files found");
    assert!(failures.is_empty(), "{} of {compared} files parse differently:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn tricky_c_parses_as_with_tree_sitter_c() {
    let snippets = [
        // designated initialisers
        "int a[6] = { [0] = 1, [2 ... 3] = 4, [5] = 6 };",
        "int m[2][2] = { [0][1] = 2, [1] = { 3, 4 } };",
        "struct s v[2] = { [0].x = 1, [1 ... 1].y = 2, [0] = { .x = 3 } };",
        "void f(void) { g((struct s){ [0] = 1, .x = { [1] = 2 } }); }",
        // attributes
        "[[nodiscard]] int f(void);",
        "[[gnu::always_inline, deprecated(\"x\")]] static inline int g(int x) { return x; }",
        "void f(int c) { switch (c) { case 0: c++; [[fallthrough]]; case 1: break; } }",
        "void f(void) { [[maybe_unused]] int x = 0; [[likely]] x++; }",
        "int a [[gnu::aligned(8)]];",
        // labels, cases, conditionals, bit-fields
        "void f(int n) { lbl: n++; if (n) goto lbl; a: b: ; }",
        "int f(int c) { switch (c) { case 0: return 1; case A + 1: { c--; } default: break; } return c; }",
        "int f(int c) { return c ? c : -c; }",
        "struct s { int a : 3; unsigned b : 1; };",
        // subscripts and brackets
        "void f(void) { a[b[c]] = d[e[f[g]]][h]; }",
        "void f(int n, int a[static 3], int m[n][*]) { int (*p)[3] = 0; p[0][1] = sizeof(int[2][3]); }",
        "void f(void) { x = (int[]){ 1, 2 }[1]; }",
        // a SCoP
        "void f(int N, double a[N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n    a[i] = 0;\n#pragma endscop\n}\n",
        // identifiers that start like the keyword
        "int multi, multifo, multifor_, formultifor; void f(void) { multi = multifo; }",
    ];
    let (polyc, c) = (polyc_c(), plain_c());
    for text in snippets {
        let expected = parse(&c, text);
        let actual = parse(&polyc, text);
        assert!(!expected.root_node().has_error(), "tree-sitter-c does not parse {text:?}");
        assert_eq!(actual.root_node().to_sexp(), expected.root_node().to_sexp(), "\n{text}");
    }
}

#[test]
fn contract_node_kinds_and_fields_exist() {
    let language = polyc_c();
    for kind in [
        "multifor_statement",
        "multifor_header",
        "multifor_group",
        "multifor_body",
        "multifor_item",
        "multifor_prefix_list",
        "multifor_index_list",
    ] {
        assert_ne!(language.id_for_node_kind(kind, true), 0, "no node kind {kind}");
    }
    assert_ne!(language.id_for_node_kind("multifor", false), 0, "no keyword multifor");
    for field in ["header", "body", "inits", "conditions", "updates", "grains", "offsets", "prefix", "statement"] {
        assert!(language.field_id_for_name(field).is_some(), "no field {field}");
    }
    // The fields are where the contract says.
    let text = "multifor (i = 0; i < N; i++; 1; 0) { [0, 1] : x[[i, i]] = 0; 2 : ; }";
    let tree = parse(&language, text);
    let stmt = tree.root_node().child(0).unwrap();
    assert_eq!(stmt.kind(), "multifor_statement");
    let header = stmt.child_by_field_name("header").unwrap();
    assert_eq!(header.kind(), "multifor_header");
    for field in ["inits", "conditions", "updates", "grains", "offsets"] {
        assert_eq!(header.child_by_field_name(field).unwrap().kind(), "multifor_group", "{field}");
    }
    let body = stmt.child_by_field_name("body").unwrap();
    assert_eq!(body.kind(), "multifor_body");
    let item = body.named_child(0).unwrap();
    assert_eq!(item.kind(), "multifor_item");
    assert_eq!(item.child_by_field_name("prefix").unwrap().kind(), "multifor_prefix_list");
    assert_eq!(item.child_by_field_name("statement").unwrap().kind(), "expression_statement");
    let item = body.named_child(1).unwrap();
    assert_eq!(item.child_by_field_name("prefix").unwrap().kind(), "number_literal");
}
