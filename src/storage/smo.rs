//! SMO's storage partitioning hyperplanes (Bhaskaracharya, Bondhugula
//! and Cohen, Algorithm 1): one row at a time, the hyperplane an integer
//! program finds to keep apart the most convex pieces ("conflict
//! polyhedra") of the conflicting differences, then with the smallest
//! bound on how far apart they land.
//!
//! The pieces are those of DS without 0, not of the pairs of cells: a
//! hyperplane only sees `normal . (c - c')`. The constraints that a form
//! is nonnegative over a piece are linearised by Farkas' lemma (isl's
//! dual). Each row's modulus is then measured exactly over the
//! differences it keeps apart, as for every other method, and the whole
//! mapping still goes through [`Mapping::is_valid`].
//!
//! The pieces are the lexicographically negative half of the unresolved
//! differences (one of each pair `d`, `-d`), cut into orthants, so that
//! more of them lie on one side of a hyperplane. The integer program's
//! binary decisions (which pieces to satisfy, on which side) are searched
//! by branch and bound, each node an integer program solved one dimension
//! at a time (`Set::lexmin_point`), in place of SMO's big-constant
//! linearisation, which isl solves slowly; the most pieces satisfied win,
//! then the smallest bound, then the smallest coefficients. The modulus is
//! then measured over the differences the row separates
//! (`mapping::wrapped_row`, shared with the successive modulo).

use super::lifetime::Conflicts;
use super::mapping::{nonzero_differences, orthogonal, wrapped_row, Mapping};
use crate::model::affine::{Constraint, LinExpr};
use crate::model::isl::{IslResult, Set};
use crate::model::params_decl;

/// How large a hyperplane's coefficients may be: SMO's examples need 3.
const MAX_COEFFICIENT: i64 = 8;

/// How far the search for the pieces to satisfy may go (nodes visited)
/// before settling for the best found.
const SEARCH_BUDGET: usize = 2000;

/// SMO's modulo mapping for `conflicts`' array; `None` when some step
/// fails (an integer program without a solution, a bound that is not
/// affine in the parameters).
pub fn smo(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    let mut unresolved = nonzero_differences(conflicts, n_params)?;
    let mut rows = Vec::new();
    while !unresolved.is_empty()? {
        if rows.len() == conflicts.rank {
            return Ok(None);
        }
        let Some(normal) = next_hyperplane(&unresolved, conflicts.rank, n_params)? else {
            return Ok(None);
        };
        let Some(row) = wrapped_row(conflicts, array, n_params, &normal, &unresolved)? else {
            return Ok(None);
        };
        unresolved = unresolved.intersect(&orthogonal(&normal, conflicts.rank, n_params)?)?;
        rows.push(row);
    }
    Ok(Some(Mapping { rows }))
}

/// Where each unknown of the integer program sits: SMO's objective
/// `(u, w)` (the bound `u . P + w` on `|normal . d|`), then the
/// coefficients' magnitudes and the coefficients (smallest first).
struct Unknowns {
    n_params: usize,
    rank: usize,
}

impl Unknowns {
    /// The bound as the coefficients of a form over `[1, P..]`: `(w, u..)`.
    fn bound(&self) -> Vec<LinExpr> {
        let w = LinExpr::dim(self.n_params);
        std::iter::once(w).chain((0..self.n_params).map(LinExpr::dim)).collect()
    }

    fn magnitude(&self, d: usize) -> LinExpr {
        LinExpr::dim(1 + self.n_params + d)
    }

    fn normal_index(&self, d: usize) -> usize {
        1 + self.n_params + self.rank + d
    }

    fn normal(&self, d: usize) -> LinExpr {
        LinExpr::dim(self.normal_index(d))
    }

    fn count(&self) -> usize {
        1 + self.n_params + 2 * self.rank
    }
}

