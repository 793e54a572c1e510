//! Integer sets: the wrapper polyc's model is built of.

use super::check::{parse_error, Checked, CheckedText};
use super::context::parsed;
use super::convert::{aff_to_expr, basic_set_constraints, val_to_i64};
use super::error::{IslError, IslResult};
use crate::model::affine::{Constraint, LinExpr};
use isl_rs::{BasicSet, DimType, Map as IslMap, Set as IslSet};

/// A (possibly non-convex) integer set, in polyc's naming convention:
/// parameters `p0..`, set dimensions positional.
pub struct Set(pub(super) IslSet);

impl Clone for Set {
    fn clone(&self) -> Self {
        Set(self.0.copy().expect("isl_set_copy only increments a reference count"))
    }
}

fn params_prefix(n_params: usize) -> String {
    let names: Vec<String> = (0..n_params).map(|k| format!("p{k}")).collect();
    format!("[{}]", names.join(", "))
}

/// isl's text for a set in `n_dims` positional dimensions `c0..` whose
/// constraints are `body` (isl syntax, may be empty).
pub fn set_text(n_params: usize, n_dims: usize, body: &str) -> String {
    let dims: Vec<String> = (0..n_dims).map(|k| format!("c{k}")).collect();
    let cond = if body.is_empty() { String::new() } else { format!(" : {body}") };
    format!("{} -> {{ [{}]{} }}", params_prefix(n_params), dims.join(", "), cond)
}

impl Set {
    pub fn parse(text: &str) -> IslResult<Set> {
        parsed(text, |ctx| IslSet::read_from_str(ctx, text).checked()).map(Set).map_err(|e| parse_error(e, text))
    }

    /// The set of `n_dims`-tuples satisfying every constraint in `cons`.
    pub fn from_constraints(n_params: usize, n_dims: usize, cons: &[Constraint]) -> IslResult<Set> {
        let body: Vec<String> = cons.iter().map(|c| c.to_isl_text()).collect();
        Set::parse(&set_text(n_params, n_dims, &body.join(" and ")))
    }

    pub(super) fn copy(&self) -> IslResult<IslSet> {
        self.0.copy().checked()
    }

