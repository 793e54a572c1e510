//! Bases for the lattice heuristic (Heuristic 3) to try: small
//! unimodular ones, and those computed from DS (Bee+Cl@k, Section 4.1):
//! the successive-minima basis of K = conv(DS), and a basis of Z^n
//! reduced for K's gauge F by Lovász and Scarf's generalized basis
//! reduction. Both are found at sample parameter values (the paper's
//! implementation also fixes them); Heuristic 3 then measures parametric
//! moduli along them, and every mapping still goes through the proof.
//!
//! A basis `a_1..a_n` is meant for Heuristic 2 (the lattice generated
//! by `rho_i a_i`); Heuristic 3 gives the same mapping along the dual
//! basis taken in the opposite order, which is what `dual_rows`
//! returns.
//!
//! The sample values are the `--param` values, else 10 for each parameter
//! left free. Each basis found is completed to a unimodular basis of Z^n
//! by Hermite's trick before Heuristic 3 uses it.

use super::lifetime::Conflicts;
use super::mapping::unit_basis;
use crate::model::isl::{IslResult, Map, Set};
use crate::model::params_decl;
use std::cmp::Ordering;

/// The value of a parameter `--param` leaves free, for the sample.
const SAMPLE_VALUE: i64 = 10;
/// The most integer points of K enumerated for the successive minima.
const MAX_POINTS: usize = 20_000;
/// How far the size reduction walks along `b_i` (a convex function:
/// it stops at the first step that does not improve).
const MAX_STEPS: i64 = 256;
/// How many exchanges the reduction makes at most (it terminates in
/// theory; the bound keeps it cheap whatever happens).
const MAX_EXCHANGES: usize = 64;

/// Bases to try Heuristic 3 along: the small ones (see [`small_bases`]),
/// then those computed from DS at sample parameter values (see
/// [`from_ds`]: its successive minima, a reduced basis).
pub fn lattice_bases(conflicts: &Conflicts, values: &[Option<i64>]) -> IslResult<Vec<Vec<Vec<i64>>>> {
    let mut found = small_bases(conflicts.rank);
    for rows in from_ds(conflicts, values)? {
        if !found.contains(&rows) {
            found.push(rows);
        }
    }
    Ok(found)
}

/// Every unimodular basis of small vectors (see [`small_vectors`]),
/// each up to its sign, the axes in every order among them: diagonals
/// give SMO's `(i - t) mod (2N - 1)`, `(2x - y) mod (2N + 1)` needs a 2.
fn small_bases(rank: usize) -> Vec<Vec<Vec<i64>>> {
    let mut bases: Vec<Vec<Vec<i64>>> = Vec::new();
    if rank <= 2 {
        choose(&small_vectors(rank), rank, &mut Vec::new(), &mut bases);
        return bases;
    }
    // In more dimensions, a small vector first and the axes after it:
    // every small basis would be thousands of candidates (dynprog's
    // sum_c took 0.9 s).
    for first in small_vectors(rank) {
        choose(&unit_basis(rank), rank, &mut vec![first], &mut bases);
    }
    bases
}

/// The nonzero vectors with entries in -2..=2 for up to two dimensions,
/// -1..=1 for three, first nonzero entry positive; the axes alone
/// beyond.
fn small_vectors(rank: usize) -> Vec<Vec<i64>> {
    let reach: i64 = match rank {
        0..=2 => 2,
        3 => 1,
        _ => return unit_basis(rank),
    };
    let values = 2 * reach + 1;
    let mut out = Vec::new();
    for code in 0..values.pow(rank as u32) {
        let v: Vec<i64> = (0..rank).map(|d| (code / values.pow(d as u32)) % values - reach).collect();
        if v.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0) {
            out.push(v);
        }
    }
    out.sort_by_key(|v| v.iter().filter(|&&x| x != 0).count());
    out
}

