//! Turn the statements of one pragma region into a [`ScopAst`], or say,
//! with the exact span, why the region is not a static control part.

use super::decls::{polyc_pragma_list, Names, VarDecl};
use super::qexpr::{CmpOp, Cond, QExpr, Var};
use super::syntax::{text, walk};
use super::ast::{Access, AccessKind, Iterator, RankMapping, Referential, ScopAst, Stmt};
use super::regions::Region;
use crate::diagnostics::{Code, Diagnostic};
use crate::names::FreshNames;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use tree_sitter::Node;

mod calls;
mod conditional;
mod delinearise;
mod multifor;

type Res<T> = Result<T, Diagnostic>;

/// The region's SCoP; the names it mints are kept in `fresh` only if it
/// is one.
pub(super) fn extract(
    region: &Region,
    src: &str,
    names: &Names,
    function: Option<Node>,
    fresh: &mut FreshNames,
) -> Res<ScopAst> {
    let mut x = Extractor {
        src,
        names,
        fresh: fresh.clone(),
        loops: Vec::new(),
        conds: Vec::new(),
        beta: vec![0],
        params: Vec::new(),
        param_uses: BTreeMap::new(),
        stmts: Vec::new(),
        iterator_names: BTreeSet::new(),
        outer_iterators: BTreeSet::new(),
        free_uses: Vec::new(),
        writes: Vec::new(),
        referential: Vec::new(),
        multifor: multifor::Scope::default(),
        rank_mapping: None,
        definitions: Vec::new(),
        shapes: Vec::new(),
        filters: Vec::new(),
        filter_names: Vec::new(),
    };
    for item in &region.items {
        x.statement(*item)?;
    }
    x.check_names()?;
    if x.stmts.is_empty() {
        return Err(Diagnostic::warning(Code::P0012, region.open.byte_range(), "SCoP has no statement")
            .with_label("this region is empty"));
    }
    if let Some(f) = function {
        check_iterators_dead_after(region, f, src, &x.outer_iterators)?;
    }
    let first_item = region.items.iter().find(|n| n.kind() != "comment").unwrap_or(&region.open);
    let indent = indentation(src, first_item.start_byte());
    let views = x.views()?;
    let mut arrays: Vec<(String, VarDecl)> = Vec::new();
    for a in x.stmts.iter().flat_map(|s| &s.accesses) {
        if !arrays.iter().any(|(n, _)| *n == a.array) {
            let mut decl = match x.filter_names.contains(&a.array) {
                true => VarDecl { ty: "int".into(), is_local: true, ..Default::default() },
                false => names.vars.get(&a.array).cloned().unwrap_or_default(),
            };
            decl.delinearised = views.get(&a.array).cloned();
            arrays.push((a.array.clone(), decl));
        }
    }
    let (mut temporaries, live_out, dead_after) = match function {
        Some(f) => {
            let unseen = unseen_outside(&arrays, f, src, &region.body);
            (temporaries(&arrays, &unseen), named_by_pragma(f, src, "live_out"), dead_after(unseen, region, f))
        }
        None => (BTreeSet::new(), BTreeSet::new(), BTreeSet::new()),
    };
    if let Some(f) = function {
        let declared: BTreeSet<String> = named_by_pragma(f, src, "temporary");
        temporaries.extend(arrays.iter().map(|(name, _)| name).filter(|name| declared.contains(*name)).cloned());
    }
    *fresh = x.fresh;
    Ok(ScopAst {
        region: region.body.clone(),
        pragma: region.open.byte_range(),
        indent,
        params: x.params,
        stmts: x.stmts,
        arrays,
        temporaries,
        live_out,
        dead_after,
        rank_mapping: x.rank_mapping,
        definitions: x.definitions,
        detected: false,
    })
}

/// The names listed by `#pragma polyc <what>(A, B)` lines in `function`.
fn named_by_pragma(function: Node, src: &str, what: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    walk(function, &mut |n| {
        let is_pragma =
            n.kind() == "preproc_call" && n.child_by_field_name("directive").is_some_and(|d| text(d, src) == "#pragma");
        let argument = n.child_by_field_name("argument").filter(|_| is_pragma);
        names.extend(argument.and_then(|a| polyc_pragma_list(text(a, src), what)).unwrap_or_default());
    });
    names
}

/// The automatic locals of `arrays` (not pointers) that `function`
/// names only in their declaration and inside `region`: nothing outside
/// the SCoP reads or points to them.
fn unseen_outside(
    arrays: &[(String, VarDecl)],
    function: Node,
    src: &str,
    region: &Range<usize>,
) -> BTreeSet<String> {
    let mut outside: BTreeMap<&str, usize> = BTreeMap::new();
    walk(function, &mut |n| {
        if n.kind() == "identifier" && !(region.start <= n.start_byte() && n.end_byte() <= region.end) {
            *outside.entry(text(n, src)).or_default() += 1;
        }
    });
    arrays
        .iter()
        .filter(|(name, d)| d.is_local && !d.is_static && !d.is_pointer && outside.get(name.as_str()) == Some(&1))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The arrays among `unseen` (see [`unseen_outside`]), as declared.
fn temporaries(arrays: &[(String, VarDecl)], unseen: &BTreeSet<String>) -> BTreeSet<String> {
    arrays
        .iter()
        .filter(|(name, d)| unseen.contains(name) && !d.extents.is_empty() && d.delinearised.is_none())
        .map(|(name, _)| name.clone())
        .collect()
}

/// `unseen` (see [`unseen_outside`]) when the region runs once per call
/// of `function`: inside a loop, or where a `goto` may jump back, the
/// values one run leaves may be read by the next.
fn dead_after(unseen: BTreeSet<String>, region: &Region, function: Node) -> BTreeSet<String> {
    let mut repeats = false;
    walk(function, &mut |n| repeats |= n.kind() == "goto_statement");
    let mut at = region.open.parent();
    while let Some(n) = at.filter(|n| n.id() != function.id()) {
        repeats |= matches!(n.kind(), "for_statement" | "while_statement" | "do_statement" | "multifor_statement");
        at = n.parent();
    }
    if repeats {
        BTreeSet::new()
    } else {
        unseen
    }
}

fn indentation(src: &str, at: usize) -> String {
    let start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    src[start..at].chars().take_while(|c| c.is_whitespace()).collect()
}

struct LoopCtx {
    iter: Iterator,
}

/// The three parts of a loop header, and the node to blame for a
/// missing one.
struct Header<'t> {
    whole: Node<'t>,
    init: Option<Node<'t>>,
    cond: Option<Node<'t>>,
    update: Option<Node<'t>>,
}

