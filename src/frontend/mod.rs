//! Front end: parse the raw (unpreprocessed) source with polyc's grammar
//! (tree-sitter-c plus `multifor`), find the `#pragma scop` regions and
//! the `multifor` statements outside them, and turn each into a
//! [`ScopAst`], or a diagnostic saying why it cannot be one. Every byte
//! outside the regions is left to the driver to copy unchanged. A file
//! that is not UTF-8 is read through [`encoding`].

pub mod cpp;
pub mod decls;
pub mod depth;
mod detect;
pub mod encoding;
mod expanded;
mod extract;
pub mod language;
pub mod macros;
pub mod qexpr;
mod syntax;
pub mod unit;

use crate::diagnostics::{self, Code, Diagnostic};
use crate::names::FreshNames;
use decls::{Names, VarDecl};
use qexpr::{Cond, QExpr};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use syntax::{parse_tree, syntax_errors, text, walk};
use tree_sitter::{Node, Tree};

/// Functions whose calls may appear in a SCoP: pure, reading only their
/// arguments.
pub const PURE_FUNCTIONS: &[&str] = &[
    "sqrt", "sqrtf", "cbrt", "exp", "expf", "exp2", "log", "logf", "log2", "log10", "fabs", "fabsf", "abs", "labs",
    "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "floor", "floorf", "ceil", "ceilf", "round", "trunc", "fmod", "fmin", "fmax", "fminf", "fmaxf", "hypot",
    "erf",
];

/// A parsed C file.
pub struct Source {
    /// The file as read: every byte outside regenerated regions is copied
    /// from here.
    pub text: String,
    /// What the preprocessor made of it: the lines the parser reads
    /// (`cpp.visible`, as long as `text`) and the macros.
    cpp: cpp::Preprocessed,
    /// The translation unit as lang-c reads it (typedefs, functions).
    unit: Arc<unit::Lazy>,
    tree: Tree,
    /// What the file names (identifiers, macros, globals), for every SCoP.
    names: decls::FileNames,
    /// The macros in effect after the first `k` directives, by `k`.
    macro_tables: RefCell<HashMap<usize, Rc<expanded::MacroTables>>>,
    /// Warnings about the file as a whole: the preprocessor failed, parts
    /// that do not parse.
    pub warnings: Vec<Diagnostic>,
}

/// A statement of a SCoP, with everything later phases need.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// The statement's source text, `;` included.
    pub text: String,
    pub span: Range<usize>,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<Iterator>,
    /// Conjunction of the enclosing loop bounds and `if` conditions.
    pub domain: Cond,
    /// Textual position among siblings at each depth (2d+1 schedule).
    pub beta: Vec<usize>,
    pub accesses: Vec<Access>,
    /// Iterator occurrences in `text`: byte range relative to the statement
    /// start, and loop depth.
    pub iter_uses: Vec<(Range<usize>, usize)>,
    /// Per iterator: `Some` for a loop of a `multifor`, placed on its
    /// referential domain instead of at its own value.
    pub referential: Vec<Option<Referential>>,
    /// The outermost `multifor` around the statement (its start byte) and
    /// the loop of it the statement belongs to.
    pub component: Option<(usize, usize)>,
    /// The data-dependent conditions the statement runs under, outermost
    /// first (seed 001's filters): each the variable holding the
    /// condition's value ([`Stmt::sets`] of the statement that evaluates
    /// it) and the value the statement runs for (`false`: an `else`).
    pub filters: Vec<(String, bool)>,
    /// For the evaluation of a data-dependent condition (its `text` is the
    /// condition): the variable it sets, one per instance of the `if`,
    /// to the condition's value where every filter holds and to 0 elsewhere.
    pub sets: Option<String>,
}

/// Where the iterations of one loop of a `multifor` run: iteration `q`
/// (the iterator at `lower + step * q`) at point `offset + grain * q` of
/// the referential domain.
#[derive(Clone, Debug)]
pub struct Referential {
    pub lower: QExpr,
    pub step: i64,
    pub grain: i64,
    pub offset: i64,
}

