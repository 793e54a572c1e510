//! Scalar expansion. A scalar that accumulates a reduction inside a loop
//! nest (ludcmp's `w`, set from `A[i][j]`, reduced over `k`, stored back)
//! is one memory cell for all iterations: its anti and output
//! dependences serialise every loop around it, though each iteration of
//! the outer loops computes its own value. Giving each of those
//! iterations its own element of a new array removes exactly those
//! dependences, so the nest can be tiled and interchanged as the same
//! computation written on an array (lu) can.
//!
//! A *web* is a set of statements linked by the scalar's flow
//! dependences. It is expanded over the `depth` loops all its statements
//! share when
//! - every read in it gets its value from a write in the same iteration
//!   of those loops (so the element indexed by them holds that value, and
//!   no write of another iteration comes between),
//! - every read in it has a source in the SCoP (nothing is read from
//!   before it), and every write in it is overwritten later (the scalar's
//!   value after the SCoP comes from elsewhere),
//! - some statement of it runs in a loop inside those (a reduction: what
//!   the expansion frees), and `depth` is at least 2 (a band to tile).
//!
//! Reads outside the web got their values from writes outside it, with
//! no web write between (else that write would be their source), so
//! they still read the scalar's right value.

use crate::frontend::decls::{fresh_name, VarDecl};
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::{AccessKind, ScopAst, Stmt};
use crate::model::affine::LinExpr;
use crate::model::isl::{self, FlowResult, IslResult, Map, Set, UnionMap};
use crate::model::{params_decl, statement_index, Scop};
use std::collections::BTreeSet;

/// A scalar replaced, in some statements, by an array with an element
/// per iteration of the loops around them.
#[derive(Clone, Debug)]
pub struct ExpandedScalar {
    /// The array's name (fresh).
    pub name: String,
    /// The element type: the scalar's.
    pub ty: String,
    /// Each dimension's extent, over the parameters (not positive only
    /// when none of the statements runs).
    pub extents: Vec<LinExpr>,
}

/// A SCoP with some scalars expanded.
pub struct Expansion {
    pub ast: ScopAst,
    pub arrays: Vec<ExpandedScalar>,
}

/// Statements of one web, and what expanding it takes.
struct Web {
    scalar: String,
    stmts: Vec<usize>,
    /// Lower bound of each shared loop's iterator over the web.
    lower: Vec<i64>,
    extents: Vec<LinExpr>,
}

/// The SCoP with every expandable web of a scalar expanded (names clear
/// of `taken`), or `None` if there is none.
pub fn expand_scalars(scop: &Scop, taken: &BTreeSet<String>) -> IslResult<Option<Expansion>> {
    let mut webs = Vec::new();
    for (scalar, _) in scop.ast.arrays.iter().filter(|(_, decl)| is_plain_scalar(decl)) {
        // A web needs two shared loops and a statement inside them: with
        // no access three loops deep, no dataflow analysis is needed to
        // know there is none (adi's coefficients).
        let deep =
            scop.ast.stmts.iter().any(|st| st.iterators.len() >= 3 && st.accesses.iter().any(|a| a.array == *scalar));
        if deep {
            webs.extend(expandable_webs(scop, scalar)?);
        }
    }
    if webs.is_empty() {
        return Ok(None);
    }
    let mut ast = scop.ast.clone();
    let mut arrays = Vec::new();
    let mut names = taken.clone();
    for web in webs {
        let name = fresh_name(&format!("polyc_{}", web.scalar), |n| names.contains(n));
        names.insert(name.clone());
        let ty = ast.arrays.iter().find(|(a, _)| *a == web.scalar).map(|(_, d)| d.ty.clone()).unwrap_or_default();
        for &k in &web.stmts {
            ast.stmts[k] = expanded_statement(&ast.stmts[k], &web, &name);
        }
        ast.arrays.push((name.clone(), VarDecl { ty: ty.clone(), ..VarDecl::default() }));
        arrays.push(ExpandedScalar { name, ty, extents: web.extents });
    }
    Ok(Some(Expansion { ast, arrays }))
}

/// A scalar of arithmetic type, whose elements an array can hold.
fn is_plain_scalar(decl: &VarDecl) -> bool {
    const WORDS: &[&str] = &["double", "float", "int", "long", "short", "char", "signed", "unsigned"];
    !decl.is_array() && !decl.ty.is_empty() && decl.ty.split_whitespace().all(|w| WORDS.contains(&w))
}