struct Extractor<'a> {
    src: &'a str,
    names: &'a Names,
    /// Where new names come from (a copy, kept if the region is a SCoP).
    fresh: FreshNames,
    loops: Vec<LoopCtx>,
    conds: Vec<Cond>,
    beta: Vec<usize>,
    params: Vec<String>,
    /// First use of each parameter in an affine context.
    param_uses: BTreeMap<String, Range<usize>>,
    stmts: Vec<Stmt>,
    /// Every loop iterator of the region.
    iterator_names: BTreeSet<String>,
    /// Iterators not declared in their `for` initialiser.
    outer_iterators: BTreeSet<String>,
    /// Names used where no iterator of that name is in scope.
    free_uses: Vec<(String, Range<usize>)>,
    /// Every variable written by a statement, with the write's span.
    writes: Vec<(String, Range<usize>)>,
    /// Per enclosing loop: where a `multifor` loop places its iterations.
    referential: Vec<Option<Referential>>,
    /// The `multifor` loops the walk is inside.
    multifor: multifor::Scope,
    rank_mapping: Option<RankMapping>,
    /// Fresh parameters and their C definitions (see [`ScopAst::definitions`]).
    definitions: Vec<(String, String)>,
    /// Each subscripted access: the array, how its subscripts were read,
    /// and its span.
    shapes: Vec<(String, Shape, Range<usize>)>,
    /// The data-dependent conditions around the walk: the variable
    /// holding each one's value, the branch (`false`: `else`), and the
    /// loop depth of its `if`.
    filters: Vec<(String, bool, usize)>,
    /// Every condition variable of the region ([`Stmt::sets`]).
    filter_names: Vec<String>,
}

/// How the subscripts of an access were read.
enum Shape {
    Several,
    /// One affine subscript, and, for an array whose subscripts may be
    /// split, the polynomial it is (if it is one).
    Affine(Option<delinearise::Poly>),
    /// One subscript split by these strides ([`delinearise::Split`]).
    Split(Vec<Vec<usize>>),
}

/// What a statement under construction has collected.
#[derive(Default)]
struct StmtParts {
    accesses: Vec<Access>,
    iter_uses: Vec<(Range<usize>, usize)>,
    guarded: conditional::Guarded,
}

fn reject(code: Code, n: Node, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::warning(code, n.byte_range(), message).with_label(label.to_string())
}

