//! Unions of maps and sets over named spaces: what isl's dataflow
//! analysis and scheduler take and give.

use super::check::{Checked, CheckedText};
use super::context::with_ctx;
use super::error::IslResult;
use super::map::Map;
use super::set::Set;
use isl_rs::{Map as IslMap, UnionMap as IslUnionMap, UnionSet as IslUnionSet};

/// A union of relations between named tuples (statement instances,
/// array elements, schedule points).
pub struct UnionMap(pub(super) IslUnionMap);

/// A union of sets in named spaces.
pub struct UnionSet(pub(super) IslUnionSet);

impl Clone for UnionMap {
    fn clone(&self) -> Self {
        UnionMap(self.0.copy().expect("isl_union_map_copy only increments a reference count"))
    }
}

impl Clone for UnionSet {
    fn clone(&self) -> Self {
        UnionSet(self.0.copy().expect("isl_union_set_copy only increments a reference count"))
    }
}

impl UnionMap {
    pub fn empty() -> IslResult<UnionMap> {
        with_ctx(|ctx| IslUnionMap::empty_ctx(ctx).checked()).map(UnionMap)
    }

    pub fn from_maps<'a>(maps: impl IntoIterator<Item = &'a Map>) -> IslResult<UnionMap> {
        let mut acc = UnionMap::empty()?;
        for m in maps {
            acc = UnionMap(acc.copy()?.add_map(m.copy()?).checked()?);
        }
        Ok(acc)
    }

    pub(super) fn copy(&self) -> IslResult<IslUnionMap> {
        self.0.copy().checked()
    }

    pub fn union(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.union(other.copy()?).checked().map(UnionMap)
    }

    pub fn subtract(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.subtract(other.copy()?).checked().map(UnionMap)
    }

    pub fn reverse(&self) -> IslResult<UnionMap> {
        self.copy()?.reverse().checked().map(UnionMap)
    }

    pub fn intersect(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.intersect(other.copy()?).checked().map(UnionMap)
    }

    /// For each domain point, its lexicographically largest image.
    pub fn lexmax(&self) -> IslResult<UnionMap> {
        self.copy()?.lexmax().checked().map(UnionMap)
    }

    /// `{ x -> y : self(x) <<= other(y) }`.
    pub fn lex_le_pairs(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.lex_le_union_map(other.copy()?).checked().map(UnionMap)
    }

    /// `{ x -> y : self(x) >>= other(y) }`.
    pub fn lex_ge_pairs(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.lex_ge_union_map(other.copy()?).checked().map(UnionMap)
    }

    /// `{ f(x) -> y : x -> y in self }`.
    pub fn apply_domain(&self, f: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.apply_domain(f.copy()?).checked().map(UnionMap)
    }

    /// `{ x -> f(y) : x -> y in self }`.
    pub fn apply_range(&self, f: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.apply_range(f.copy()?).checked().map(UnionMap)
    }

    pub fn intersect_domain(&self, domain: &UnionSet) -> IslResult<UnionMap> {
        self.copy()?.intersect_domain_union_set(domain.copy()?).checked().map(UnionMap)
    }

    pub fn intersect_range(&self, range: &UnionSet) -> IslResult<UnionMap> {
        self.copy()?.intersect_range(range.copy()?).checked().map(UnionMap)
    }

    pub fn coalesce(&self) -> IslResult<UnionMap> {
        self.copy()?.coalesce().checked().map(UnionMap)
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// The relations of each pair of spaces, as separate maps.
    pub fn maps(&self) -> IslResult<Vec<Map>> {
        let list = self.copy()?.get_map_list().checked()?;
        let n = list.size().checked()?;
        (0..n).map(|k| list.get_at(k).checked().map(Map)).collect()
    }

    /// All relations as one map, when they share one pair of spaces.
    pub fn as_single_map(&self) -> IslResult<Map> {
        IslMap::from_union_map(self.copy()?).checked().map(Map)
    }

    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }
}

impl UnionSet {
    pub fn from_sets<'a>(sets: impl IntoIterator<Item = &'a Set>) -> IslResult<UnionSet> {
        let mut acc = with_ctx(|ctx| IslUnionSet::empty_ctx(ctx).checked())?;
        for s in sets {
            acc = acc.add_set(s.copy()?).checked()?;
        }
        Ok(UnionSet(acc))
    }

    pub(super) fn copy(&self) -> IslResult<IslUnionSet> {
        self.0.copy().checked()
    }
}