/// Every completion of `pick` by `vectors` (in every order, none
/// twice) to a unimodular basis of `rank` vectors.
fn choose(vectors: &[Vec<i64>], rank: usize, pick: &mut Vec<Vec<i64>>, out: &mut Vec<Vec<Vec<i64>>>) {
    if pick.len() == rank {
        if determinant(pick).abs() == 1 {
            out.push(pick.clone());
        }
        return;
    }
    for v in vectors {
        if !pick.contains(v) {
            pick.push(v.clone());
            choose(vectors, rank, pick, out);
            pick.pop();
        }
    }
}

fn determinant(m: &[Vec<i64>]) -> i64 {
    match m.len() {
        0 => 1,
        1 => m[0][0],
        n => (0..n)
            .map(|j| {
                let minor: Vec<Vec<i64>> = m[1..]
                    .iter()
                    .map(|row| row.iter().enumerate().filter(|(c, _)| *c != j).map(|(_, &x)| x).collect())
                    .collect();
                let sign = if j % 2 == 0 { 1 } else { -1 };
                sign * m[0][j] * determinant(&minor)
            })
            .sum(),
    }
}

/// The rows for Heuristic 3 along the successive-minima basis and along
/// the reduced basis of `conflicts`' DS (distinct, at most two); none
/// when DS at the sample values is empty, unbounded or too large.
pub fn from_ds(conflicts: &Conflicts, values: &[Option<i64>]) -> IslResult<Vec<Vec<Vec<i64>>>> {
    let rank = conflicts.rank;
    if rank < 2 {
        return Ok(Vec::new());
    }
    let Some(hull) = sampled_hull(conflicts, values)? else {
        return Ok(Vec::new());
    };
    let Some(gauge) = Gauge::of(&hull, rank)? else {
        return Ok(Vec::new());
    };
    let mut found: Vec<Vec<Vec<i64>>> = Vec::new();
    let bases = [successive_minima(&hull, &gauge, rank)?, reduced_basis(&hull, &gauge, rank)?];
    for rows in bases.iter().flatten().filter_map(|b| dual_rows(b, rank)) {
        if !found.contains(&rows) {
            found.push(rows);
        }
    }
    Ok(found)
}

/// conv(DS) with each parameter at its `--param` value, else at
/// [`SAMPLE_VALUE`]; `None` if empty.
fn sampled_hull(conflicts: &Conflicts, values: &[Option<i64>]) -> IslResult<Option<Set>> {
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    let fixed: Vec<String> =
        values.iter().enumerate().map(|(k, v)| format!("p{k} = {}", v.unwrap_or(SAMPLE_VALUE))).collect();
    let condition = if fixed.is_empty() { "true".to_string() } else { fixed.join(" and ") };
    let sample = Set::parse(&format!("{} -> {{ [{}] : {condition} }}", params_decl(values.len()), dims.join(", ")))?;
    let hull = conflicts.differences.intersect(&sample)?.convex_hull_without_params()?;
    Ok(if hull.is_empty()? { None } else { Some(hull) })
}

/// A nonnegative rational `num / den`, `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    num: i128,
    den: i128,
}

impl Ratio {
    fn scaled(self, k: i128) -> Ratio {
        Ratio { num: self.num * k, den: self.den }
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Ratio) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

/// The gauge function `F(v) = min { l > 0 : v in l K }` of a polytope
/// `K = { x : a_j . x <= beta_j, e_k . x = 0 }` that holds 0.
struct Gauge {
    faces: Vec<(Vec<i64>, i64)>,
    /// Normals of K's affine hull: off it, F is infinite.
    flat: Vec<Vec<i64>>,
}

impl Gauge {
    /// The gauge of the parameter-free convex set `hull` in `rank`
    /// dimensions; `None` if its constraints are not plain (a stride
    /// left) or it misses 0.
    fn of(hull: &Set, rank: usize) -> IslResult<Option<Gauge>> {
        let mut gauge = Gauge { faces: Vec::new(), flat: Vec::new() };
        for c in hull.constraints()? {
            if c.expr.has_floor() {
                return Ok(None);
            }
            // `expr >= 0` is `a . x <= beta` with a = -coefficients.
            let a: Vec<i64> = (0..rank).map(|d| -c.expr.coeff_of_dim(d)).collect();
            let beta = c.expr.constant;
            match (c.is_eq, beta) {
                (true, 0) => gauge.flat.push(a),
                (true, _) => return Ok(None),
                (false, b) if b < 0 => return Ok(None),
                (false, _) => gauge.faces.push((a, beta)),
            }
        }
        Ok(Some(gauge))
    }

