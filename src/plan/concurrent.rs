//! Concurrent-start tiles of a time-iterated nest (`--tile=diamond`,
//! `--tile=hex`; see [`crate::tile::concurrent`]).

use super::notes::{by, tiles, Notes};
use super::planner::{checked_by, Planner};
use crate::frontend::qexpr::Var;
use crate::model::isl::IslResult;
use crate::model::Scop;
use crate::options::{TileOptions, TileShape};
use crate::tile::concurrent::{self, Stencil};

impl Planner<'_> {
    /// Diamond or hexagonal tiles, as `t.shape` asks (diamonds for
    /// `auto`), of a nest whose outer loop carries its dependences, each
    /// tile's points in the current order. Whether applied; if not, the
    /// reason is noted (unless the shape is `auto`, which asked for no
    /// shape in particular) and the caller tiles as it would for `rect`
    /// (pipelined time tiles for a stencil).
    pub(super) fn concurrent_start(&mut self, t: &TileOptions) -> IslResult<bool> {
        let name = match t.shape {
            TileShape::Diamond | TileShape::Auto => CONCURRENT_TILES[0],
            TileShape::Hex => CONCURRENT_TILES[1],
            TileShape::Rect | TileShape::Sica => return Ok(false),
        };
        let stmts = self.nest.scattering.stmts.clone();
        if t.shape == TileShape::Auto && !iterates_in_time(self.scop, &stmts) {
            return Ok(false);
        }
        let stencil = match Stencil::of(self.scop, &stmts, self.legality)? {
            Ok(stencil) => stencil,
            Err(why) => return self.refuse_concurrent(name, &why, t),
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
            Err(why) => return self.refuse_concurrent(name, &why, t),
        };
        let depth = tile_distances.n_dims()?;
        // Sound: the tile part is the bound's, and the point part a
        // distance of the current, verified order.
        let bound = tile_distances.flat_product(self.analysis.distances())?;
        // `auto` asked for no shape in particular: a refusal goes unheard.
        let (scop, mut unheard) = (self.scop, Notes::default());
        let notes = if t.shape == TileShape::Auto { &mut unheard } else { &mut self.notes };
        let checked = checked_by(name, Ok(tiled), notes, |sc| sc.verify_within(scop, bound))?;
        let applied = self.adopt(name, checked)?;
        if applied {
            self.tile_prefix = depth;
            let shape = if t.shape == TileShape::Hex { "hexagon" } else { "diamond" };
            self.notes.tiled(format!("{shape}-tiled {}", by(&sizes)));
        }
        Ok(applied)
    }

    /// Keep why `name` is not applied for [`Planner::note_rect_fallback`]
    /// (unless the shape was polyc's choice, `auto`).
    fn refuse_concurrent(&mut self, name: &str, why: &str, t: &TileOptions) -> IslResult<bool> {
        if t.shape != TileShape::Auto {
            self.concurrent_refused = Some(format!("{name} not applied: {why}"));
        }
        Ok(false)
    }

    /// Note a refusal of concurrent-start tiles with what the nest got
    /// instead: rectangular tiles only where `--tile=rect` would tile it
    /// (gemm without `--parallel` or `--simd`: none, the source's loops).
    pub(super) fn note_rect_fallback(&mut self) {
        let Some(refused) = self.concurrent_refused.take() else { return };
        let instead = if tiles(&self.notes) {
            "tiled with rectangles instead"
        } else {
            "not tiled: rectangular tiles, tried instead, do not pay here either (as with --tile=rect)"
        };
        self.notes.refused(format!("{refused}; {instead}"));
    }
}

/// Whether the outer loop of the statements `stmts` only counts steps
/// of time: no subscript names its iterator. polyc's own choice of
/// diamonds (`auto`) is for such stencils: symm's rows, a loop its
/// dependences also run along, ran 1.4x slower in diamonds than in
/// rectangles, and fdtd-2d's (whose `_fict_[t]` names the step) cost the
/// scanner its whole share of the budget, then ended as rectangles (1.4
/// s to compile instead of 0.3 s).
fn iterates_in_time(scop: &Scop, stmts: &[usize]) -> bool {
    let names_step = |k: &usize| {
        let st = &scop.ast.stmts[*k];
        st.accesses.iter().flat_map(|a| &a.subscripts).any(|e| e.mentions(Var::Iter(0)))
    };
    !stmts.iter().any(names_step)
}

/// The names concurrent-start tiles are applied under (diamonds,
/// hexagons), as `Plan::notes` records them.
pub const CONCURRENT_TILES: [&str; 2] = ["tile=diamond", "tile=hex"];

/// Default tile sizes of a stencil with `space` space dimensions: for
/// `diamond`, the diamonds' size then the classical tiles'; for `hex`,
/// the band height, the hexagons' top width, then the classical tiles'.
/// With one space dimension, large tiles: a row of a tile is a vector
/// loop (jacobi-1d, TSTEPS = 4000, N = 200000, two threads: source 324
/// ms, rect 431, diamonds of 64: 470, of 1024: 141; hexagons 16 x 32:
/// 248, 64 x 256: 147). Otherwise measured on two threads at the
/// benchmark sizes (rect: jacobi-2d 320
/// ms, heat-3d 800 ms): diamonds of 64 with rows of 256 (jacobi-2d 302
/// ms; 64 x 64: 316), with three space dimensions diamonds of 32 and
/// classical tiles of 16 x 256 (heat-3d 732-748 ms; 64 x 64 x 64: 913);
/// hexagons 16 steps high and 32 wide with rows of 64 (jacobi-2d 319
/// ms), with three space dimensions small hexagons (4 x 4) and 16 x 256
/// (heat-3d 800 ms; 16 x 16: 927 ms, too few hexagons per phase for
/// the threads at N = 120).
fn default_sizes(shape: TileShape, space: usize) -> Vec<i64> {
    let classical = match space {
        0 | 1 => vec![],
        2 if shape == TileShape::Hex => vec![64],
        2 => vec![256],
        n => std::iter::repeat_n(16, n - 2).chain([256]).collect(),
    };
    let concurrent = match (shape, space) {
        (TileShape::Hex, 0 | 1) => vec![64, 256],
        (TileShape::Hex, 2) => vec![16, 32],
        (TileShape::Hex, _) => vec![4, 4],
        (_, 0 | 1) => vec![1024],
        (_, 2) => vec![64],
        _ => vec![32],
    };
    concurrent.into_iter().chain(classical).collect()
}
