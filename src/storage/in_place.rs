//! In-place expansion: a scalar web (see `expand`) that ends by storing
//! its value into an array cell of its iteration (`w = A[i][j]; w -= ..;
//! A[i][j] = w / ..;`, `s = 0; s += ..; C[i][j] = s;`) can hold its
//! copy of each iteration in that cell rather than in new memory: the
//! cell is its *home*. ludcmp's first nest then becomes lu, with no
//! array beside `A` (its peak memory halves at N = 2000).
//!
//! Under the original schedule the rewritten program computes the same
//! when, for every iteration `I` of the loops the web shares,
//! - the home statement is the web's last instance in `I` (after it, no
//!   read of the variable would find its value in the cell);
//! - no instance, of the web or not, touches the home cell strictly
//!   between the web's first instance in `I` and that last one, and the
//!   home statement reads the cell only through the variable (those
//!   would see the variable's value instead of the cell's);
//! - distinct iterations have distinct home cells;
//! - nothing reads the variable after the SCoP, and no read outside the
//!   web takes a value from it (a web's reads are its own, see `expand`),
//!   so the values it no longer leaves in the variable are not missed.
//!
//! The rewritten SCoP is modelled and planned anew with all its
//! dependences, so every later transformation is checked as usual.
//!
//! ludcmp's `w` at N = 2000 peaked at 78 MB expanded into a heap copy, at
//! 33 MB in place, as the source does, and ran faster.

use crate::frontend::{Access, AccessKind, Stmt};
use crate::model::isl::{IslResult, Map};
use crate::model::{params_decl, Scop};
use crate::schedule::{
    analysis::{prefix_relation, Then},
    Scattering,
};
use std::ops::Range;

/// The cell a web's variable lives in: the home statement's write.
pub struct Home {
    /// The write, with its subscripts over the shared loops' iterators.
    pub access: Access,
    /// Its text, as the home statement spells it.
    pub text: String,
    /// Iterator occurrences in `text` (byte range, loop depth).
    pub uses: Vec<(Range<usize>, usize)>,
}

/// The home of the web `stmts` of the scalar `variable`, whose
/// statements share `depth` loops, if it has one (see the module docs).
pub fn home(scop: &Scop, variable: &str, stmts: &[usize], depth: usize) -> IslResult<Option<Home>> {
    if depth == 0 || !scop.ast.dead_after.contains(variable) {
        return Ok(None);
    }
    let sc = Scattering::original(scop);
    let per_iteration =
        |k: usize, m: &Map| -> IslResult<Map> { iteration_of(scop, k, depth)?.reverse()?.apply_range(m) };
    let mut times: Option<Map> = None;
    for &k in stmts {
        let t = per_iteration(k, &sc.maps[k])?;
        times = Some(match times {
            Some(all) => all.union(&t)?,
            None => t,
        });
    }
    let Some(times) = times else { return Ok(None) };
    let (first, last) = (times.lexmin()?, times.lexmax()?);
    for &h in stmts.iter().filter(|&&h| scop.ast.stmts[h].iterators.len() == depth) {
        let Some(write) = home_write(scop, variable, h, depth) else { continue };
        let at = per_iteration(h, &sc.maps[h])?;
        if !(at.is_subset_of(&last)? && last.is_subset_of(&at)?) {
            continue;
        }
        let relation = &scop.statements[h].accesses[write].relation;
        let cell = per_iteration(h, relation)?;
        if !cell.reverse()?.is_single_valued()? || touched_between(scop, &sc, &cell, &first, &at)? {
            continue;
        }
        if reads_home_besides(scop, h, write, &cell, depth)? {
            continue;
        }
        return Ok(Some(spelled(&scop.ast.stmts[h], write)));
    }
    Ok(None)
}

