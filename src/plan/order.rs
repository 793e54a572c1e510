//! Steps that choose between isl's order and the source's: back to the
//! original order where isl's drops iterators or does not vectorise or
//! gain, a short loop moved out, a loop moved innermost for locality,
//! statements kept beside the recurrence whose latency hides them.

use super::budget::{planning_budget, SKEWING_SHARE};
use super::notes::{gains, tiles, Notes, FOR_LOCALITY, ORIGINAL_ORDER, SOURCE_ORDER};
use super::planner::{checked, regions_as_outer, Planner};
use crate::frontend::qexpr::QExpr;
use crate::model::isl::{self, IslResult, UnionMap};
use crate::model::{statement_index, Scop};
use crate::options::PlanRequest;
use crate::schedule::{analysis, strides, Analysis, Scattering};
use crate::tile;

impl Planner<'_> {
    /// Go back to the original order of a nest whose schedule leaves some
    /// iterator implicit (see [`analysis::drops_iterators`]: isl does not
    /// see a hand-tiled nest's tiles, and undoes them), or moves a short
    /// innermost loop outwards.
    pub(super) fn original_order_if_iterators_dropped(&mut self) -> IslResult<()> {
        let sc = &self.nest.scattering;
        if analysis::drops_iterators(self.scop, sc)? || self.short_loop_moved_out()? {
            let original = self.original();
            self.try_apply(ORIGINAL_ORDER, Ok(original))?;
        }
        Ok(())
    }

    /// Whether the nest's original innermost loop is a short one (a
    /// filter's taps, which gcc unrolls to keep the sum in a register)
    /// and isl's is not: a 16-tap filter with its taps moved outside the
    /// row loop measured 0.86x.
    pub(super) fn short_loop_moved_out(&self) -> IslResult<bool> {
        let (sc, original) = (&self.nest.scattering, self.original());
        let (Some(now), Some(before)) = (sc.innermost_loop(), original.innermost_loop()) else {
            return Ok(false);
        };
        Ok(analysis::is_short_loop(self.scop, &original, before)? && !analysis::is_short_loop(self.scop, sc, now)?)
    }

    /// Go back to the original order of a nest whose innermost loop, after
    /// all, is not a vector loop while the original innermost loop is one
    /// (isl put utsolve's reduction innermost: 0.13x), or walks rows where
    /// the current one walks columns (see [`Planner::rows_beat_columns`]).
    /// Whether it did; the bands are then to be planned again.
    pub(super) fn original_order_if_it_vectorises(&mut self) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        let Some(innermost) = sc.innermost_loop() else {
            return Ok(false);
        };
        if self.is_vector_loop(innermost)? {
            return Ok(false);
        }
        let original = self.original();
        let Some(original_innermost) = original.innermost_loop() else {
            return Ok(false);
        };
        if strides::contiguous_accesses(self.scop, &original, original_innermost)?.1 > 0 {
            return Ok(false);
        }
        let in_original = Analysis::new(&original, self.legality, self.n_params)?;
        if !in_original.is_parallel(original_innermost)?
            && !self.rows_beat_columns(&original, &in_original, innermost)?
        {
            return Ok(false);
        }
        let before = std::mem::take(&mut self.notes.applied);
        if self.try_apply(ORIGINAL_ORDER, Ok(original))? {
            return Ok(true);
        }
        self.notes.applied = before;
        Ok(false)
    }

    /// Whether the source's order of a nest two loops deep, with a
    /// parallel outer loop, beats the current one, whose innermost loop
    /// walks columns: a matrix-vector product, whose matrix is used once,
    /// gains nothing from isl's order or tiles (atax 0.53x in isl's order,
    /// 0.91x in the source's), while deeper nests reuse whole arrays
    /// (shape_imperfect's product of `B` with itself, 3.1x tiled) and
    /// outer sequential loops may give way to a skewed parallel one
    /// (seidel-2d, 4.6x).
    pub(super) fn rows_beat_columns(
        &self,
        original: &Scattering,
        in_original: &Analysis,
        innermost: usize,
    ) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        if self.analysis.strides().contiguous_accesses(self.scop, innermost)?.1 == 0 {
            return Ok(false);
        }
        for (_, st) in sc.statements(self.scop) {
            if st.domain.dimension()? > 2 {
                return Ok(false);
            }
        }
        match (0..original.dims).find(|&k| in_original.is_loop(k)) {
            Some(outer) => in_original.is_parallel(outer),
            None => Ok(false),
        }
    }

    /// The original schedule of the nest's statements, when the loop over
    /// `innermost` is the nest's last, is not a vector loop, and walks
    /// memory less contiguously than the original innermost loop (a skewed
    /// band, as isl gives floyd-warshall or a summed-area table). Tiles of
    /// the band then run their points in the original order, which is
    /// legal (it orders every dependence inside a tile) and restores the
    /// locality; the tiles still run in parallel along a wavefront.
    pub(super) fn original_order_if_more_contiguous(&self, innermost: usize) -> IslResult<Option<Scattering>> {
        let sc = &self.nest.scattering;
        if (innermost + 1..sc.dims).any(|k| self.analysis.is_loop(k)) || self.is_vector_loop(innermost)? {
            return Ok(None);
        }
        let original = self.original();
        let Some(original_innermost) = original.innermost_loop() else {
            return Ok(None);
        };
        let (contiguous, other) = strides::contiguous_accesses(self.scop, &original, original_innermost)?;
        if contiguous as i64 - other as i64 <= self.contiguity(innermost)? {
            return Ok(None);
        }
        Ok(Some(original))
    }

    /// Whether the original order's innermost loop and the loop around it
    /// form a permutable pair: instead of a skewed band, whose tiles are
    /// parallelograms, the original then keeps its locality (a summed-area
    /// table run along anti-diagonals measured 0.07x, in skewed tiles
    /// 0.3x, in the original order 1.0x).
    pub(super) fn original_tiles_as_well(&self, original: &Scattering, in_original: &Analysis) -> IslResult<bool> {
        let Some(inner) = original.innermost_loop() else {
            return Ok(false);
        };
        let Some(outer) = (0..inner).rev().find(|&k| original.varies(k)) else {
            return Ok(false);
        };
        match in_original.is_permutable(outer, inner + 1) {
            Err(e) if isl::out_of_budget() => Err(e),
            result => Ok(result.unwrap_or(false)),
        }
    }

    /// PLUTO's intra-tile reordering, once tiles are placed: when the
    /// innermost loop walks some access with a stride, the point loop
    /// that, moved innermost, walks the most accesses contiguously moves
    /// there, if legal, for the statements in the innermost loop (the
    /// others keep their order, so that what they carry stays off it).
    /// gramschmidt's updates `R[k][j] += Q[i][k] * A[i][j]` ran down the
    /// columns of `A` over `i` in their tiles; with `j` innermost they
    /// run along rows. Only point loops move (tile loops keep their
    /// tiles' locality), and none across a dimension that orders
    /// statements (a fission). In an untiled nest the loop moved is as
    /// long as the problem, so it must become a vector loop (parallel,
    /// every access contiguous: mvt's column walk, 1.9x), not merely a
    /// more contiguous one (adi's column sweeps keep their strips of
    /// four rows, 1.6x). Checked exactly, within a share of the planning
    /// budget of its own: out of it, the nest stays as it was.
    pub(super) fn innermost_for_locality(&mut self, request: &PlanRequest) -> IslResult<()> {
        let sc = &self.nest.scattering;
        let Some(last) = sc.innermost_loop() else { return Ok(()) };
        if self.analysis.strides().contiguous_accesses(self.scop, last)?.1 == 0
            || analysis::is_short_loop(self.scop, sc, last)?
        {
            return Ok(());
        }
        let tiled = self.tile_prefix > 0;
        let inside = self.varying_at(last)?;
        let all = vec![true; sc.maps.len()];
        let now = self.contiguity(last)?;
        let mut candidates = Vec::new();
        for k in (self.tile_prefix..last).rev() {
            if self.separates(k..k + 1, &all)? {
                break;
            }
            if !self.analysis.is_loop(k) {
                continue;
            }
            let candidate = tile::move_dim_of(sc, &inside, k, last, self.n_params)?;
            let (contiguous, other) = strides::contiguous_accesses(self.scop, &candidate, last)?;
            let contiguity = contiguous as i64 - other as i64;
            if contiguity > now && (tiled || other == 0) {
                candidates.push((contiguity, candidate));
            }
        }
        // The most contiguous first; the stable sort keeps inner loops first among equals.
        candidates.sort_by_key(|(contiguity, _)| std::cmp::Reverse(*contiguity));
        let before = self.clone();
        let budget = planning_budget(request) / SKEWING_SHARE;
        let n_params = self.n_params;
        let moved = isl::within_budget(budget, || {
            for (_, candidate) in candidates {
                // A refused candidate is no news for the user: no note.
                let Some((sc, distances)) =
                    checked(self.scop, self.legality, FOR_LOCALITY, Ok(candidate), &mut Notes::default())?
                else {
                    continue;
                };
                if tiled || Analysis::from_distances(&sc, distances.clone(), n_params)?.is_parallel(last)? {
                    return self.adopt(FOR_LOCALITY, Some((sc, distances)));
                }
            }
            Ok(false)
        })?;
        if moved.is_none() {
            *self = before;
        }
        Ok(())
    }

    /// Go back to the source's order of an untiled nest, once marked,
    /// where isl's order gains something but the source's gains as much:
    /// a parallel region, no deeper, for every statement that has one in
    /// isl's, a vector loop innermost if isl's has one, memory walked at
    /// least as contiguously there, and no statements apart that isl
    /// fused. isl schedules TSVC's s119, `aa[i][j] = aa[i-1][j-1] +
    /// bb[i][j]`, over `i - j` (distance zero inside), a reversed row
    /// walk: 0.7x the source's, whose `j` loop is as parallel. Unlike a
    /// fallback to the original order, the source's order keeps its SIMD
    /// marks. Within a share of the planning budget of its own: out of
    /// it, the nest stays as it was.
    pub(super) fn source_order_if_as_good(&mut self, request: &PlanRequest) -> IslResult<()> {
        let moved_for_locality = self.notes.applied.iter().any(|a| a == FOR_LOCALITY);
        if self.in_original_order || tiles(&self.notes) || moved_for_locality || !gains(&self.notes, &self.marks) {
            return Ok(());
        }
        let budget = planning_budget(request) / SKEWING_SHARE;
        if let Some(Some(source)) = isl::within_budget(budget, || self.in_source_order_if_as_good(request))? {
            *self = source;
        }
        Ok(())
    }

    /// This nest in the source's order, marked, if it is as good (see
    /// [`Planner::source_order_if_as_good`]).
    fn in_source_order_if_as_good(&self, request: &PlanRequest) -> IslResult<Option<Self>> {
        let Some(innermost) = self.nest.scattering.innermost_loop() else { return Ok(None) };
        let original = self.original();
        if self.nest.scattering.same_order(&original, self.scop)? {
            return Ok(None);
        }
        let mut source = self.clone();
        if !source.try_apply(SOURCE_ORDER, Ok(original))? {
            return Ok(None);
        }
        source.mark(request)?;
        let Some(source_innermost) = source.nest.scattering.innermost_loop() else { return Ok(None) };
        let as_good = regions_as_outer(&source.region_depths(), &self.region_depths())
            && (source.is_vector_loop(source_innermost)? || !self.is_vector_loop(innermost)?)
            && source.contiguity(source_innermost)? >= self.contiguity(innermost)?
            && (self.split_outermost()? || !source.split_outermost()?);
        Ok(as_good.then_some(source))
    }

    /// Go back to the original order of a nest that isl reordered for
    /// nothing: no tile, no parallel or SIMD loop (see [`Plan::gains`](super::Plan::gains));
    /// in that order (or if it was never left), strips of independent
    /// chains where the innermost loop is a recurrence.
    pub(super) fn original_order_unless_it_gains(&mut self, request: &PlanRequest) -> IslResult<()> {
        if !request.optimises() || gains(&self.notes, &self.marks) {
            return Ok(());
        }
        if !self.in_original_order {
            let original = self.original();
            if !self.try_apply(ORIGINAL_ORDER, Ok(original))? {
                return Ok(());
            }
            self.mark(request)?;
        }
        self.recurrence_strips_if_affordable(request)
    }
}