#[derive(Clone, Debug)]
pub struct Iterator {
    pub name: String,
    pub ty: String,
    /// Whether the loop counts down (its schedule dimension is negated).
    pub descending: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AccessKind {
    Read,
    Write,
}

#[derive(Clone, Debug)]
pub struct Access {
    pub array: String,
    pub kind: AccessKind,
    pub subscripts: Vec<QExpr>,
    pub span: Range<usize>,
    /// Evaluated only under a condition of its statement's expression
    /// (`c ? a[i] : 0`, `c && a[i]`): an instance of the statement may
    /// not read it.
    pub conditional: bool,
}

/// One static control part, ready for the model.
#[derive(Clone, Debug)]
pub struct ScopAst {
    /// Bytes replaced by regenerated code: the lines strictly between the
    /// two pragmas (for a run narrowed from a pragma region around a
    /// `while` loop, or detected, the statements' own lines).
    pub region: Range<usize>,
    /// The `#pragma scop` line, for diagnostics about the whole region
    /// (a narrowed or detected run: the first line of its first statement).
    pub pragma: Range<usize>,
    /// Indentation of the `#pragma scop` line.
    pub indent: String,
    pub params: Vec<String>,
    pub stmts: Vec<Stmt>,
    pub arrays: Vec<(String, VarDecl)>,
    /// Arrays of the SCoP that nothing outside it can see: declared in
    /// the enclosing function and named nowhere else in it (so neither
    /// read after the SCoP nor pointed to), or named by `#pragma polyc
    /// temporary(A, B)` there.
    pub temporaries: std::collections::BTreeSet<String>,
    /// Arrays `#pragma polyc live_out(A)` in the enclosing function names:
    /// their last values are read after the SCoP.
    pub live_out: std::collections::BTreeSet<String>,
    /// Variables whose values nothing reads after the SCoP: automatic
    /// locals of its function, named nowhere else in it but in their
    /// declaration, in a region that runs once per call. A loop that
    /// gives each iteration a copy of one need not copy it out.
    pub dead_after: std::collections::BTreeSet<String>,
    /// A multifor of two 2-deep nests, one run by rank inside the other.
    pub rank_mapping: Option<RankMapping>,
    /// Parameters the front end introduced for products and quotients of
    /// parameters (`n * m` in a bound, a delinearised extent): each fresh
    /// name (one of `params`) with its C expression over the original
    /// parameters, defined at the region's entry by the printed code.
    pub definitions: Vec<(String, String)>,
    /// Found by `--autodetect` (no pragmas: `region` is the statements'
    /// own lines, `pragma` the first line of the first one).
    pub detected: bool,
}

/// The paper's non-linear mapping (seed 001, section 5), in two
/// dimensions: loop `ranked` of a multifor (grain `rank`) runs its K-th
/// iteration at the K-th iteration of the other loop's nest (the host),
/// by inverting its ranking polynomial; what is left of either runs
/// after. The host runs as written; the ranked nest is described by rows.
#[derive(Clone, Debug)]
pub struct RankMapping {
    pub ranked: usize,
    /// The host's outer and inner loops.
    pub host: [LoopText; 2],
    pub rows: Rows,
}

/// A loop header as written.
#[derive(Clone, Debug)]
pub struct LoopText {
    pub index: String,
    pub init: String,
    pub cond: String,
    pub update: String,
}

/// A 2-deep nest as rows: `count` rows, the outer index from `first`;
/// in row `outer`, the inner index runs from `start` for `length`
/// iterations (C expressions in the outer index and the parameters),
/// `length` affine in the outer index with a slope >= 0.
#[derive(Clone, Debug)]
pub struct Rows {
    pub outer: String,
    pub inner: String,
    pub first: String,
    pub count: String,
    pub start: String,
    pub length: String,
    pub slope: i64,
}

impl Stmt {
    /// Whether the statement's writes may not happen in an instance of
    /// its domain (a filter can be false): they hide no earlier write.
    pub fn may_skip_writes(&self) -> bool {
        self.sets.is_none() && !self.filters.is_empty()
    }

    /// The C statement for `body`, the statement's text as printed: the
    /// evaluation of a condition assigns it to its variable, a filtered
    /// statement runs under its filters.
    pub fn wrap(&self, body: &str) -> String {
        let filters: Vec<String> =
            self.filters.iter().map(|(v, holds)| if *holds { v.clone() } else { format!("!{v}") }).collect();
        match (&self.sets, filters.is_empty()) {
            (Some(v), true) => format!("{v} = ({body});"),
            (Some(v), false) => format!("{v} = {} && ({body});", filters.join(" && ")),
            (None, true) => body.to_string(),
            (None, false) => format!("if ({}) {body}", filters.join(" && ")),
        }
    }