impl<'a> Extractor<'a> {
    fn t(&self, n: Node) -> &'a str {
        text(n, self.src)
    }

    fn statement(&mut self, n: Node) -> Res<()> {
        match n.kind() {
            "comment" => Ok(()),
            "compound_statement" => {
                let mut cursor = n.walk();
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                children.into_iter().try_for_each(|c| self.statement(c))
            }
            "for_statement" => self.for_loop(n),
            "multifor_statement" => self.nested_multifor(n),
            "if_statement" => self.if_statement(n),
            "expression_statement" => match n.named_child(0) {
                None => Ok(()),
                Some(e) => self.expression_statement(n, e),
            },
            k if k.starts_with("preproc") => {
                Err(reject(Code::P0010, n, "preprocessor directive inside a SCoP", "move this outside the region"))
            }
            k => {
                let control = matches!(
                    k,
                    "while_statement"
                        | "do_statement"
                        | "break_statement"
                        | "continue_statement"
                        | "goto_statement"
                        | "return_statement"
                        | "switch_statement"
                        | "case_statement"
                        | "labeled_statement"
                );
                let (code, label) = if control {
                    (Code::P0001, "irregular control flow")
                } else {
                    (Code::P0020, "unsupported statement")
                };
                Err(reject(
                    code,
                    n,
                    format!("`{}` is not allowed in a SCoP", k.trim_end_matches("_statement").replace('_', " ")),
                    label,
                ))
            }
        }
    }

    fn for_loop(&mut self, n: Node) -> Res<()> {
        let header = Header {
            whole: n,
            init: n.child_by_field_name("initializer"),
            cond: n.child_by_field_name("condition"),
            update: n.child_by_field_name("update"),
        };
        self.open_loop(&header)?;
        self.referential.push(None);
        let r = n.child_by_field_name("body").map_or(Ok(()), |b| self.statement(b));
        self.close_loop();
        r
    }

    /// Enter the loop `h` describes: its iterator in scope, its domain
    /// among the conditions, a new depth of `beta`. Returns its first
    /// value and its step.
    fn open_loop(&mut self, h: &Header) -> Res<(QExpr, i64)> {
        let depth = self.loops.len();
        let (name, ty, declared, init) = self.loop_init(h)?;
        if init.mentions(Var::Iter(depth)) {
            return Err(reject(Code::P0007, h.whole, "loop initialiser uses its own iterator", "loop header"));
        }
        self.iterator_names.insert(name.clone());
        if !declared {
            self.outer_iterators.insert(name.clone());
        }
        let iter = Iterator { name, ty, descending: false };
        self.loops.push(LoopCtx { iter });
        let step = self.loop_step(h, depth)?;
        let cond = self.loop_condition(h, depth, step)?;
        self.loops[depth].iter.descending = step < 0;
        let i = QExpr::Var(Var::Iter(depth));
        let start = if step > 0 { CmpOp::Ge } else { CmpOp::Le };
        let mut domain = Cond::and(Cond::Cmp(i.clone(), start, init.clone()), cond);
        if step.abs() > 1 {
            domain = Cond::and(domain, Cond::Divisible(QExpr::minus(i, init.clone()), step.abs()));
        }
        self.conds.push(domain);
        self.beta.push(0);
        Ok((init, step))
    }

    /// Leave the innermost loop (see [`Extractor::open_loop`]); its
    /// successor comes next at the enclosing depth.
    fn close_loop(&mut self) {
        self.beta.pop();
        self.conds.pop();
        self.loops.pop();
        self.referential.pop();
        *self.beta.last_mut().expect("beta always has the current depth") += 1;
    }

    /// `(iterator, type, declared here, initial value)`.
    fn loop_init(&mut self, h: &Header) -> Res<(String, String, bool, QExpr)> {
        let malformed = |msg: &str| reject(Code::P0007, h.whole, msg.to_string(), "loop header");
        let init = h.init.ok_or_else(|| malformed("loop without initialiser"))?;
        match init.kind() {
            "declaration" => {
                let ty = init.child_by_field_name("type").map_or("int", |t| self.t(t)).to_string();
                let mut cursor = init.walk();
                let decls: Vec<Node> = init.children_by_field_name("declarator", &mut cursor).collect();
                let [d] = decls[..] else {
                    return Err(malformed("the initialiser must declare exactly one iterator"));
                };
                let (Some(name), Some(value)) = (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
                else {
                    return Err(malformed("the iterator must be initialised"));
                };
                if name.kind() != "identifier" {
                    return Err(malformed("the iterator must be a plain variable"));
                }
                let v = self.affine(value, Code::P0003)?;
                Ok((self.t(name).to_string(), ty, true, v))
            }
            "assignment_expression" => {
                let left = init.child_by_field_name("left").filter(|l| l.kind() == "identifier");
                let op = init.child_by_field_name("operator").map(|o| self.t(o));
                let (Some(left), Some("="), Some(right)) = (left, op, init.child_by_field_name("right")) else {
                    return Err(malformed("the initialiser must be `i = <affine expression>`"));
                };
                let name = self.t(left).to_string();
                let ty = self.names.vars.get(&name).map_or("int".to_string(), |v| v.ty.clone());
                if self.names.vars.get(&name).is_some_and(|v| v.is_floating() || v.is_array()) {
                    return Err(malformed("the iterator must be an integer variable"));
                }
                let v = self.affine(right, Code::P0003)?;
                Ok((name, ty, false, v))
            }
            _ => Err(malformed("the initialiser must be `i = lb` or `int i = lb`")),
        }
    }

    fn loop_step(&mut self, h: &Header, depth: usize) -> Res<i64> {
        let at = h.update.unwrap_or(h.whole);
        let malformed =
            || reject(Code::P0007, at, "the increment must be `i++`, `i--`, `i += c` or `i -= c`", "loop header");
        let upd = h.update.ok_or_else(malformed)?;
        let name = self.loops[depth].iter.name.clone();
        let is_iter = |x: Option<Node>| x.is_some_and(|a| a.kind() == "identifier" && self.t(a) == name);
        let step = match upd.kind() {
            "update_expression" if is_iter(upd.child_by_field_name("argument")) => {
                if self.t(upd).contains("++") {
                    1
                } else {
                    -1
                }
            }
            "assignment_expression" if is_iter(upd.child_by_field_name("left")) => {
                let op = upd.child_by_field_name("operator").map(|o| self.t(o)).unwrap_or("");
                let right = upd.child_by_field_name("right").ok_or_else(malformed)?;
                let rhs = self.affine(right, Code::P0007)?;
                let step = match op {
                    "+=" => rhs.const_value(),
                    "-=" => rhs.const_value().and_then(i64::checked_neg),
                    "=" if rhs.linear_coeff(Var::Iter(depth)) == Some(1) => {
                        QExpr::minus(rhs, QExpr::Var(Var::Iter(depth))).const_value()
                    }
                    _ => None,
                };
                step.ok_or_else(malformed)?
            }
            _ => return Err(malformed()),
        };
        if step == 0 {
            return Err(malformed());
        }
        Ok(step)
    }

    /// The loop condition, checked to be a conjunction of bounds in the
    /// direction of the step (so "while it holds" equals "where it holds").
    fn loop_condition(&mut self, h: &Header, depth: usize, step: i64) -> Res<Cond> {
        let c = h.cond.ok_or_else(|| reject(Code::P0007, h.whole, "loop without condition", "loop header"))?;
        let cond = self.condition(c)?;
        let mut atoms = Vec::new();
        conjuncts(&cond, &mut atoms);
        for atom in atoms {
            let Cond::Cmp(a, op, b) = atom else {
                return Err(reject(
                    Code::P0007,
                    c,
                    "the loop condition must be a conjunction of comparisons",
                    "condition",
                ));
            };
            let coef = QExpr::minus(a.clone(), b.clone()).linear_coeff(Var::Iter(depth));
            let bounds_from_above = match (op, coef) {
                (CmpOp::Lt | CmpOp::Le, Some(k)) if k != 0 => k > 0,
                (CmpOp::Gt | CmpOp::Ge, Some(k)) if k != 0 => k < 0,
                _ => {
                    return Err(reject(
                        Code::P0007,
                        c,
                        "each comparison of the loop condition must bound the iterator linearly",
                        "condition",
                    ))
                }
            };
            if bounds_from_above != (step > 0) {
                return Err(reject(
                    Code::P0007,
                    c,
                    "the loop condition does not bound the iterator in the direction of the step",
                    "condition",
                ));
            }
        }
        Ok(cond)
    }

    fn if_statement(&mut self, n: Node) -> Res<()> {
        let c = n
            .child_by_field_name("condition")
            .ok_or_else(|| reject(Code::P0003, n, "`if` without condition", "here"))?;
        let cond = match self.tentatively(|x| x.condition(c)) {
            Ok(cond) => cond,
            Err(not_affine) => return self.dynamic_if(n, c, not_affine),
        };
        self.conds.push(cond.clone());
        let r = n.child_by_field_name("consequence").map_or(Ok(()), |b| self.statement(b));
        self.conds.pop();
        r?;
        if let Some(alt) = n.child_by_field_name("alternative") {
            self.conds.push(cond.negated());
            let branch = if alt.kind() == "else_clause" { alt.named_child(0) } else { Some(alt) };
            let r = branch.map_or(Ok(()), |b| self.statement(b));
            self.conds.pop();
            r?;
        }
        Ok(())
    }

    /// `f` on the extractor, or its error with the parameters and
    /// definitions it introduced forgotten.
    fn tentatively<T>(&mut self, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let (params, definitions) = (self.params.len(), self.definitions.len());
        f(self).inspect_err(|_| {
            self.params.truncate(params);
            self.definitions.truncate(definitions);
        })
    }

    /// An `if` whose condition `c` is not affine (`not_affine` says why):
    /// a statement evaluates it into a variable of its own at each
    /// instance of the `if`, and the branches run under that variable
    /// (seed 001's filters). Without `else`, leading affine conjuncts
    /// (`i > 0 && A[i-1] > 0`) bound the domain instead, so that the
    /// condition's reads are modelled only where C evaluates them.
    fn dynamic_if(&mut self, n: Node, c: Node, not_affine: Diagnostic) -> Res<()> {
        if self.multifor.component().is_some() {
            return Err(not_affine);
        }
        let inner = match c.kind() {
            "parenthesized_expression" => c.named_child(0).ok_or(not_affine)?,
            _ => c,
        };
        let alternative = n.child_by_field_name("alternative");
        let mut conjuncts = Vec::new();
        conjunct_nodes(inner, &mut conjuncts);
        let last_end = conjuncts.last().map_or(inner.end_byte(), |l| l.end_byte());
        let mut bounds = Vec::new();
        while alternative.is_none() && bounds.len() + 1 < conjuncts.len() {
            let rest = conjuncts[bounds.len() + 1].start_byte()..last_end;
            if !balanced(&self.src[rest]) {
                break;
            }
            match self.tentatively(|x| x.condition(conjuncts[bounds.len()])) {
                Ok(cond) => bounds.push(cond),
                Err(_) => break,
            }
        }
        let dynamic = &conjuncts[bounds.len()..];
        let span = match dynamic.first() {
            Some(first) if !bounds.is_empty() => first.start_byte()..last_end,
            _ => inner.byte_range(),
        };
        let mut parts = StmtParts::default();
        for node in dynamic {
            self.value(*node, &mut parts)?;
        }
        if let Some(w) = parts.accesses.iter().find(|a| a.kind == AccessKind::Write) {
            return Err(Diagnostic::warning(Code::P0003, w.span.clone(), "a condition that writes a variable")
                .with_label("written here"));
        }
        let depth = self.loops.len();
        let name = self.fresh.mint(&format!("polyc_c{}", self.filter_names.len()));
        self.filter_names.push(name.clone());
        parts.accesses.push(self.filter_access(&name, AccessKind::Write, depth, span.start));
        let pushed = bounds.len();
        self.conds.extend(bounds);
        let stmt = self.statement_at(span, parts, Some(name.clone()));
        self.push(stmt);
        let branch = |x: &mut Self, holds: bool, node: Option<Node>| -> Res<()> {
            x.filters.push((name.clone(), holds, depth));
            let r = node.map_or(Ok(()), |b| x.statement(b));
            x.filters.pop();
            r
        };
        let r = branch(self, true, n.child_by_field_name("consequence"));
        let r = r.and_then(|()| match alternative {
            Some(alt) => {
                let body = if alt.kind() == "else_clause" { alt.named_child(0) } else { Some(alt) };
                branch(self, false, body)
            }
            None => Ok(()),
        });
        self.conds.truncate(self.conds.len() - pushed);
        r
    }

    /// An access to the condition variable `name` of an `if` at loop
    /// depth `depth`: one element per instance of the `if`.
    fn filter_access(&self, name: &str, kind: AccessKind, depth: usize, at: usize) -> Access {
        let subscripts = (0..depth).map(|d| QExpr::Var(Var::Iter(d))).collect();
        Access { array: name.to_string(), kind, subscripts, span: at..at, conditional: false }
    }

    fn expression_statement(&mut self, n: Node, e: Node) -> Res<()> {
        let mut parts = StmtParts::default();
        match e.kind() {
            "assignment_expression" | "update_expression" => self.value(e, &mut parts)?,
            "call_expression" => self.call_statement(e, &mut parts)?,
            _ => {
                return Err(reject(
                    Code::P0020,
                    n,
                    "a SCoP statement must be an assignment or a call",
                    "expression statement",
                ))
            }
        }
        let mut stmt = self.statement_at(n.byte_range(), parts, None);
        self.pick_index_lists(n, &mut stmt)?;
        self.push(stmt);
        Ok(())
    }

    /// The statement of text `span` with what `parts` collected, under
    /// the current conditions.
    fn statement_at(&self, span: Range<usize>, mut parts: StmtParts, sets: Option<String>) -> Stmt {
        let start = span.start;
        for (name, _, depth) in &self.filters {
            parts.accesses.push(self.filter_access(name, AccessKind::Read, *depth, start));
        }
        let domain = self.conds.iter().cloned().fold(Cond::True, Cond::and);
        Stmt {
            text: self.src[span.clone()].to_string(),
            span,
            iterators: self.loops.iter().map(|l| l.iter.clone()).collect(),
            domain,
            beta: self.beta.clone(),
            accesses: parts.accesses,
            iter_uses: parts.iter_uses.into_iter().map(|(r, d)| (r.start - start..r.end - start, d)).collect(),
            referential: self.referential.clone(),
            component: self.multifor.component(),
            filters: self.filters.iter().map(|(name, holds, _)| (name.clone(), *holds)).collect(),
            sets,
        }
    }

    /// `stmt` at the current position; the next one comes after it.
    fn push(&mut self, stmt: Stmt) {
        self.stmts.push(stmt);
        *self.beta.last_mut().expect("beta always has the current depth") += 1;
    }

    fn in_scope_iterator(&self, name: &str) -> Option<usize> {
        self.loops.iter().rposition(|l| l.iter.name == name)
    }

    /// A boolean condition over iterators and parameters.
    fn condition(&mut self, n: Node) -> Res<Cond> {
        match n.kind() {
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| reject(Code::P0003, n, "empty condition", "here"))?;
                self.condition(inner)
            }
            "unary_expression" if self.operator(n) == "!" => {
                let arg =
                    n.child_by_field_name("argument").ok_or_else(|| reject(Code::P0003, n, "bad negation", "here"))?;
                Ok(self.condition(arg)?.negated())
            }
            "binary_expression" => {
                let op = self.operator(n);
                let (l, r) = self.operands(n, Code::P0003)?;
                let cmp = match op {
                    "&&" => return Ok(Cond::And(Box::new(self.condition(l)?), Box::new(self.condition(r)?))),
                    "||" => return Ok(Cond::Or(Box::new(self.condition(l)?), Box::new(self.condition(r)?))),
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    ">=" => CmpOp::Ge,
                    "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    _ => return self.truthiness(n),
                };
                Ok(Cond::Cmp(self.affine(l, Code::P0003)?, cmp, self.affine(r, Code::P0003)?))
            }
            _ => self.truthiness(n),
        }
    }

    /// C's truth of an integer expression: non-zero.
    fn truthiness(&mut self, n: Node) -> Res<Cond> {
        Ok(Cond::Cmp(self.affine(n, Code::P0003)?, CmpOp::Ne, QExpr::Const(0)))
    }

    fn operator(&self, n: Node) -> &'a str {
        n.child_by_field_name("operator").map_or("", |o| self.t(o))
    }

    fn operands(&self, n: Node<'a>, code: Code) -> Res<(Node<'a>, Node<'a>)> {
        match (n.child_by_field_name("left"), n.child_by_field_name("right")) {
            (Some(l), Some(r)) => Ok((l, r)),
            _ => Err(reject(code, n, "incomplete expression", "here")),
        }
    }

    fn constant_operand(&mut self, n: Node, code: Code) -> Res<i64> {
        // An integer macro stays a parameter where the SCoP is analysed
        // with its macros expanded; as a divisor, its value counts.
        if let Some(k) = self.integer_macro(n) {
            return Ok(k);
        }
        let v = self.affine(n, code)?;
        match v.const_value() {
            Some(k) if k > 0 => Ok(k),
            _ => Err(reject(code, n, "divisor must be a positive integer constant", "divisor")),
        }
    }

    /// A quasi-affine integer expression; anything else is rejected with `code`.
    fn affine(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let not_affine = |what: &str| reject(code, n, format!("{what} is not quasi-affine"), "not affine");
        match n.kind() {
            "number_literal" => parse_int(self.t(n)).map(QExpr::Const).ok_or_else(|| {
                reject(Code::P0013, n, "only integer constants may appear in affine expressions", "not an integer")
            }),
            "identifier" => self.affine_name(n, code),
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.affine(inner, code),
                None => Err(not_affine("this expression")),
            },
            "unary_expression" => {
                let arg = n.child_by_field_name("argument").ok_or_else(|| not_affine("this expression"))?;
                match self.operator(n) {
                    "-" => Ok(QExpr::Neg(Box::new(self.affine(arg, code)?))),
                    "+" => self.affine(arg, code),
                    _ => Err(not_affine("this operator")),
                }
            }
            "binary_expression" => {
                if matches!(self.operator(n), "*" | "/" | "%") {
                    if let Some(p) = self.specialised(n, code)? {
                        return Ok(p);
                    }
                }
                let (l, r) = self.operands(n, code)?;
                match self.operator(n) {
                    "+" => Ok(QExpr::plus(self.affine(l, code)?, self.affine(r, code)?)),
                    "-" => Ok(QExpr::minus(self.affine(l, code)?, self.affine(r, code)?)),
                    "*" => {
                        let (a, b) = (self.affine(l, code)?, self.affine(r, code)?);
                        match (a.const_value(), b.const_value()) {
                            (Some(k), _) => Ok(QExpr::Mul(k, Box::new(b))),
                            (_, Some(k)) => Ok(QExpr::Mul(k, Box::new(a))),
                            _ => Err(not_affine("a product of two variables")),
                        }
                    }
                    "/" => Ok(QExpr::TruncDiv(Box::new(self.affine(l, code)?), self.constant_operand(r, code)?)),
                    "%" => Ok(QExpr::TruncMod(Box::new(self.affine(l, code)?), self.constant_operand(r, code)?)),
                    _ => Err(not_affine("this operator")),
                }
            }
            "conditional_expression" => {
                let part = |f: &str| n.child_by_field_name(f).ok_or_else(|| not_affine("this expression"));
                let cond = self.condition(part("condition")?)?;
                let yes = self.affine(part("consequence")?, code)?;
                let no = self.affine(part("alternative")?, code)?;
                Ok(QExpr::Select(Box::new(cond), Box::new(yes), Box::new(no)))
            }
            "call_expression" => self.affine_call(n, code),
            "multifor_index_list" => {
                let picked = self.picked(n)?;
                self.affine(picked, code)
            }
            _ => Err(not_affine("this expression")),
        }
    }

    /// `floord`, `ceild`, `min`, `max` (any case) as PLUTO and PolyBench define them.
    fn affine_call(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let fname = n.child_by_field_name("function").map_or("", |f| self.t(f)).to_ascii_lowercase();
        let args: Vec<Node> = match n.child_by_field_name("arguments") {
            Some(a) => {
                let mut cursor = a.walk();
                a.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
            }
            None => Vec::new(),
        };
        let [a, b] = args[..] else {
            return Err(reject(code, n, format!("call to `{fname}` is not quasi-affine"), "not affine"));
        };
        match fname.as_str() {
            "floord" => Ok(QExpr::FloorDiv(Box::new(self.affine(a, code)?), self.constant_operand(b, code)?)),
            "ceild" => Ok(QExpr::CeilDiv(Box::new(self.affine(a, code)?), self.constant_operand(b, code)?)),
            "min" => Ok(QExpr::Min(Box::new(self.affine(a, code)?), Box::new(self.affine(b, code)?))),
            "max" => Ok(QExpr::Max(Box::new(self.affine(a, code)?), Box::new(self.affine(b, code)?))),
            _ => Err(reject(code, n, format!("call to `{fname}` is not quasi-affine"), "not affine")),
        }
    }

    /// The positive value of `n` if it names a macro whose value is an
    /// integer literal (`#define BINS 8`), in parentheses or not.
    fn integer_macro(&self, n: Node) -> Option<i64> {
        let value = self.names.macros.get(self.t(n)).filter(|_| n.kind() == "identifier")?;
        let literal = value.trim().trim_start_matches('(').trim_end_matches(')').trim();
        let digits = literal.trim_end_matches(['u', 'U', 'l', 'L']);
        digits.parse::<i64>().ok().filter(|&k| k > 0)
    }

    fn affine_name(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let name = self.t(n);
        if let Some(depth) = self.in_scope_iterator(name) {
            return Ok(QExpr::Var(Var::Iter(depth)));
        }
        self.check_not_foreign_index(n, true)?;
        self.free_uses.push((name.to_string(), n.byte_range()));
        if let Some(v) = self.names.vars.get(name) {
            if v.is_array() {
                return Err(reject(code, n, format!("array `{name}` used as an integer"), "not affine"));
            }
            if v.is_floating() {
                return Err(reject(Code::P0013, n, format!("`{name}` has floating type `{}`", v.ty), "not an integer"));
            }
        } else if let Some(value) = self.names.macros.get(name) {
            if value.contains('.') || value.contains('"') {
                return Err(reject(
                    Code::P0013,
                    n,
                    format!("macro `{name}` is not an integer (`{value}`)"),
                    "not an integer",
                ));
            }
        }
        self.param_uses.entry(name.to_string()).or_insert(n.byte_range());
        let k = match self.params.iter().position(|p| p == name) {
            Some(k) => k,
            None => {
                self.params.push(name.to_string());
                self.params.len() - 1
            }
        };
        Ok(QExpr::Var(Var::Param(k)))
    }

    /// Walk an expression evaluated for its value, collecting accesses.
    fn value(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        match n.kind() {
            "identifier" => self.value_name(n, parts),
            "subscript_expression" => self.access(n, AccessKind::Read, parts),
            "assignment_expression" => {
                let left =
                    n.child_by_field_name("left").ok_or_else(|| reject(Code::P0006, n, "bad assignment", "here"))?;
                if self.operator(n) != "=" {
                    self.target(left, AccessKind::Read, parts)?;
                }
                if let Some(r) = n.child_by_field_name("right") {
                    self.value(r, parts)?;
                }
                self.target(left, AccessKind::Write, parts)
            }
            "update_expression" => {
                let arg =
                    n.child_by_field_name("argument").ok_or_else(|| reject(Code::P0006, n, "bad update", "here"))?;
                self.target(arg, AccessKind::Read, parts)?;
                self.target(arg, AccessKind::Write, parts)
            }
            "call_expression" => self.value_call(n, parts),
            "pointer_expression"
            | "field_expression"
            | "comma_expression"
            | "initializer_list"
            | "compound_literal_expression"
            | "string_literal" => Err(reject(
                Code::P0006,
                n,
                format!("{} is not supported in a SCoP", n.kind().replace('_', " ")),
                "unsupported expression",
            )),
            "cast_expression" => {
                if let Some(name) = self.cast_of_a_value(n) {
                    self.value_name(name, parts)?;
                }
                match n.child_by_field_name("value") {
                    Some(v) => self.value(v, parts),
                    None => Ok(()),
                }
            }
            "sizeof_expression" | "number_literal" | "char_literal" | "true" | "false" | "null" | "comment" => Ok(()),
            "multifor_index_list" => {
                let picked = self.picked(n)?;
                self.value(picked, parts)
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "conditional_expression"
            | "argument_list" => self.value_children(n, parts),
            k => Err(reject(Code::P0006, n, format!("`{k}` is not supported in a SCoP"), "unsupported expression")),
        }
    }

    /// The name in a cast's parentheses when it is no type but a variable
    /// or an iterator: the parser reads `(i) + x` and `(s) - 1.0` as casts
    /// of `+x` and `-1.0` to a type named `i` or `s`, which the C compiler,
    /// knowing them for variables, reads as a sum and a difference.
    fn cast_of_a_value<'t>(&self, cast: Node<'t>) -> Option<Node<'t>> {
        let descriptor = cast.child_by_field_name("type")?;
        let name = descriptor.child_by_field_name("type").filter(|t| t.kind() == "type_identifier")?;
        let alone = descriptor.named_child_count() == 1;
        let text = self.t(name);
        (alone && (self.in_scope_iterator(text).is_some() || self.names.vars.contains_key(text))).then_some(name)
    }

    fn value_children(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        parts.guarded.note(n);
        let mut cursor = n.walk();
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        children.into_iter().try_for_each(|c| self.value(c, parts))
    }

    fn value_name(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        let name = self.t(n);
        if let Some(depth) = self.in_scope_iterator(name) {
            parts.iter_uses.push((n.byte_range(), depth));
            return Ok(());
        }
        self.check_not_foreign_index(n, false)?;
        self.free_uses.push((name.to_string(), n.byte_range()));
        match self.names.vars.get(name) {
            Some(v) if v.is_array() => {
                Err(reject(Code::P0006, n, format!("array `{name}` used without subscripts"), "bare array"))
            }
            Some(_) => {
                parts.accesses.push(Access {
                    array: name.to_string(),
                    kind: AccessKind::Read,
                    subscripts: vec![],
                    span: n.byte_range(),
                    conditional: parts.guarded.covers(n),
                });
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// An lvalue: a scalar or an array element.
    fn target(&mut self, n: Node, kind: AccessKind, parts: &mut StmtParts) -> Res<()> {
        match n.kind() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.target(inner, kind, parts),
                None => Err(reject(Code::P0006, n, "bad assignment target", "here")),
            },
            "identifier" => {
                let name = self.t(n);
                if self.in_scope_iterator(name).is_some() {
                    return Err(reject(
                        Code::P0005,
                        n,
                        format!("write to loop iterator `{name}`"),
                        "iterator written here",
                    ));
                }
                if kind == AccessKind::Write {
                    self.writes.push((name.to_string(), n.byte_range()));
                }
                let conditional = parts.guarded.covers(n);
                parts.accesses.push(Access {
                    array: name.to_string(),
                    kind,
                    subscripts: vec![],
                    span: n.byte_range(),
                    conditional,
                });
                Ok(())
            }
            "subscript_expression" => self.access(n, kind, parts),
            _ => Err(reject(
                Code::P0006,
                n,
                "assignment target must be a variable or an array element",
                "unsupported target",
            )),
        }
    }

    /// `A[e1][e2]...`, subscripts quasi-affine.
    fn access(&mut self, n: Node, kind: AccessKind, parts: &mut StmtParts) -> Res<()> {
        let mut subs = Vec::new();
        let mut base = n;
        while base.kind() == "subscript_expression" {
            let index = base
                .child_by_field_name("index")
                .ok_or_else(|| reject(Code::P0002, base, "missing subscript", "here"))?;
            subs.push(index);
            base = base
                .child_by_field_name("argument")
                .ok_or_else(|| reject(Code::P0002, base, "missing array", "here"))?;
        }
        if base.kind() != "identifier" {
            return Err(reject(
                Code::P0006,
                base,
                "only named arrays may be subscripted",
                "unsupported array expression",
            ));
        }
        let array = self.t(base).to_string();
        if self.in_scope_iterator(&array).is_some() || self.names.vars.get(&array).is_some_and(|v| !v.is_array()) {
            return Err(reject(Code::P0006, base, format!("`{array}` is not an array"), "subscripted scalar"));
        }
        subs.reverse();
        let single = subs.len() == 1;
        let mut subscripts = Vec::new();
        let mut shape = Shape::Several;
        for s in subs {
            let (params, definitions) = (self.params.len(), self.definitions.len());
            match self.affine(s, Code::P0002) {
                Ok(q) => {
                    subscripts.push(q);
                    if single {
                        let poly = match self.may_delinearise(&array) {
                            true => self.polynomial(s, Code::P0002).ok().flatten(),
                            false => None,
                        };
                        shape = Shape::Affine(poly);
                    }
                }
                Err(e) if single && self.may_delinearise(&array) => {
                    // What the failed attempt introduced is unused.
                    self.params.truncate(params);
                    self.definitions.truncate(definitions);
                    let Ok(Some((split, strides))) = self.delinearise(s, Code::P0002) else { return Err(e) };
                    subscripts.extend(split);
                    shape = Shape::Split(strides);
                }
                Err(e) => return Err(e),
            }
            self.record_iter_uses(s, parts);
        }
        self.shapes.push((array.clone(), shape, n.byte_range()));
        if kind == AccessKind::Write {
            self.writes.push((array.clone(), base.byte_range()));
        }
        let conditional = parts.guarded.covers(n);
        parts.accesses.push(Access { array, kind, subscripts, span: n.byte_range(), conditional });
        Ok(())
    }

    /// Iterator occurrences inside a subscript, for substitution (once:
    /// a compound assignment's target is visited as a read and a write).
    fn record_iter_uses(&self, n: Node, parts: &mut StmtParts) {
        walk(n, &mut |m| {
            if m.kind() == "identifier" {
                if let Some(depth) = self.in_scope_iterator(self.t(m)) {
                    if !parts.iter_uses.iter().any(|(r, _)| *r == m.byte_range()) {
                        parts.iter_uses.push((m.byte_range(), depth));
                    }
                }
            }
        });
    }

    /// The view of each array whose subscripts were split (extents,
    /// outermost first, the outermost empty): every access of such an
    /// array must have been split into the same view, or be an affine
    /// subscript that splits into it with some outer subscript not zero
    /// (`A[n + j]`, not `A[k]`: rows are the user's, not polyc's guess),
    /// in a region with no `multifor` (whose regenerated code has no
    /// source text to fall back on where the split is not exact).
    fn views(&mut self) -> Res<BTreeMap<String, Vec<String>>> {
        let mut views: BTreeMap<String, Vec<Vec<usize>>> = BTreeMap::new();
        for (array, shape, span) in &self.shapes {
            if let Shape::Split(strides) = shape {
                if self.stmts.iter().any(|s| s.component.is_some()) {
                    return Err(Diagnostic::warning(
                        Code::P0002,
                        span.clone(),
                        "a linear subscript that is not affine is not split in a region with a `multifor`",
                    )
                    .with_label("not affine"));
                }
                views.entry(array.clone()).or_insert_with(|| strides.clone());
            }
        }
        let show = |strides: &[Vec<usize>]| {
            let extents = strides.windows(2).map(|pair| {
                let mut rest = pair[0].clone();
                for k in &pair[1] {
                    rest.remove(rest.iter().position(|x| x == k).expect("strides form a chain"));
                }
                rest.iter().map(|&k| self.params[k].as_str()).collect::<Vec<_>>().join("*")
            });
            format!("[*]{}", extents.map(|e| format!("[{e}]")).collect::<String>())
        };
        let mut patches = Vec::new();
        for (array, shape, span) in &self.shapes {
            let Some(view) = views.get(array) else { continue };
            let what = match shape {
                Shape::Split(strides) if strides == view => continue,
                Shape::Split(strides) => format!("this subscript splits into {} instead", show(strides)),
                Shape::Affine(poly) => match poly.as_ref().and_then(|p| delinearise::split(p, view)) {
                    Some(subs) if subs[..subs.len() - 1].iter().any(|q| *q != QExpr::Const(0)) => {
                        patches.push((array.clone(), span.clone(), subs));
                        continue;
                    }
                    _ => "this affine subscript cannot be split exactly into it".to_string(),
                },
                Shape::Several => "this access has several subscripts".to_string(),
            };
            return Err(Diagnostic::warning(
                Code::P0002,
                span.clone(),
                format!("`{array}` is accessed as {} elsewhere in the SCoP; {what}", show(view)),
            )
            .with_label("a different shape")
            .with_note("every access of an array must delinearise to the same shape"));
        }
        for (array, span, subs) in patches {
            for a in self.stmts.iter_mut().flat_map(|s| &mut s.accesses) {
                if a.array == array && a.span == span {
                    a.subscripts = subs.clone();
                }
            }
        }
        let mut extents = BTreeMap::new();
        for (array, strides) in views {
            let inner = self.extents(&strides);
            extents.insert(array, std::iter::once(String::new()).chain(inner).collect());
        }
        Ok(extents)
    }

    /// Checks that need the whole region: parameters and iterators are
    /// never written, iterators never read outside their loops.
    fn check_names(&self) -> Res<()> {
        for (name, span) in &self.writes {
            if let Some(use_span) = self.param_uses.get(name) {
                return Err(Diagnostic::warning(
                    Code::P0003,
                    use_span.clone(),
                    format!("`{name}` is used as a bound or subscript but written in the SCoP"),
                )
                .with_label("used as a parameter here")
                .with_note(format!("written at byte {}", span.start)));
            }
            if self.iterator_names.contains(name) {
                return Err(Diagnostic::warning(
                    Code::P0005,
                    span.clone(),
                    format!("write to loop iterator `{name}` outside its loop"),
                )
                .with_label("iterator written here"));
            }
        }
        for (name, span) in &self.free_uses {
            if self.iterator_names.contains(name) {
                return Err(Diagnostic::warning(
                    Code::P0009,
                    span.clone(),
                    format!("iterator `{name}` is read outside its loop"),
                )
                .with_label("its final value is not preserved"));
            }
        }
        Ok(())
    }
}

