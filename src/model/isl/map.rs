//! Relations between two integer tuples: access relations, schedules,
//! dependences of one pair of statements.

use super::check::{parse_error, Checked, CheckedText};
use super::context::parsed;
use super::error::{IslError, IslResult};
use super::set::Set;
use isl_rs::{DimType, Map as IslMap};

/// A relation between two integer tuples.
pub struct Map(pub(super) IslMap);

impl Clone for Map {
    fn clone(&self) -> Self {
        Map(self.0.copy().expect("isl_map_copy only increments a reference count"))
    }
}

impl Map {
    pub fn parse(text: &str) -> IslResult<Map> {
        parsed(text, |ctx| IslMap::read_from_str(ctx, text).checked()).map(Map).map_err(|e| parse_error(e, text))
    }

    pub(super) fn copy(&self) -> IslResult<IslMap> {
        self.0.copy().checked()
    }

    pub fn intersect_domain(&self, domain: &Set) -> IslResult<Map> {
        self.copy()?.intersect_domain(domain.copy()?).checked().map(Map)
    }

    /// The pairs `[range, domain]` as one flat, anonymous tuple.
    pub fn range_then_domain(&self) -> IslResult<Set> {
        let wrapped = self.copy()?.reverse().checked()?.wrap().checked()?;
        wrapped.flatten().checked()?.reset_tuple_id().checked().map(Set)
    }

    /// The pairs `[domain, range]` as one flat, anonymous tuple.
    pub fn domain_then_range(&self) -> IslResult<Set> {
        let wrapped = self.copy()?.wrap().checked()?;
        wrapped.flatten().checked()?.reset_tuple_id().checked().map(Set)
    }