    /// Replace the bytes `range` of the text (relative to its start) by
    /// `text`, with the iterator occurrences `uses` (relative to `text`)
    /// in place of those that were there; later occurrences and access
    /// spans move with the text, an access around the range stretches.
    pub fn replace_text(&mut self, range: Range<usize>, text: &str, uses: Vec<(Range<usize>, usize)>) {
        let shift = |at: usize| (at as isize + text.len() as isize - range.len() as isize) as usize;
        self.iter_uses.retain(|(r, _)| !(range.start <= r.start && r.end <= range.end));
        for (r, _) in self.iter_uses.iter_mut().filter(|(r, _)| r.start >= range.end) {
            *r = shift(r.start)..shift(r.end);
        }
        self.iter_uses.extend(uses.into_iter().map(|(r, d)| (r.start + range.start..r.end + range.start, d)));
        let end = self.span.start + range.end;
        for a in &mut self.accesses {
            let start = if a.span.start >= end {
                shift(a.span.start - self.span.start) + self.span.start
            } else {
                a.span.start
            };
            let stop =
                if a.span.end >= end { shift(a.span.end - self.span.start) + self.span.start } else { a.span.end };
            a.span = start..stop;
        }
        self.text.replace_range(range, text);
    }
}

impl ScopAst {
    pub fn max_depth(&self) -> usize {
        self.stmts.iter().map(|s| s.iterators.len()).max().unwrap_or(0)
    }

    /// Whether the region holds a `multifor`: its source text is not C,
    /// so its original schedule must always be regenerated.
    pub fn has_multifor(&self) -> bool {
        self.stmts.iter().any(|s| s.component.is_some())
    }

    /// The variables holding the values of data-dependent conditions
    /// ([`Stmt::sets`]), in statement order.
    pub fn filter_variables(&self) -> impl std::iter::Iterator<Item = &str> {
        self.stmts.iter().filter_map(|s| s.sets.as_deref())
    }

    /// Whether some statement runs under a data-dependent condition.
    pub fn has_filters(&self) -> bool {
        self.filter_variables().next().is_some()
    }
}

/// What the front end found in a file.
pub struct Scops {
    pub scops: Vec<ScopAst>,
    /// Regions that are left unchanged, with the reason.
    pub rejected: Vec<(Range<usize>, Diagnostic)>,
    /// The file's authority for new names, holding those the SCoPs took.
    pub names: FreshNames,
    /// With autodetection: every outermost loop nest the search tried in
    /// the functions without pragmas, in file order.
    pub candidates: Vec<Candidate>,
}

/// A loop nest `--autodetect` tried, and what became of it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The `for` statement, in the file.
    pub span: Range<usize>,
    /// The function it is in.
    pub function: String,
    /// How many rejected loops it sits in.
    pub depth: usize,
    /// `Ok(k)`: part of `Scops::scops[k]`; `Err`: why it is no SCoP.
    pub verdict: Result<usize, Diagnostic>,
}

impl Source {
    /// Parse `text` as the compiler would see it: through the
    /// preprocessor with `flags` (`dir`: the file's directory, for its
    /// own headers). Only a parser that cannot run is an error: a
    /// preprocessor that fails leaves the file's own macros, and parts
    /// that do not parse get a warning.
    pub fn parse_with(text: String, dir: Option<&Path>, flags: &cpp::Flags) -> Result<Source, Diagnostic> {
        let mut warnings = Vec::new();
        let cpp = cpp::preprocess(&text, dir, flags).unwrap_or_else(|why| {
            warnings.push(
                Diagnostic::warning(Code::P0017, 0..0, why)
                    .with_note("polyc goes on with the macros this file defines itself; pass -I for missing headers"),
            );
            cpp::Preprocessed::unprocessed(&text)
        });
        let tree = parse_tree(&cpp.visible)?;
        let errors = syntax_errors(tree.root_node());
        if let Some(bad) = errors.first() {
            let what = if bad.is_missing() { "missing token" } else { "syntax error" };
            let more = match errors.len() - 1 {
                0 => String::new(),
                n => format!(" ({n} more place{} after it)", if n == 1 { "" } else { "s" }),
            };
            warnings.push(
                Diagnostic::warning(
                    Code::P0016,
                    bad.byte_range(),
                    format!("{what}: this part of the file does not parse{more}"),
                )
                .with_label(what)
                .with_note("it is copied as it is; a SCoP in a function that does not parse is kept as written"),
            );
        }
        let unit = Arc::new(unit::Lazy::new(&text, dir, flags));
        let names = decls::FileNames::collect(tree.root_node(), &cpp.visible);
        Ok(Source { text, cpp, unit, tree, names, macro_tables: RefCell::default(), warnings })
    }

