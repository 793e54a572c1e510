//! Full tiles: the tiles of a statement whose points form a box, each
//! point loop's bounds free of the other point loops, but the last
//! loop's, which may move with a register block's rows (whose own ends
//! `emit::ragged` runs). A triangle's tiles (trmm's `i < k`) are boxes
//! away from its diagonal; there the loops of a tile's points may be
//! jammed and blocked in registers as a rectangle's are (`plan::pieces`
//! prints them apart).

use super::band::var;
use crate::model::isl::{IslResult, Map, Set};
use crate::model::params_decl;

/// A statement's tiles, as sets over the time dimensions naming them.
#[derive(Clone)]
pub struct Tiles {
    /// Those whose points form a box.
    pub full: Set,
    /// The others.
    pub partial: Set,
}

/// Of `points`, one statement's instances in an `n`-dimensional time
/// space whose first `prefix` dimensions name the tile, the tiles whose
/// points form a box and the others, if some do and some do not, and the
/// full ones span as many dimensions as all: a tile's box is the product
/// of the ranges its points take in each dimension (the last dimension's
/// range given the dimensions before `rows`), and a full tile holds its
/// whole box.
pub fn full_tiles(points: &Set, prefix: usize, rows: usize, n_params: usize) -> IslResult<Option<Tiles>> {
    let n = points.n_dims()?;
    let mut boxes = points.keep_leading_dims(prefix)?.add_dims(n - prefix)?;
    for d in prefix..n {
        let given = if d + 1 == n { rows } else { prefix };
        boxes = boxes.intersect(&range_given(points, given, d, n_params)?)?;
    }
    let tiles = points.keep_leading_dims(prefix)?;
    let partial = boxes.subtract(points)?.keep_leading_dims(prefix)?.intersect(&tiles)?.coalesce()?;
    if partial.is_empty()? {
        return Ok(None);
    }
    // Full tiles along a line of a plane of tiles (a triangle's diagonal
    // tile of a single point, at some sizes) are a special case of the
    // edge, not where the work is: they stay with it.
    let span = tiles.dimension()?;
    let mut full: Option<Set> = None;
    for piece in tiles.subtract(&partial)?.coalesce()?.convex_pieces()? {
        if piece.dimension()? == span {
            full = Some(match full {
                Some(f) => f.union(&piece)?,
                None => piece,
            });
        }
    }
    let Some(full) = full else { return Ok(None) };
    let partial = tiles.subtract(&full)?.coalesce()?;
    Ok(Some(Tiles { full, partial }))
}

/// The points of the time space whose dimension `d` lies in the range
/// `points` take there given the first `given` dimensions.
fn range_given(points: &Set, given: usize, d: usize, n_params: usize) -> IslResult<Set> {
    let n = points.n_dims()?;
    let all: Vec<String> = (0..n).map(var).collect();
    let kept: Vec<String> = (0..given).chain([d]).map(var).collect();
    let onto =
        Map::parse(&format!("{} -> {{ [{}] -> [{}] }}", params_decl(n_params), all.join(", "), kept.join(", ")))?;
    let range = onto.intersect_domain(points)?.range()?;
    onto.intersect_range(&range)?.domain()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A triangle `i < k` in tiles of 4 by 4: the tiles below the diagonal
    /// are full, the diagonal ones are not.
    #[test]
    fn a_triangle_s_tiles_are_full_off_its_diagonal() {
        let points =
            Set::parse("[p0] -> { [t0, t1, k, i] : 0 <= i < k < p0 and 4t0 <= k <= 4t0 + 3 and 4t1 <= i <= 4t1 + 3 }")
                .unwrap();
        let tiles = full_tiles(&points, 2, 2, 1).unwrap().expect("some tiles are full, some are not");
        let full = Set::parse("[p0] -> { [t0, t1] : 0 <= t1 < t0 and 4t0 < p0 }").unwrap();
        assert!(tiles.full.is_equal(&full).unwrap(), "{}", tiles.full.to_text().unwrap());
        // A diagonal tile of a single point (k = 1, i = 0 of it) is full,
        // but it stays with the diagonal.
        let diagonal = Set::parse("[p0] -> { [t0, t0] : t0 >= 0 and 4t0 <= p0 - 2 }").unwrap();
        assert!(tiles.partial.is_equal(&diagonal).unwrap(), "{}", tiles.partial.to_text().unwrap());
    }

    /// A rectangle's tiles are all boxes, clipped at its edges or not:
    /// nothing to print apart.
    #[test]
    fn a_rectangle_has_no_partial_tile() {
        let points =
            Set::parse("[p0, p1] -> { [t0, t1, k, i] : 0 <= k < p0 and 0 <= i < p1 and 4t0 <= k <= 4t0 + 3 and 4t1 <= i <= 4t1 + 3 }")
                .unwrap();
        assert!(full_tiles(&points, 2, 2, 2).unwrap().is_none());
    }

    /// A tile of a triangle too small for any full tile has none.
    #[test]
    fn no_tile_full_means_no_piece() {
        let points = Set::parse("{ [t0, k, i] : 0 <= i < k < 4 and t0 = 0 }").unwrap();
        assert!(full_tiles(&points, 1, 1, 0).unwrap().is_none());
    }

    /// Rows `r` whose last loop `c` runs to each row's own end (`c <= r`),
    /// in tiles of 4 by 4: boxes where that end may move with the rows,
    /// not where it may not.
    #[test]
    fn the_last_loop_s_bounds_may_move_with_the_rows() {
        let points =
            Set::parse("[p0] -> { [t0, t1, r, c] : 0 <= c <= r < p0 and 4t0 <= r <= 4t0 + 3 and 4t1 <= c <= 4t1 + 3 }")
                .unwrap();
        assert!(full_tiles(&points, 2, 3, 1).unwrap().is_none());
        assert!(full_tiles(&points, 2, 2, 1).unwrap().is_some());
    }

    /// A tetrahedron's tiles (`i <= k <= j`) are never boxes, but where
    /// one instance fills a tile: those full tiles lie on a line, and
    /// count for nothing.
    #[test]
    fn full_tiles_of_lower_dimension_count_for_nothing() {
        let points = Set::parse(
            "[p0] -> { [t0, t1, j, i, k] : 0 <= i < j < p0 and i <= k <= j and 4t0 <= i <= 4t0 + 3 and 4t1 <= j <= 4t1 + 3 }",
        )
        .unwrap();
        assert!(full_tiles(&points, 2, 2, 1).unwrap().is_none());
    }
}
