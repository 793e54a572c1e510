//! Tiling steps: time tiles of a skewed band, rectangular tiles of each
//! permutable band with reuse (sizes, vector loop innermost), strips of a
//! vector loop or of independent recurrences, and the tile loops'
//! wavefront or outermost parallel loop.

use super::budget::{planning_budget, SKEWING_SHARE};
use super::notes::{by, tiles, Notes, COLUMN_STRIPS, ORIGINAL_ORDER, STRIPS};
use super::planner::{checked, checked_by, Planner};
use crate::model::isl::{self, IslResult};
use crate::options::{PlanRequest, TileShape};
use crate::schedule::{analysis, Analysis, Scattering};
use crate::tile;
use std::ops::Range;

/// The name of the step that moves a parallel point loop innermost of a
/// tile's points (see `Planner::parallel_point_innermost`).
const POINTS_FOR_REGISTERS: &str = "tile-points-for-registers";

/// The name of the step that moves a reduction point loop around the
/// vector loop (see `Planner::reduction_point_around_vector_loop`).
const REDUCTION_AROUND_VECTOR: &str = "tile-points-for-reduction";

/// The most statements a time-tiled nest may have: isl's skewing
/// scheduler slows down quickly with them (adi's 27 took 1.9 s, no deep
/// band found), and stencils have a handful.
pub(super) const MAX_TIME_TILED: usize = 8;

/// Independent chains a recurrence strip runs side by side: enough to
/// hide a division's latency (adi 1.0x -> 1.6x with 3 or 4; 1.3x with 8).
pub(super) const RECURRENCE_STRIP: i64 = 4;

/// Columns in one strip of [`Planner::column_strips`]: 2 KiB of doubles
/// per row, eight strips of a row of 2,000 for the threads to share
/// (mvt, bicg and gemver at LARGE on two threads ran as fast as in
/// strips of 128, on one up to 10% faster).
const COLUMN_STRIP: i64 = 256;

/// The fewest strips [`Planner::column_strips`] makes: two per thread on
/// two, where a fixed size allows fewer.
const FEWEST_COLUMN_STRIPS: i64 = 4;