/// Whether the statements `worse`, which isl's order runs in parallel or
/// vector loops of their own, ran in the source in the shadow of the
/// `recurrence` (statements whose values flow round a cycle, which stay
/// in a sequential loop in either order: latency-bound): in its innermost
/// loop, touching at most twice as many cells per iteration as it does.
/// Split off, their loop costs time of its own that in the source hid in
/// the recurrence's latency. Measured (gcc 12 -O3, Zen 3, 1 thread):
/// TSVC's s221, s222 and s319 ran 0.88x, 0.79x and 0.83x of the source
/// split; beside a multiply-add recurrence (4 cells), one, two or three
/// statements of 4 cells each split ran 0.83x, 0.92x and 1.04x, four and
/// eight 1.26x and 1.62x.
pub(super) fn in_a_recurrence_shadow(scop: &Scop, worse: &[usize], recurrence: &[usize]) -> bool {
    let innermost_loop = |k: usize| {
        let st = &scop.ast.stmts[k];
        (st.iterators.len(), &st.beta[..st.iterators.len()])
    };
    let shares_a_loop = |k: usize| recurrence.iter().any(|&r| innermost_loop(r) == innermost_loop(k));
    !recurrence.is_empty()
        && worse.iter().all(|&k| !scop.ast.stmts[k].iterators.is_empty() && shares_a_loop(k))
        && cells_touched(scop, worse) <= 2 * cells_touched(scop, recurrence)
}

