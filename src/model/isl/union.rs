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

    /// The same relations, coalesced where that keeps isl's scheduler
    /// fast: it builds its constraints per piece, so fewer pieces cost it
    /// less (a reported region of 9 statements with guards: 256 pieces,
    /// 122 coalesced, 2.7 s -> 0.33 s a schedule), except where pieces
    /// that are functions of different equalities (a stencil's neighbours,
    /// one distance each) would become one polytope of distances, whose
    /// constraints cost it far more than the points (heat-3d: 0.23 s ->
    /// 5.8 s). Those are coalesced only with pieces of their own
    /// equalities; every other piece with all the others.
    pub fn coalesce_alike(&self) -> IslResult<UnionMap> {
        let mut maps = Vec::new();
        for map in self.maps()? {
            maps.push(coalesce_alike(map)?);
        }
        UnionMap::from_maps(&maps)
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

    /// The relations from and to tuples named in `names` only (and any
    /// between unnamed tuples): what composing with a schedule of those
    /// tuples alone keeps, found without composing the rest.
    pub fn among(&self, names: &[String]) -> IslResult<UnionMap> {
        let named = |name: IslResult<String>| name.map_or(true, |n| names.contains(&n));
        let maps = self.maps()?;
        UnionMap::from_maps(maps.iter().filter(|m| named(m.domain_name()) && named(m.range_name())))
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

/// `map` coalesced as [`UnionMap::coalesce_alike`] says, or `map` itself
/// where nothing joins.
fn coalesce_alike(map: Map) -> IslResult<Map> {
    let pieces = map.pieces()?;
    // Each group: the affine hull of its functional pieces (`None`: the
    // group of the other pieces), and their union.
    let mut groups: Vec<(Option<Map>, Map)> = Vec::new();
    for piece in pieces.iter() {
        let hull = match piece.is_single_valued()? {
            true => Some(piece.affine_hull()?),
            false => None,
        };
        match alike(&groups, hull.as_ref())? {
            Some(k) => groups[k].1 = groups[k].1.union(piece)?,
            None => groups.push((hull, piece.clone())),
        }
    }
    if groups.len() == pieces.len() {
        return Ok(map);
    }
    let mut merged: Option<Map> = None;
    for (_, group) in groups {
        let group = group.coalesce()?;
        merged = Some(match merged {
            None => group,
            Some(m) => m.union(&group)?,
        });
    }
    Ok(merged.unwrap_or(map))
}

/// The group of `groups` whose affine hull is `hull` (both `None`: the
/// non-functional pieces').
fn alike(groups: &[(Option<Map>, Map)], hull: Option<&Map>) -> IslResult<Option<usize>> {
    for (k, (h, _)) in groups.iter().enumerate() {
        let same = match (h, hull) {
            (Some(h), Some(hull)) => h.is_equal(hull)?,
            (None, None) => true,
            _ => false,
        };
        if same {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of `text` after [`UnionMap::coalesce_alike`], checked to
    /// hold the same pairs.
    fn pieces_after(text: &str) -> usize {
        let map = Map::parse(text).unwrap();
        let joined = UnionMap::from_maps([&map]).unwrap().coalesce_alike().unwrap().as_single_map().unwrap();
        assert!(joined.is_equal(&map).unwrap(), "{text}");
        joined.n_pieces().unwrap()
    }

    #[test]
    fn pieces_of_one_distance_join() {
        assert_eq!(pieces_after("{ S[i] -> S[i + 1] : 0 <= i < 5; S[i] -> S[i + 1] : 5 <= i < 10 }"), 1);
    }

    #[test]
    fn distances_stay_points() {
        // isl's coalesce would make one piece, 1 <= j - i <= 2.
        let text = "{ S[i] -> S[i + 1] : 0 <= i < 10; S[i] -> S[i + 2] : 0 <= i < 10 }";
        assert_eq!(Map::parse(text).unwrap().coalesce().unwrap().n_pieces().unwrap(), 1);
        assert_eq!(pieces_after(text), 2);
    }

    /// A schedule's times have no name: kept by the statement's (isl-rs
    /// read an unnamed tuple's name from a null pointer).
    #[test]
    fn relations_to_unnamed_tuples_are_chosen_by_their_named_end() {
        let schedule = UnionMap::from_maps([&Map::parse("{ S[i] -> [0, i] : 0 <= i < 4 }").unwrap()]).unwrap();
        assert_eq!(schedule.among(&["S".to_string()]).unwrap().maps().unwrap().len(), 1);
        assert!(schedule.among(&["T".to_string()]).unwrap().is_empty().unwrap());
    }

    #[test]
    fn relations_that_are_not_functions_join() {
        assert_eq!(
            pieces_after("{ S[i] -> T[j] : 0 <= i < 5 and 0 <= j < 9; S[i] -> T[j] : 5 <= i < 10 and 0 <= j < 9 }"),
            1
        );
    }
}
