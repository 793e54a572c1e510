//! The source reader: a C file parsed once (the text, what the
//! preprocessor made of it, its syntax tree, its names), and each of its
//! regions extracted as a SCoP, or kept as written with the reason; with
//! `--autodetect`, the SCoPs of the functions without pragmas.
//!
//! [`Source::scops_detecting`] extracts each region (`Source::extract`:
//! in the function around it with its macros expanded, see `expanded`)
//! and decides what a rejection means:
//!
//! - a region holding a `multifor` that is no SCoP is an error (its text is
//!   not C, so nothing can be written);
//! - a region nested too deep is kept (`P0023`);
//! - a region around a `while` or `do` loop is narrowed around it
//!   (`around_loops`, see `detect`); with no run accepted, it is kept with
//!   its first diagnostic;
//! - any other is kept as written, with the extractor's diagnostic.
//!
//! A region with a preprocessor directive inside is kept (`P0010`): its
//! regenerated code would hold only the branch the present flags select. A
//! run `--autodetect` found just after a `#pragma` line (OpenMP's) is
//! refused, as the pragma would apply to other code. A detected or
//! narrowed run replaces its statements' own lines, or their bytes when
//! other text shares those lines.

use super::ast::ScopAst;
use super::decls::{self, Names};
use super::regions::{
    enclosing_function, find_regions, has_ancestor, holds_multifor, line_end, line_start, multifor_regions,
    pragma_kind, Region,
};
use super::syntax::{parse_tree, syntax_errors, text, walk};
use super::{cpp, depth, detect, expanded, extract, macros, unit};
use crate::diagnostics::{self, Code, Diagnostic};
use crate::names::FreshNames;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use tree_sitter::{Node, Tree};

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
        for scop in &mut scops {
            scop.inside_openmp = self.inside_openmp(scop.region.start);
        }
        Scops { scops, rejected, names, candidates }
    }

    /// Whether the code at `at` sits in a statement an OpenMP pragma
    /// applies to (`#pragma omp parallel`, `omp for`, `omp task`): its
    /// threads are the source's own, and a parallel loop there would
    /// start a team inside a team.
    fn inside_openmp(&self, at: usize) -> bool {
        let mut node = self.tree.root_node().descendant_for_byte_range(at, at);
        while let Some(n) = node {
            let applying = n.kind().ends_with("statement").then(|| pragma_before(&self.text, n.start_byte())).flatten();
            let words = applying.map(|p| self.text[p].split_whitespace().collect::<Vec<_>>().join(" "));
            if words.is_some_and(|w| w.starts_with("#pragma omp") || w.starts_with("# pragma omp")) {
                return true;
            }
            node = n.parent();
        }
        false
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

/// A region with a `multifor` that is no SCoP: its text is not C, so
/// nothing can be written.
fn unlowerable(d: Diagnostic) -> Diagnostic {
    if matches!(d.code, Code::M0001 | Code::M0002) {
        return d;
    }
    let note = "a multifor is lowered through the polyhedral model: this one cannot be (see `polyc --explain M0003`)";
    Diagnostic { severity: diagnostics::Severity::Error, ..d }.with_note(note)
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
