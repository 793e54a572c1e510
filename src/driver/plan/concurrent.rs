//! Concurrent-start tiles of a time-iterated nest (`--tile=diamond`,
//! `--tile=hex`; see [`crate::tile::concurrent`]).

use super::Planner;
use crate::driver::{TileOptions, TileShape};
use crate::model::isl::IslResult;
use crate::tile::concurrent::{self, Stencil};

impl Planner<'_> {
    /// Diamond or hexagonal tiles, as `t.shape` asks, of a nest whose
    /// outer loop carries its dependences, each tile's points in the
    /// current order. Whether applied; if not, the reason is noted and
    /// the caller tiles as it would for `rect` (pipelined time tiles for a
    /// stencil).
    pub(super) fn concurrent_start(&mut self, t: &TileOptions) -> IslResult<bool> {
        let name = match t.shape {
            TileShape::Diamond => "tile=diamond",
            TileShape::Hex => "tile=hex",
            TileShape::Rect | TileShape::Sica => return Ok(false),
        };
        let stmts = self.nest.scattering.stmts.clone();
        let stencil = match Stencil::of(self.scop, &stmts, self.legality)? {
            Ok(stencil) => stencil,
            Err(why) => return self.refuse_concurrent(name, &why),
        };
        let cone = stencil.cone()?;
        let sizes = if t.sizes.is_empty() { default_sizes(t.shape, stencil.space.len()) } else { t.sizes.clone() };
        let inner = &self.nest.scattering;
        let built = match t.shape {
            TileShape::Hex => concurrent::hexagonal(&stencil, &cone, &sizes, inner)?,
            _ => concurrent::diamond(&stencil, &cone, &sizes, inner)?,
        };
        let (tiled, tile_distances) = match built {
            Ok(built) => built,
            Err(why) => return self.refuse_concurrent(name, &why),
        };
        let depth = tile_distances.n_dims()?;
        // Sound: the tile part is the bound's, and the point part a
        // distance of the current, verified order.
        let bound = tile_distances.flat_product(self.analysis.distances())?;
        let applied = self.try_apply_within(name, Ok(tiled), bound)?;
        if applied {
            self.tile_prefix = depth;
        }
        Ok(applied)
    }

    /// Note that `name` is not applied, and why.
    fn refuse_concurrent(&mut self, name: &str, why: &str) -> IslResult<bool> {
        self.notes.refused(format!("{name} not applied: {why}; tiled as for rect instead"));
        Ok(false)
    }
}

/// Default tile sizes of a stencil with `space` space dimensions: for
/// `diamond`, the diamonds' size then the classical tiles'; for `hex`,
/// the band height, the hexagons' top width, then the classical tiles'.
fn default_sizes(shape: TileShape, space: usize) -> Vec<i64> {
    let mut sizes = match shape {
        TileShape::Hex => vec![16, 32],
        _ => vec![64],
    };
    sizes.resize(sizes.len() + space.saturating_sub(1), 64);
    sizes
}