/// The hyperplane SMO's integer program (constraints (2)-(7)) picks for
/// the differences `unresolved`: the most pieces satisfied (`normal . d`
/// of one sign over all of a piece), then the smallest bound; `None` if
/// none satisfies a piece.
///
/// SMO linearises each piece's binary decision with a big constant; isl
/// solves such systems slowly (a minute for six pieces). The decisions
/// are searched here instead, branch and bound, each node an integer
/// program without them: the same optimum.
fn next_hyperplane(unresolved: &Set, rank: usize, n_params: usize) -> IslResult<Option<Vec<i64>>> {
    let at = Unknowns { n_params, rank };
    let mut valid = Vec::new();
    for half in lexicographically_negative(rank, n_params)? {
        for piece in unresolved.intersect(&half)?.convex_pieces()? {
            valid.push(piece.remove_divs()?.valid_form_coefficients()?);
        }
    }
    let mut base = ranges(&at);
    for piece in &valid {
        for sign in [1, -1] {
            base.extend(holds(piece, &bounding_form(&at, sign)));
        }
    }
    let mut search = Search { at: &at, valid: &valid, best: None, visited: 0 };
    search.visit(0, 0, Set::from_constraints(0, at.count(), &base)?)?;
    Ok(search.best.map(|(_, point)| {
        let normal: Vec<i64> = (0..rank).map(|d| point[at.normal_index(d)]).collect();
        // A hyperplane and its opposite separate the same cells: the one
        // whose first coefficient is positive reads better.
        let sign = normal.iter().find(|&&a| a != 0).map_or(1, |a| a.signum());
        normal.into_iter().map(|a| a * sign).collect()
    }))
}

/// The differences `d < 0` in the lexicographic order, one of each pair
/// `d, -d` of conflicting differences as SMO's conflict sets hold one of
/// each pair of conflicting cells, cut into orthants: the cases
/// `d_0 = .. = d_(k-1) = 0 > d_k`, each with a sign for every later
/// `d_j` (negative or not). A decision counts only when a whole piece
/// lies on one side of the hyperplane, and SMO notes that smaller pieces
/// can only do better: `{d : d_0 = -1}` straddles `(-1, 2)`, its parts
/// `d_1 < 0` and `d_1 >= 0` do not.
fn lexicographically_negative(rank: usize, n_params: usize) -> IslResult<Vec<Set>> {
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let mut orthants = Vec::new();
    for k in 0..rank {
        let later = rank - k - 1;
        for signs in 0..1u32 << later {
            let mut parts: Vec<String> = dims[..k].iter().map(|d| format!("{d} = 0")).collect();
            parts.push(format!("{} < 0", dims[k]));
            for (j, d) in dims[k + 1..].iter().enumerate() {
                parts.push(if signs >> j & 1 == 1 { format!("{d} < 0") } else { format!("{d} >= 0") });
            }
            let text = format!("{} -> {{ [{}] : {} }}", params_decl(n_params), dims.join(", "), parts.join(" and "));
            orthants.push(Set::parse(&text)?);
        }
    }
    Ok(orthants)
}

/// The branch and bound over which pieces the hyperplane satisfies, and
/// on which side.
struct Search<'a> {
    at: &'a Unknowns,
    /// Per piece, the constraints on a form's coefficients that make it
    /// nonnegative over the piece.
    valid: &'a [Vec<Constraint>],
    /// The most pieces satisfied so far, and the smallest solution.
    best: Option<(usize, Vec<i64>)>,
    visited: usize,
}

impl Search<'_> {
    /// Decide pieces `next..` given `system`, the constraints so far
    /// (`satisfied` pieces among them).
    fn visit(&mut self, next: usize, satisfied: usize, system: Set) -> IslResult<()> {
        self.visited += 1;
        let reachable = satisfied + self.valid.len() - next;
        if reachable == 0 || self.best.as_ref().is_some_and(|(n, _)| reachable < *n) {
            return Ok(());
        }
        if next == self.valid.len() {
            return self.consider(satisfied, &system);
        }
        if self.visited > SEARCH_BUDGET {
            return Ok(());
        }
        for sign in [1, -1] {
            let separated = holds(&self.valid[next], &satisfying_form(self.at, sign));
            let narrower = system.intersect(&Set::from_constraints(0, self.at.count(), &separated)?)?;
            if !narrower.is_empty()? {
                self.visit(next + 1, satisfied + 1, narrower)?;
            }
        }
        self.visit(next + 1, satisfied, system)
    }

    /// Keep `system`'s least solution if it satisfies more pieces, or as
    /// many with a smaller objective.
    fn consider(&mut self, satisfied: usize, system: &Set) -> IslResult<()> {
        let Some(point) = system.lexmin_point()? else {
            return Ok(());
        };
        let better = match &self.best {
            None => true,
            Some((n, best)) => satisfied > *n || (satisfied == *n && point < *best),
        };
        if better {
            self.best = Some((satisfied, point));
        }
        Ok(())
    }
}

