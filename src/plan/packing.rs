//! Matrix products (contractions) on packed panels, the way BLAS libraries
//! compute them.
//!
//! A matrix product is `X[i][j] += L * R` over a box of `(i, j, k)`, or
//! a box cut by bounds on `j - i` or on `k - i` (a triangle or a band),
//! where `L` reads only `i` and `k` and `R` reads only `k` and `j`. gemm,
//! 2mm, 3mm, syrk, covariance and correlation are matrix products, and
//! so are trmm's update (`k > i`) and symm's two (`k < i`, `i > k`);
//! syr2k sums two (`X[i][j] += L * R + L2 * R2`), each with panels of its
//! own. Tiles and unroll-and-jam reach about 70% of dgemm's speed on
//! them. What a BLAS does beyond that is to copy each
//! operand into panels: `L` into panels of a few rows, `R` into panels of
//! a few columns, each laid out so that the values one step of `k` needs
//! are contiguous. A block of `X` then stays in registers while `k` runs.
//! `emit::packed` prints that code. This module decides which statements
//! get it.
//!
//! The result is bit for bit the source's. Each element still sums its
//! products in the source's order of `k`, and each product is still
//! `L * R` of the same two values: a panel holds the value of `L` that
//! the source computes first. Multiplication commutes exactly, so the
//! printed code may put `R`'s factor first.
//!
//! A statement qualifies when all of these hold:
//! - it has three iterators, all ascending, and no condition on data;
//! - its text is an accumulated product or sum of two (`frontend::update`)
//!   whose factors only read; the column factors may read elements of
//!   `X` that the statement writes only later, in the source's order and
//!   in the order of `k` (trmm's rows below the one written), the row
//!   factors none;
//! - the iterators of `X`'s last subscript and of its others split each
//!   product's factors into one over `(i, k)` and one over `(k, j)`;
//! - different `(i, j)` write different elements of `X`;
//! - its domain is a box, or a box and bounds on `j - i` or on `k - i`,
//!   where each row, column and step of the sum between the box's bounds
//!   has instances. Then each factor's values are read for every pair of
//!   their iterators (within the bounds on `k - i`), as the panels read
//!   them;
//! - the plan gives it a loop nest of its own, so its instances run
//!   together, between those of the other statements.
//!
//! The plan must also ask for tiles whose sizes polyc chooses (not SICA's),
//! and SIMD loops.

use super::pieces::Piece;
use crate::frontend::qexpr::Var;
use crate::frontend::update::{product_update, Term, Update};
use crate::frontend::{Access, AccessKind, Stmt};
use crate::model::affine::LinExpr;
use crate::model::isl::{self, IslResult, Map, Set};
use crate::model::{self, hull_bounds, params_decl, Scop};
use crate::options::{PlanRequest, TileShape};
use crate::schedule::{Nest, Scattering, Violation};
use std::ops::Range;

/// A statement computed on packed panels.
#[derive(Clone, Debug)]
pub struct PackedProduct {
    pub stmt: usize,
    /// The ids under which the scanner's loops hold its instances: the
    /// statement's own and those of its pieces (`Plan::pieces`).
    pub ids: Vec<usize>,
    /// Iterator depths: rows of `X` (in the row factor), columns of `X`
    /// (its last subscript, in the column factor), and the sum.
    pub row: usize,
    pub col: usize,
    pub sum: usize,
    /// Byte ranges of the statement's text.
    pub target: Range<usize>,
    /// The products, each with its factor over rows and the sum first,
    /// then the one over the sum and columns.
    pub terms: Vec<Term>,
    pub subtract: bool,
    /// Each iterator's first and last value over the parameters, by depth.
    pub bounds: Vec<(LinExpr, LinExpr)>,
    /// Bounds on `i_across - row`, where they cut the box.
    pub band: Option<Band>,
    /// Whether the copies into the row panels, then the column panels,
    /// run the sum innermost: where the first factor's last subscript
    /// walks it, so that the copy reads memory in order.
    pub sum_inner: [bool; 2],
}

