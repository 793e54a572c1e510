//! The optimal modulo mapping of an array whose parameters are all fixed
//! (Bee+Cl@k's exhaustive search, after Darte, Schreiber and Villard).
//!
//! DS is then a finite set of integer points. The cells of a modulo
//! mapping that collide are those whose difference lies in its kernel,
//! an integer lattice, and the mapping holds as many cells as the
//! lattice's determinant: the best mapping comes from a lattice of
//! smallest determinant that meets DS only at 0 (a strictly admissible
//! lattice). The search enumerates lattices in Hermite normal form by
//! increasing determinant and tests each against DS; the first that
//! passes becomes a mapping through a diagonal (Smith) form.
//!
//! When DS is a product of its projections on disjoint groups of axes
//! (a box is a product of intervals; `diff[j][i][k]`'s DS is a hexagon
//! in `(j, i)` times an interval in `k`), each group is searched alone
//! and the lattices are multiplied: far fewer lattices to test, and the
//! mapping keeps the groups apart. Each group's lattice is optimal for
//! its projection; the product is the optimum of such products (a
//! lattice mixing the groups could in principle do better).
//!
//! Used with `--storage-optimal`, every parameter fixed (`--param`). DS's
//! points come from `Set::points`; a lattice is tested by enumerating its
//! points in DS's bounding box (a prefix of rows that already meets DS is
//! not extended), up to the size to beat and within a budget of steps; the
//! first admissible lattice becomes modulo rows through a diagonal (Smith)
//! form, proven like every other mapping.

use super::lifetime::Conflicts;
use super::mapping::{self, Mapping};
use crate::model::affine::LinExpr;
use crate::model::isl::IslResult;
use std::collections::HashSet;

/// Points of DS beyond which no search starts.
const MAX_POINTS: usize = 200_000;
/// Cells of a group's bounding box beyond which no search starts.
const MAX_BOX: i64 = 4_000_000;
/// Steps (a lattice tried, a point of one visited) before the search
/// gives up: about a second.
const MAX_WORK: u64 = 50_000_000;

/// The mapping of an optimal strictly admissible lattice for the finite
/// DS of `conflicts`, if its determinant is below `below` (the size to
/// beat) and the search stays within its budget.
pub fn optimal_mapping(conflicts: &Conflicts, array: &str, n_params: usize, below: i64) -> IslResult<Option<Mapping>> {
    // No mapping holds fewer than one cell.
    if below <= 1 {
        return Ok(None);
    }
    let Some(points) = conflicts.differences.points(MAX_POINTS)? else {
        return Ok(None);
    };
    let mut search = Search { work_left: MAX_WORK };
    let mut rows = Vec::new();
    let mut determinant = 1;
    for group in independent_groups(&points, conflicts.rank) {
        let Some(shape) = Shape::of(&points, &group) else {
            return Ok(None);
        };
        let largest = (below - 1) / determinant;
        let Ok(Some(lattice)) = search.smallest_lattice(&shape, largest) else {
            return Ok(None);
        };
        determinant *= lattice.determinant;
        for (normal, modulus) in diagonal_form(&lattice.rows) {
            rows.push((spread(&normal, &group, conflicts.rank), modulus));
        }
    }
    modulo_rows(conflicts, array, n_params, &rows)
}

/// The mapping `c -> (normal . c mod modulus, ...)` for `rows`, each row
/// shifted instead when its range is no larger than its modulus.
fn modulo_rows(
    conflicts: &Conflicts,
    array: &str,
    n_params: usize,
    rows: &[(Vec<i64>, i64)],
) -> IslResult<Option<Mapping>> {
    let normals: Vec<Vec<i64>> = rows.iter().map(|(n, _)| n.clone()).collect();
    let Some(mut mapping) = mapping::along(conflicts, array, n_params, &normals)? else {
        return Ok(None);
    };
    for (row, (_, modulus)) in mapping.rows.iter_mut().zip(rows) {
        row.wrap(Some(LinExpr::constant(*modulus)));
    }
    Ok(Some(mapping))
}

