//! Rewrites of the time space of a [`Scattering`] over a band:
//! rectangular tiling of a permutable band (one or two levels), SICA's
//! tiles, time tiles, the wavefront skew that makes a band of tiles
//! parallel, strip-mining, and permutations of band members. Each is an
//! affine map of the time space applied to every statement; legality is
//! the caller's to check with [`Scattering::verify`].
//!
//! Why time tiles are verified against a bound ([`time_tile_distances`])
//! rather than their exact distances: the distances through the floors of
//! a 4-d stencil's tiles cost isl seconds. The tile part of any distance is
//! non-negative in each tile dimension (the band is permutable), and the
//! point part is a distance of the inner order, itself verified, so their
//! product contains every distance, and checking it is sound
//! (`Scattering::verify_within`).
//!
//! Default sizes: 32 per member ([`default_rect_tile_sizes`]), but 256
//! points for a vector loop innermost (128 where its tiles are all the
//! threads share), so that vector iterations outnumber
//! loop overhead, and as many for strips of a vector loop ([`strip_size`]);
//! 64 by 128 for tiles of a skewed band whose points run in the original
//! order, as they serve the wavefront, not the cache
//! ([`default_skewed_tile_sizes`]).

use crate::model::isl::{set_text, IslResult, Map, Set};
use crate::schedule::Scattering;
use std::ops::Range;

/// A band after tiling: where its tile and point dimensions are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledBand {
    /// The outermost tile dimensions (L2 tiles with two levels, else L1).
    pub outer_tiles: Range<usize>,
    /// The L1 tile dimensions.
    pub tiles: Range<usize>,
    /// The original band members, now iterating inside one tile.
    pub points: Range<usize>,
}

/// Tile `band` of `sc` with `sizes` (per member, the last repeated), and
/// with `l2_ratio`, a second level of tiles that many L1 tiles wide.
pub fn rectangular(
    sc: &Scattering,
    band: Range<usize>,
    sizes: &[i64],
    l2_ratio: Option<i64>,
    n_params: usize,
) -> IslResult<(Scattering, TiledBand)> {
    let size = |j: usize| size_of(sizes, j);
    let depth = band.len();
    let mut levels: Vec<Vec<i64>> = Vec::new();
    if let Some(r) = l2_ratio {
        levels.push((0..depth).map(|j| size(j) * r).collect());
    }
    levels.push((0..depth).map(size).collect());
    let mut out: Vec<String> = (0..band.start).map(var).collect();
    for level in &levels {
        out.extend(band.clone().zip(level).map(|(k, s)| format!("floor(c{k}/{s})")));
    }
    out.extend((band.start..sc.dims).map(var));
    let tiled = sc.remap(&out, n_params)?;
    let l1 = band.start + (levels.len() - 1) * depth;
    let points = l1 + depth;
    Ok((
        tiled,
        TiledBand { outer_tiles: band.start..band.start + depth, tiles: l1..points, points: points..points + depth },
    ))
}

/// SICA's tiles of `band` (see the `sica` module): its last member (the vector
/// loop) in tiles of `vector`, and its first in tiles of `outer` if
/// given. The first member's tile loop (or the member itself) and the
/// vector loop's tile loop come first, then the members between them
/// (tiles of one point, as PLUTO treats untiled members: gemm's `k`
/// runs inside both tile loops, so that one tile's rows of `C` stay in
/// cache while `k` sweeps), then the first member's points and the
/// vector loop's. Returns the scattering, the tile loops' dimensions and
/// where the points start.
pub fn sica(
    sc: &Scattering,
    band: Range<usize>,
    outer: Option<i64>,
    vector: i64,
    n_params: usize,
) -> IslResult<(Scattering, Range<usize>, usize)> {
    let (first, last) = (band.start, band.end - 1);
    let mut out: Vec<String> = (0..first).map(var).collect();
    out.push(match outer {
        Some(size) => format!("floor(c{first}/{size})"),
        None => var(first),
    });
    out.push(format!("floor(c{last}/{vector})"));
    out.extend((first + 1..last).map(var));
    let points = out.len();
    if outer.is_some() {
        out.push(var(first));
    }
    out.push(var(last));
    out.extend((band.end..sc.dims).map(var));
    Ok((sc.remap(&out, n_params)?, first..first + 2, points))
}