/// The least and greatest `i_across - row`, where `across` is the depth of
/// the columns (a triangle of the target: syrk) or of the sum (a triangle
/// of the row factor: trmm, whose rows sum only below the diagonal).
#[derive(Clone, Debug)]
pub struct Band {
    pub across: usize,
    pub low: LinExpr,
    pub high: LinExpr,
}

/// The statements of a plan (its `scattering` and `pieces`) computed on
/// packed panels, where `request` asks for them.
pub fn packed_products(
    scop: &Scop,
    scattering: &Scattering,
    pieces: &[Piece],
    request: &PlanRequest,
) -> IslResult<Vec<PackedProduct>> {
    if !asks_for_packing(request) {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for nest in scattering.nests(scop.ast.params.len())? {
        let [k] = nest.scattering.stmts[..] else { continue };
        if let Some(mut c) = product(scop, k)? {
            let n = scop.statements.len();
            c.ids.extend(pieces.iter().enumerate().filter(|(_, p)| p.stmt == k).map(|(p, _)| n + p));
            found.push(c);
        }
    }
    Ok(found)
}

/// The statements of `scop` that are matrix products, where `request`
/// asks for packed panels: those the plan gives a nest of their own will
/// run on them.
pub(crate) fn packable(scop: &Scop, request: &PlanRequest) -> IslResult<Vec<usize>> {
    if !asks_for_packing(request) {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for k in 0..scop.statements.len() {
        if product(scop, k)?.is_some() {
            found.push(k);
        }
    }
    Ok(found)
}

/// isl's `nests` (verified, with their distances), each of `products`
/// (see [`packable`]) that shares its nest with other statements split
/// off into a nest of its own, after the others (gemm's `C *= beta`
/// first) or else before them, where `verify` accepts that order.
pub(super) fn products_apart(
    scop: &Scop,
    products: &[usize],
    mut nests: Vec<(Nest, Set)>,
    verify: impl Fn(&Scattering) -> Result<Vec<(Nest, Set)>, Violation>,
) -> IslResult<Vec<(Nest, Set)>> {
    let n_params = scop.ast.params.len();
    let mut at = 0;
    while at < nests.len() {
        let shared = &nests[at].0;
        let stmts = &shared.scattering.stmts;
        let candidates: Vec<usize> =
            stmts.iter().copied().filter(|k| stmts.len() > 1 && products.contains(k)).collect();
        let mut split = None;
        for (k, after) in candidates.into_iter().flat_map(|k| [(k, true), (k, false)]) {
            let mut apart: Vec<Nest> = nests.iter().map(|(n, _)| n.clone()).collect();
            let [others, alone] = split_off(&apart[at], k, after);
            apart.splice(at..=at, [others, alone]);
            match verify(&Scattering::join(&apart, n_params)?) {
                Ok(verified) => {
                    split = Some(verified);
                    break;
                }
                Err(Violation::Isl(e)) if isl::out_of_budget() => return Err(e),
                Err(_) => {}
            }
        }
        match split {
            Some(verified) => nests = verified,
            None => at += 1,
        }
    }
    Ok(nests)
}

/// How many of `products` (statements, see [`packable`]) `nests` give a
/// nest of their own, and whether some product shares its nest: the
/// packed panels a schedule keeps and those it forgoes.
pub(super) fn products_alone(products: &[usize], nests: &[(Nest, Set)]) -> (usize, bool) {
    let (mut alone, mut shared) = (0, false);
    for (nest, _) in nests {
        let stmts = &nest.scattering.stmts;
        let found = stmts.iter().filter(|k| products.contains(k)).count();
        alone += if stmts.len() == 1 { found } else { 0 };
        shared |= stmts.len() > 1 && found > 0;
    }
    (alone, shared)
}

/// `nest` as two: its statements but `k`, and `k`, one after the other
/// (`k` after when `after`).
fn split_off(nest: &Nest, k: usize, after: bool) -> [Nest; 2] {
    let sc = &nest.scattering;
    let part = |keep: &dyn Fn(usize) -> bool, position: i64| {
        let (stmts, maps) =
            sc.stmts.iter().zip(&sc.maps).filter(|(&s, _)| keep(s)).map(|(&s, m)| (s, m.clone())).unzip();
        let prefix = [nest.prefix.as_slice(), &[position]].concat();
        Nest { prefix, scattering: Scattering { stmts, maps, dims: sc.dims } }
    };
    let (others, alone) = if after { (0, 1) } else { (1, 0) };
    [part(&|s| s != k, others), part(&|s| s == k, alone)]
}

/// Packing is a way of tiling: it replaces the rectangles polyc would
/// choose (diamonds and hexagons fall back to them on a product, which
/// has no time loop), not tiles the user sized or SICA's.
fn asks_for_packing(request: &PlanRequest) -> bool {
    let chosen_tiles = request.tile.as_ref().is_some_and(|t| t.shape != TileShape::Sica && t.sizes.is_empty());
    chosen_tiles && request.simd
}

/// Statement `k` as a matrix product, if it is one (see the module's doc).
fn product(scop: &Scop, k: usize) -> IslResult<Option<PackedProduct>> {
    let stmt = &scop.ast.stmts[k];
    let plain = stmt.iterators.len() == 3
        && stmt.iterators.iter().all(|it| !it.descending)
        && stmt.filters.is_empty()
        && stmt.sets.is_none()
        && stmt.referential.iter().all(Option::is_none);
    let Some(update) = plain.then(|| product_update(&stmt.text)).flatten() else { return Ok(None) };
    let Some(target) = accumulated_array(stmt, &update) else { return Ok(None) };
    let Some((row, col, terms)) = roles(stmt, &update) else { return Ok(None) };
    let sum = 3 - row - col;
    if !writes_apart(scop, k, target, [row, col])? || !target_read_before_written(scop, k, target, &terms, sum)? {
        return Ok(None);
    }
    let Some((bounds, band)) = banded_box(scop, k, [row, col, sum])? else { return Ok(None) };
    let sum_inner = [0, 1].map(|side| walks_sum(stmt, &terms[0].factors[side], sum));
    Ok(Some(PackedProduct {
        stmt: k,
        ids: vec![k],
        row,
        col,
        sum,
        target: update.target,
        terms,
        subtract: update.subtract,
        bounds,
        band,
        sum_inner,
    }))
}

/// Whether the first array `factor` reads has the sum's iterator in its
/// last subscript.
fn walks_sum(stmt: &Stmt, factor: &Range<usize>, sum: usize) -> bool {
    let in_factor = |a: &&Access| {
        !a.subscripts.is_empty()
            && stmt.relative_span(&a.span).is_some_and(|r| factor.start <= r.start && r.end <= factor.end)
    };
    let first = stmt.accesses.iter().find(in_factor);
    first.and_then(|a| a.subscripts.last()).is_some_and(|last| last.mentions(Var::Iter(sum)))
}

/// The array `update` accumulates into, if the statement writes only
/// it, once, and its factors only read, unconditionally.
fn accumulated_array<'s>(stmt: &'s Stmt, update: &Update) -> Option<&'s str> {
    let within = |inner: &Range<usize>, outer: &Range<usize>| outer.start <= inner.start && inner.end <= outer.end;
    let mut writes = stmt.accesses.iter().filter(|a| a.kind == AccessKind::Write);
    let write = writes.next().filter(|_| writes.next().is_none())?;
    (stmt.relative_span(&write.span)? == update.target).then_some(())?;
    let target = write.array.as_str();
    for a in &stmt.accesses {
        let span = stmt.relative_span(&a.span)?;
        let in_factor = update.terms.iter().flat_map(|t| &t.factors).any(|f| within(&span, f));
        let fine = if in_factor { a.kind == AccessKind::Read && !a.conditional } else { a.array == target };
        fine.then_some(())?;
    }
    Some(target)
}

