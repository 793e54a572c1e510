//! A SCoP analysed through its macros and brought back to the file.
//!
//! The front end extracts a SCoP from its function with every macro
//! expanded ([`Analysed`]), then maps the result onto the file
//! ([`to_source`]): a statement whose iterators and accesses all lie in
//! text copied from the file keeps its text as the user wrote it (macro
//! invocations included; iterators inside their arguments are replaced
//! as usual); a statement where a macro body supplies an iterator or an
//! access is written expanded, as that text is the only one whose
//! iterators polyc can rename.
//!
//! Integer constants (`#define N 1000`, `POLYBENCH_PADDING_FACTOR`) are
//! not expanded: they stay parameters under their own names, as the
//! regenerated loops can spell them.
//!
//! Only the function holding the SCoP is parsed again with its macros
//! expanded, and the macro tables are built once per stretch of the file
//! between two directives (`Source::macros_at`), so that a file of many
//! SCoPs costs time in proportion to its size. Every span of the result is
//! on the file; a statement written expanded keeps its accesses at
//! `span.start + offset in text`, which may reach past its span's end.

use super::ast::{ScopAst, Stmt};
use super::macros::{self, Macros};
use super::source_map::SourceMap;
use super::syntax::{parse_tree_within, syntax_errors};
use crate::diagnostics::{Code, Diagnostic};
use std::collections::HashMap;
use std::ops::Range;
use tree_sitter::{Node, Point, Tree};

/// The object-like macros whose full expansion is an integer constant
/// expression (integer literals and operators only), with it.
fn integer_constants(table: &Macros) -> HashMap<String, String> {
    table
        .iter()
        .filter(|(_, m)| m.params.is_none() && !m.body.is_empty())
        .filter_map(|(name, _)| {
            let (value, _) = macros::expand_text(name, 0, table).ok()?;
            is_integer_expression(&value).then(|| (name.clone(), value))
        })
        .collect()
}

fn is_integer_expression(value: &str) -> bool {
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let allowed = |c: char| c.is_ascii_hexdigit() || "xXuUlL()+-*/%<>&|^~ \t".contains(c);
    let words_are_numbers = value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .all(|w| w.is_empty() || w.starts_with(|c: char| c.is_ascii_digit()));
    has_digit && words_are_numbers && value.chars().all(allowed)
}

/// The macros in effect at some line, as the extraction uses them.
pub struct MacroTables {
    /// Every macro by name, for [`super::decls::Names`]: an integer
    /// constant's expansion, any other's body.
    pub values: HashMap<String, String>,
    /// Those expanded in the analysed text: all but the integer constants.
    pub expandable: Macros,
}

impl MacroTables {
    pub fn new(table: Macros) -> MacroTables {
        let constants = integer_constants(&table);
        let values =
            table.iter().map(|(name, m)| (name.clone(), constants.get(name).unwrap_or(&m.body).clone())).collect();
        let expandable = table.into_iter().filter(|(name, _)| !constants.contains_key(name)).collect();
        MacroTables { values, expandable }
    }
}

/// The file with one function's macros expanded, that function parsed
/// (only it: a file of many functions is not parsed again for each), and
/// the map back to the file.
pub struct Analysed {
    pub text: String,
    pub tree: Tree,
    pub map: SourceMap,
}

impl Analysed {
    /// `visible` with the bytes of `function` (a node of its tree)
    /// replaced by `body` (their expansion, `body_map` its map).
    pub fn new(visible: &str, node: Node, body: String, body_map: SourceMap) -> Result<Analysed, Diagnostic> {
        let function = node.byte_range();
        let mut map = SourceMap::default();
        map.push(0..function.start, 0..function.start, true);
        for s in body_map.segments {
            let at = function.start;
            map.push(s.expanded.start + at..s.expanded.end + at, s.source, s.copied);
        }
        let end = function.start + body.len();
        map.push(end..end + visible.len() - function.end, function.end..visible.len(), true);
        let text = format!("{}{}{}", &visible[..function.start], body, &visible[function.end..]);
        let tree = parse_tree_within(&text, Some(expanded_range(node.start_position(), function.start, &body)))?;
        let broken =
            syntax_errors(tree.root_node()).into_iter().find(|n| n.start_byte() < end && n.end_byte() > function.start);
        if let Some(bad) = broken {
            let expansion = text[bad.byte_range()].chars().take(60).collect::<String>();
            return Err(Diagnostic::warning(
                Code::P0017,
                map.source_range(&bad.byte_range()),
                "the function holding this SCoP does not parse once its macros are expanded",
            )
            .with_label("here")
            .with_note(format!("the expansion reads `{expansion}`")));
        }
        Ok(Analysed { text, tree, map })
    }
}

/// The bytes `body` takes in the text when it starts at byte `start`,
/// at `point`.
fn expanded_range(point: Point, start: usize, body: &str) -> tree_sitter::Range {
    let rows = body.matches('\n').count();
    let column = match body.rfind('\n') {
        Some(last) => body.len() - last - 1,
        None => point.column + body.len(),
    };
    tree_sitter::Range {
        start_byte: start,
        end_byte: start + body.len(),
        start_point: point,
        end_point: Point { row: point.row + rows, column },
    }
}

/// `ast`, extracted from `analysed`, as a SCoP of the file `source`.
pub fn to_source(mut ast: ScopAst, analysed: &Analysed, source: &str) -> ScopAst {
    let map = &analysed.map;
    ast.region = map.source_range(&ast.region);
    ast.pragma = map.source_range(&ast.pragma);
    for stmt in &mut ast.stmts {
        if keeps_spelling(stmt, map) {
            respell(stmt, map, source);
        } else {
            place_expanded(stmt, map);
        }
    }
    ast
}

/// Whether every iterator occurrence and access of `stmt` lies in text
/// copied from the file.
fn keeps_spelling(stmt: &Stmt, map: &SourceMap) -> bool {
    let start = stmt.span.start;
    stmt.iter_uses.iter().all(|(r, _)| map.is_copied(&(r.start + start..r.end + start)))
        && stmt.accesses.iter().all(|a| map.is_copied(&(a.span.start..a.span.start + 1)) && map.is_copied(&a.span))
}

/// `stmt` keeps its expanded text; its span becomes the file's bytes it
/// replaces, and its accesses keep their offsets in the text (so they
/// may reach past the span's end).
fn place_expanded(stmt: &mut Stmt, map: &SourceMap) {
    let (old, span) = (stmt.span.start, map.source_range(&stmt.span));
    for a in &mut stmt.accesses {
        a.span = a.span.start - old + span.start..a.span.end - old + span.start;
    }
    stmt.span = span;
}

/// `stmt` with its text as the file spells it, its spans on the file.
/// Text past the span (the `;` that makes a declaration's initialiser a
/// statement) stays.
fn respell(stmt: &mut Stmt, map: &SourceMap, source: &str) {
    let tail = stmt.text.get(stmt.span.len()..).unwrap_or("").to_string();
    let (old, span) = (stmt.span.start, map.source_range(&stmt.span));
    let mut uses: Vec<(Range<usize>, usize)> = Vec::new();
    for (r, depth) in &stmt.iter_uses {
        let r = map.source_range(&(r.start + old..r.end + old));
        let relative = (r.start - span.start..r.end - span.start, *depth);
        if !uses.contains(&relative) {
            uses.push(relative);
        }
    }
    for a in &mut stmt.accesses {
        a.span = map.source_range(&a.span);
    }
    stmt.iter_uses = uses;
    stmt.text = source[span.clone()].to_string() + &tail;
    stmt.span = span;
}