/// Whether every `)` of `text` closes a `(` of it, and every `(` is closed.
fn balanced(text: &str) -> bool {
    let mut open = 0usize;
    for c in text.chars() {
        match c {
            '(' => open += 1,
            ')' if open == 0 => return false,
            ')' => open -= 1,
            _ => {}
        }
    }
    open == 0
}

/// The operands of a chain of `&&` (through parentheses), in order.
fn conjunct_nodes<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let operator = n.child_by_field_name("operator").map(|o| o.kind());
    match (n.kind(), operator) {
        ("parenthesized_expression", _) if n.named_child_count() == 1 => {
            conjunct_nodes(n.named_child(0).expect("one child"), out)
        }
        ("binary_expression", Some("&&")) => {
            let mut cursor = n.walk();
            let operands: Vec<Node> = n.named_children(&mut cursor).collect();
            operands.into_iter().for_each(|o| conjunct_nodes(o, out));
        }
        _ => out.push(n),
    }
}

fn conjuncts<'c>(c: &'c Cond, out: &mut Vec<&'c Cond>) {
    match c {
        Cond::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// An integer literal in any C base, suffixes allowed.
fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    let v = i64::from_str_radix(&digits.replace('\'', ""), radix).ok()?;
    // Keep every constant small enough that isl's machine integers and the
    // scanner's arithmetic cannot overflow.
    (v.abs() < 1 << 40).then_some(v)
}

