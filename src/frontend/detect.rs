//! `--autodetect`: the static control parts of functions without
//! pragmas. A candidate is a run of consecutive statements of one block
//! holding a `for` loop; the extractor decides, as for a pragma region
//! (there is no second SCoP checker here). A rejected run is narrowed:
//! the statement the diagnostic points into is tried on its own, the
//! statements before and after it as runs of their own; a rejected
//! statement is searched inside (the inner loops of a nest whose outer
//! loop prints may still be a SCoP).
//!
//! The same search narrows a pragma region around a `while` or `do`
//! loop ([`Inside::Loops`]): the loop stays as written, the statements
//! of its body and those around it are runs of their own, and a rejected
//! statement other than such a loop is kept whole, with its diagnostic.
//!
//! A diagnostic that points outside the run has each of its statements
//! tried alone. Every outermost `for` loop the search tries gets a
//! verdict ([`Nest`], then `frontend::Candidate`), which `--emit=scops`
//! lists with its cause (`diagnostics::Cause::from_code`). A function
//! holding a `#pragma scop` (taken as marked), a `multifor`, a syntax
//! error, or nesting deeper than `depth::MAX_DEPTH` is not searched. The
//! driver drops a detected SCoP whose iterators all have constant extents
//! and which runs fewer than `driver::MIN_DETECTED_WORK` (1000) statement
//! instances. The runs narrowed from a pragma region are not `detected`
//! (no such threshold).
//!
//! A run inside a loop is extracted in it, as a pragma region there would
//! be: its iterators are not read elsewhere in the loop and nothing counts
//! as dead after it (`extract::outside`), so it may run once per iteration.

use super::regions::Region;
use crate::diagnostics::Diagnostic;
use std::ops::Range;
use tree_sitter::Node;

/// What happened to one outermost `for` loop the search tried.
pub struct Nest {
    /// The loop, in the text the search walks.
    pub span: Range<usize>,
    /// How many rejected loops it is nested in.
    pub depth: usize,
    /// `Ok(k)`: part of the `k`-th accepted run; `Err`: why not.
    pub verdict: Result<usize, Diagnostic>,
}

/// What the search found: the accepted runs, each with what the
/// caller's `try_run` made of it, every nest's verdict, and (with
/// [`Inside::Loops`]) why each statement kept whole was rejected.
pub struct Found<T> {
    pub accepted: Vec<T>,
    pub nests: Vec<Nest>,
    pub kept: Vec<Diagnostic>,
}

/// Which statements rejected on their own the search looks inside.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Inside {
    /// Every one (`--autodetect`).
    Everything,
    /// Only `while` and `do` loops, which stay as written around the runs
    /// of their bodies; any other is kept whole, its diagnostic in
    /// [`Found::kept`] (a pragma region's statements).
    Loops,
}

/// Search `body` (a function's compound statement). `try_run(region)`
/// extracts a run and says why not; its diagnostics' spans are in the
/// text of `body`.
pub fn search<'t, T>(body: Node<'t>, try_run: &mut dyn FnMut(&Region<'t>) -> Result<T, Diagnostic>) -> Found<T> {
    let mut cursor = body.walk();
    let items: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
    search_items(body, &items, Inside::Everything, try_run)
}

/// Search the statements `items` of `block` as one run, looking inside
/// the rejected statements `inside` allows.
pub fn search_items<'t, T>(
    block: Node<'t>,
    items: &[Node<'t>],
    inside: Inside,
    try_run: &mut dyn FnMut(&Region<'t>) -> Result<T, Diagnostic>,
) -> Found<T> {
    let found = Found { accepted: Vec::new(), nests: Vec::new(), kept: Vec::new() };
    let mut search = Search { try_run, inside, found };
    search.run(block, items, 0);
    search.found.nests.sort_by_key(|n| n.span.start);
    search.found
}

/// Whether `n` is a `while` or `do` loop.
pub fn is_while(n: Node) -> bool {
    matches!(n.kind(), "while_statement" | "do_statement")
}

struct Search<'a, 't, T> {
    try_run: &'a mut dyn FnMut(&Region<'t>) -> Result<T, Diagnostic>,
    inside: Inside,
    found: Found<T>,
}

fn has_for(n: Node) -> bool {
    let mut found = false;
    super::syntax::walk(n, &mut |m| found |= m.kind() == "for_statement");
    found
}