    /// `F(v)`; `None` where it is infinite (off K's span).
    fn at(&self, v: &[i64]) -> Option<Ratio> {
        if self.flat.iter().any(|e| dot(e, v) != 0) {
            return None;
        }
        let mut most = Ratio { num: 0, den: 1 };
        for (a, beta) in &self.faces {
            let reach = dot(a, v);
            match *beta {
                0 if reach > 0 => return None,
                0 => {}
                b => most = most.max(Ratio { num: reach, den: i128::from(b) }),
            }
        }
        Some(most)
    }
}

fn dot(a: &[i64], v: &[i64]) -> i128 {
    a.iter().zip(v).map(|(&x, &y)| i128::from(x) * i128::from(y)).sum()
}

/// Integer vectors `x_1..x_k` of K with `x_i` minimising F among those
/// independent of `x_1..x_{i-1}` (k below `rank` when K is flat: the
/// directions off its span are free). Every minimum lies in K, since
/// DS's own points span it; ties go to the vector with fewer nonzero and
/// smaller entries, for a simpler mapping.
fn successive_minima(hull: &Set, gauge: &Gauge, rank: usize) -> IslResult<Option<Vec<Vec<i64>>>> {
    let Some(points) = hull.points(MAX_POINTS)? else {
        return Ok(None);
    };
    let mut candidates: Vec<(Ratio, Vec<i64>)> = points
        .into_iter()
        .filter(|v| v.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0))
        .filter_map(|v| gauge.at(&v).map(|f| (f, v)))
        .collect();
    candidates.sort_by(|(f, v), (g, w)| f.cmp(g).then_with(|| simplicity(v).cmp(&simplicity(w))).then(v.cmp(w)));
    let mut minima: Vec<Vec<i64>> = Vec::new();
    for (_, v) in candidates {
        if minima.len() == rank {
            break;
        }
        minima.push(v);
        if rank_of(&minima) < minima.len() {
            minima.pop();
        }
    }
    Ok(Some(minima))
}

/// Sorts simple vectors first: fewer nonzero entries, then smaller ones.
fn simplicity(v: &[i64]) -> (usize, i64) {
    (v.iter().filter(|&&x| x != 0).count(), v.iter().map(|x| x.abs()).sum())
}