    pub fn n_dims(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Set).checked()? as usize)
    }

    pub fn n_params(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Param).checked()? as usize)
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// True when the set has no constraints at all (cheap, syntactic).
    pub fn is_universe(&self) -> IslResult<bool> {
        self.0.plain_is_universe().checked()
    }

    pub fn is_equal(&self, other: &Set) -> IslResult<bool> {
        self.0.is_equal(&other.0).checked()
    }

    pub fn is_subset_of(&self, other: &Set) -> IslResult<bool> {
        self.0.is_subset(&other.0).checked()
    }

    pub fn intersect(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.intersect(other.copy()?).checked().map(Set)
    }

    /// `{ [x, y] : x in self and y in other }`.
    pub fn flat_product(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.flat_product(other.copy()?).checked().map(Set)
    }

    pub fn subtract(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.subtract(other.copy()?).checked().map(Set)
    }

    pub fn union(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.union(other.copy()?).checked().map(Set)
    }

    /// Simplify `self` assuming `context` holds.
    pub fn gist(&self, context: &Set) -> IslResult<Set> {
        self.copy()?.gist(context.copy()?).checked().map(Set)
    }

    /// The same set, each convex piece without the constraints the others
    /// imply, and marked so: isl's equality test, which every
    /// intersection runs first, then need not look for them again.
    pub fn remove_redundancies(&self) -> IslResult<Set> {
        self.copy()?.remove_redundancies().checked().map(Set)
    }

    pub fn coalesce(&self) -> IslResult<Set> {
        self.copy()?.coalesce().checked().map(Set)
    }

    pub fn detect_equalities(&self) -> IslResult<Set> {
        self.copy()?.detect_equalities().checked().map(Set)
    }

    /// Existentially eliminate every dimension from `keep` on.
    pub fn keep_leading_dims(&self, keep: usize) -> IslResult<Set> {
        let n = self.n_dims()?;
        if keep >= n {
            return Ok(self.clone());
        }
        self.copy()?.project_out(DimType::Set, keep as u32, (n - keep) as u32).checked().map(Set)
    }

    /// Append `n` unconstrained dimensions.
    pub fn add_dims(&self, n: usize) -> IslResult<Set> {
        self.copy()?.add_dims(DimType::Set, n as u32).checked().map(Set)
    }

    /// Keep only the constraints on dimensions before `first` (and parameters).
    pub fn constraints_before_dim(&self, first: usize) -> IslResult<Set> {
        let n = self.n_dims()?;
        if first >= n {
            return Ok(self.clone());
        }
        self.copy()?.drop_constraints_involving_dims(DimType::Set, first as u32, (n - first) as u32).checked().map(Set)
    }

    /// Whether every convex piece has both a lower and an upper bound
    /// constraint on dimension `dim`.
    /// (A stride `c = 8e` would count as both: existentials are removed first.)
    pub fn dim_is_bounded(&self, dim: usize) -> IslResult<bool> {
        let plain = self.copy()?.remove_divs().checked()?;
        let lower = plain.dim_has_lower_bound(DimType::Set, dim as u32).checked()?;
        Ok(lower && plain.dim_has_upper_bound(DimType::Set, dim as u32).checked()?)
    }

    /// The convex pieces of a disjoint decomposition of the set.
    pub fn disjoint_convex_pieces(&self) -> IslResult<Vec<Set>> {
        Set(self.copy()?.make_disjoint().checked()?).convex_pieces()
    }

    /// The convex pieces of the set, as few as isl's coalescing leaves.
    pub fn convex_pieces(&self) -> IslResult<Vec<Set>> {
        let coalesced = Set(self.copy()?.coalesce().checked()?);
        coalesced.basic_sets()?.into_iter().map(|b| b.to_set().checked().map(Set)).collect()
    }

    fn basic_sets(&self) -> IslResult<Vec<BasicSet>> {
        let list = self.0.get_basic_set_list().checked()?;
        let n = list.size().checked()?;
        (0..n).map(|k| list.get_at(k).checked()).collect()
    }

    /// The dimension of the set's affine hull: its dimensions less the
    /// independent equalities among them.
    pub fn dimension(&self) -> IslResult<usize> {
        let hull = Set(self.copy()?.affine_hull().checked()?.to_set().checked()?);
        let n = self.n_dims()?;
        // An equality with a floor (`i mod 8 = 0`) is a lattice, not a lost dimension.
        let equalities = hull
            .constraints()?
            .iter()
            .filter(|c| c.is_eq && !c.expr.has_floor() && (0..n).any(|d| c.expr.involves_dim(d)))
            .count();
        Ok(n.saturating_sub(equalities))
    }

    /// The parameter values for which the set has points.
    pub fn params(&self) -> IslResult<Set> {
        self.copy()?.params().checked().map(Set)
    }

    /// The set where the parameters satisfy `params` (a parameter set).
    pub fn intersect_params(&self, params: &Set) -> IslResult<Set> {
        self.copy()?.intersect_params(params.copy()?).checked().map(Set)
    }

    /// The set without its existentially quantified (div) constraints:
    /// a superset whose constraints involve no divisions.
    pub fn remove_divs(&self) -> IslResult<Set> {
        self.copy()?.remove_divs().checked().map(Set)
    }

    /// The convex hull, its parameters projected out (fix them first):
    /// isl eliminates existentials rationally, so the hull of a set
    /// with strides may be larger than that of its integer points.
    pub fn convex_hull_without_params(&self) -> IslResult<Set> {
        let plain = self.copy()?.project_out_all_params().checked()?;
        plain.convex_hull().checked()?.to_set().checked().map(Set)
    }

    /// The smallest polyhedron around the set, its existentials
    /// eliminated rationally (a superset whose constraints have no divs).
    pub fn polyhedral_hull(&self) -> IslResult<Set> {
        let hull = self.copy()?.polyhedral_hull().checked()?;
        hull.to_set().checked().map(Set)
    }

    /// A convex superset, cheap to compute.
    pub fn simple_hull(&self) -> IslResult<Set> {
        let hull = self.copy()?.simple_hull().checked()?;
        hull.to_set().checked().map(Set)
    }

    /// The constraints of each convex piece: a disjunction of conjunctions.
    /// An existential variable isl knows no expression for (a projection
    /// can leave one) gets one first, as a constraint names it by its
    /// floor expression.
    pub fn disjuncts(&self) -> IslResult<Vec<Vec<Constraint>>> {
        let explicit = Set(self.copy()?.compute_divs().checked()?);
        explicit.basic_sets()?.iter().map(basic_set_constraints).collect()
    }

    /// Constraints of a convex set; an error if the set is not convex.
    pub fn constraints(&self) -> IslResult<Vec<Constraint>> {
        let mut pieces = self.disjuncts()?;
        match pieces.len() {
            1 => Ok(pieces.remove(0)),
            0 => Ok(vec![Constraint::ge(LinExpr::constant(-1))]),
            n => Err(IslError(format!("expected a convex set, found {n} pieces"))),
        }
    }

    /// Lattice of dimension `dim`: `(stride, offset)` with `c_dim = offset
    /// (mod stride)` for every point, when the stride exceeds 1.
    pub fn stride(&self, dim: usize) -> IslResult<Option<(i64, LinExpr)>> {
        let info = self.0.get_stride_info(dim as i32).checked()?;
        let stride = val_to_i64(&info.get_stride().checked()?)?;
        if stride <= 1 {
            return Ok(None);
        }
        let offset = aff_to_expr(&info.get_offset().checked()?)?;
        Ok(offset.map(|o| (stride, o)))
    }

    /// True when, for equal values of the dimensions before `dim`, every
    /// point of `self` has a smaller `dim` coordinate than every point of
    /// `other`.
    pub fn precedes_along(&self, other: &Set, dim: usize) -> IslResult<bool> {
        let mut pairs = IslMap::from_domain_and_range(self.copy()?, other.copy()?).checked()?;
        for k in 0..dim {
            pairs = pairs.equate(DimType::In, k as i32, DimType::Out, k as i32).checked()?;
        }
        pairs = pairs.order_ge(DimType::In, dim as i32, DimType::Out, dim as i32).checked()?;
        pairs.is_empty().checked()
    }

    /// isl's text for the set (leaks a C string in isl-rs: reporting only).
    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::isl::out_of_budget;

    #[test]
    fn constraints_round_trip_through_isl() {
        let s = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and c0 <= c1 <= 2c0 + 3 }").unwrap();
        let back = Set::from_constraints(1, 2, &s.constraints().unwrap()).unwrap();
        assert!(s.is_equal(&back).unwrap());
    }

    #[test]
    fn stride_and_offset_are_found() {
        let s = Set::parse("[p0] -> { [c0] : 0 <= c0 < p0 and (c0 - 1) mod 3 = 0 }").unwrap();
        let (stride, offset) = s.stride(0).unwrap().unwrap();
        assert_eq!(stride, 3);
        let back = Set::from_constraints(1, 1, &[Constraint::divisible(LinExpr::dim(0).sub(&offset), 3)]).unwrap();
        assert!(s.is_subset_for_test(&back));
    }

    #[test]
    fn divs_survive_the_round_trip() {
        let s = Set::parse("[p0] -> { [c0, c1] : 0 <= c1 < p0 and c1 = 2 * floor((c0 + c1) / 2) }").unwrap();
        let pieces = s.disjuncts().unwrap();
        let text: Vec<String> = pieces[0].iter().map(|c| c.to_isl_text()).collect();
        let back = Set::parse(&set_text(1, 2, &text.join(" and "))).unwrap();
        assert!(s.is_equal(&back).unwrap());
    }

    #[test]
    fn existentials_without_an_expression_get_one() {
        // isl keeps `e0` as it is: no equality defines it. A projection
        // leaves such variables too (the values of an inner iterator
        // whose bound follows an outer loop in steps of 3:
        // `regressions::a_strided_loop_with_an_inner_bound_that_follows_it_is_scanned`).
        let s = Set::parse("[p0] -> { [c0] : exists (e0: 0 <= e0 <= p0 and 9e0 <= c0 <= 12e0 + 1) }").unwrap();
        let texts: Vec<String> = s
            .disjuncts()
            .unwrap()
            .iter()
            .map(|piece| piece.iter().map(|c| c.to_isl_text()).collect::<Vec<_>>().join(" and "))
            .collect();
        let back = Set::parse(&set_text(1, 1, &format!("({})", texts.join(") or (")))).unwrap();
        assert!(s.is_equal(&back).unwrap());
    }

    #[test]
    fn a_text_isl_does_not_read_is_reported_with_the_text() {
        let e = Set::parse("[p0] -> { [c0] : c0 >= }").err().expect("not isl syntax").0;
        assert!(e.contains("does not read") && e.contains("c0 >= }"), "{e}");
        assert!(!out_of_budget());
    }

    impl Set {
        fn is_subset_for_test(&self, other: &Set) -> bool {
            self.0.is_subset(&other.0).unwrap()
        }
    }

    #[test]
    fn precedence_along_a_dimension() {
        let a = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and 0 <= c1 < 5 }").unwrap();
        let b = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and 5 <= c1 < 9 }").unwrap();
        assert!(a.precedes_along(&b, 1).unwrap());
        assert!(!b.precedes_along(&a, 1).unwrap());
    }
}