/// A full-rank integer lattice: its basis as rows (lower triangular,
/// Hermite normal form) and its determinant.
#[derive(Debug, PartialEq, Eq)]
pub struct Lattice {
    pub rows: Vec<Vec<i64>>,
    pub determinant: i64,
}

/// The search ran out of its budget.
#[derive(Debug, PartialEq, Eq)]
pub struct Exhausted;

/// The finite DS (or its projection on a group of axes) as a bitmap
/// over its bounding box.
pub struct Shape {
    lo: Vec<i64>,
    hi: Vec<i64>,
    member: Vec<bool>,
}

impl Shape {
    /// The projection of `points` on the axes of `group`; `None` if its
    /// bounding box is too large to hold.
    pub fn of(points: &[Vec<i64>], group: &[usize]) -> Option<Shape> {
        let (mut lo, mut hi) = (vec![0; group.len()], vec![0; group.len()]);
        for p in points {
            for (k, &axis) in group.iter().enumerate() {
                lo[k] = lo[k].min(p[axis]);
                hi[k] = hi[k].max(p[axis]);
            }
        }
        let cells = lo.iter().zip(&hi).try_fold(1i64, |acc, (l, h)| acc.checked_mul(h - l + 1))?;
        if cells > MAX_BOX {
            return None;
        }
        let mut shape = Shape { lo, hi, member: vec![false; cells as usize] };
        for p in points {
            let projected: Vec<i64> = group.iter().map(|&axis| p[axis]).collect();
            if let Some(at) = shape.index(&projected) {
                shape.member[at] = true;
            }
        }
        Some(shape)
    }

    fn dims(&self) -> usize {
        self.lo.len()
    }

    fn index(&self, x: &[i64]) -> Option<usize> {
        let mut at = 0i64;
        for ((&v, &l), &h) in x.iter().zip(&self.lo).zip(&self.hi) {
            if v < l || v > h {
                return None;
            }
            at = at * (h - l + 1) + (v - l);
        }
        usize::try_from(at).ok()
    }

    fn contains(&self, x: &[i64]) -> bool {
        self.index(x).is_some_and(|at| self.member[at])
    }

    /// Whether the lattice spanned by `rows` (lower triangular, row `k`'s
    /// last nonzero entry on axis `k`) has a nonzero point in the shape:
    /// its points in the bounding box, enumerated from the last row up,
    /// each a step taken from `work`.
    pub fn meets(&self, rows: &[Vec<i64>], work: &mut u64) -> Result<bool, Exhausted> {
        let mut x = vec![0; self.dims()];
        self.meets_from(rows, rows.len(), &mut x, false, work)
    }