    /// Parse `text` with the preprocessor's defaults (headers from the
    /// current directory).
    pub fn parse(text: String) -> Result<Source, Diagnostic> {
        Source::parse_with(text, None, &cpp::Flags::default())
    }

    /// The authority for the file's new names ([`crate::names`]), seeded
    /// with every identifier of the text the compiler sees and every
    /// macro's name and the words of its body (an expansion may bring
    /// them into a SCoP).
    fn fresh_names(&self) -> FreshNames {
        let mut identifiers = self.names.identifiers().clone();
        for (name, m) in self.cpp.macros_at(usize::MAX) {
            let words = m.body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            identifiers.extend(words.filter(|w| !w.is_empty()).map(str::to_string));
            identifiers.insert(name);
        }
        FreshNames::new(identifiers)
    }

    /// Find and extract every SCoP.
    pub fn scops(&self) -> Scops {
        self.scops_with(&[])
    }

    /// Find and extract every SCoP, with the functions `named_pure` (and
    /// those `#pragma polyc pure(..)` names) taken for pure.
    pub fn scops_with(&self, named_pure: &[String]) -> Scops {
        self.scops_detecting(named_pure, false)
    }

    /// [`Source::scops_with`], and with `autodetect` the SCoPs of the
    /// functions that hold no `#pragma scop` (see [`Source::detect`]).
    pub fn scops_detecting(&self, named_pure: &[String], autodetect: bool) -> Scops {
        let mut pure: BTreeSet<String> = named_pure.iter().cloned().collect();
        pure.extend(pragma_lists(&self.cpp.visible, "pure"));
        let root = self.tree.root_node();
        let visible = self.cpp.visible.as_str();
        let (mut regions, mut rejected) = find_regions(root, visible);
        let (bare, outside) = multifor_regions(root, visible, &regions);
        regions.extend(bare);
        rejected.extend(outside);
        let mut names = self.fresh_names();
        let mut scops = Vec::new();
        for region in regions {
            match self.extract(&region, &pure, &mut names) {
                Ok(scop) => scops.push(scop),
                Err(d) if holds_multifor(&region) => rejected.push((region.body.clone(), unlowerable(d))),
                Err(d) if d.code == Code::P0023 => rejected.push((region.body.clone(), d)),
                Err(d) => match self.around_loops(&region, &pure, &mut scops, &mut names) {
                    Some(kept) => rejected.extend(kept.into_iter().map(|d| (d.span.clone(), d))),
                    None => rejected.push((region.body.clone(), d)),
                },
            }
        }
        let mut candidates = Vec::new();
        if autodetect {
            let mut functions = Vec::new();
            walk(root, &mut |n| {
                if n.kind() == "function_definition" && !has_ancestor(n, "function_definition") {
                    functions.push(n);
                }
            });
            for f in functions {
                self.detect(f, &pure, &mut scops, &mut candidates, &mut names);
            }
        }
        Scops { scops, rejected, names, candidates }
    }

    /// The SCoPs of function `f` found without pragmas, appended to
    /// `scops`, and every loop nest tried, to `candidates`. A function
    /// with a `#pragma scop` (taken as marked), a `multifor` or a syntax
    /// error is not searched. Runs are extracted as pragma regions are,
    /// in the function with its macros expanded when it has some.
    fn detect(
        &self,
        f: Node,
        pure: &BTreeSet<String>,
        scops: &mut Vec<ScopAst>,
        candidates: &mut Vec<Candidate>,
        fresh: &mut FreshNames,
    ) {
        let visible = self.cpp.visible.as_str();
        let mut marked = false;
        walk(f, &mut |n| marked |= pragma_kind(n, visible).is_some() || n.kind() == "multifor_statement");
        if marked || depth::deeper_than(f, depth::MAX_DEPTH).is_some() {
            return;
        }
        let first = scops.len();
        let Some(found) = self.narrow(f, pure, None, fresh) else { return };
        scops.extend(found.accepted);
        let function = function_name(f, visible);
        candidates.extend(found.nests.into_iter().map(|n| Candidate {
            span: n.span,
            function: function.clone(),
            depth: n.depth,
            verdict: n.verdict.map(|k| first + k),
        }));
    }