/// The rank of integer vectors, by fraction-free elimination.
fn rank_of(vectors: &[Vec<i64>]) -> usize {
    let mut rows: Vec<Vec<i128>> = vectors.iter().map(|v| v.iter().map(|&x| i128::from(x)).collect()).collect();
    let mut rank = 0;
    let width = rows.first().map_or(0, Vec::len);
    for col in 0..width {
        let Some(pivot) = (rank..rows.len()).find(|&r| rows[r][col] != 0) else {
            continue;
        };
        rows.swap(rank, pivot);
        let lead = rows[rank].clone();
        for row in rows.iter_mut().skip(rank + 1) {
            let factor = row[col];
            for (x, &l) in row.iter_mut().zip(&lead) {
                *x = *x * lead[col] - factor * l;
            }
            let common = row.iter().fold(0, |g, &x| gcd(g, x));
            if common > 1 {
                row.iter_mut().for_each(|x| *x /= common);
            }
        }
        rank += 1;
    }
    rank
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// A unimodular `U` (rows) with `U X` upper triangular for the columns
/// `X = vectors` (Hermite's trick, Bee+Cl@k Section 4.1.1): the columns
/// of `U^-1` are a basis of Z^n whose first `i` span `vectors[..i]`, and
/// the rows of `U` its dual basis. `None` on overflow or dependence.
fn hermite(vectors: &[Vec<i64>], rank: usize) -> Option<Vec<Vec<i64>>> {
    let mut u = unit_basis(rank);
    // m[r][j]: row r of U X, column j.
    let mut m: Vec<Vec<i64>> = (0..rank).map(|r| vectors.iter().map(|v| v[r]).collect()).collect();
    for j in 0..vectors.len() {
        for r in j + 1..rank {
            if m[r][j] != 0 {
                combine_rows(&mut m, &mut u, j, r, j)?;
            }
        }
        if m[j][j] == 0 {
            return None;
        }
    }
    Some(u)
}

/// Replaces rows `j` and `r` of `m` (and of `u` alike) by unimodular
/// combinations that leave `gcd(m[j][col], m[r][col])` in row `j` and 0
/// in row `r`.
fn combine_rows(m: &mut [Vec<i64>], u: &mut [Vec<i64>], j: usize, r: usize, col: usize) -> Option<()> {
    let (a, b) = (m[j][col], m[r][col]);
    let (g, s, t) = extended_gcd(a, b);
    let (p, q) = (-b / g, a / g);
    for rows in [m, u] {
        let (top, low) = (rows[j].clone(), rows[r].clone());
        for k in 0..top.len() {
            rows[j][k] = s.checked_mul(top[k])?.checked_add(t.checked_mul(low[k])?)?;
            rows[r][k] = p.checked_mul(top[k])?.checked_add(q.checked_mul(low[k])?)?;
        }
    }
    Some(())
}

/// `(g, s, t)` with `g = gcd(a, b) > 0 = s a + t b` (not both zero).
fn extended_gcd(a: i64, b: i64) -> (i64, i64, i64) {
    if b == 0 {
        return (a.abs(), a.signum(), 0);
    }
    let (g, s, t) = extended_gcd(b, a % b);
    (g, t, s - (a / b) * t)
}

/// The rows Heuristic 3 takes for Heuristic 2 along the independent
/// `basis` (completed to a basis of Z^n by [`hermite`]): the dual basis,
/// last vector first.
fn dual_rows(basis: &[Vec<i64>], rank: usize) -> Option<Vec<Vec<i64>>> {
    let mut rows = hermite(basis, rank)?;
    rows.reverse();
    Some(rows)
}

/// Lovász and Scarf's generalized basis reduction of Z^n for K's gauge
/// (the "generalized basis reduction" Bee+Cl@k tries), from the axes,
/// with `epsilon = 1/4`: each `b_{i+1}` made the shortest in
/// `b_{i+1} + Z b_i` for `F_i` (F of K projected along `b_1..b_{i-1}`),
/// and swapped with `b_i` while that makes `F_i(b_i)` shrink by a
/// quarter. `None` for a flat K (F is infinite off its span: the
/// successive minima handle it).
fn reduced_basis(hull: &Set, gauge: &Gauge, rank: usize) -> IslResult<Option<Vec<Vec<i64>>>> {
    if !gauge.flat.is_empty() {
        return Ok(None);
    }
    let mut basis = unit_basis(rank);
    let mut i = 0;
    for _ in 0..MAX_EXCHANGES {
        if i + 1 >= rank {
            return Ok(Some(basis));
        }
        let Some(projected) = ProjectedGauge::along(hull, &basis[..i], rank)? else {
            return Ok(None);
        };
        let Some(shortest) = projected.shortest_in_coset(&basis[i + 1], &basis[i]) else {
            return Ok(None);
        };
        basis[i + 1] = shortest;
        match (projected.at(&basis[i + 1]), projected.at(&basis[i])) {
            (Some(next), Some(current)) if next.scaled(4) < current.scaled(3) => {
                basis.swap(i, i + 1);
                i = i.saturating_sub(1);
            }
            (Some(_), Some(_)) => i += 1,
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// `F_i`: the gauge of K projected along `b_1..b_{i-1}`, read in the
/// coordinates `U x` of [`hermite`] whose first `i - 1` it drops.
struct ProjectedGauge {
    coordinates: Vec<Vec<i64>>,
    gauge: Gauge,
}

impl ProjectedGauge {
    fn along(hull: &Set, along: &[Vec<i64>], rank: usize) -> IslResult<Option<ProjectedGauge>> {
        let Some(u) = hermite(along, rank) else {
            return Ok(None);
        };
        let coordinates: Vec<Vec<i64>> = u[along.len()..].to_vec();
        let dims: Vec<String> = (0..rank).map(|d| format!("c{d}")).collect();
        let images: Vec<String> = coordinates.iter().map(|row| linear(row, &dims)).collect();
        let project = Map::parse(&format!("{{ [{}] -> [{}] }}", dims.join(", "), images.join(", ")))?;
        // The projection of a convex hull is the hull of the projection.
        let shadow = project.intersect_domain(hull)?.range()?.convex_hull_without_params()?;
        Ok(Gauge::of(&shadow, coordinates.len())?.map(|gauge| ProjectedGauge { coordinates, gauge }))
    }

    fn at(&self, v: &[i64]) -> Option<Ratio> {
        let image: Option<Vec<i64>> = self.coordinates.iter().map(|row| i64::try_from(dot(row, v)).ok()).collect();
        self.gauge.at(&image?)
    }

    /// `v + mu w` with the least `F_i` over integers `mu`: F_i is
    /// convex along the line, so walking from `v` while it decreases
    /// finds the least.
    fn shortest_in_coset(&self, v: &[i64], w: &[i64]) -> Option<Vec<i64>> {
        let at = |mu: i64| -> Option<(Ratio, Vec<i64>)> {
            let x: Option<Vec<i64>> = v.iter().zip(w).map(|(&a, &b)| b.checked_mul(mu)?.checked_add(a)).collect();
            let x = x?;
            Some((self.at(&x)?, x))
        };
        let mut best = at(0)?;
        for step in [1i64, -1] {
            let mut mu = step;
            while mu.abs() <= MAX_STEPS {
                match at(mu) {
                    Some(next) if next.0 < best.0 => best = next,
                    _ => break,
                }
                mu += step;
            }
        }
        Some(best.1)
    }
}

/// `row . names` in isl syntax.
fn linear(row: &[i64], names: &[String]) -> String {
    let terms: Vec<String> =
        row.iter().zip(names).filter(|(&a, _)| a != 0).map(|(&a, name)| format!("{a}*{name}")).collect();
    if terms.is_empty() {
        "0".to_string()
    } else {
        terms.join(" + ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::mapping::successive_modulo_along;

    /// Conflicts whose DS is `ds` without 0 (over `[c0, c1]`, parameter `p0`), for
    /// an array `A` written on `0 <= c0 < 4 p0, 0 <= c1 < 4 p0`.
    fn conflicts(ds: &str) -> Conflicts {
        Conflicts {
            rank: 2,
            differences: Set::parse(&format!("[p0] -> {{ [c0, c1] : ({ds}) and (c0 != 0 or c1 != 0) }}")).unwrap(),
            written: Set::parse("[p0] -> { A_A[c0, c1] : 0 <= c0 < 4p0 and 0 <= c1 < 4p0 }").unwrap(),
            context: Set::parse("[p0] -> { : p0 >= 3 }").unwrap(),
        }
    }

    fn sample(c: &Conflicts) -> (Set, Gauge) {
        let hull = sampled_hull(c, &[None]).unwrap().unwrap();
        let gauge = Gauge::of(&hull, 2).unwrap().unwrap();
        (hull, gauge)
    }

    /// Bee+Cl@k's running example (Section 4.1.1): K's minima are (1, 0)
    /// then (0, 1), and Heuristic 2 along them is `(i1 mod N, i2 mod 2)`.
    const RUNNING: &str = "-(p0 - 1) <= c0 + 2c1 <= p0 - 1 and -(p0 - 1) <= c0 - c1 <= p0 - 1 and -1 <= c1 <= 1";

    #[test]
    fn the_running_example_s_minima_are_the_axes() {
        let c = conflicts(RUNNING);
        let (hull, gauge) = sample(&c);
        assert_eq!(successive_minima(&hull, &gauge, 2).unwrap().unwrap(), vec![vec![1, 0], vec![0, 1]]);
        assert_eq!(gauge.at(&[1, 0]), Some(Ratio { num: 1, den: 9 }));
    }

    #[test]
    fn heuristic_2_along_the_minima_gives_i1_mod_n_and_i2_mod_2() {
        let c = conflicts(RUNNING);
        let rows = from_ds(&c, &[None]).unwrap();
        assert_eq!(rows[0], vec![vec![0, 1], vec![1, 0]], "the dual basis, last first");
        let mapping = successive_modulo_along(&c, "A", 1, &rows[0]).unwrap().unwrap();
        // At N = 100: moduli 2 and N.
        let moduli: Vec<i64> =
            mapping.rows.iter().map(|r| r.modulus.as_ref().unwrap().with_params(&[Some(100)]).constant).collect();
        assert_eq!(moduli, vec![2, 100]);
        assert!(mapping.is_valid(&c, 1).unwrap());
    }

    /// A parallelogram along the diagonal: its first minimum is (1, 1)
    /// (F = 1/3 at p0 = 10... any p0: the long side is fixed at 6).
    const SKEWED: &str = "-1 <= c0 - c1 <= 1 and -6 <= c0 + c1 <= 6";

    #[test]
    fn a_skewed_parallelogram_s_first_minimum_is_its_diagonal() {
        let (hull, gauge) = sample(&conflicts(SKEWED));
        let minima = successive_minima(&hull, &gauge, 2).unwrap().unwrap();
        assert_eq!(minima[0], vec![1, 1]);
        assert_eq!(gauge.at(&minima[0]), Some(Ratio { num: 1, den: 3 }));
        assert_eq!(gauge.at(&minima[1]), Some(Ratio { num: 1, den: 1 }));
    }

    #[test]
    fn the_reduced_basis_of_the_parallelogram_starts_with_its_diagonal() {
        let (hull, gauge) = sample(&conflicts(SKEWED));
        assert_eq!(reduced_basis(&hull, &gauge, 2).unwrap().unwrap(), vec![vec![1, 1], vec![1, 0]]);
    }

    #[test]
    fn a_flat_ds_leaves_the_directions_off_its_span_free() {
        let c = conflicts("c0 = c1 and -3 <= c0 <= 3");
        let (hull, gauge) = sample(&c);
        assert_eq!(successive_minima(&hull, &gauge, 2).unwrap().unwrap(), vec![vec![1, 1]]);
        assert!(reduced_basis(&hull, &gauge, 2).unwrap().is_none());
        let rows = from_ds(&c, &[None]).unwrap();
        let mapping = successive_modulo_along(&c, "A", 1, &rows[0]).unwrap().unwrap();
        assert!(mapping.is_valid(&c, 1).unwrap());
        let cells: i64 = mapping.extents().iter().map(|e| e.constant).product();
        assert_eq!(cells, 4, "one row of modulus 4 along the diagonal, the other free: {mapping:?}");
    }

    #[test]
    fn hermite_completes_a_vector_to_a_unimodular_basis() {
        let u = hermite(&[vec![2, 3]], 2).unwrap();
        let det = u[0][0] * u[1][1] - u[0][1] * u[1][0];
        assert_eq!(det.abs(), 1);
        assert_eq!(u[1][0] * 2 + u[1][1] * 3, 0, "the second row is orthogonal to (2, 3)");
    }
}