/// The pairs of statements (source, sink) some flow dependence links.
pub(super) fn flow_edges(flow: &UnionMap) -> IslResult<Vec<(usize, usize)>> {
    let mut edges = Vec::new();
    for map in flow.maps()? {
        edges.push((statement_index(&map.domain_name()?), statement_index(&map.range_name()?)));
    }
    Ok(edges)
}

/// Whether a value of statement `k` flows, through statements of
/// `stmts` only, back to `k`.
pub(super) fn in_a_cycle(k: usize, stmts: &[usize], edges: &[(usize, usize)]) -> bool {
    let mut reached: Vec<usize> = Vec::new();
    let mut frontier = vec![k];
    while let Some(from) = frontier.pop() {
        for &(_, to) in edges.iter().filter(|e| e.0 == from && stmts.contains(&e.1)) {
            if to == k {
                return true;
            }
            if !reached.contains(&to) {
                reached.push(to);
                frontier.push(to);
            }
        }
    }
    false
}

/// How many distinct cells the statements `stmts` (of one nest) touch
/// per iteration: accesses with the same array and subscripts count once.
fn cells_touched(scop: &Scop, stmts: &[usize]) -> usize {
    let mut cells: Vec<(&str, &[QExpr])> = Vec::new();
    for access in stmts.iter().flat_map(|&k| &scop.ast.stmts[k].accesses) {
        let cell = (access.array.as_str(), access.subscripts.as_slice());
        if !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    cells.len()
}
