//! Transposed copies of read-only operands: BLAS's packing, for the
//! matrices a contraction reads along their columns.
//!
//! `C[i][j] += A[i][k] * A[j][k]` (syrk, syr2k, any product with a
//! transpose) has one good vector loop, `j`, which walks the rows of `C`,
//! and `A` down a column: every vector lane a row of `A` apart. Its other
//! loops are worse: `k` carries the sum (a vector reduction would change
//! the order of the additions), `i` walks `C` down a column too. So the
//! source runs one scalar multiply-add per element loaded. A copy of `A`
//! with its dimensions swapped, `polyc_A_t[k][j] = A[j][k]`, made once
//! before the loops, turns that column into a row: the planner then finds
//! `j` innermost with every access contiguous or invariant, vectorised
//! and unrolled and jammed like a matrix product (PolyBench syrk at LARGE
//! 0.245 s -> 0.048 s on one thread). The sums run in the source's order:
//! the output is bit for bit the same.
//!
//! An array is copied when
//! - the SCoP only reads it, with two subscripts, unconditionally, and
//!   it is an array in memory (not a table of row pointers, a split
//!   linear subscript or a struct member);
//! - some statement writes an element whose last subscript is one of its
//!   iterators `x` (its vector loop) and reads the array with `x` in the
//!   first subscript only, in a loop whose iterator the read does not use
//!   (the copy's cost is a fraction of the reads it serves: no copy for a
//!   matrix-vector product);
//! - no statement reads it with its own vector iterator in the last
//!   subscript (which the copy would turn into a column walk: gemm's `B`);
//! - the statements that gain are not matrix products on packed panels
//!   (`plan::packing`): their panels are copies already, and a copy that
//!   reads the operand in order costs less than a transposed one (syr2k
//!   at LARGE on one thread: 0.078 s without, 0.091 s with).
//!
//! The copy runs first, over exactly the cells the SCoP reads (one convex
//! set, else no copy), so it reads nothing the source does not; the new
//! array is allocated on the heap like an expanded variable's
//! (`emit::versioned`, the source text where that fails). Every read of
//! the array is redirected to it, its subscripts swapped, so that every
//! later phase sees an ordinary array.

use super::copy::{copy_statement, Side};
use super::expand::{cells_touched, extents_of, ExpandedArray};
use crate::frontend::decls::VarDecl;
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::{Access, AccessKind, ScopAst, Stmt};
use crate::model::isl::{IslResult, Set};
use crate::model::Scop;
use crate::names::FreshNames;
use std::ops::Range;

/// A SCoP whose reads of some arrays go to transposed copies of them.
pub struct Transposition {
    pub ast: ScopAst,
    /// The copies, to allocate (`variable`: the array copied).
    pub arrays: Vec<ExpandedArray>,
}

/// `scop` with a transposed copy of each array that gains by one (see
/// the module's doc), new names minted by `names`; `None` if none does.
/// The statements `packed` gain nothing.
pub fn transpose(scop: &Scop, names: &mut FreshNames, packed: &[usize]) -> IslResult<Option<Transposition>> {
    let ast = &scop.ast;
    if ast.has_filters() || ast.has_multifor() {
        return Ok(None);
    }
    let every: Vec<usize> = (0..ast.stmts.len()).collect();
    let (mut out, mut arrays, mut copies) = (ast.clone(), Vec::new(), Vec::new());
    for (array, decl) in ast.arrays.iter().filter(|(a, d)| only_read_as_matrix(ast, a, d) && gains(ast, a, packed)) {
        let Some(read) = cells_touched(scop, array, &every)? else { continue };
        let Some(extents) = extents_of(scop, array, &read)? else { continue };
        let Some(cells) = convex(&read)? else { continue };
        let name = names.mint(&format!("polyc_{array}_t"));
        let Some(redirected) = reads_redirected(&out, array, &name) else { continue };
        let write = Side { array: &name, leading: &[], order: &[1, 0] };
        let read = Side { array, leading: &[], order: &[0, 1] };
        let Some(copy) = copy_statement(&out, &cells, [write, read], array, names) else { continue };
        out = redirected;
        copies.push(copy);
        let new = VarDecl {
            ty: decl.ty.clone(),
            base: decl.base.clone(),
            is_pointer: true,
            is_restrict: true,
            is_fresh: true,
            ..VarDecl::default()
        };
        out.arrays.push((name.clone(), new));
        let extents = vec![extents[1].clone(), extents[0].clone()];
        arrays.push(ExpandedArray { name, variable: array.clone(), ty: decl.ty.clone(), extents });
    }
    if copies.is_empty() {
        return Ok(None);
    }
    run_first(&mut out, copies);
    Ok(Some(Transposition { ast: out, arrays }))
}

/// Whether the SCoP only reads `array`, always with two subscripts and
/// unconditionally, and it is a matrix in memory whose cells a copy can
/// read as the source does.
fn only_read_as_matrix(ast: &ScopAst, array: &str, decl: &VarDecl) -> bool {
    let in_memory = decl.is_array()
        && decl.delinearised.is_none()
        && decl.field.is_none()
        && decl.row_loads(2).is_empty()
        && decl.shows_levels(2);
    let mut accesses = ast.stmts.iter().flat_map(|s| &s.accesses).filter(|a| a.array == array).peekable();
    in_memory
        && accesses.peek().is_some()
        && accesses.all(|a| a.kind == AccessKind::Read && a.subscripts.len() == 2 && !a.conditional)
}

