//! Storage expansion. A scalar that accumulates a reduction inside a
//! loop nest (ludcmp's `w`, set from `A[i][j]`, reduced over `k`, stored
//! back), or a row that does (doitgen's `sum[p]`, reset for every `(r,
//! q)`), is the same memory for all iterations of the loops around it:
//! its anti and output dependences serialise those loops, though each
//! iteration computes its own values. Giving each iteration its own
//! copy, in a new array with a leading dimension per loop, removes
//! exactly those dependences, so the nest can be tiled and interchanged
//! as the same computation written on a bigger array (lu) can.
//!
//! A *web* is a set of statements linked by the variable's flow
//! dependences. It is expanded over the innermost of the loops all its
//! statements share (up to two for a scalar, one for an array: a band of
//! two with the array's own dimension; each loop more multiplies the
//! memory, and doitgen's `sum` expanded over both `r` and `q` measured
//! 51 ms against 37 ms over `q` alone). A scalar whose web shares one
//! loop gets a copy per iteration of it: the state of a recursive filter
//! run along each column (deriche's `ym1`, reset per column `j`, carried
//! down the rows `i`), which then runs with `j` in vectors inside `i`
//! (0.073 s -> 0.010 s per pass at PolyBench's LARGE on one thread). It
//! is expanded when
//! - every read in it gets its value from a write in the same iteration
//!   of the shared loops (so no write of another iteration comes between
//!   in the source, and the copy of that iteration holds the value),
//! - every read in it has a source in the SCoP (nothing is read from
//!   before it),
//! - no subscript of the variable there uses an expanded loop's iterator
//!   (an array indexed by it has a copy per iteration already),
//! - some statement of it reuses the variable in a loop inside the
//!   shared ones (a reduction: what the expansion frees).
//!
//! Reads outside the web got their values from writes outside it, with
//! no web write between (else that write would be their source), so
//! they still read the variable's right value. The values the web leaves
//! in the variable at the end (writes no later write overwrites) are
//! copied back by a statement appended to the SCoP; that needs them to
//! come from one iteration of the expanded loops, a function of the
//! parameters (doitgen's last `q`), and to fill a convex set of cells.
//! A local nothing reads after the SCoP (`ScopAst::dead_after`) is not
//! copied back: deriche's ten filter states, whose fourteen copies isl
//! fused into the filters' loops, splitting their bands, so that the
//! expanded SCoP was scheduled again without fusion (0.1 s).
//!
//! The expansion rewrites the `ScopAst` (statement text through
//! `Stmt::replace_text`, accesses, iterator uses), so that every later
//! phase sees an ordinary array: doitgen's `sum` gets a row per `q`, and
//! its `(q, r)` band tiles. A scalar web with a home is held in it instead
//! (see `in_place`), its first statement, then `A[i][j] = A[i][j];`,
//! dropped. Which variables to expand is the planner's decision
//! (`plan::expansion`); the new arrays are allocated by the printed code
//! (`emit::versioned`).

use super::copy::{copy_statement, Side};
use crate::frontend::decls::VarDecl;
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::{Access, AccessKind, ScopAst, Stmt};
use crate::model::affine::LinExpr;
use crate::model::isl::{self, FlowResult, IslResult, Map, Set, UnionMap};
use crate::model::{array_tuple, bounds, params_decl, statement_index, Scop};
use crate::names::FreshNames;
use std::ops::Range;

/// An array that holds a variable's copies, one per iteration of the
/// loops it was expanded over.
#[derive(Clone, Debug)]
pub struct ExpandedArray {
    /// The array's name (fresh).
    pub name: String,
    /// The variable it holds the copies of.
    pub variable: String,
    /// The element type: the variable's.
    pub ty: String,
    /// Each dimension's extent over the parameters: the expanded loops',
    /// then the variable's own (not positive only when no statement of
    /// the web runs).
    pub extents: Vec<LinExpr>,
}

/// A SCoP with some variables expanded.
pub struct Expansion {
    pub ast: ScopAst,
    pub arrays: Vec<ExpandedArray>,
    /// Variables held in the cells their values are stored to (see
    /// `in_place`), with that cell as the home statement spells it.
    pub in_place: Vec<(String, String)>,
}