/// The tile size of band member `j`: the last given repeats, 32 by default.
pub fn size_of(sizes: &[i64], j: usize) -> i64 {
    sizes.get(j).or(sizes.last()).copied().unwrap_or(DEFAULT_SIZE)
}

const DEFAULT_SIZE: i64 = 32;

/// The points a vector loop runs per tile by default (see
/// [`default_rect_tile_sizes`]).
const VECTOR_ROW: i64 = 8 * DEFAULT_SIZE;

/// The width of strips of a vector loop (see [`strip_mine_inward`]): the
/// first of `sizes` if given.
pub fn strip_size(sizes: &[i64]) -> i64 {
    sizes.first().copied().unwrap_or(VECTOR_ROW)
}

/// The default sizes of rectangular tiles over a band of `depth` members:
/// 32, but a vector loop innermost runs 256 points, so that its vector
/// iterations outnumber the loop overhead (gemm measured 0.97x with 32,
/// 1.29x with 256 there; 2mm 1.24x and 1.51x), or 128 where its tiles are
/// all the threads share (`threads_share_the_row`): twice the tiles to
/// share (trmm at LARGE, its 1,200 columns in 5 tiles: 1.55x the speed of
/// one thread on two; in 10, 1.73x, and the same speed on one).
pub fn default_rect_tile_sizes(depth: usize, vector_innermost: bool, threads_share_the_row: bool) -> Vec<i64> {
    let mut sizes = vec![DEFAULT_SIZE; depth];
    if vector_innermost {
        sizes[depth - 1] = if threads_share_the_row { VECTOR_ROW / 2 } else { VECTOR_ROW };
    }
    sizes
}

/// The default sizes of tiles of a skewed band whose points run in the
/// original order (see `Planner::original_order_if_more_contiguous`):
/// they are there for the wavefront, not for the cache, and larger ones
/// spend less in tile bounds (floyd-warshall: 0.90x with 32 x 32 on one
/// thread, 1.06x with 64 x 128; on two, both 1.7x).
pub fn default_skewed_tile_sizes(depth: usize) -> Vec<i64> {
    let mut sizes = vec![2 * DEFAULT_SIZE; depth];
    sizes[depth - 1] = 4 * DEFAULT_SIZE;
    sizes
}

/// The default sizes of time tiles over a band of `depth` members: with
/// three space dimensions, 32-point rows spend more in loop bounds than
/// the tile saves in cache (heat-3d measured 0.84x; 1.2-1.4x with rows of
/// 128), and 16 time steps per tile give the wavefront twice the tiles
/// to share among threads (heat-3d on two threads 1.3x -> 1.65x the
/// speed of one; the same on one); 2-d stencils measured best with 32
/// throughout.
fn default_time_tile_sizes(depth: usize) -> Vec<i64> {
    let mut sizes = vec![DEFAULT_SIZE; depth];
    if depth >= 4 {
        sizes[0] = DEFAULT_SIZE / 2;
        sizes[depth - 1] = 4 * DEFAULT_SIZE;
    }
    sizes
}

/// The size of each of `depth` time tiles' dimensions: `sizes` (the last
/// repeated), or the defaults when there are none.
pub fn time_tile_sizes(depth: usize, sizes: &[i64]) -> Vec<i64> {
    let sizes = if sizes.is_empty() { default_time_tile_sizes(depth) } else { sizes.to_vec() };
    (0..depth).map(|k| size_of(&sizes, k)).collect()
}

/// Time tiling: tiles over the outer `depth` dimensions of `skewed` (a
/// permutable band), run on a wavefront if `wavefront`, inside each of
/// which the points run in the order of `inner`, a schedule of the same
/// statements. Running a tile in the original order keeps its innermost
/// loop stride-1 and parallel, which tiles of the skewed loops themselves
/// would not be.
pub fn time_tiles(
    skewed: &Scattering,
    depth: usize,
    sizes: &[i64],
    wavefront: bool,
    inner: &Scattering,
    n_params: usize,
) -> IslResult<Scattering> {
    let sizes = time_tile_sizes(depth, sizes);
    let mut tiles: Vec<String> = sizes.iter().enumerate().map(|(k, size)| format!("floor(c{k}/{size})")).collect();
    if wavefront {
        tiles[0] = format!("{} + {}", tiles[0], tiles[1]);
    }
    skewed.remap(&tiles, n_params)?.beside(inner)
}