    /// A pragma region that is no SCoP because of a `while` or `do` loop
    /// among its statements (a convergence loop, its condition reading
    /// data): the loop stays as written, and the statements of its body
    /// (inner `while` and `do` loops alike) and those around it are
    /// narrowed as `--autodetect` narrows a function, each accepted run
    /// appended to `scops` as a region of its own. Any other rejected
    /// statement is kept whole, with the diagnostics returned. `None`,
    /// and nothing appended, when the region has no such loop or no run
    /// is accepted: it is kept as written.
    fn around_loops(
        &self,
        region: &Region,
        pure: &BTreeSet<String>,
        scops: &mut Vec<ScopAst>,
        fresh: &mut FreshNames,
    ) -> Option<Vec<Diagnostic>> {
        if !region.items.iter().any(|n| detect::is_while(*n)) {
            return None;
        }
        let f = enclosing_function(region.block)?;
        let found = self.narrow(f, pure, Some(region.open.start_byte()), fresh)?;
        if found.accepted.is_empty() {
            return None;
        }
        scops.extend(found.accepted);
        let mut kept: Vec<Diagnostic> = Vec::new();
        for d in found.kept {
            if !kept.iter().any(|k| k.span == d.span && k.code == d.code) {
                kept.push(d);
            }
        }
        Some(kept)
    }

    /// The detected SCoPs of function `f` (`within`: `None`), or those of
    /// the pragma region whose `#pragma scop` starts at byte `within`
    /// (see [`Source::around_loops`]), with every span on the file. `None`
    /// for a function that does not parse.
    fn narrow(
        &self,
        f: Node,
        pure: &BTreeSet<String>,
        within: Option<usize>,
        fresh: &mut FreshNames,
    ) -> Option<detect::Found<ScopAst>> {
        let visible = self.cpp.visible.as_str();
        if !syntax_errors(f).is_empty() || f.child_by_field_name("body").is_none() {
            return None;
        }
        let tables = self.macros_at(f);
        let (values, expandable) = (&tables.values, &tables.expandable);
        let analysed = macros::expand_text(&visible[f.byte_range()], f.start_byte(), expandable)
            .ok()
            .filter(|(_, map)| map.expanded_any())
            .and_then(|(body, map)| expanded::Analysed::new(visible, f, body, map).ok());
        let (root, text) = match &analysed {
            Some(a) => (a.tree.root_node(), a.text.as_str()),
            None => (self.tree.root_node(), visible),
        };
        let g = function_at(root, f.start_byte())?;
        let body = g.child_by_field_name("body")?;
        let names = Names::collect(&self.names, text, Some(g), values).with_unit(Some(self.unit.clone()), pure);
        let to_file = |r: &Range<usize>| match &analysed {
            Some(a) => a.map.source_range(r),
            None => r.clone(),
        };
        let to_text = |at: usize| match &analysed {
            Some(a) => a.map.expanded_position(at).unwrap_or(at),
            None => at,
        };
        let mut try_run = |region: &Region| {
            if let Some(directive) = directive_inside(&self.text, &to_file(&region.body)) {
                let at = to_text(directive.start);
                return Err(Diagnostic::warning(Code::P0010, at..at + directive.len(), "preprocessor directive")
                    .with_label("the regenerated code would hold only one branch"));
            }
            let applying = pragma_before(&self.text, to_file(&region.body).start)
                .filter(|p| self.text[p.clone()].trim().strip_prefix('#').map(str::trim_start) != Some("pragma scop"));
            if let Some(pragma) = applying {
                let first = region.items[0].byte_range();
                return Err(Diagnostic::warning(Code::P0010, first, "a `#pragma` applies to this statement")
                    .with_label("regenerated, it would apply to other code")
                    .with_note(format!("the pragma is at byte {}", pragma.start)));
            }
            let ast = extract::extract(region, text, &names, Some(g), fresh)?;
            let ast = match &analysed {
                Some(a) => expanded::to_source(ast, a, &self.text),
                None => ast,
            };
            Ok(self.detected(ast, within.is_none()))
        };
        let mut found = match within {
            None => detect::search(body, &mut try_run),
            Some(open) => {
                let (regions, _) = find_regions(root, text);
                let twin = regions.into_iter().find(|r| r.open.start_byte() == to_text(open))?;
                detect::search_items(twin.block, &twin.items, detect::Inside::Loops, &mut try_run)
            }
        };
        for n in &mut found.nests {
            n.span = to_file(&n.span);
            if let Err(d) = &mut n.verdict {
                d.span = to_file(&d.span);
            }
        }
        for d in &mut found.kept {
            d.span = to_file(&d.span);
        }
        Some(found)
    }