/// The unknowns' ranges: the bound's coefficients and the magnitudes are
/// bounded so that the least solution exists.
fn ranges(at: &Unknowns) -> Vec<Constraint> {
    let mut cons = Vec::new();
    for u in &at.bound()[1..] {
        cons.push(Constraint::ge(u.clone()));
    }
    for d in 0..at.rank {
        cons.push(Constraint::ge(at.magnitude(d).sub(&at.normal(d))));
        cons.push(Constraint::ge(at.magnitude(d).add(&at.normal(d))));
        cons.push(Constraint::ge(LinExpr::constant(MAX_COEFFICIENT).sub(&at.magnitude(d))));
    }
    cons
}

/// An affine form over `[1, parameters.., d..]`, as its coefficients
/// (unknowns of the integer program).
struct Form {
    coefficients: Vec<LinExpr>,
}

/// `u . P + w - sign * normal . d`: constraint (2), the bound holds.
fn bounding_form(at: &Unknowns, sign: i64) -> Form {
    let normal = (0..at.rank).map(|d| at.normal(d).scale(-sign));
    Form { coefficients: at.bound().into_iter().chain(normal).collect() }
}

/// `sign * normal . d - 1`: constraint (3) with the decision taken, the
/// piece lands on one side of the hyperplane.
fn satisfying_form(at: &Unknowns, sign: i64) -> Form {
    let params = (0..at.n_params).map(|_| LinExpr::constant(0));
    let normal = (0..at.rank).map(|d| at.normal(d).scale(sign));
    Form { coefficients: std::iter::once(LinExpr::constant(-1)).chain(params).chain(normal).collect() }
}

/// The constraints on the unknowns that make `form` nonnegative over a
/// piece whose valid forms `valid` describes.
fn holds(valid: &[Constraint], form: &Form) -> Vec<Constraint> {
    valid
        .iter()
        .map(|c| Constraint { expr: c.expr.substitute(&|k| form.coefficients[k].clone()), is_eq: c.is_eq })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_negative_half_is_cut_into_orthants_that_cover_it_once() {
        let orthants = lexicographically_negative(2, 0).unwrap();
        // d0 < 0 with d1 of either sign, then d0 = 0 > d1.
        assert_eq!(orthants.len(), 3);
        let half = Set::parse("{ [d0, d1] : -3 <= d0, d1 <= 3 and (d0 < 0 or (d0 = 0 and d1 < 0)) }").unwrap();
        let mut covered = Set::parse("{ [d0, d1] : false }").unwrap();
        for o in &orthants {
            let part = o.intersect(&half).unwrap();
            assert!(part.intersect(&covered).unwrap().is_empty().unwrap(), "orthants overlap");
            covered = covered.union(&part).unwrap();
        }
        assert!(covered.is_equal(&half).unwrap());
    }

    #[test]
    fn a_single_piece_is_satisfied_by_the_hyperplane_of_smallest_bound() {
        // Differences of a window of 3 along d1 within rows d0 = 0: the
        // axis d1 separates them with the smallest bound, 2.
        let unresolved = Set::parse("{ [d0, d1] : d0 = 0 and -2 <= d1 <= 2 and d1 != 0 }").unwrap();
        assert_eq!(next_hyperplane(&unresolved, 2, 0).unwrap(), Some(vec![0, 1]));
    }
}