    /// With the coefficients of rows `k..` chosen (`x` their sum), whether
    /// some choice of the others lands on a nonzero point of the shape.
    fn meets_from(
        &self,
        rows: &[Vec<i64>],
        k: usize,
        x: &mut [i64],
        nonzero: bool,
        work: &mut u64,
    ) -> Result<bool, Exhausted> {
        *work = work.checked_sub(1).ok_or(Exhausted)?;
        let Some(k) = k.checked_sub(1) else {
            return Ok(nonzero && self.contains(x));
        };
        let row = &rows[k];
        let step = row[k];
        let first = (self.lo[k] - x[k]).div_euclid(step) + i64::from((self.lo[k] - x[k]).rem_euclid(step) != 0);
        let last = (self.hi[k] - x[k]).div_euclid(step);
        for lambda in first..=last {
            add_scaled(x, row, lambda);
            let found = self.meets_from(rows, k, x, nonzero || lambda != 0, work)?;
            add_scaled(x, row, -lambda);
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

fn add_scaled(x: &mut [i64], row: &[i64], lambda: i64) {
    for (xi, r) in x.iter_mut().zip(row) {
        *xi += lambda * r;
    }
}

/// A search for lattices, within a budget of steps.
pub struct Search {
    pub work_left: u64,
}

impl Search {
    /// A strictly admissible lattice of smallest determinant for `shape`,
    /// if one has determinant at most `largest`.
    pub fn smallest_lattice(&mut self, shape: &Shape, largest: i64) -> Result<Option<Lattice>, Exhausted> {
        for determinant in 1..=largest {
            let mut rows = Vec::new();
            if self.complete(shape, &mut rows, determinant)? {
                return Ok(Some(Lattice { rows, determinant }));
            }
        }
        Ok(None)
    }

    /// Whether `rows` (a basis of a lattice on the first axes that meets
    /// the shape only at 0) extends to a full basis of determinant
    /// `left` times theirs; it is extended if so. Every lattice in Hermite
    /// normal form comes up once: row `k` is `(h_0, ..., h_{k-1}, d_k, 0,
    /// ...)` with `0 <= h_j < d_j`. Its rows before `k` span the lattice's
    /// points with zero coordinates from `k` on, which must miss the
    /// shape already: a failing prefix is not extended.
    fn complete(&mut self, shape: &Shape, rows: &mut Vec<Vec<i64>>, left: i64) -> Result<bool, Exhausted> {
        let k = rows.len();
        if k == shape.dims() {
            return Ok(left == 1);
        }
        // The last row's diagonal entry is what is left of the determinant.
        let diagonals = if k + 1 == shape.dims() { vec![left] } else { self.divisors(left)? };
        for d in diagonals {
            let bounds: Vec<i64> = (0..k).map(|j| rows[j][j]).collect();
            let mut offsets = vec![0; k];
            loop {
                let mut row = offsets.clone();
                row.push(d);
                row.resize(shape.dims(), 0);
                rows.push(row);
                if !shape.meets(rows, &mut self.work_left)? && self.complete(shape, rows, left / d)? {
                    return Ok(true);
                }
                rows.pop();
                if !next_offsets(&mut offsets, &bounds) {
                    break;
                }
            }
        }
        Ok(false)
    }

    /// The divisors of `n`, in increasing order, by trial division (a
    /// step each).
    fn divisors(&mut self, n: i64) -> Result<Vec<i64>, Exhausted> {
        let (mut small, mut large) = (Vec::new(), Vec::new());
        let mut d = 1;
        while d * d <= n {
            self.work_left = self.work_left.checked_sub(1).ok_or(Exhausted)?;
            if n % d == 0 {
                small.push(d);
                if d * d != n {
                    large.push(n / d);
                }
            }
            d += 1;
        }
        small.extend(large.into_iter().rev());
        Ok(small)
    }
}

/// The next vector in `0 <= v_j < bounds_j` (an odometer); false after
/// the last.
fn next_offsets(v: &mut [i64], bounds: &[i64]) -> bool {
    for (x, &b) in v.iter_mut().zip(bounds) {
        *x += 1;
        if *x < b {
            return true;
        }
        *x = 0;
    }
    false
}

/// The finest partition of the axes `0..rank` into groups such that
/// `points` is the product of its projections on them.
pub fn independent_groups(points: &[Vec<i64>], rank: usize) -> Vec<Vec<usize>> {
    let mut rest: Vec<usize> = (0..rank).collect();
    let mut groups = Vec::new();
    while !rest.is_empty() {
        let group = smallest_factor(points, &rest);
        rest.retain(|a| !group.contains(a));
        groups.push(group);
    }
    groups
}

/// The smallest group of the axes `axes` on which the projection of
/// `points` splits off as a factor (all of `axes` when none does). A
/// projection is a factor exactly when the numbers of distinct points of
/// the two projections multiply to the number of points.
fn smallest_factor(points: &[Vec<i64>], axes: &[usize]) -> Vec<usize> {
    let whole = distinct(points, axes);
    // Subsets by size; more than 12 axes would be thousands of them.
    if axes.len() <= 12 {
        let mut subsets: Vec<u32> = (1..(1u32 << axes.len()) - 1).collect();
        subsets.sort_by_key(|s| s.count_ones());
        for s in subsets {
            let picked = |inside: bool| -> Vec<usize> {
                axes.iter().enumerate().filter(|(k, _)| (s & (1 << k) != 0) == inside).map(|(_, &a)| a).collect()
            };
            let (inside, outside) = (picked(true), picked(false));
            if distinct(points, &inside) * distinct(points, &outside) == whole {
                return inside;
            }
        }
    }
    axes.to_vec()
}

/// The number of distinct projections of `points` (and of 0) on `axes`.
fn distinct(points: &[Vec<i64>], axes: &[usize]) -> usize {
    let mut seen: HashSet<Vec<i64>> = points.iter().map(|p| axes.iter().map(|&a| p[a]).collect()).collect();
    seen.insert(vec![0; axes.len()]);
    seen.len()
}

/// `normal` on the axes of `group`, as a vector over `0..rank`.
fn spread(normal: &[i64], group: &[usize], rank: usize) -> Vec<i64> {
    let mut out = vec![0; rank];
    for (&v, &axis) in normal.iter().zip(group) {
        out[axis] = v;
    }
    out
}

/// The rows of the modulo mapping whose kernel is the lattice spanned by
/// `rows` (full rank): with `U B V = S` diagonal (`U`, `V` unimodular),
/// `x` is in the lattice exactly when `(x V)_t` is a multiple of `S_tt`
/// for every `t`. Each row is a column of `V`, reduced modulo its
/// modulus (which leaves the mapping as it is), with that modulus; rows
/// with modulus 1 hold one cell and drop out. The diagonal is not made a
/// divisor chain: a box keeps a row per axis.
pub fn diagonal_form(rows: &[Vec<i64>]) -> Vec<(Vec<i64>, i64)> {
    let n = rows.len();
    let mut a = rows.to_vec();
    let mut v: Vec<Vec<i64>> = (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect();
    for t in 0..n {
        while !eliminate_around(&mut a, &mut v, t) {}
    }
    (0..n)
        .filter(|&t| a[t][t].abs() > 1)
        .map(|t| {
            let modulus = a[t][t].abs();
            let normal = (0..n).map(|i| symmetric_residue(v[i][t], modulus)).collect();
            (normal, modulus)
        })
        .collect()
}

/// One round of diagonalisation at `(t, t)`: the smallest nonzero entry
/// of the lower right block moves there, and the rest of its row and
/// column are reduced by it (column operations are applied to `v` too).
/// True when they are all zero.
fn eliminate_around(a: &mut [Vec<i64>], v: &mut [Vec<i64>], t: usize) -> bool {
    let n = a.len();
    let pivot = (t..n)
        .flat_map(|i| (t..n).map(move |j| (i, j)))
        .filter(|&(i, j)| a[i][j] != 0)
        .min_by_key(|&(i, j)| a[i][j].abs());
    let Some((pi, pj)) = pivot else {
        return true;
    };
    a.swap(t, pi);
    for row in a.iter_mut().chain(v.iter_mut()) {
        row.swap(t, pj);
    }
    let p = a[t][t];
    let mut clean = true;
    let pivot_row = a[t].clone();
    for row in &mut a[t + 1..] {
        let q = row[t].div_euclid(p);
        add_scaled(row, &pivot_row, -q);
        clean &= row[t] == 0;
    }
    for j in t + 1..n {
        let q = a[t][j].div_euclid(p);
        for row in a.iter_mut().chain(v.iter_mut()) {
            row[j] -= q * row[t];
        }
        clean &= a[t][j] == 0;
    }
    clean
}

/// `x` modulo `m`, in `(-m/2, m/2]`.
fn symmetric_residue(x: i64, m: i64) -> i64 {
    let r = x.rem_euclid(m);
    if 2 * r > m {
        r - m
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(reach: i64) -> Vec<Vec<i64>> {
        (-reach..=reach).map(|x| vec![x]).collect()
    }

    /// `|i|, |j|, |i - j| < n`: all pairs of cells of a triangle conflict.
    fn hexagon(n: i64) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        for i in 1 - n..n {
            for j in 1 - n..n {
                if (i - j).abs() < n {
                    out.push(vec![i, j]);
                }
            }
        }
        out
    }

    fn smallest(points: &[Vec<i64>], dims: usize) -> Option<Lattice> {
        let group: Vec<usize> = (0..dims).collect();
        let shape = Shape::of(points, &group).unwrap();
        Search { work_left: MAX_WORK }.smallest_lattice(&shape, 10_000).unwrap()
    }

    #[test]
    fn an_interval_of_reach_three_needs_the_lattice_4z() {
        assert_eq!(smallest(&interval(3), 1), Some(Lattice { rows: vec![vec![4]], determinant: 4 }));
    }

    #[test]
    fn the_hexagon_of_a_triangle_of_side_6_needs_27_cells() {
        // Bee+Cl@k, Figure 3: mean and sum_t, 27 cells (N = 6 = 2m: 3m^2).
        let lattice = smallest(&hexagon(6), 2).unwrap();
        assert_eq!(lattice.determinant, 27);
        let shape = Shape::of(&hexagon(6), &[0, 1]).unwrap();
        assert_eq!(shape.meets(&lattice.rows, &mut MAX_WORK.clone()), Ok(false));
    }

    #[test]
    fn a_lattice_through_a_point_of_ds_meets_it() {
        let shape = Shape::of(&hexagon(3), &[0, 1]).unwrap();
        // (3, 0) and (1, 1): (1, 1) is in the hexagon.
        assert_eq!(shape.meets(&[vec![3, 0], vec![1, 1]], &mut MAX_WORK.clone()), Ok(true));
        assert_eq!(shape.meets(&[vec![3, 0], vec![1, 3]], &mut MAX_WORK.clone()), Ok(false));
    }

    #[test]
    fn the_hexagons_reach_their_known_optima() {
        // Bee+Cl@k, Section 5: 3m^2 cells for N = 2m, 3m^2 + 3m + 1 for
        // N = 2m + 1; any lattice the enumeration skipped could break it.
        for (n, optimum) in [(2, 3), (3, 7), (4, 12), (5, 19)] {
            assert_eq!(smallest(&hexagon(n), 2).map(|l| l.determinant), Some(optimum), "N = {n}");
        }
    }

    #[test]
    fn the_diagonal_form_of_a_known_matrix() {
        // [[2, 0], [1, 3]] spans a lattice of index 6, cyclic: one row
        // modulo 6 whose kernel it is.
        let rows = diagonal_form(&[vec![2, 0], vec![1, 3]]);
        assert_eq!(rows.len(), 1, "{rows:?}");
        let (normal, modulus) = &rows[0];
        assert_eq!(*modulus, 6);
        let image = |x: [i64; 2]| (normal[0] * x[0] + normal[1] * x[1]).rem_euclid(6);
        assert_eq!((image([2, 0]), image([1, 3])), (0, 0));
        assert!([[1, 0], [0, 1], [1, 1], [0, 3]].iter().all(|&x| image(x) != 0));
    }

    #[test]
    fn divisors_come_in_increasing_order() {
        let mut search = Search { work_left: 100 };
        assert_eq!(search.divisors(36), Ok(vec![1, 2, 3, 4, 6, 9, 12, 18, 36]));
        assert_eq!(search.divisors(7), Ok(vec![1, 7]));
    }

    #[test]
    fn a_search_beyond_its_budget_gives_up() {
        let shape = Shape::of(&hexagon(6), &[0, 1]).unwrap();
        assert_eq!(Search { work_left: 1000 }.smallest_lattice(&shape, 100), Err(Exhausted));
    }

    #[test]
    fn a_box_keeps_a_row_per_axis() {
        let rows = diagonal_form(&[vec![48, 0], vec![0, 50]]);
        assert_eq!(rows, vec![(vec![1, 0], 48), (vec![0, 1], 50)]);
    }

    #[test]
    fn a_product_splits_into_its_factors() {
        let mut points = Vec::new();
        for p in hexagon(3) {
            for k in -2..=2 {
                points.push(vec![p[0], k, p[1]]);
            }
        }
        assert_eq!(independent_groups(&points, 3), vec![vec![1], vec![0, 2]]);
        assert_eq!(independent_groups(&hexagon(3), 2), vec![vec![0, 1]]);
    }
}