    pub fn intersect_params(&self, params: &Set) -> IslResult<Map> {
        self.copy()?.intersect_params(params.copy()?).checked().map(Map)
    }

    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }

    /// The name of the input tuple (`S3` for a statement's relations).
    pub fn domain_name(&self) -> IslResult<String> {
        self.tuple_name(DimType::In)
    }

    /// The name of the output tuple (`A_x` for an access relation).
    pub fn range_name(&self) -> IslResult<String> {
        self.tuple_name(DimType::Out)
    }

    /// An error for an unnamed tuple (a schedule's times, a wrapped
    /// pair), whose name isl-rs would read from a null pointer.
    fn tuple_name(&self, tuple: DimType) -> IslResult<String> {
        if !self.0.has_tuple_name(tuple).checked()? {
            return Err(IslError("an unnamed tuple".into()));
        }
        self.0.get_tuple_name(tuple).checked_text()
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// The differences `y - x` of the pairs `x -> y` (same-sized tuples).
    pub fn deltas(&self) -> IslResult<Set> {
        self.copy()?.deltas().checked()?.reset_tuple_id().checked().map(Set)
    }

    pub fn is_single_valued(&self) -> IslResult<bool> {
        self.0.is_single_valued().checked()
    }

    pub fn n_out(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Out).checked()? as usize)
    }

    /// The number of convex pieces (basic maps) isl holds the map as.
    pub fn n_pieces(&self) -> IslResult<usize> {
        Ok(self.0.n_basic_map().checked()? as usize)
    }

    /// The convex pieces isl holds the map as, each a map of its own.
    pub fn pieces(&self) -> IslResult<Vec<Map>> {
        let list = self.0.get_basic_map_list().checked()?;
        let n = list.size().checked()?;
        (0..n).map(|k| IslMap::from_basic_map(list.get_at(k).checked()?).checked().map(Map)).collect()
    }

    /// The smallest affine subspace holding the pairs: their equalities.
    pub fn affine_hull(&self) -> IslResult<Map> {
        IslMap::from_basic_map(self.copy()?.affine_hull().checked()?).checked().map(Map)
    }

    pub fn is_equal(&self, other: &Map) -> IslResult<bool> {
        self.0.is_equal(&other.0).checked()
    }

    /// The (rational) convex hull of the pairs, existentials eliminated:
    /// one convex piece.
    pub fn convex_hull(&self) -> IslResult<Map> {
        let hull = self.copy()?.convex_hull().checked()?;
        IslMap::from_basic_map(hull).checked().map(Map)
    }

    /// A superset without existentials: the constraints that involve
    /// one dropped, at once (no projection).
    pub fn without_existentials(&self) -> IslResult<Map> {
        self.copy()?.remove_divs().checked().map(Map)
    }

    /// A convex superset, cheap to compute (constraints of the pieces).
    pub fn simple_hull(&self) -> IslResult<Map> {
        let hull = self.copy()?.simple_hull().checked()?;
        IslMap::from_basic_map(hull).checked().map(Map)
    }

    /// `{ x -> f(y) : x -> y in self }`.
    pub fn apply_range(&self, f: &Map) -> IslResult<Map> {
        self.copy()?.apply_range(f.copy()?).checked().map(Map)
    }

    /// For each domain point, its lexicographically smallest image.
    pub fn lexmin(&self) -> IslResult<Map> {
        self.copy()?.lexmin().checked().map(Map)
    }

    /// For each domain point, its lexicographically largest image.
    pub fn lexmax(&self) -> IslResult<Map> {
        self.copy()?.lexmax().checked().map(Map)
    }

    /// The map with only its first `keep` output dimensions.
    pub fn keep_leading_out(&self, keep: usize) -> IslResult<Map> {
        let n = self.n_out()?;
        if keep >= n {
            return Ok(self.clone());
        }
        self.copy()?.project_out(DimType::Out, keep as u32, (n - keep) as u32).checked().map(Map)
    }

    pub fn is_subset_of(&self, other: &Map) -> IslResult<bool> {
        self.0.is_subset(&other.0).checked()
    }

    pub fn intersect(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.intersect(other.copy()?).checked().map(Map)
    }

    pub fn subtract(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.subtract(other.copy()?).checked().map(Map)
    }

    pub fn coalesce(&self) -> IslResult<Map> {
        self.copy()?.coalesce().checked().map(Map)
    }

    pub fn union(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.union(other.copy()?).checked().map(Map)
    }

    pub fn range(&self) -> IslResult<Set> {
        self.copy()?.range().checked().map(Set)
    }

    pub fn intersect_range(&self, range: &Set) -> IslResult<Map> {
        self.copy()?.intersect_range(range.copy()?).checked().map(Map)
    }

    /// `{ x -> [y, z] : x -> y in self and x -> z in other }`.
    pub fn flat_range_product(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.flat_range_product(other.copy()?).checked().map(Map)
    }

    pub fn reverse(&self) -> IslResult<Map> {
        self.copy()?.reverse().checked().map(Map)
    }

    pub fn domain(&self) -> IslResult<Set> {
        self.copy()?.domain().checked().map(Set)
    }

    /// The same relation with `n` more output dimensions, all zero.
    pub fn pad_out(&self, n: usize) -> IslResult<Map> {
        let first = self.n_out()?;
        let mut m = self.copy()?.add_dims(DimType::Out, n as u32).checked()?;
        for k in first..first + n {
            m = m.fix_si(DimType::Out, k as u32, 0).checked()?;
        }
        Ok(Map(m))
    }

    /// The pairs of `self` equal in their first `n` dimensions, in and out.
    pub fn equate_leading(&self, n: usize) -> IslResult<Map> {
        let mut m = self.copy()?;
        for k in 0..n {
            m = m.equate(DimType::In, k as i32, DimType::Out, k as i32).checked()?;
        }
        Ok(Map(m))
    }

    /// The pairs of `self` whose output at dimension `pos` is greater
    /// (`later`) or smaller than their input there.
    pub fn order_at(&self, pos: usize, later: bool) -> IslResult<Map> {
        let (m, p) = (self.copy()?, pos as i32);
        let ordered = if later {
            m.order_lt(DimType::In, p, DimType::Out, p)
        } else {
            m.order_gt(DimType::In, p, DimType::Out, p)
        };
        ordered.checked().map(Map)
    }

    /// Whether output dimension `pos` has one constant value (syntactically).
    pub fn out_is_constant(&self, pos: usize) -> IslResult<bool> {
        let v = self.0.plain_get_val_if_fixed(DimType::Out, pos as u32).checked()?;
        Ok(!v.is_nan().checked()?)
    }

    /// The value of output dimension `pos` when it is a fixed integer.
    pub fn out_constant(&self, pos: usize) -> IslResult<Option<i64>> {
        let v = self.0.plain_get_val_if_fixed(DimType::Out, pos as u32).checked()?;
        if v.is_nan().checked()? || !v.is_int().checked()? {
            return Ok(None);
        }
        Ok(Some(v.get_num_si().checked()?))
    }
}