impl Planner<'_> {
    /// When the innermost loop is no vector loop but an outer one is, in
    /// another band (isl put utsolve's columns `j` outermost and its
    /// reduction innermost): strips of that loop, each running its points
    /// innermost, where they vectorise while the strip of data they walk
    /// stays in cache (utsolve 0.9x untransformed, 1.7-2.0x in strips of
    /// 256, 1.3x of 32). Whether applied; the bands are then left as they
    /// are. Not with `--tile=sica`, which tiles only its own two loops.
    pub(super) fn vector_loop_strips(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let Some(t) = request.tile.as_ref().filter(|t| t.shape != TileShape::Sica) else { return Ok(false) };
        let sc = &self.nest.scattering;
        let Some(innermost) = sc.innermost_loop() else { return Ok(false) };
        if self.analysis.strides().contiguous_accesses(self.scop, innermost)?.1 == 0
            || analysis::is_short_loop(self.scop, sc, innermost)?
        {
            return Ok(false);
        }
        let bands = self.analysis.bands()?;
        let apart = |k: usize| !bands.iter().any(|&(b, e)| (b..e).contains(&k) && (b..e).contains(&innermost));
        for k in (0..innermost).filter(|&k| self.analysis.is_loop(k) && apart(k)) {
            if self.is_vector_loop(k)? {
                let size = tile::strip_size(&t.sizes);
                let strips = tile::strip_mine_inward(sc, k, size, self.n_params);
                let applied = self.try_apply(STRIPS, strips)?;
                if applied {
                    self.notes.tiled(format!("strip-mined by {size}"));
                }
                return Ok(applied);
            }
        }
        Ok(false)
    }

    /// Time tiling (tiled stencils): when the nest's outer loop carries
    /// dependences and no permutable band spans it, tile the outer band of
    /// a skewed schedule, run each tile's points in the current order (see
    /// [`tile::time_tiles`]), and with `--parallel` run tiles on a
    /// wavefront. Whether applied. Not with `--tile=sica`, which tiles
    /// only its own two loops.
    pub(super) fn time_tiled(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let Some(t) = request.tile.as_ref().filter(|t| t.shape != TileShape::Sica) else { return Ok(false) };
        let stmts = self.nest.scattering.stmts.clone();
        // isl's scheduler is not asked on memory-based dependences (see `transformed`).
        if !self.analysis.is_loop(0) || stmts.len() > MAX_TIME_TILED || !self.deps.memory_based_through().is_empty() {
            return Ok(false);
        }
        if self.concurrent_start(t)? {
            return Ok(true);
        }
        let outer_band = self.analysis.bands()?.first().map_or(0, |(b, e)| if *b == 0 { e - b } else { 0 });
        // Parallel once a row buffer is private: better than skewed tiles.
        if outer_band >= 2 || self.parallel_with_private(0)?.is_some() {
            return Ok(false);
        }
        // An extra the nest does without when isl cannot find it cheaply.
        let budget = planning_budget(request) / SKEWING_SHARE;
        let skewed = match isl::within_budget(budget, || Scattering::skewed(self.scop, stmts, self.legality)) {
            Ok(Some(skewed)) => skewed,
            Ok(None) | Err(_) => return Ok(false),
        };
        let skew = Analysis::new(&skewed, self.legality, self.n_params)?;
        let depth = match skew.bands()?.first() {
            Some(&(0, e)) if e >= 2 => e,
            _ => return Ok(false),
        };
        let wavefront = request.parallel && !skew.is_parallel(0)?;
        // Exact distances through the tiles' floors cost isl seconds on a
        // 4-d stencil; this bound is sound as the band is permutable and
        // the points run in the current, verified order.
        let bound =
            tile::time_tile_distances(depth, wavefront, self.n_params)?.flat_product(self.analysis.distances())?;
        let tiled = tile::time_tiles(&skewed, depth, &t.sizes, wavefront, &self.nest.scattering, self.n_params);
        let name = if wavefront { "tile=time+wavefront" } else { "tile=time" };
        let applied = self.try_apply_within(name, tiled, bound)?;
        if applied {
            self.tile_prefix = depth;
            self.notes.tiled(format!("time-tiled {}", by(&tile::time_tile_sizes(depth, &t.sizes))));
        }
        Ok(applied)
    }

    /// Reorder, tile and wavefront each permutable band of depth two or
    /// more; innermost band first, so the positions of the outer ones hold.
    /// Whether it went back to the original order instead (see
    /// [`Planner::original_tiles_as_well`]), whose bands are then to be
    /// planned again.
    pub(super) fn bands(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let mut bands = Vec::new();
        for (b, e) in self.analysis.bands()? {
            bands.extend(self.without_short_loops(b..e)?);
        }
        let sica = request.tile.as_ref().is_some_and(|t| t.shape == TileShape::Sica);
        for band in bands.into_iter().rev().filter(|band| band.len() >= 2) {
            // SICA's tile sizes are those of a vector loop innermost.
            if request.simd || sica {
                self.vectorisable_innermost(band.clone())?;
            }
            let Some(t) = &request.tile else { continue };
            if sica {
                self.sica_tiles(band, t)?;
                continue;
            }
            let mut original = self.original_order_if_more_contiguous(band.end - 1)?;
            if original.is_some() && !analysis::is_skewed(self.scop, &self.nest.scattering, band.clone())? {
                // Merely permuted: the original order comes back whole
                // (see `original_order_if_it_vectorises`) unless tiles pay.
                original = None;
            }
            if let Some(original) = &original {
                // A skewed band inside a sequential loop (floyd-warshall's
                // k) keeps its tiles: its wavefront is the only parallelism.
                let whole_nest = !(0..band.start).any(|k| self.analysis.is_loop(k));
                let in_original = Analysis::new(original, self.legality, self.n_params)?;
                if whole_nest && self.original_tiles_as_well(original, &in_original)?
                    || self.rows_beat_columns(original, &in_original, band.end - 1)?
                {
                    return self.try_apply(ORIGINAL_ORDER, Ok(original.clone()));
                }
            }
            if original.is_none() && !self.worth_tiling(band.clone())? {
                continue;
            }
            let name = if t.l2_ratio.is_some() { "tile=rect+l2" } else { "tile=rect" };
            let sizes = match t.sizes.as_slice() {
                [] if original.is_some() => tile::default_skewed_tile_sizes(band.len()),
                [] => tile::default_rect_tile_sizes(
                    band.len(),
                    self.is_vector_loop(band.end - 1)?,
                    request.parallel && self.threads_share_only_the_last(band.clone())?,
                ),
                given => given.to_vec(),
            };
            let l2 = t.l2_ratio.map_or(String::new(), |r| format!(", second level {r} tiles wide"));
            self.notes.sized(format!("{}: rect tiles {sizes:?}{l2}", self.band_name(&band)));
            let (tiled, placed) =
                match tile::rectangular(&self.nest.scattering, band.clone(), &sizes, t.l2_ratio, self.n_params) {
                    Ok(tiled) => tiled,
                    Err(e) => {
                        self.try_apply(name, Err(e))?;
                        continue;
                    }
                };
            if !self.try_apply(name, Ok(tiled))? {
                continue;
            }
            let each: Vec<i64> = (0..band.len()).map(|k| tile::size_of(&sizes, k)).collect();
            let levels = t.l2_ratio.map_or(String::new(), |r| format!(" in two levels ({r} tiles wide)"));
            self.notes.tiled(format!("tiled {}{levels}", by(&each)));
            self.tiled_bands.push(placed.outer_tiles.clone());
            self.tile_prefix = placed.points.start;
            if request.unroll_jam.is_some() {
                self.parallel_point_innermost(placed.points.clone())?;
                self.reduction_point_around_vector_loop(placed.points.clone())?;
            }
            let original = match original {
                None if self.only_short_loops_after(placed.points.end - 1)? => Some(self.original()),
                original => original,
            };
            if let Some(original) = original {
                let tiles: Vec<String> = (0..placed.points.start).map(|k| format!("c{k}")).collect();
                let candidate = self.nest.scattering.remap(&tiles, self.n_params).and_then(|t| t.beside(&original));
                self.try_apply("tile-points=original", candidate)?;
            }
            if request.parallel {
                self.wavefront_if_sequential(placed.outer_tiles)?;
            }
        }
        Ok(false)
    }

    /// Inside a tile, a parallel point loop moved innermost among the
    /// points, where the innermost one is not parallel and loops run
    /// inside it: copies of the parallel loop's body then form a register
    /// block around those loops (`emit::registers`), which the copies of
    /// a sequential loop cannot. doitgen's rows `r` share the sum over
    /// `q` each writes first; with `q` innermost of the points, eight
    /// rows of it keep their sums in registers (0.035 s -> 0.0125 s at
    /// LARGE on one thread). Point loops of a permutable band run in any
    /// order; the verifier checks the statements around them.
    fn parallel_point_innermost(&mut self, points: Range<usize>) -> IslResult<()> {
        let last = points.end - 1;
        let loops_inside = (last + 1..self.nest.scattering.dims).any(|j| self.analysis.is_loop(j));
        if !loops_inside || self.analysis.is_parallel(last)? || self.analysis.carries_only_vertically(last)? {
            return Ok(());
        }
        for k in (points.start..last).rev() {
            if self.analysis.is_parallel(k)? {
                let candidate = tile::move_dim(&self.nest.scattering, k, last, self.n_params);
                self.try_apply(POINTS_FOR_REGISTERS, candidate)?;
                return Ok(());
            }
        }
        Ok(())
    }

    /// Inside a tile whose innermost point loop is a vector loop and none
    /// of whose points jams, a point loop moved right around the vector
    /// loop where it then carries only a reduction (its `jam` mark): its
    /// copies keep the sum in a register. trmm's points run `k, i, j`,
    /// and `k` carries its anti dependences slanted across the rows `i`
    /// of a diagonal tile; as `i, k, j`, the rows carry those, and `k`
    /// only the sum `B[i][j]`. Point loops of a permutable band run in
    /// any order; the verifier checks the statements around them.
    fn reduction_point_around_vector_loop(&mut self, points: Range<usize>) -> IslResult<()> {
        let last = points.end - 1;
        let loops_inside = (last + 1..self.nest.scattering.dims).any(|j| self.analysis.is_loop(j));
        if points.len() < 3 || loops_inside || !self.analysis.is_parallel(last)? {
            return Ok(());
        }
        for k in points.start..last {
            if self.jams(k)? {
                return Ok(());
            }
        }
        for k in (points.start..last - 1).rev().filter(|&k| self.analysis.is_loop(k)) {
            if self.analysis.is_parallel(k)? {
                continue;
            }
            let before = self.clone();
            let candidate = tile::move_dim(&self.nest.scattering, k, last - 1, self.n_params);
            if self.try_apply(REDUCTION_AROUND_VECTOR, candidate)? && !self.jams(last - 1)? {
                *self = before;
            }
            return Ok(());
        }
        Ok(())
    }

    /// Whether the loop over `k` carries only a reduction, which its
    /// copies keep in registers: its `jam` mark (see `Planner::mark`).
    pub(super) fn jams(&self, k: usize) -> IslResult<bool> {
        Ok(self.analysis.is_loop(k)
            && !self.analysis.is_parallel(k)?
            && self.analysis.carries_only_vertically(k)?
            && self.analysis.strides().some_write_stays_put(self.scop, k)?)
    }

    /// Whether the loops after dimension `k` are all short (and there is
    /// one): the source's own order of those, which gcc unrolls and
    /// vectorises around (a convolution's taps), is then the best order
    /// inside a tile.
    pub(super) fn only_short_loops_after(&self, k: usize) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        let inner: Vec<usize> = (k + 1..sc.dims).filter(|&j| self.analysis.is_loop(j)).collect();
        for &j in &inner {
            if !analysis::is_short_loop(self.scop, sc, j)? {
                return Ok(false);
            }
        }
        Ok(!inner.is_empty())
    }

    /// The runs of `band` between its short loops (see
    /// [`analysis::is_short_loop`]), each still a permutable band; the short
    /// loops keep their place.
    pub(super) fn without_short_loops(&self, band: Range<usize>) -> IslResult<Vec<Range<usize>>> {
        let mut runs = Vec::new();
        let mut start = band.start;
        for k in band.clone() {
            if analysis::is_short_loop(self.scop, &self.nest.scattering, k)? {
                runs.push(start..k);
                start = k + 1;
            }
        }
        runs.push(start..band.end);
        Ok(runs.into_iter().filter(|r| !r.is_empty()).collect())
    }

    /// Whether tiles of `band` pay: some member is parallel and some data
    /// is reused beyond what the cache keeps (see [`Strides::band_has_reuse`]).
    /// Tiles only for parallelism measured slower: blur2's fused rows 0.71x
    /// tiled, 1.63x untiled.
    ///
    /// [`Strides::band_has_reuse`]: crate::schedule::strides::Strides::band_has_reuse
    pub(super) fn worth_tiling(&self, band: Range<usize>) -> IslResult<bool> {
        Ok(self.band_has_parallel_member(band.clone())? && self.analysis.strides().band_has_reuse(self.scop, band)?)
    }

    /// Whether the tiles of `band`'s last member will be all the threads
    /// share: the nest's first loop is sequential, and of the band's
    /// members no dependence crosses the last alone (the tile loop
    /// [`Planner::tile_loop_outermost`] moves out).
    fn threads_share_only_the_last(&self, band: Range<usize>) -> IslResult<bool> {
        if self.first_loop_if_sequential()?.is_none() {
            return Ok(false);
        }
        for k in band.start..band.end - 1 {
            if self.analysis.is_fully_parallel(k)? {
                return Ok(false);
            }
        }
        self.analysis.is_fully_parallel(band.end - 1)
    }

    /// The nest's first loop, if it is not parallel.
    fn first_loop_if_sequential(&self) -> IslResult<Option<usize>> {
        let Some(first) = (0..self.nest.scattering.dims).find(|&k| self.analysis.is_loop(k)) else {
            return Ok(None);
        };
        Ok((!self.analysis.is_parallel(first)?).then_some(first))
    }

    /// Whether some member of `band` is a parallel loop. Tiles of a band
    /// with none run in parallel only along a wavefront, whose skewed tile
    /// loops measured slower than the untiled loops on one thread.
    pub(super) fn band_has_parallel_member(&self, band: Range<usize>) -> IslResult<bool> {
        for k in band {
            if self.analysis.is_parallel(k)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Move to the innermost position of `band` the member whose loop is
    /// parallel there and touches memory most contiguously (PLUTO's
    /// intra-tile reordering), when that beats the current innermost.
    pub(super) fn vectorisable_innermost(&mut self, band: Range<usize>) -> IslResult<()> {
        let last = band.end - 1;
        // With longer loops inside, the band's last member is no vector
        // loop, and moving a member there only costs locality.
        if (band.end..self.nest.scattering.dims).any(|k| self.analysis.is_loop(k))
            && !self.only_short_loops_after(last)?
        {
            return Ok(());
        }
        let mut best = (last, self.vector_score(band.clone(), last)?);
        for k in band.start..last {
            let score = self.vector_score(band.clone(), k)?;
            if score > best.1 {
                best = (k, score);
            }
        }
        if best.0 != last {
            let candidate = tile::move_dim(&self.nest.scattering, best.0, last, self.n_params);
            self.try_apply("permute-for-simd", candidate)?;
        }
        Ok(())
    }

    /// Skew the tile loops of a band none of whose tile loops is parallel.
    pub(super) fn wavefront_if_sequential(&mut self, tiles: Range<usize>) -> IslResult<()> {
        for k in tiles.clone() {
            if self.analysis.is_parallel(k)? {
                return Ok(());
            }
        }
        let candidate = tile::wavefront(&self.nest.scattering, tiles, self.n_params);
        self.try_apply("wavefront", candidate)?;
        Ok(())
    }

    /// In a nest with one tiled band and a sequential outer loop, move
    /// outermost the first tile loop of that band that no dependence
    /// crosses: one parallel region instead of one per iteration of the
    /// loops outside, with each tile's points still together (trmm's
    /// strips of columns, inside two tile loops: 1.4x -> 1.6x on two
    /// threads). Other loops stay: a column loop moved out of its rows
    /// loses their locality (blur2 1.35x -> 0.05x).
    pub(super) fn tile_loop_outermost(&mut self) -> IslResult<()> {
        let [tiles] = self.tiled_bands.as_slice() else { return Ok(()) };
        let Some(first) = self.first_loop_if_sequential()? else { return Ok(()) };
        for k in tiles.clone().filter(|&k| k > first) {
            if self.analysis.is_fully_parallel(k)? {
                let candidate = tile::move_dim(&self.nest.scattering, k, 0, self.n_params);
                self.try_apply("tile-loop-outermost", candidate)?;
                return Ok(());
            }
        }
        Ok(())
    }

    /// [`Planner::recurrence_strips`], marked, within a share of the
    /// planning budget of its own: a nest of many statements (adi's 27)
    /// has spent most of it on isl's schedules by now. Out of budget,
    /// the nest stays as it was.
    pub(super) fn recurrence_strips_if_affordable(&mut self, request: &PlanRequest) -> IslResult<()> {
        let before = self.clone();
        let budget = planning_budget(request) / SKEWING_SHARE;
        let stripped = isl::within_budget(budget, || {
            let applied = self.recurrence_strips(request)?;
            if applied {
                self.mark(request)?;
            }
            Ok(applied)
        })?;
        if stripped.is_none() {
            *self = before;
        }
        Ok(())
    }

    /// [`Planner::recurrence_strips_if_affordable`] in an untiled nest
    /// whose only gain is a parallel loop (no SIMD loop the strips'
    /// points would displace), where the recurrence walks every access
    /// contiguously or not at all: atax's and gesummv's row sums
    /// `t[i] += A[i][j] * x[j]`, four rows side by side in each parallel
    /// strip, whose sums the printer keeps in locals (`emit::chains`;
    /// atax's loops for enough work at LARGE, one thread: 0.0115 s ->
    /// 0.0063 s). Not a recurrence down columns, whose four chains walk
    /// four columns (2mm's `B[k][j]` in strips of four `j`: 0.2x).
    pub(super) fn row_strips_beside_threads(&mut self, request: &PlanRequest) -> IslResult<()> {
        let sc = &self.nest.scattering;
        let Some(innermost) = sc.innermost_loop() else { return Ok(()) };
        // The cheap refusals first: the contiguity below is isl's work.
        let refused = request.unroll_jam.is_none() || !request.optimises() || tiles(&self.notes);
        if refused || self.marks.iter().flatten().any(|m| m.simd) {
            return Ok(());
        }
        if !self.marks.iter().flatten().any(|m| m.parallel && m.region) {
            return Ok(());
        }
        if self.analysis.strides().contiguous_accesses(self.scop, innermost)?.1 > 0 {
            return Ok(());
        }
        self.recurrence_strips_if_affordable(request)
    }

    /// When the innermost loop carries a recurrence (each iteration waits
    /// for the previous one's result): strips of [`RECURRENCE_STRIP`]
    /// iterations of the innermost outer loop whose strips may run their
    /// points innermost, so that that many independent chains run side
    /// by side: an unroll-and-jam of that loop, asked for as one (it
    /// costs nothing at run time, so that the loops for little work have
    /// it too). The loop need not be parallel where one loop holds every
    /// statement inside it: bicg's rows also add to `s[j]`, which the
    /// points of a strip then do one after the other (3.4x). Around
    /// loops of their own, some may be vector loops, which the strip's
    /// points would displace (atax's `y[j] += A[i][j] * tmp[i]` beside
    /// its row sums: 0.82x), and nest-wide dependences cannot tell.
    /// Whether applied; a refused candidate leaves no note.
    pub(super) fn recurrence_strips(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let sc = self.nest.scattering.clone();
        let Some(innermost) = sc.innermost_loop() else { return Ok(false) };
        if request.unroll_jam.is_none()
            || self.analysis.is_parallel(innermost)?
            || analysis::is_short_loop(self.scop, &sc, innermost)?
        {
            return Ok(false);
        }
        let inside = self.varying_at(innermost)?;
        for k in (0..innermost).rev().filter(|&k| self.analysis.is_loop(k)) {
            if !self.analysis.is_parallel(k)? && self.separates(k + 1..innermost, &inside)? {
                continue;
            }
            let strips = tile::strip_mine_inward(&sc, k, RECURRENCE_STRIP, self.n_params);
            let bound = tile::strip_distances(self.analysis.distances(), k, RECURRENCE_STRIP, self.n_params)?;
            let scop = self.scop;
            let checked = checked_by(STRIPS, strips, &mut Notes::default(), |sc| sc.verify_within(scop, bound))?;
            if checked.is_some() {
                self.notes.tiled(format!("strip-mined by {RECURRENCE_STRIP}"));
                return self.adopt(STRIPS, checked);
            }
        }
        Ok(false)
    }

    /// When the nest has no parallel region and its one parallel loop is
    /// the innermost, a vector loop inside sequential ones (bicg's and
    /// atax's column sums `s[j] += r[i] * A[i][j]`, rows outside): strips
    /// of [`COLUMN_STRIP`] columns run outermost, on threads, each
    /// walking every row for its columns. Whether applied; the nest is
    /// marked again then. Only for a request with threads, as on one the
    /// rows gain nothing. A refused candidate leaves no note.
    pub(super) fn column_strips(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let sc = self.nest.scattering.clone();
        let Some(innermost) = sc.innermost_loop() else { return Ok(false) };
        if !request.parallel
            || self.region_depths().iter().any(Option::is_some)
            || !(0..innermost).any(|k| self.analysis.is_loop(k))
            || !self.is_vector_loop(innermost)?
            || analysis::is_short_loop(self.scop, &sc, innermost)?
        {
            return Ok(false);
        }
        let strips = match tile::strip_mine_outward(&sc, innermost, COLUMN_STRIP, self.n_params) {
            Ok(strips) => strips,
            Err(e) if isl::out_of_budget() => return Err(e),
            Err(_) => return Ok(false),
        };
        // Counted before the verifier's and the marks' isl work, which
        // TSVC's 256-wide loops would pay for nothing.
        if analysis::runs_at_most(self.scop, &strips, 0, FEWEST_COLUMN_STRIPS - 1)? {
            return Ok(false);
        }
        let before = self.clone();
        let checked = checked(self.scop, self.legality, COLUMN_STRIPS, Ok(strips), &mut Notes::default())?;
        if !self.adopt(COLUMN_STRIPS, checked)? {
            return Ok(false);
        }
        self.mark(request)?;
        if !self.region_depths().iter().all(|d| *d == Some(0)) {
            *self = before;
            return Ok(false);
        }
        self.notes.tiled(format!("columns in strips of {COLUMN_STRIP}"));
        Ok(true)
    }
}