/// Whether a transposed copy of `array` turns some read of it, outside
/// the statements `packed`, into a row walk along its statement's vector
/// loop, in a loop the read does not use, and no read into a column walk.
fn gains(ast: &ScopAst, array: &str, packed: &[usize]) -> bool {
    let mut gained = false;
    for (k, s) in ast.stmts.iter().enumerate() {
        let Some(x) = vector_iterator(s) else { continue };
        for a in s.accesses.iter().filter(|a| a.array == array) {
            let [first, last] = &a.subscripts[..] else { return false };
            if last.mentions(Var::Iter(x)) {
                return false;
            }
            gained |= first.mentions(Var::Iter(x)) && reused(s, a) && !packed.contains(&k);
        }
    }
    gained
}

/// The loop (by depth) along which the statement writes consecutive
/// elements: the last subscript of a write, if it is a plain iterator.
fn vector_iterator(s: &Stmt) -> Option<usize> {
    s.accesses.iter().filter(|a| a.kind == AccessKind::Write).find_map(|a| match a.subscripts.last() {
        Some(QExpr::Var(Var::Iter(x))) => Some(*x),
        _ => None,
    })
}

/// Whether a loop around `s` leaves the element `a` reads unchanged.
fn reused(s: &Stmt, a: &Access) -> bool {
    (0..s.iterators.len()).any(|d| !a.subscripts.iter().any(|q| q.mentions(Var::Iter(d))))
}

/// `cells` as constraints on their indices (`Dim`) and the parameters,
/// if they form one convex set without floors.
fn convex(cells: &Set) -> IslResult<Option<Vec<crate::model::affine::Constraint>>> {
    Ok(match cells.coalesce()?.disjuncts()?.as_slice() {
        [convex] if !convex.iter().any(|c| c.expr.has_floor()) => Some(convex.clone()),
        _ => None,
    })
}

/// `ast` with every read of `array` redirected to `name`, its two
/// subscripts swapped; `None` if some read's text is not `array[..][..]`.
fn reads_redirected(ast: &ScopAst, array: &str, name: &str) -> Option<ScopAst> {
    let mut out = ast.clone();
    for stmt in &mut out.stmts {
        let mut reads: Vec<usize> = (0..stmt.accesses.len()).filter(|&k| stmt.accesses[k].array == array).collect();
        // The last first: a replacement moves the text after it.
        reads.sort_by_key(|&k| std::cmp::Reverse(stmt.accesses[k].span.start));
        for k in reads {
            swap_subscripts(stmt, k, name)?;
        }
    }
    Some(out)
}

/// Rewrite the access `k` of `stmt`, `A[s0][s1]`, as `name[s1][s0]`.
fn swap_subscripts(stmt: &mut Stmt, k: usize, name: &str) -> Option<()> {
    let a = &stmt.accesses[k];
    let range = a.span.start.checked_sub(stmt.span.start)?..a.span.end.checked_sub(stmt.span.start)?;
    let after_name = range.start + a.array.len();
    let rest = stmt.text.get(range.clone())?.strip_prefix(a.array.as_str())?;
    let [s0, s1] = two_subscripts(rest)?.map(|r| r.start + after_name..r.end + after_name);
    let text = format!("{name}[{}][{}]", &stmt.text[s1.clone()], &stmt.text[s0.clone()]);
    let at1 = name.len() + 1;
    let at0 = at1 + s1.len() + 2;
    let moved = |(u, d): &(Range<usize>, usize)| {
        let (from, to) = if s1.contains(&u.start) { (&s1, at1) } else { (&s0, at0) };
        (u.start - from.start + to..u.end - from.start + to, *d)
    };
    let uses =
        stmt.iter_uses.iter().filter(|(u, _)| s0.contains(&u.start) || s1.contains(&u.start)).map(moved).collect();
    stmt.replace_text(range, &text, uses);
    let a = &mut stmt.accesses[k];
    a.array = name.to_string();
    a.subscripts.swap(0, 1);
    Some(())
}

/// The bytes inside each of exactly two brackets that make up `text`
/// (`[j][k]`, spaces around them allowed); `None` for anything else,
/// a comment or a literal included.
fn two_subscripts(text: &str) -> Option<[Range<usize>; 2]> {
    if text.contains(['"', '\'']) || text.contains("/*") || text.contains("//") {
        return None;
    }
    let (mut ranges, mut depth, mut open) = (Vec::new(), 0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => {
                if depth == 0 {
                    open = i + 1;
                }
                depth += 1;
            }
            ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    ranges.push(open..i);
                }
            }
            c if depth == 0 && !c.is_whitespace() => return None,
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    ranges.try_into().ok()
}

/// Put `copies` before every statement of `ast`, in their order.
fn run_first(ast: &mut ScopAst, mut copies: Vec<Stmt>) {
    for s in &mut ast.stmts {
        if let Some(b) = s.beta.first_mut() {
            *b += copies.len();
        }
    }
    for (k, copy) in copies.iter_mut().enumerate() {
        copy.beta[0] = k;
    }
    copies.append(&mut ast.stmts);
    ast.stmts = copies;
}

#[cfg(test)]
mod tests {
    use super::two_subscripts;

    #[test]
    fn two_subscripts_are_found_and_nothing_else() {
        assert_eq!(two_subscripts("[j][k]"), Some([1..2, 4..5]));
        assert_eq!(two_subscripts(" [a[i]] [k + 1]"), Some([2..6, 9..14]));
        assert_eq!(two_subscripts("[j]"), None);
        assert_eq!(two_subscripts("[j][k][l]"), None);
        assert_eq!(two_subscripts("[j].x[k]"), None);
        assert_eq!(two_subscripts("[j /* c */][k]"), None);
        assert_eq!(two_subscripts("[j]][k]"), None);
    }
}
