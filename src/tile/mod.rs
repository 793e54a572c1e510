//! Rewrites of the time space of a [`Scattering`]: rectangular tiling of a
//! permutable band (one or two levels), the wavefront skew that makes a
//! band of tiles parallel, and permutations of band members. Each is an
//! affine map of the time space applied to every statement; legality is
//! the caller's to check with [`Scattering::verify`].

use crate::model::isl::{IslResult, Map};
use crate::model::params_decl;
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
    let size = |j: usize| sizes.get(j).or(sizes.last()).copied().unwrap_or(32);
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
    let dims = sc.dims + levels.len() * depth;
    let tiled = sc.then(&time_map(n_params, sc.dims, &out)?, dims)?;
    let l1 = band.start + (levels.len() - 1) * depth;
    let points = l1 + depth;
    Ok((
        tiled,
        TiledBand { outer_tiles: band.start..band.start + depth, tiles: l1..points, points: points..points + depth },
    ))
}

/// Replace the first of `tiles` by the sum of the first two: tiles on one
/// anti-diagonal run together, so the second tile dimension becomes
/// parallel when the band is permutable.
pub fn wavefront(sc: &Scattering, tiles: Range<usize>, n_params: usize) -> IslResult<Scattering> {
    let out: Vec<String> =
        (0..sc.dims).map(|k| if k == tiles.start { format!("c{k} + c{}", k + 1) } else { var(k) }).collect();
    sc.then(&time_map(n_params, sc.dims, &out)?, sc.dims)
}

/// Move dimension `from` to position `to` (within one permutable band).
pub fn move_dim(sc: &Scattering, from: usize, to: usize, n_params: usize) -> IslResult<Scattering> {
    let mut order: Vec<usize> = (0..sc.dims).collect();
    let k = order.remove(from);
    order.insert(to, k);
    let out: Vec<String> = order.into_iter().map(var).collect();
    sc.then(&time_map(n_params, sc.dims, &out)?, sc.dims)
}

fn var(k: usize) -> String {
    format!("c{k}")
}

/// `[c0..] -> [out..]`.
fn time_map(n_params: usize, dims: usize, out: &[String]) -> IslResult<Map> {
    let from: Vec<String> = (0..dims).map(var).collect();
    Map::parse(&format!("{} -> {{ [{}] -> [{}] }}", params_decl(n_params), from.join(", "), out.join(", ")))
}