/// Whether each element of `target` that a factor of statement `k` reads
/// holds, when its panel is copied, the value the source reads: the
/// statement writes it only after the read, in the source's order and
/// at the same step of the sum or a later one. Then the read sees the
/// value from before the statement, since the panels of a step are copied
/// before any block of that step stores. The row factors are copied per
/// block of rows while other threads store theirs, so they may not read
/// the target at all. trmm's column factor reads the rows below the one
/// each instance writes.
fn target_read_before_written(scop: &Scop, k: usize, target: &str, terms: &[Term], sum: usize) -> IslResult<bool> {
    let (stmt, statement) = (&scop.ast.stmts[k], &scop.statements[k]);
    let within = |factor: &Range<usize>, span: &Range<usize>| {
        stmt.relative_span(span).is_some_and(|r| factor.start <= r.start && r.end <= factor.end)
    };
    let reads = statement.accesses.iter().filter(|a| a.array == target && a.kind == AccessKind::Read);
    let mut column_reads = Vec::new();
    for a in reads {
        if terms.iter().any(|t| within(&t.factors[0], &a.span)) {
            return Ok(false);
        }
        if terms.iter().any(|t| within(&t.factors[1], &a.span)) {
            column_reads.push(&a.relation);
        }
    }
    let Some(write) = statement.accesses.iter().find(|a| a.array == target && a.kind == AccessKind::Write) else {
        return Ok(false);
    };
    let name = &statement.name;
    let later = Map::parse(&format!(
        "{} -> {{ {name}[i0, i1, i2] -> {name}[o0, o1, o2] : i{sum} <= o{sum} and \
         (i0 < o0 or (i0 = o0 and i1 < o1) or (i0 = o0 and i1 = o1 and i2 <= o2)) }}",
        params_decl(scop.ast.params.len())
    ))?;
    for read in column_reads {
        let written_by = read.apply_range(&write.relation.reverse()?)?;
        if !written_by.is_subset_of(&later)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The row and column depths, and the terms with their factors ordered
/// over `(row, sum)`, then `(sum, col)`: the column is the iterator of the
/// target's last subscript, the row the other one it reads.
fn roles(stmt: &Stmt, update: &Update) -> Option<(usize, usize, Vec<Term>)> {
    let uses = |range: &Range<usize>| -> u8 {
        stmt.iter_uses
            .iter()
            .filter(|(r, _)| range.start <= r.start && r.end <= range.end)
            .fold(0, |bits, (_, depth)| bits | 1 << depth)
    };
    let in_target = uses(&update.target);
    let in_last = uses(&last_subscript(&stmt.text, &update.target)?);
    if in_target.count_ones() != 2 || in_last.count_ones() != 1 || in_target & in_last == 0 {
        return None;
    }
    let (row_bit, col_bit) = (in_target & !in_last, in_last);
    let sum_bit = 0b111 & !in_target;
    let over = |factor: &Range<usize>, bits: u8| uses(factor) & !bits == 0;
    let mut terms = Vec::new();
    for term in &update.terms {
        let [first, second] = term.factors.clone();
        let factors = if over(&first, row_bit | sum_bit) && over(&second, sum_bit | col_bit) {
            [first, second]
        } else if over(&second, row_bit | sum_bit) && over(&first, sum_bit | col_bit) {
            [second, first]
        } else {
            return None;
        };
        terms.push(Term { factors, minus: term.minus });
    }
    Some((row_bit.trailing_zeros() as usize, col_bit.trailing_zeros() as usize, terms))
}

/// The bytes inside the last `[...]` of `target`, which ends with it.
fn last_subscript(text: &str, target: &Range<usize>) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let end = target.end.checked_sub(1).filter(|&e| bytes.get(e) == Some(&b']'))?;
    let mut depth = 0usize;
    for at in (target.start..end).rev() {
        match bytes[at] {
            b']' => depth += 1,
            b'[' if depth == 0 => return Some(at + 1..end),
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether instances of statement `k` at different `(row, col)` write
/// different elements of `array`.
fn writes_apart(scop: &Scop, k: usize, array: &str, [row, col]: [usize; 2]) -> IslResult<bool> {
    let statement = &scop.statements[k];
    let Some(write) = statement.accesses.iter().find(|a| a.kind == AccessKind::Write && a.array == array) else {
        return Ok(false);
    };
    let same_cell = write.relation.apply_range(&write.relation.reverse()?)?;
    let name = &statement.name;
    let same_place = Map::parse(&format!(
        "{} -> {{ {name}[i0, i1, i2] -> {name}[o0, o1, o2] : o{row} = i{row} and o{col} = i{col} }}",
        params_decl(scop.ast.params.len())
    ))?;
    same_cell.is_subset_of(&same_place)
}

/// Bounds of each iterator, by depth, and on `i_across - row` where
/// they cut the box the iterators span.
type BandedBox = (Vec<(LinExpr, LinExpr)>, Option<Band>);

/// Each iterator's bounds over the parameters, and those of `column -
/// row` or else of `sum - row` where they cut the box the others span,
/// if statement `k`'s domain is exactly the box, or the box cut by them,
/// and every value of each iterator between its bounds has instances.
fn banded_box(scop: &Scop, k: usize, [row, col, sum]: [usize; 3]) -> IslResult<Option<BandedBox>> {
    let statement = &scop.statements[k];
    let (mut values, mut bounds) = (Vec::new(), Vec::new());
    for d in 0..3 {
        let Some(set) = scop.values(&[(k, &statement.domain)], &format!("i{d}"))? else { return Ok(None) };
        let Some(range) = model::bounds(&set)? else { return Ok(None) };
        values.push(set);
        bounds.push(range);
    }
    let within = |value: &str, (low, high): &(LinExpr, LinExpr)| {
        format!("{} <= {value} <= {}", low.to_isl_text(), high.to_isl_text())
    };
    let in_box: Vec<String> = bounds.iter().enumerate().map(|(d, b)| within(&format!("c{d}"), b)).collect();
    let spans = |constraints: &[String]| -> IslResult<bool> {
        let spanned = Set::parse(&format!(
            "{} -> {{ {}[c0, c1, c2] : {} }}",
            params_decl(scop.ast.params.len()),
            statement.name,
            constraints.join(" and ")
        ))?;
        spanned.is_equal(&statement.domain)
    };
    if spans(&in_box)? {
        return Ok(Some((bounds, None)));
    }
    if !every_value_has_instances(scop, &values, &bounds)? {
        return Ok(None);
    }
    for across in [col, sum] {
        let Some(values) = scop.values(&[(k, &statement.domain)], &format!("i{across} - i{row}"))? else {
            continue;
        };
        let (lows, highs) = hull_bounds(&values)?;
        for (low, high) in lows.iter().flat_map(|low| highs.iter().map(move |high| (low, high))) {
            let band = within(&format!("c{across} - c{row}"), &(low.clone(), high.clone()));
            if spans(&[in_box.clone(), vec![band]].concat())? {
                return Ok(Some((bounds, Some(Band { across, low: low.clone(), high: high.clone() }))));
            }
        }
    }
    Ok(None)
}

/// Whether each iterator takes every value between its `bounds` (its
/// `values` by depth), where all of them have values (else the printed
/// code runs nothing): a bound of the hull may be looser than a band
/// makes it, and the panels read every row, column and step of the sum
/// between the bounds, and load and store every row and column.
fn every_value_has_instances(scop: &Scop, values: &[Set], bounds: &[(LinExpr, LinExpr)]) -> IslResult<bool> {
    let params = params_decl(scop.ast.params.len());
    let nonempty: Vec<String> =
        bounds.iter().map(|(low, high)| format!("{} <= {}", low.to_isl_text(), high.to_isl_text())).collect();
    for (values, (low, high)) in values.iter().zip(bounds) {
        let spanned = Set::parse(&format!(
            "{params} -> {{ [x] : {} <= x <= {} and {} }}",
            low.to_isl_text(),
            high.to_isl_text(),
            nonempty.join(" and ")
        ))?;
        if !spanned.is_subset_of(values)? {
            return Ok(false);
        }
    }
    Ok(true)
}