    /// A run's SCoP, replacing the statements' own lines when nothing
    /// else is on them (else the statements' bytes); `detected`: found by
    /// `--autodetect`, not in a pragma region.
    fn detected(&self, mut ast: ScopAst, detected: bool) -> ScopAst {
        let text = self.text.as_str();
        let (start, end) = (ast.region.start, ast.region.end);
        let (first, last) = (line_start(text, start), line_end(text, end.saturating_sub(1).max(start)));
        let alone = text[first..start].trim().is_empty() && text[end..last].trim().is_empty();
        if alone {
            ast.region = first..last;
        }
        ast.indent = text[first..start].chars().take_while(|c| c.is_whitespace()).collect();
        ast.pragma = start..text[start..].find('\n').map_or(text.len(), |p| start + p);
        ast.detected = detected;
        ast
    }

    /// The macros in effect at node `n`: computed once for each stretch
    /// of the file between two directives, not once for each SCoP.
    fn macros_at(&self, n: Node) -> Rc<expanded::MacroTables> {
        let line = n.start_position().row + 1;
        let directives = self.cpp.history.iter().take_while(|(at, _, _)| *at < line).count();
        let mut tables = self.macro_tables.borrow_mut();
        let found =
            tables.entry(directives).or_insert_with(|| Rc::new(expanded::MacroTables::new(self.cpp.macros_at(line))));
        found.clone()
    }

    /// One region as a [`ScopAst`]. The enclosing function is analysed
    /// with its macros expanded ([`macros::expand_text`]), except the
    /// integer constants, which stay parameters under their names; the
    /// result is mapped back onto the file ([`expanded::to_source`]).
    fn extract(&self, region: &Region, pure: &BTreeSet<String>, fresh: &mut FreshNames) -> Result<ScopAst, Diagnostic> {
        let visible = self.cpp.visible.as_str();
        let function = enclosing_function(region.block);
        depth::check(function.unwrap_or(region.block), region.open.byte_range())?;
        if let Some(bad) = function.and_then(|f| syntax_errors(f).into_iter().next()) {
            return Err(Diagnostic::warning(
                Code::P0016,
                region.open.byte_range(),
                "the function holding this SCoP does not parse",
            )
            .with_label("kept as written")
            .with_note(format!("the first error is at byte {}", bad.start_byte())));
        }
        if let Some(directive) = directive_inside(&self.text, &region.body) {
            return Err(Diagnostic::warning(Code::P0010, directive, "preprocessor directive inside a SCoP")
                .with_label("move this outside the region")
                .with_note("the regenerated code would hold only the branch the present flags select"));
        }
        let tables = self.macros_at(region.open);
        let names =
            |src, f| Names::collect(&self.names, src, f, &tables.values).with_unit(Some(self.unit.clone()), pure);
        let Some(f) = function.filter(|_| !holds_multifor(region)) else {
            return extract::extract(region, visible, &names(visible, function), function, fresh);
        };
        let (body, map) =
            macros::expand_text(&visible[f.byte_range()], f.start_byte(), &tables.expandable).map_err(|e| {
                Diagnostic::warning(Code::P0017, e.span, format!("a macro polyc cannot expand: {}", e.reason))
                    .with_label("this invocation")
            })?;
        if !map.expanded_any() {
            return extract::extract(region, visible, &names(visible, function), function, fresh);
        }
        let analysed = expanded::Analysed::new(visible, f, body, map)?;
        let root = analysed.tree.root_node();
        let (regions, _) = find_regions(root, &analysed.text);
        let open = analysed.map.expanded_position(region.open.start_byte());
        let Some(twin) = regions.iter().find(|r| Some(r.open.start_byte()) == open) else {
            return Err(Diagnostic::warning(
                Code::P0017,
                region.open.byte_range(),
                "the SCoP is not a region once its function's macros are expanded",
            )
            .with_label("this region"));
        };
        let function = enclosing_function(twin.block);
        // A macro body may nest deeper than its invocation.
        depth::check(function.unwrap_or(twin.block), region.open.byte_range())?;
        let ast = extract::extract(twin, &analysed.text, &names(&analysed.text, function), function, fresh)
            .map_err(|d| Diagnostic { span: analysed.map.source_range(&d.span), ..d })?;
        Ok(expanded::to_source(ast, &analysed, &self.text))
    }
}