/// The webs of `scalar` that may and should be expanded.
fn expandable_webs(scop: &Scop, scalar: &str) -> IslResult<Vec<Web>> {
    let accesses = |kind: AccessKind| {
        UnionMap::from_maps(
            scop.statements
                .iter()
                .flat_map(|s| &s.accesses)
                .filter(|a| a.array == scalar && a.kind == kind)
                .map(|a| &a.relation),
        )
    };
    let (reads, writes) = (accesses(AccessKind::Read)?, accesses(AccessKind::Write)?);
    let schedule = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let flow = isl::compute_flow(&reads, Some(&writes), None, &schedule, FlowResult::Must)?.maps()?;
    let overwrites = isl::compute_flow(&writes, Some(&writes), None, &schedule, FlowResult::Must)?.maps()?;
    let mut webs = Vec::new();
    for stmts in webs_by_flow(scop, scalar, &flow)? {
        let Some(depth) = shared_depth(scop, &stmts, &flow)? else {
            continue;
        };
        let reduces = stmts.iter().any(|&k| scop.ast.stmts[k].iterators.len() > depth);
        if depth < 2 || !reduces || !all_sourced_and_overwritten(scop, scalar, &stmts, &flow, &overwrites)? {
            continue;
        }
        if let Some((lower, extents)) = bounds(scop, &stmts, depth)? {
            webs.push(Web { scalar: scalar.to_string(), stmts, lower, extents });
        }
    }
    Ok(webs)
}

/// The statements accessing `scalar`, grouped into the connected
/// components of its flow dependences.
fn webs_by_flow(scop: &Scop, scalar: &str, flow: &[Map]) -> IslResult<Vec<Vec<usize>>> {
    let n = scop.statements.len();
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], k: usize) -> usize {
        let mut r = k;
        while root[r] != r {
            r = root[r];
        }
        root[k] = r;
        r
    }
    for m in flow {
        let (a, b) = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
        if a < n && b < n {
            let (ra, rb) = (find(&mut root, a), find(&mut root, b));
            root[ra] = rb;
        }
    }
    let mut webs: Vec<(usize, Vec<usize>)> = Vec::new();
    for k in (0..n).filter(|&k| scop.statements[k].accesses.iter().any(|a| a.array == scalar)) {
        let r = find(&mut root, k);
        match webs.iter_mut().find(|(w, _)| *w == r) {
            Some((_, stmts)) => stmts.push(k),
            None => webs.push((r, vec![k])),
        }
    }
    Ok(webs.into_iter().map(|(_, stmts)| stmts).collect())
}

/// How many loops all of `stmts` share such that every flow dependence
/// between them stays in one iteration of those loops; `None` if they
/// share none.
fn shared_depth(scop: &Scop, stmts: &[usize], flow: &[Map]) -> IslResult<Option<usize>> {
    let first = &scop.ast.stmts[stmts[0]];
    let mut depth = stmts.iter().map(|&k| scop.ast.stmts[k].iterators.len()).min().unwrap_or(0);
    while depth > 0 && !stmts.iter().all(|&k| scop.ast.stmts[k].beta[..depth] == first.beta[..depth]) {
        depth -= 1;
    }
    let names: Vec<String> = stmts.iter().map(|k| format!("S{k}")).collect();
    let within: Vec<&Map> = flow
        .iter()
        .filter(|m| {
            m.domain_name().is_ok_and(|d| names.contains(&d)) && m.range_name().is_ok_and(|r| names.contains(&r))
        })
        .collect();
    while depth > 0 {
        if within.iter().try_fold(true, |ok, m| Ok::<_, isl::IslError>(ok && same_iteration(scop, m, depth)?))? {
            return Ok(Some(depth));
        }
        depth -= 1;
    }
    Ok(None)
}

/// Whether the dependence `m` joins instances with equal iterators up to `depth`.
fn same_iteration(scop: &Scop, m: &Map, depth: usize) -> IslResult<bool> {
    let (a, b) = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
    let dims = |k: usize, p: &str| -> String {
        (0..scop.ast.stmts[k].iterators.len()).map(|d| format!("{p}{d}")).collect::<Vec<_>>().join(", ")
    };
    let equal: Vec<String> = (0..depth).map(|d| format!("i{d} = j{d}")).collect();
    let relation = Map::parse(&format!(
        "{} -> {{ S{a}[{}] -> S{b}[{}] : {} }}",
        params_decl(scop.ast.params.len()),
        dims(a, "i"),
        dims(b, "j"),
        equal.join(" and ")
    ))?;
    m.is_subset_of(&relation)
}