/// Statements of one web, and what expanding it takes.
struct Web {
    variable: String,
    stmts: Vec<usize>,
    /// The expanded loops, by depth.
    loops: Range<usize>,
    /// Lower bound of each expanded loop's iterator over the web.
    lower: Vec<i64>,
    extents: Vec<LinExpr>,
    /// What is copied back into the variable after the SCoP (nothing
    /// for a local dead after it).
    last: Option<LastValues>,
}

/// The values a web leaves in its variable.
struct LastValues {
    /// The iteration of the expanded loops that writes them.
    at: Vec<LinExpr>,
    /// The cells they fill: constraints on the cell's indices (`Dim`)
    /// and the parameters.
    cells: Vec<crate::model::affine::Constraint>,
}

/// The variables of `ast` an expansion might give copies to: scalars
/// and array objects some statement reuses inside a loop it would
/// expand over (no dataflow analysis yet).
pub fn candidates(ast: &ScopAst) -> Vec<String> {
    // A web shares the loops it is expanded over: some write of the
    // variable lies in a loop (adi's coefficients, set outside every
    // loop, never need a plan of their own).
    let written_in_a_loop = |v: &str| {
        ast.stmts
            .iter()
            .filter(|s| !s.iterators.is_empty())
            .flat_map(|s| &s.accesses)
            .any(|a| a.array == v && a.kind == AccessKind::Write)
    };
    let worth = |(variable, decl): &&(String, VarDecl)| {
        loops_to_expand(decl).is_some() && written_in_a_loop(variable) && worth_analysing(ast, variable)
    };
    ast.arrays.iter().filter(worth).map(|(variable, _)| variable.clone()).collect()
}

/// The SCoP with every expandable web of the variables `variables`
/// expanded (new names minted by `names`), or `None` if there is none.
pub fn expand(scop: &Scop, variables: &[String], names: &mut FreshNames) -> IslResult<Option<Expansion>> {
    let mut webs = Vec::new();
    for (variable, decl) in scop.ast.arrays.iter().filter(|(v, _)| variables.contains(v)) {
        let Some(loops) = loops_to_expand(decl) else { continue };
        webs.extend(expandable_webs(scop, variable, loops)?);
    }
    if webs.is_empty() {
        return Ok(None);
    }
    let mut ast = scop.ast.clone();
    let (mut arrays, mut in_place) = (Vec::new(), Vec::new());
    // Each web's home is checked on the program with the earlier webs
    // already in their homes (two sums must not share one cell).
    let mut rewritten: Option<Scop> = None;
    let mut copies_onto_themselves = Vec::new();
    for web in webs {
        let current = rewritten.as_ref().unwrap_or(scop);
        let home = match web.extents.len() == web.loops.len() {
            true => super::in_place::home(current, &web.variable, &web.stmts, web.loops.end)?,
            false => None,
        };
        if let Some(home) = home {
            let onto = Redirect {
                array: home.access.array,
                text: home.text,
                uses: home.uses,
                leading: home.access.subscripts,
            };
            for &k in &web.stmts {
                ast.stmts[k] = redirected(&ast.stmts[k], &web.variable, &onto);
                if assigns_itself(&ast.stmts[k], &onto.text) {
                    copies_onto_themselves.push(k);
                }
            }
            in_place.push((web.variable, onto.text));
            rewritten = Some(Scop::build(ast.clone()).map_err(|e| isl::IslError(format!("{e:?}")))?);
            continue;
        }
        let name = names.mint(&format!("polyc_{}", web.variable));
        let decl = ast.arrays.iter().find(|(a, _)| *a == web.variable).map(|(_, d)| d.clone()).unwrap_or_default();
        let (ty, base) = (decl.ty, decl.base);
        let copy = match &web.last {
            Some(last) => match copy_back(&ast, &web, &name, last, names) {
                Some(copy) => Some(copy),
                None => continue,
            },
            None => None,
        };
        let onto = copies(&ast.stmts[web.stmts[0]], &web, &name);
        for &k in &web.stmts {
            ast.stmts[k] = redirected(&ast.stmts[k], &web.variable, &onto);
        }
        ast.stmts.extend(copy);
        // Reached through a `restrict` pointer to its rows, new memory
        // (see `emit`).
        let decl =
            VarDecl { ty: ty.clone(), base, is_pointer: true, is_restrict: true, is_fresh: true, ..VarDecl::default() };
        ast.arrays.push((name.clone(), decl));
        arrays.push(ExpandedArray { name, variable: web.variable, ty, extents: web.extents });
    }
    // `w = A[i][j];` at home is `A[i][j] = A[i][j];`, which does nothing.
    copies_onto_themselves.sort_unstable();
    for k in copies_onto_themselves.into_iter().rev() {
        ast.stmts.remove(k);
    }
    Ok(Some(Expansion { ast, arrays, in_place }))
}