/// The names every `#pragma polyc <what>(A, B)` line of `text` lists.
fn pragma_lists(text: &str, what: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let words = line.trim_start().strip_prefix('#').map(str::trim_start);
        let argument = words.and_then(|w| w.strip_prefix("pragma"));
        names.extend(argument.and_then(|a| decls::polyc_pragma_list(a, what)).unwrap_or_default());
    }
    names
}

/// The `#pragma` line (an OpenMP one, say) that applies to the statement
/// at `at`: the nearest line before it that is neither blank nor a
/// conditional directive (`#if`.., `#endif`), when it is a `#pragma`.
fn pragma_before(text: &str, at: usize) -> Option<Range<usize>> {
    let mut end = line_start(text, at);
    if !text[end..at].trim().is_empty() {
        return None;
    }
    while end > 0 {
        let start = line_start(text, end - 1);
        let line = text[start..end].trim();
        let directive = line.strip_prefix('#').map(str::trim_start);
        match directive {
            _ if line.is_empty() => {}
            Some(d) if d.starts_with("pragma") => return Some(start..end),
            Some(d) if ["if", "el", "endif"].iter().any(|w| d.starts_with(w)) => {}
            _ => return None,
        }
        end = start;
    }
    None
}

/// The first line of `body` in `text` that is a preprocessor directive
/// other than a `#pragma`.
fn directive_inside(text: &str, body: &Range<usize>) -> Option<Range<usize>> {
    let mut at = body.start;
    for line in text[body.clone()].split_inclusive('\n') {
        let code = line.trim_start();
        let directive = code.strip_prefix('#').map(str::trim_start);
        if directive.is_some_and(|d| !d.starts_with("pragma")) {
            let start = at + line.len() - code.len();
            return Some(start..at + line.trim_end().len());
        }
        at += line.len();
    }
    None
}

/// A `#pragma scop` / `#pragma endscop` pair in one block.
pub(crate) struct Region<'t> {
    pub block: Node<'t>,
    pub open: Node<'t>,
    pub close: Node<'t>,
    /// The statements between the pragmas.
    pub items: Vec<Node<'t>>,
    pub body: Range<usize>,
}

fn pragma_kind(n: Node, src: &str) -> Option<bool> {
    if n.kind() != "preproc_call" || n.child_by_field_name("directive").map(|d| text(d, src)) != Some("#pragma") {
        return None;
    }
    match n.child_by_field_name("argument").map(|a| text(a, src).trim()) {
        Some("scop") => Some(true),
        Some("endscop") => Some(false),
        _ => None,
    }
}