/// Whether every read of `scalar` in `stmts` has a source (in `flow`) and
/// every write of it there is followed by another write (`overwrites`:
/// each write's previous one).
fn all_sourced_and_overwritten(
    scop: &Scop,
    scalar: &str,
    stmts: &[usize],
    flow: &[Map],
    overwrites: &[Map],
) -> IslResult<bool> {
    for &k in stmts {
        let name = format!("S{k}");
        let st = &scop.statements[k];
        for a in st.accesses.iter().filter(|a| a.array == scalar) {
            let instances = a.relation.domain()?;
            let covered = match a.kind {
                AccessKind::Read => union_of(&instances, flow, |m| Ok(m.range_name()? == name), Map::range)?,
                AccessKind::Write => union_of(&instances, overwrites, |m| Ok(m.domain_name()? == name), Map::domain)?,
            };
            if !instances.is_subset_of(&covered)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The union of `side` of the maps `keep` selects, in the space of `like`.
fn union_of(
    like: &Set,
    maps: &[Map],
    keep: impl Fn(&Map) -> IslResult<bool>,
    side: impl Fn(&Map) -> IslResult<Set>,
) -> IslResult<Set> {
    let mut acc = like.subtract(like)?;
    for m in maps {
        if keep(m)? {
            acc = acc.union(&side(m)?)?;
        }
    }
    Ok(acc)
}

/// For each of the `depth` shared loops: the constant lower bound of its
/// iterator over the statements' instances, and the extent (upper bound
/// over the parameters, minus the lower, plus one). `None` if a bound
/// is not of that form.
fn bounds(scop: &Scop, stmts: &[usize], depth: usize) -> IslResult<Option<(Vec<i64>, Vec<LinExpr>)>> {
    let (mut lower, mut extents) = (Vec::new(), Vec::new());
    for d in 0..depth {
        let Some((lo, hi)) = scop.iterator_range(stmts, d)? else {
            return Ok(None);
        };
        if !lo.is_constant() {
            return Ok(None);
        }
        extents.push(hi.add(&LinExpr::constant(1 - lo.constant)));
        lower.push(lo.constant);
    }
    Ok(Some((lower, extents)))
}

/// `stmt` with every occurrence of the web's scalar replaced by the
/// array element of its iteration: `name[i - lo0][j - lo1]`.
fn expanded_statement(stmt: &Stmt, web: &Web, name: &str) -> Stmt {
    let mut out = stmt.clone();
    let mut spans: Vec<std::ops::Range<usize>> = stmt
        .accesses
        .iter()
        .filter(|a| a.array == web.scalar)
        .map(|a| a.span.start - stmt.span.start..a.span.end - stmt.span.start)
        .collect();
    spans.sort_by_key(|r| std::cmp::Reverse(r.start));
    spans.dedup();
    for span in spans {
        let mut element = name.to_string();
        let mut uses = Vec::new();
        for (d, lo) in web.lower.iter().enumerate() {
            element.push('[');
            let at = span.start + element.len();
            uses.push((at..at + stmt.iterators[d].name.len(), d));
            element.push_str(&stmt.iterators[d].name);
            if *lo != 0 {
                element.push_str(&format!(" {} {}", if *lo > 0 { '-' } else { '+' }, lo.abs()));
            }
            element.push(']');
        }
        let shift = element.len() as isize - span.len() as isize;
        for (r, _) in out.iter_uses.iter_mut().filter(|(r, _)| r.start >= span.end) {
            *r = (r.start as isize + shift) as usize..(r.end as isize + shift) as usize;
        }
        out.text.replace_range(span, &element);
        out.iter_uses.extend(uses);
    }
    for a in out.accesses.iter_mut().filter(|a| a.array == web.scalar) {
        a.array = name.to_string();
        a.subscripts = web
            .lower
            .iter()
            .enumerate()
            .map(|(d, lo)| QExpr::minus(QExpr::Var(Var::Iter(d)), QExpr::Const(*lo)))
            .collect();
    }
    out
}
