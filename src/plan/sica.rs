//! `--tile=sica`: SICA's tiles of a permutable band (see
//! [`mod@crate::tile::sica`]): only its vector loop, made innermost, and its
//! outermost loop are tiled, with sizes from the hardware's caches and
//! SIMD width and from the data each iteration of the vector loop loads.

use super::planner::Planner;
use crate::model::isl::IslResult;
use crate::options::TileOptions;
use crate::tile::{self, hw::Hardware, sica};
use std::ops::Range;

const SICA: &str = "tile=sica";

impl Planner<'_> {
    /// Tile `band` as SICA does, when its last member is a vector loop
    /// with no longer loop inside (see
    /// [`Planner::vectorisable_innermost`], which puts the best one
    /// there): that loop in tiles of `q_L1` iterations, the band's first
    /// member in tiles of `q_L2`. What was chosen and why goes to the
    /// notes' tile sizes (`--emit=tile-sizes`).
    pub(super) fn sica_tiles(&mut self, band: Range<usize>, t: &TileOptions) -> IslResult<()> {
        let vector = band.end - 1;
        let name = self.band_name(&band);
        if !self.is_innermost_vector_loop(vector)? {
            self.notes.sized(format!("{name}: not tiled, c{vector} is no vector loop innermost"));
            return Ok(());
        }
        let hw = Hardware::given_or_detected(t.hw.as_ref());
        let blocks = sica::blocks(self.scop, &self.nest.scattering, vector)?;
        let Some(choice) = sica::choose(&hw, t.sica_rho, blocks) else {
            self.notes.sized(format!("{name}: not tiled, no data moves along c{vector}"));
            return Ok(());
        };
        // A ratio of one is no second level.
        let outer = (choice.q_l2 > 1).then(|| clamp(choice.q_l2));
        let mut report = describe(&name, vector, t.sica_rho, &choice);
        let (first, q_l1) = (band.start, clamp(choice.q_l1));
        let tiled = tile::sica(&self.nest.scattering, band, outer, q_l1, self.n_params);
        let (candidate, placed) = match tiled {
            Ok((sc, tiles, points)) => (Ok(sc), Some((tiles, points))),
            Err(e) => (Err(e), None),
        };
        let applied = self.try_apply(SICA, candidate)?;
        match (applied, placed) {
            (true, Some((tiles, points))) => {
                self.tiled_bands.push(tiles);
                self.tile_prefix = points;
                let sizes = outer.map_or(format!("{q_l1}"), |q| format!("{q}x{q_l1}"));
                self.notes.tiled(format!("SICA-tiled {sizes}"));
                let l2 = outer.map_or(String::new(), |q| format!("c{first} by {q} (L2), "));
                report.push_str(&format!("\n  tiled: {l2}c{vector} by {q_l1} (L1)"));
            }
            _ => report.push_str("\n  not applied (see `refused`)"),
        }
        self.notes.sized(report);
        Ok(())
    }

    /// Whether the loop over `k` is a vector loop (see
    /// [`Planner::is_vector_loop`]) with only short loops, if any, inside.
    fn is_innermost_vector_loop(&self, k: usize) -> IslResult<bool> {
        let inner = (k + 1..self.nest.scattering.dims).any(|j| self.analysis.is_loop(j));
        Ok((!inner || self.only_short_loops_after(k)?) && self.is_vector_loop(k)?)
    }
}

/// A size as a tile size (sizes are bounded far below `i64::MAX`: see
/// [`sica::first_level`] and the hardware's limits).
fn clamp(size: u64) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

/// The equations' values for each block of `choice`, for `--emit=tile-sizes`.
fn describe(name: &str, vector: usize, rho: f64, choice: &sica::Choice) -> String {
    let mut out = format!("{name}, vector loop c{vector}:");
    for (block, s) in &choice.blocks {
        out.push_str(&format!(
            "\n  block {}: (1) E = {} new elements per iteration ({}), D = {} bytes\
             \n    (2) CaSiEl = L1 / D = {}\
             \n    (3) ElPeRe = R / D = {}\
             \n    (5) ItToBl = rho * CaSiEl / E = {rho} * {} / {} = {:.2}\
             \n    (6) q_L1 = floor(ItToBl / ElPeRe) * ElPeRe = {}",
            block.stmts.join(" "),
            s.e,
            block.arrays.join(", "),
            s.d,
            s.cache_elements,
            s.per_register,
            s.cache_elements,
            s.e,
            s.iterations,
            s.q_l1
        ));
    }
    out.push_str(&format!(
        "\n  q_L1 = {} (the smallest of the blocks')\n  (9) q_L2 = L2 / L1 = {}{}",
        choice.q_l1,
        choice.q_l2,
        if choice.q_l2 > 1 { "" } else { " (no second level)" }
    ));
    out
}