/// Where the tile part of [`time_tiles`]'s dependence distances lies: a
/// dependence never goes back along a permutable band, so neither does
/// its tile along any tile dimension (`a_k >= 0`), and a wavefront
/// replaces `a_0` by `a_0 + a_1`.
pub fn time_tile_distances(depth: usize, wavefront: bool, n_params: usize) -> IslResult<Set> {
    let mut body: Vec<String> = (1..depth).map(|k| format!("c{k} >= 0")).collect();
    body.push(if wavefront { "c0 >= c1".into() } else { "c0 >= 0".into() });
    Set::parse(&set_text(n_params, depth, &body.join(" and ")))
}

/// Replace the first of `tiles` by the sum of the first two: tiles on one
/// anti-diagonal run together, so the second tile dimension becomes
/// parallel when the band is permutable.
pub fn wavefront(sc: &Scattering, tiles: Range<usize>, n_params: usize) -> IslResult<Scattering> {
    let out: Vec<String> =
        (0..sc.dims).map(|k| if k == tiles.start { format!("c{k} + c{}", k + 1) } else { var(k) }).collect();
    sc.remap(&out, n_params)
}

/// Strip-mine dimension `k` of `sc` into strips of `size` and run each
/// strip's points innermost, after every other dimension: legal when no
/// dependence crosses `k` (each stays within one point of it).
pub fn strip_mine_inward(sc: &Scattering, k: usize, size: i64, n_params: usize) -> IslResult<Scattering> {
    let mut out: Vec<String> =
        (0..sc.dims).map(|j| if j == k { format!("floor(c{k}/{size})") } else { var(j) }).collect();
    out.push(var(k));
    sc.remap(&out, n_params)
}

/// Strip-mine dimension `k` of `sc` into strips of `size` run outermost,
/// before every other dimension, the points where `k` was: legal where
/// every dependence keeps or advances `k` (none goes to an earlier strip).
pub fn strip_mine_outward(sc: &Scattering, k: usize, size: i64, n_params: usize) -> IslResult<Scattering> {
    let mut out = vec![format!("floor(c{k}/{size})")];
    out.extend((0..sc.dims).map(var));
    sc.remap(&out, n_params)
}

/// Move dimension `from` to position `to` (within one permutable band).
pub fn move_dim(sc: &Scattering, from: usize, to: usize, n_params: usize) -> IslResult<Scattering> {
    sc.remap(&moved_order(sc.dims, from, to), n_params)
}

/// [`move_dim`] for the statements `which` names (by position in `sc`)
/// only.
pub fn move_dim_of(sc: &Scattering, which: &[bool], from: usize, to: usize, n_params: usize) -> IslResult<Scattering> {
    sc.remap_some(&moved_order(sc.dims, from, to), which, n_params)
}

/// The time dimensions' names in the order that moves `from` to `to`.
fn moved_order(dims: usize, from: usize, to: usize) -> Vec<String> {
    let mut order: Vec<usize> = (0..dims).collect();
    let k = order.remove(from);
    order.insert(to, k);
    order.into_iter().map(var).collect()
}

/// Where [`strip_mine_inward`]'s dependence distances lie, given the
/// distances `before` it: each vector with its `k`-th entry `d` moved
/// last and, in its place, the strip part `e`, which is within a strip
/// of `d / size` (`|d - size * e| < size`). Cheap where exact distances
/// through the strips' floors are not (adi's 27 statements).
pub fn strip_distances(before: &Set, k: usize, size: i64, n_params: usize) -> IslResult<Set> {
    let dims = before.n_dims()?;
    let from: Vec<String> = (0..dims).map(var).collect();
    let mut to: Vec<String> = (0..dims).map(|j| if j == k { "strip".to_string() } else { var(j) }).collect();
    to.push(var(k));
    let c = var(k);
    let map = Map::parse(&format!(
        "{} -> {{ [{}] -> [{}] : -{size} < {c} - {size} * strip < {size} }}",
        crate::model::params_decl(n_params),
        from.join(", "),
        to.join(", ")
    ))?;
    map.intersect_domain(before)?.range()
}

pub(super) fn var(k: usize) -> String {
    format!("c{k}")
}