/// A comment, or a declaration without a value: a run neither starts nor
/// ends with one, so the variables a function declares first (its loop
/// counters, typically) stay declared where the source declares them.
fn does_nothing(n: Node) -> bool {
    let mut cursor = n.walk();
    let initialised = n.named_children(&mut cursor).any(|c| c.kind() == "init_declarator");
    n.kind() == "comment" || (n.kind() == "declaration" && !initialised)
}

fn contains(n: Node, at: usize) -> bool {
    n.start_byte() <= at && at < n.end_byte()
}

impl<'t, T> Search<'_, 't, T> {
    /// The statements of a compound statement, as one run.
    fn block(&mut self, block: Node<'t>, depth: usize) {
        let mut cursor = block.walk();
        let items: Vec<Node<'t>> = block.named_children(&mut cursor).collect();
        self.run(block, &items, depth);
    }

    /// A body that is a block or a single statement (its own block then,
    /// so that the loop around it is an enclosing loop for the extractor).
    fn body(&mut self, body: Node<'t>, depth: usize) {
        if body.kind() == "compound_statement" {
            self.block(body, depth);
        } else {
            self.run(body, &[body], depth);
        }
    }

    fn run(&mut self, block: Node<'t>, items: &[Node<'t>], depth: usize) {
        let start = items.iter().position(|n| !does_nothing(*n)).unwrap_or(items.len());
        let end = items.iter().rposition(|n| !does_nothing(*n)).map_or(start, |k| k + 1);
        let items = &items[start..end];
        if !items.iter().any(|n| has_for(*n)) {
            return;
        }
        let (first, last) = (items[0], items[items.len() - 1]);
        let region = Region {
            block,
            open: first,
            close: last,
            items: items.to_vec(),
            body: first.start_byte()..last.end_byte(),
        };
        match (self.try_run)(&region) {
            Ok(t) => {
                let k = self.found.accepted.len();
                self.found.accepted.push(t);
                for n in items {
                    self.outermost_loops(*n, depth, &|| Ok(k));
                }
            }
            Err(d) => match items.iter().position(|n| contains(*n, d.span.start)) {
                Some(k) if items.len() > 1 => {
                    self.run(block, &items[..k], depth);
                    self.run(block, &items[k..=k], depth);
                    self.run(block, &items[k + 1..], depth);
                }
                _ if items.len() > 1 => {
                    for k in 0..items.len() {
                        self.run(block, &items[k..=k], depth);
                    }
                }
                _ => self.rejected(items[0], d, depth),
            },
        }
    }

    /// The outermost `for` loops in `n` (itself, or inside its other
    /// statements), each with `verdict`.
    fn outermost_loops(&mut self, n: Node<'t>, depth: usize, verdict: &dyn Fn() -> Result<usize, Diagnostic>) {
        if n.kind() == "for_statement" {
            self.found.nests.push(Nest { span: n.byte_range(), depth, verdict: verdict() });
            return;
        }
        let mut cursor = n.walk();
        let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
        for c in children {
            self.outermost_loops(c, depth, verdict);
        }
    }

    /// One statement rejected on its own: a loop nest gets the verdict,
    /// then its inside is searched (with [`Inside::Loops`], only that of
    /// a `while` or `do` loop: any other statement is kept whole).
    fn rejected(&mut self, n: Node<'t>, d: Diagnostic, depth: usize) {
        let keep_whole = self.inside == Inside::Loops && !is_while(n);
        if keep_whole {
            self.found.kept.push(d.clone());
        }
        let inner = if n.kind() == "for_statement" {
            self.found.nests.push(Nest { span: n.byte_range(), depth, verdict: Err(d) });
            depth + 1
        } else {
            depth
        };
        if keep_whole {
            return;
        }
        match n.kind() {
            "compound_statement" => self.block(n, inner),
            "for_statement" | "while_statement" | "do_statement" => {
                if let Some(b) = n.child_by_field_name("body") {
                    self.body(b, inner);
                }
            }
            "if_statement" => {
                if let Some(b) = n.child_by_field_name("consequence") {
                    self.body(b, inner);
                }
                let alternative = n.child_by_field_name("alternative");
                let alternative =
                    alternative.and_then(|a| if a.kind() == "else_clause" { a.named_child(0) } else { Some(a) });
                if let Some(b) = alternative {
                    self.body(b, inner);
                }
            }
            "labeled_statement" | "switch_statement" | "case_statement" => {
                let mut cursor = n.walk();
                let statements: Vec<Node<'t>> = n
                    .named_children(&mut cursor)
                    .filter(|c| c.kind().ends_with("statement") || c.kind() == "compound_statement")
                    .collect();
                for s in statements {
                    self.body(s, inner);
                }
            }
            _ => {}
        }
    }
}