/// The index of the access of statement `h` that may be a home: its
/// write to an array cell whose subscripts use only the `depth` shared
/// loops, in a statement that reads `variable`.
fn home_write(scop: &Scop, variable: &str, h: usize, depth: usize) -> Option<usize> {
    let ast = &scop.ast.stmts[h];
    let reads_variable = ast.accesses.iter().any(|a| a.array == variable && a.kind == AccessKind::Read);
    let uses_inner = |a: &Access| {
        a.subscripts
            .iter()
            .any(|e| (depth..ast.iterators.len()).any(|d| e.mentions(crate::frontend::qexpr::Var::Iter(d))))
    };
    ast.accesses.iter().position(|a| {
        reads_variable
            && a.kind == AccessKind::Write
            && a.array != variable
            && !a.subscripts.is_empty()
            && !uses_inner(a)
    })
}

/// `S_k[i..] -> [i0 .. i(depth-1)]` on statement `k`'s instances.
fn iteration_of(scop: &Scop, k: usize, depth: usize) -> IslResult<Map> {
    let n = scop.ast.stmts[k].iterators.len();
    let dims = |m: usize| (0..m).map(|d| format!("i{d}")).collect::<Vec<_>>().join(", ");
    let map = Map::parse(&format!(
        "{} -> {{ {}[{}] -> [{}] }}",
        params_decl(scop.ast.params.len()),
        scop.statements[k].name,
        dims(n),
        dims(depth)
    ))?;
    map.intersect_domain(&scop.statements[k].domain)
}

/// Whether some access of any statement to the home array reaches the
/// home cell of an iteration (`cell`) strictly between the web's first
/// instance there (`first`) and its last (`last`), in the original order.
fn touched_between(scop: &Scop, sc: &Scattering, cell: &Map, first: &Map, last: &Map) -> IslResult<bool> {
    let array = cell.range_name()?;
    let mut touching: Option<Map> = None;
    for (k, st) in scop.statements.iter().enumerate() {
        for a in st.accesses.iter().filter(|a| crate::model::array_tuple(&a.array) == array) {
            let at = sc.maps[k].intersect_domain(&st.domain)?.reverse()?.apply_range(&a.relation)?;
            touching = Some(match touching {
                Some(all) => all.union(&at)?,
                None => at,
            });
        }
    }
    let Some(touching) = touching else { return Ok(false) };
    let when = cell.apply_range(&touching.reverse()?)?;
    let before = precedes(scop.ast.params.len(), sc.dims)?;
    let between = when.intersect(&first.apply_range(&before)?)?.intersect(&last.apply_range(&before.reverse()?)?)?;
    Ok(!between.is_empty()?)
}

/// Whether statement `h` reads its home cell (`cell`) other than through
/// the variable: after the rewrite it would read the variable's value.
fn reads_home_besides(scop: &Scop, h: usize, write: usize, cell: &Map, depth: usize) -> IslResult<bool> {
    let accesses = &scop.statements[h].accesses;
    let home = &accesses[write];
    for a in accesses.iter().filter(|a| a.kind == AccessKind::Read && a.array == home.array) {
        let read = iteration_of(scop, h, depth)?.reverse()?.apply_range(&a.relation)?;
        if !read.intersect(cell)?.is_empty()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `{ [c] -> [d] : c lexicographically before d }` over `dims` dimensions.
fn precedes(n_params: usize, dims: usize) -> IslResult<Map> {
    let mut before = prefix_relation(n_params, dims, 0, Then::Later)?;
    for k in 1..dims {
        before = before.union(&prefix_relation(n_params, dims, k, Then::Later)?)?;
    }
    Ok(before)
}

/// The home `write` of statement `stmt`, with its text and iterator uses.
fn spelled(stmt: &Stmt, write: usize) -> Home {
    let access = stmt.accesses[write].clone();
    let range = access.span.start - stmt.span.start..access.span.end - stmt.span.start;
    let uses = stmt
        .iter_uses
        .iter()
        .filter(|(r, _)| range.start <= r.start && r.end <= range.end)
        .map(|(r, d)| (r.start - range.start..r.end - range.start, *d))
        .collect();
    Home { text: stmt.text[range].to_string(), access, uses }
}