fn find_regions<'t>(root: Node<'t>, src: &str) -> (Vec<Region<'t>>, Vec<(Range<usize>, Diagnostic)>) {
    let mut regions = Vec::new();
    let mut rejected = Vec::new();
    let mut misplaced = |n: Node, msg: &str| {
        let d = Diagnostic::warning(Code::P0008, n.byte_range(), msg.to_string()).with_label("this pragma");
        rejected.push((n.byte_range(), d));
    };
    walk(root, &mut |block| {
        let mut cursor = block.walk();
        let children: Vec<Node<'t>> = block.children(&mut cursor).collect();
        let mut open: Option<(usize, Node<'t>)> = None;
        for (k, child) in children.iter().enumerate() {
            match (pragma_kind(*child, src), open) {
                (Some(true), Some((_, prev))) => {
                    misplaced(prev, "`#pragma scop` is not closed before the next `#pragma scop`");
                    open = Some((k, *child));
                }
                (Some(true), None) => open = Some((k, *child)),
                (Some(false), Some((start, o))) => {
                    if block.kind() != "compound_statement" {
                        misplaced(o, "a SCoP must be inside a function body");
                    } else {
                        let body = line_end(src, o.end_byte().saturating_sub(1))..line_start(src, child.start_byte());
                        let items = children[start + 1..k].to_vec();
                        regions.push(Region { block, open: o, close: *child, items, body });
                    }
                    open = None;
                }
                (Some(false), None) => {
                    misplaced(*child, "`#pragma endscop` without a matching `#pragma scop` in this block")
                }
                (None, _) => {}
            }
        }
        if let Some((_, o)) = open {
            misplaced(o, "`#pragma scop` without a matching `#pragma endscop` in this block");
        }
    });
    let nested: Vec<usize> = (0..regions.len())
        .filter(|&a| {
            regions.iter().enumerate().any(|(b, r)| {
                b != a
                    && (r.body.start >= regions[a].body.start && r.body.end <= regions[a].body.end
                        || regions[a].body.start >= r.body.start && regions[a].body.end <= r.body.end)
            })
        })
        .collect();
    for &k in nested.iter().rev() {
        let r = regions.remove(k);
        let d = Diagnostic::warning(Code::P0008, r.open.byte_range(), "nested SCoP regions are not supported")
            .with_label("this region contains or is contained in another");
        rejected.push((r.body.clone(), d));
    }
    (regions, rejected)
}

/// Each outermost `multifor` outside the pragma regions, as a region of
/// its own: its lines, when it has them to itself.
/// One outside any function is an error: lowered, it would be loops at
/// file scope.
fn multifor_regions<'t>(
    root: Node<'t>,
    src: &str,
    pragma_regions: &[Region<'t>],
) -> (Vec<Region<'t>>, Vec<(Range<usize>, Diagnostic)>) {
    let mut found = Vec::new();
    walk(root, &mut |n| {
        let outermost = n.kind() == "multifor_statement" && !has_ancestor(n, "multifor_statement");
        if outermost && !pragma_regions.iter().any(|r| r.body.contains(&n.start_byte())) {
            found.push(n);
        }
    });
    let (found, outside): (Vec<Node>, Vec<Node>) = found.into_iter().partition(|n| enclosing_function(*n).is_some());
    let outside = outside
        .into_iter()
        .map(|n| {
            let d = Diagnostic::error(Code::M0003, n.byte_range(), "a multifor outside any function")
                .with_label("move it into a function body");
            (n.byte_range(), d)
        })
        .collect();
    let regions = found
        .into_iter()
        .map(|n| {
            let (start, end) = (line_start(src, n.start_byte()), line_end(src, n.end_byte().saturating_sub(1)));
            let alone = src[start..n.start_byte()].trim().is_empty() && src[n.end_byte()..end].trim().is_empty();
            let body = if alone { start..end } else { n.byte_range() };
            Region { block: n, open: n, close: n, items: vec![n], body }
        })
        .collect();
    (regions, outside)
}

fn has_ancestor(n: Node, kind: &str) -> bool {
    let mut cur = n.parent();
    while let Some(c) = cur {
        if c.kind() == kind {
            return true;
        }
        cur = c.parent();
    }
    false
}

fn holds_multifor(region: &Region) -> bool {
    let mut found = false;
    for item in &region.items {
        walk(*item, &mut |n| found |= n.kind() == "multifor_statement");
    }
    found
}

/// A region with a `multifor` that is no SCoP: its text is not C, so
/// nothing can be written.
fn unlowerable(d: Diagnostic) -> Diagnostic {
    if matches!(d.code, Code::M0001 | Code::M0002) {
        return d;
    }
    let note = "a multifor is lowered through the polyhedral model: this one cannot be (see `polyc --explain M0003`)";
    Diagnostic { severity: diagnostics::Severity::Error, ..d }.with_note(note)
}

/// Offset just past the newline ending the line that contains `at`.
fn line_end(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |p| at + p + 1)
}

/// Offset of the first byte of the line containing `at`.
fn line_start(src: &str, at: usize) -> usize {
    src[..at].rfind('\n').map_or(0, |p| p + 1)
}

/// The function definition of `root` that starts at byte `at`.
fn function_at(root: Node, at: usize) -> Option<Node> {
    let mut node = root.descendant_for_byte_range(at, at);
    while let Some(n) = node {
        if n.kind() == "function_definition" && n.start_byte() == at {
            return Some(n);
        }
        node = n.parent();
    }
    None
}

/// The name a function definition declares (`?` if none is found).
fn function_name(f: Node, src: &str) -> String {
    let mut d = f.child_by_field_name("declarator");
    while let Some(n) = d {
        if n.kind() == "identifier" {
            return text(n, src).to_string();
        }
        d = n.child_by_field_name("declarator");
    }
    "?".to_string()
}

fn enclosing_function(n: Node) -> Option<Node> {
    let mut cur = Some(n);
    while let Some(c) = cur {
        if c.kind() == "function_definition" {
            return Some(c);
        }
        cur = c.parent();
    }
    None
}