/// Iterators declared outside their loops must not be read after the SCoP
/// (nor, when the SCoP sits in a loop, anywhere else in that loop) before
/// being assigned again.
fn check_iterators_dead_after(region: &Region, function: Node, src: &str, iterators: &BTreeSet<String>) -> Res<()> {
    if iterators.is_empty() {
        return Ok(());
    }
    let inside = region.open.start_byte()..region.close.end_byte();
    let mut enclosing_loop = None;
    let mut cur = region.block.parent();
    while let Some(c) = cur {
        if matches!(c.kind(), "for_statement" | "while_statement" | "do_statement") {
            enclosing_loop = Some(c.byte_range());
        }
        if c.id() == function.id() {
            break;
        }
        cur = c.parent();
    }
    let mut first_after: BTreeMap<String, Node> = BTreeMap::new();
    let mut in_loop_reads: Vec<Node> = Vec::new();
    walk(function, &mut |n| {
        if n.kind() != "identifier" || !iterators.contains(text(n, src)) || inside.contains(&n.start_byte()) {
            return;
        }
        if n.start_byte() >= inside.end {
            first_after.entry(text(n, src).to_string()).or_insert(n);
        }
        if enclosing_loop.as_ref().is_some_and(|l| l.contains(&n.start_byte())) && !is_plain_assignment_target(n) {
            in_loop_reads.push(n);
        }
    });
    let offender = first_after.values().find(|n| !is_plain_assignment_target(**n)).or(in_loop_reads.first());
    match offender {
        Some(n) => Err(reject(
            Code::P0009,
            *n,
            format!("iterator `{}` of the SCoP is read after it", text(*n, src)),
            "read here",
        )
        .with_note("polyc does not preserve an iterator's final value")),
        None => Ok(()),
    }
}

fn is_plain_assignment_target(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        p.kind() == "assignment_expression"
            && p.child_by_field_name("left").is_some_and(|l| l.id() == n.id())
            && p.child_by_field_name("operator").is_some_and(|o| o.kind() == "=")
    })
}