/// Whether `stmt` is `home = home;`.
fn assigns_itself(stmt: &Stmt, home: &str) -> bool {
    let spaceless = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    spaceless(&stmt.text) == format!("{0}={0};", spaceless(home))
}

/// How many loops a variable declared as `decl` is expanded over at
/// most: two for a scalar, one for a row (an array object, or one
/// reached through a pointer, `VarDecl::is_vector_pointer`: the copies
/// are a new array either way, and the last values go back through the
/// pointer); `None` for what an array cannot hold or other pointers.
fn loops_to_expand(decl: &VarDecl) -> Option<usize> {
    const WORDS: &[&str] = &["double", "float", "int", "long", "short", "char", "signed", "unsigned"];
    let ty = decl.arithmetic_type();
    if ty.is_empty()
        || !ty.split_whitespace().all(|w| WORDS.contains(&w))
        || decl.delinearised.is_some()
        || decl.field.is_some()
    {
        return None;
    }
    match (decl.is_pointer, decl.extents.is_empty()) {
        (true, _) => decl.is_vector_pointer().then_some(1),
        (false, true) => Some(2),
        (false, false) => Some(1),
    }
}

/// Whether some statement reuses `variable` inside a loop (see
/// [`reuses_inside`]): a web's only chance. This needs no dataflow
/// analysis (adi's coefficients, a stencil's rows).
fn worth_analysing(ast: &ScopAst, variable: &str) -> bool {
    ast.stmts.iter().any(|st| reuses_inside(st, variable, 1))
}

/// Whether `st` accesses `variable` in a loop at depth `from` or more
/// whose iterator none of its subscripts of it uses (a reduction into
/// it; for a scalar, any loop): what an expansion over the loops outside
/// that depth frees.
fn reuses_inside(st: &Stmt, variable: &str, from: usize) -> bool {
    let own: Vec<&Access> = st.accesses.iter().filter(|a| a.array == variable).collect();
    !own.is_empty()
        && (from..st.iterators.len())
            .any(|d| own.iter().all(|a| !a.subscripts.iter().any(|e| e.mentions(Var::Iter(d)))))
}

