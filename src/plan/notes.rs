//! What planning did, step by step, for warnings and reports; the names
//! of the steps, and whether a plan gains what a new loop order is for.

use super::marks::LoopMark;

/// What planning did, for reports.
#[derive(Clone, Default)]
pub struct Notes {
    /// The transformations applied.
    pub applied: Vec<String>,
    /// Transformations refused, with the reason (each becomes a warning).
    pub refused: Vec<String>,
    /// Steps not taken as the isl operation budget ran out (each becomes
    /// a `P0022` warning).
    pub out_of_budget: Vec<String>,
    /// The tile sizes chosen, and why, per band (`--emit=tile-sizes`).
    pub tile_sizes: Vec<String>,
    /// What the plan tiles, in words with the sizes (`tiled 32x32`), for
    /// the comment on the output: only tilings the plan still has.
    pub tiled: Vec<String>,
}

impl Notes {
    pub fn applied(&mut self, name: &str) {
        if !self.applied.iter().any(|a| a == name) {
            self.applied.push(name.to_string());
        }
    }

    pub fn refused(&mut self, why: String) {
        if !self.refused.contains(&why) {
            self.refused.push(why);
        }
    }

    /// Note a step not applied: as out of budget or as refused.
    pub fn not_applied(&mut self, why: String, out_of_budget: bool) {
        if out_of_budget {
            if !self.out_of_budget.contains(&why) {
                self.out_of_budget.push(why);
            }
        } else {
            self.refused(why);
        }
    }

    /// Put the refusals of `earlier` (an earlier plan's) before these.
    pub fn follow(&mut self, earlier: Notes) {
        let refused = std::mem::replace(&mut self.refused, earlier.refused);
        refused.into_iter().for_each(|r| self.refused(r));
        self.out_of_budget.splice(0..0, earlier.out_of_budget);
    }

    /// Note a tiling the plan now has (see [`Notes::tiled`]).
    pub fn tiled(&mut self, what: String) {
        if !self.tiled.contains(&what) {
            self.tiled.push(what);
        }
    }

    pub fn sized(&mut self, why: String) {
        if !self.tile_sizes.contains(&why) {
            self.tile_sizes.push(why);
        }
    }

    pub(super) fn merge(&mut self, other: Notes) {
        other.applied.iter().for_each(|a| self.applied(a));
        other.refused.into_iter().for_each(|r| self.refused(r));
        self.out_of_budget.extend(other.out_of_budget);
        other.tile_sizes.into_iter().for_each(|s| self.sized(s));
        other.tiled.into_iter().for_each(|t| self.tiled(t));
    }
}

/// The name of the step back to a nest's original schedule.
pub(super) const ORIGINAL_ORDER: &str = "original-order";

/// The name of the step back to a nest's original schedule where isl's
/// gains no more, its marks kept (see `Planner::source_order_if_as_good`).
pub(super) const SOURCE_ORDER: &str = "source-order";

/// Tile sizes in words: `32x32`.
pub(super) fn by(sizes: &[i64]) -> String {
    sizes.iter().map(i64::to_string).collect::<Vec<_>>().join("x")
}

/// The name of strip-mining one loop with its points innermost.
pub(super) const STRIPS: &str = "tile=strips";

/// The name of the step that runs strips of the vector loop outermost
/// (see `Planner::column_strips`).
pub(super) const COLUMN_STRIPS: &str = "tile=column-strips";

/// The name of the step that moves a loop innermost for stride-1 access.
pub(super) const FOR_LOCALITY: &str = "permute-for-locality";

/// Whether `notes` name a tiling or a loop moved innermost for
/// locality, or `marks` a parallel or SIMD loop.
pub(super) fn gains(notes: &Notes, marks: &[Vec<LoopMark>]) -> bool {
    tiles(notes)
        || notes.applied.iter().any(|a| a == FOR_LOCALITY)
        || marks.iter().flatten().any(|m| m.parallel && m.region || m.simd)
}

pub(super) fn tiles(notes: &Notes) -> bool {
    notes.applied.iter().any(|a| a.starts_with("tile"))
}