/// The webs of `variable` that may and should be expanded, each over
/// the innermost `loops` loops its statements share, or all of them
/// where they share fewer.
fn expandable_webs(scop: &Scop, variable: &str, loops: usize) -> IslResult<Vec<Web>> {
    let accesses = |kind: AccessKind| {
        UnionMap::from_maps(
            scop.statements
                .iter()
                .flat_map(|s| &s.accesses)
                .filter(|a| a.array == variable && a.kind == kind)
                .map(|a| &a.relation),
        )
    };
    let (reads, writes) = (accesses(AccessKind::Read)?, accesses(AccessKind::Write)?);
    let schedule = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let flow = isl::compute_flow(&reads, Some(&writes), None, &schedule, FlowResult::Must)?.maps()?;
    let overwrites = isl::compute_flow(&writes, Some(&writes), None, &schedule, FlowResult::Must)?.maps()?;
    let mut webs = Vec::new();
    for stmts in webs_by_flow(scop, variable, &flow)? {
        let Some(depth) = shared_depth(scop, &stmts, &flow)? else {
            continue;
        };
        let loops = loops.min(depth);
        if loops == 0 || !stmts.iter().any(|&k| reuses_inside(&scop.ast.stmts[k], variable, depth)) {
            continue;
        }
        let expanded = depth - loops..depth;
        if subscripts_use(scop, variable, &stmts, expanded.clone())
            || !all_reads_sourced(scop, variable, &stmts, &flow)?
        {
            continue;
        }
        let Some((lower, mut extents)) = loop_bounds(scop, &stmts, expanded.clone())? else {
            continue;
        };
        let Some(own) = own_extents(scop, variable, &stmts)? else {
            continue;
        };
        extents.extend(own);
        let last = match scop.ast.dead_after.contains(variable) {
            true => None,
            false => match last_values(scop, variable, &stmts, expanded.clone(), &overwrites)? {
                Some(last) => last,
                None => continue,
            },
        };
        webs.push(Web { variable: variable.to_string(), stmts, loops: expanded, lower, extents, last });
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

/// Whether a subscript of `variable` in `stmts` uses the iterator of one
/// of the `loops`.
fn subscripts_use(scop: &Scop, variable: &str, stmts: &[usize], loops: Range<usize>) -> bool {
    stmts
        .iter()
        .flat_map(|&k| &scop.ast.stmts[k].accesses)
        .filter(|a| a.array == variable)
        .any(|a| a.subscripts.iter().any(|e| loops.clone().any(|d| e.mentions(Var::Iter(d)))))
}

/// Whether every read of `variable` in `stmts` has a source in `flow`.
fn all_reads_sourced(scop: &Scop, variable: &str, stmts: &[usize], flow: &[Map]) -> IslResult<bool> {
    for &k in stmts {
        let name = format!("S{k}");
        for a in scop.statements[k].accesses.iter().filter(|a| a.array == variable && a.kind == AccessKind::Read) {
            let instances = a.relation.domain()?;
            let sourced = union_of(&instances, flow, |m| Ok(m.range_name()? == name), Map::range)?;
            if !instances.is_subset_of(&sourced)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The values the writes of `variable` in `stmts` leave in it (those no
/// later write overwrites, from `overwrites`: each write's previous
/// one): `Some(None)` if there are none, `None` if they cannot be copied
/// back (see the module's documentation).
fn last_values(
    scop: &Scop,
    variable: &str,
    stmts: &[usize],
    loops: Range<usize>,
    overwrites: &[Map],
) -> IslResult<Option<Option<LastValues>>> {
    let (mut last, mut cells): (Vec<(usize, Set)>, Option<Set>) = (Vec::new(), None);
    for &k in stmts {
        let name = format!("S{k}");
        for a in scop.statements[k].accesses.iter().filter(|a| a.array == variable && a.kind == AccessKind::Write) {
            let instances = a.relation.domain()?;
            let overwritten = union_of(&instances, overwrites, |m| Ok(m.domain_name()? == name), Map::domain)?;
            let left = instances.subtract(&overwritten)?;
            if left.is_empty()? {
                continue;
            }
            let filled = a.relation.intersect_domain(&left)?.range()?;
            cells = Some(match cells {
                Some(c) => c.union(&filled)?,
                None => filled,
            });
            last.push((k, left));
        }
    }
    let Some(cells) = cells else {
        return Ok(Some(None));
    };
    let instances: Vec<(usize, &Set)> = last.iter().map(|(k, s)| (*k, s)).collect();
    let mut at = Vec::new();
    for d in loops {
        match scop.value_range(&instances, &format!("i{d}"))? {
            Some((lo, hi)) if is_zero(&hi.sub(&lo)) => at.push(lo),
            _ => return Ok(None),
        }
    }
    match cells.coalesce()?.disjuncts()?.as_slice() {
        [convex] if !convex.iter().any(|c| c.expr.has_floor()) => {
            Ok(Some(Some(LastValues { at, cells: convex.clone() })))
        }
        _ => Ok(None),
    }
}

fn is_zero(e: &LinExpr) -> bool {
    e.terms.iter().all(|(_, c)| *c == 0) && e.constant == 0
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

/// For each of the `loops`: the constant lower bound of its iterator
/// over the statements' instances, and the extent (upper bound over the
/// parameters, minus the lower, plus one). `None` if a bound is not of
/// that form.
fn loop_bounds(scop: &Scop, stmts: &[usize], loops: Range<usize>) -> IslResult<Option<(Vec<i64>, Vec<LinExpr>)>> {
    let (mut lower, mut extents) = (Vec::new(), Vec::new());
    for d in loops {
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

/// The extent of each of `variable`'s dimensions that `stmts` touch:
/// the upper bound of its index over the parameters, plus one; `None`
/// if an index may be negative or a bound is not of that form.
fn own_extents(scop: &Scop, variable: &str, stmts: &[usize]) -> IslResult<Option<Vec<LinExpr>>> {
    match cells_touched(scop, variable, stmts)? {
        Some(cells) => extents_of(scop, variable, &cells),
        None => Ok(None),
    }
}

/// The cells of `variable` that `stmts` touch; `None` if they touch none.
pub(super) fn cells_touched(scop: &Scop, variable: &str, stmts: &[usize]) -> IslResult<Option<Set>> {
    let mut cells: Option<Set> = None;
    for a in stmts.iter().flat_map(|&k| &scop.statements[k].accesses).filter(|a| a.array == variable) {
        let touched = a.relation.range()?;
        cells = Some(match cells {
            Some(c) => c.union(&touched)?,
            None => touched,
        });
    }
    Ok(cells)
}

/// The extent of each dimension of `variable`'s `cells` (see
/// [`own_extents`]).
pub(super) fn extents_of(scop: &Scop, variable: &str, cells: &Set) -> IslResult<Option<Vec<LinExpr>>> {
    let rank = cells.n_dims()?;
    let indices: Vec<String> = (0..rank).map(|j| format!("o{j}")).collect();
    let mut extents = Vec::new();
    for j in 0..rank {
        let project = Map::parse(&format!(
            "{} -> {{ {}[{}] -> [o{j}] }}",
            params_decl(scop.ast.params.len()),
            array_tuple(variable),
            indices.join(", ")
        ))?;
        match bounds(&project.intersect_domain(cells)?.range()?)? {
            Some((lo, hi)) if lo.is_constant() && lo.constant >= 0 => extents.push(hi.add(&LinExpr::constant(1))),
            _ => return Ok(None),
        }
    }
    Ok(Some(extents))
}

/// Where a web's variable is redirected: an array element whose
/// leading subscripts come first, the variable's own after them.
struct Redirect {
    array: String,
    /// The element's text, its own subscripts left out.
    text: String,
    /// Iterator occurrences in `text` (byte range, loop depth).
    uses: Vec<(Range<usize>, usize)>,
    leading: Vec<QExpr>,
}

/// The copy of each iteration of the web's expanded loops in the new
/// array `name`: `name[i - lo0][j - lo1]`, as statements inside them
/// (like `stmt`) spell it.
fn copies(stmt: &Stmt, web: &Web, name: &str) -> Redirect {
    let mut text = name.to_string();
    let mut uses = Vec::new();
    for (d, lo) in web.loops.clone().zip(&web.lower) {
        text.push('[');
        uses.push((text.len()..text.len() + stmt.iterators[d].name.len(), d));
        text.push_str(&stmt.iterators[d].name);
        if *lo != 0 {
            text.push_str(&format!(" {} {}", if *lo > 0 { '-' } else { '+' }, lo.abs()));
        }
        text.push(']');
    }
    let leading = web
        .loops
        .clone()
        .zip(&web.lower)
        .map(|(d, lo)| QExpr::minus(QExpr::Var(Var::Iter(d)), QExpr::Const(*lo)))
        .collect();
    Redirect { array: name.to_string(), text, uses, leading }
}

/// `stmt` with every access to `variable` redirected `onto` another
/// element: `x` to `name[i - lo0][j - lo1]` or its home `A[i][j]`, `x[p]`
/// to `name[i - lo0][p]`.
fn redirected(stmt: &Stmt, variable: &str, onto: &Redirect) -> Stmt {
    let mut out = stmt.clone();
    let mut names: Vec<Range<usize>> = stmt
        .accesses
        .iter()
        .filter(|a| a.array == variable)
        .map(|a| a.span.start - stmt.span.start..a.span.start - stmt.span.start + variable.len())
        .collect();
    names.sort_by_key(|r| std::cmp::Reverse(r.start));
    names.dedup();
    for span in names {
        out.replace_text(span, &onto.text, onto.uses.clone());
    }
    for a in out.accesses.iter_mut().filter(|a| a.array == variable) {
        a.array = onto.array.clone();
        a.subscripts = onto.leading.iter().cloned().chain(a.subscripts.drain(..)).collect();
    }
    out
}

/// The statement, run after the SCoP, that copies the web's last values
/// from their copies back into its variable: `x[c0] = name[at - lo][c0];`
/// over the cells they fill. `None` if an expression has a floor.
fn copy_back(ast: &ScopAst, web: &Web, name: &str, last: &LastValues, names: &mut FreshNames) -> Option<Stmt> {
    let copy: Vec<LinExpr> = last.at.iter().zip(&web.lower).map(|(at, lo)| at.add(&LinExpr::constant(-lo))).collect();
    let order: Vec<usize> = (0..web.extents.len() - web.loops.len()).collect();
    let write = Side { array: &web.variable, leading: &[], order: &order };
    let read = Side { array: name, leading: &copy, order: &order };
    copy_statement(ast, &last.cells, [write, read], &web.variable, names)
}
