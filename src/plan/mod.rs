//! Which transformations a SCoP gets, in order: schedule, then per
//! permutable band an intra-band order for vectorisation, tiles (where
//! some access reuses data along the band), and a wavefront when no tile
//! loop is parallel; then the loop marks
//! (parallel, SIMD) read off the final schedule. Every step is checked by
//! the legality verifier and dropped, with a reason, if it fails.

mod analyses;
mod concurrent;
pub mod expansion;
mod marking;
pub mod marks;
mod sica;

use crate::deps::Dependences;
use crate::model::isl::{self, IslResult, Map, Set, UnionMap};
use crate::model::Scop;
use crate::options::{PlanRequest, ScheduleKind, TileShape};
use crate::schedule::Fuse;
use crate::schedule::{analysis, Analysis, Nest, Scattering, Violation};
use crate::storage::lifetime::RunOrder;
use crate::tile;
pub use analyses::Analyses;
use marks::{LoopMark, PrivateVar};
use std::collections::HashMap;
use std::ops::Range;

/// The schedule to scan, how to mark its loops, and what happened.
#[derive(Clone)]
pub struct Plan {
    pub scattering: Scattering,
    /// By statement, then time dimension: how a loop there may be marked
    /// (a loop gets what all its statements allow).
    pub marks: Vec<Vec<LoopMark>>,
    /// The variables a mark's `private` bits stand for, bit 0 first.
    pub private_vars: Vec<PrivateVar>,
    pub notes: Notes,
    /// By statement: how many leading time dimensions name its tile (the
    /// tile loops and the loops outside them); 0 where it is not tiled.
    pub tile_prefix: Vec<usize>,
    /// Transformations were asked for, but the SCoP keeps its source text:
    /// planning failed, or found nothing worth a new loop order.
    pub keep_source: bool,
}

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
            self.out_of_budget.push(why);
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

    pub fn sized(&mut self, why: String) {
        if !self.tile_sizes.contains(&why) {
            self.tile_sizes.push(why);
        }
    }

    fn merge(&mut self, other: Notes) {
        other.applied.iter().for_each(|a| self.applied(a));
        other.refused.into_iter().for_each(|r| self.refused(r));
        self.out_of_budget.extend(other.out_of_budget);
        other.tile_sizes.into_iter().for_each(|s| self.sized(s));
    }
}

/// A planner for one loop nest of a SCoP: its current scattering, and
/// the dependences every candidate is checked against.
#[derive(Clone)]
struct Planner<'a> {
    scop: &'a Scop,
    deps: &'a Dependences,
    /// [`Dependences::generators`].
    legality: &'a UnionMap,
    n_params: usize,
    nest: Nest,
    /// Of the nest's current scattering.
    analysis: Analysis,
    /// By statement of the nest, then time dimension.
    marks: Vec<Vec<LoopMark>>,
    notes: Notes,
    /// Whether the nest's scattering is its statements' original one.
    in_original_order: bool,
    /// The bits of marks' `private` sets that stand for arrays.
    private_arrays: u64,
    /// [`Planner::parallel_with_private`] by dimension, for the current
    /// scattering (time tiling and marking both ask about the outer loop).
    parallel_with_private: HashMap<usize, Option<u64>>,
    /// The outer tile dimensions of each band tiled by [`Planner::bands`].
    tiled_bands: Vec<Range<usize>>,
    /// The time dimensions that name a tile (see [`Plan::tile_prefix`]),
    /// of the outermost tiling so far.
    tile_prefix: usize,
    /// Why concurrent-start tiles were refused, noted once planning knows
    /// what the rectangular fallback did.
    concurrent_refused: Option<String>,
}

/// The name of the step back to a nest's original schedule.
const ORIGINAL_ORDER: &str = "original-order";

/// The name of strip-mining one loop with its points innermost.
const STRIPS: &str = "tile=strips";

/// The name of the step that moves a loop innermost for stride-1 access.
const FOR_LOCALITY: &str = "permute-for-locality";

/// The share of the SCoP's isl budget that planning may use: a SCoP too
/// hard to transform quickly is still regenerated, untransformed.
const PLANNING_SHARE: u64 = 10;

/// The most statements a time-tiled nest may have: isl's skewing
/// scheduler slows down quickly with them (adi's 27 took 1.9 s, no deep
/// band found), and stencils have a handful.
const MAX_TIME_TILED: usize = 8;

/// The share of the planning budget that the skewed schedule of one nest
/// (for time tiling) may use.
const SKEWING_SHARE: u64 = 4;

/// Independent chains a recurrence strip runs side by side: enough to
/// hide a division's latency (adi 1.0x -> 1.6x with 3 or 4; 1.3x with 8).
const RECURRENCE_STRIP: i64 = 4;

/// The isl operations allowed for planning, and for scanning a transformed schedule.
pub fn planning_budget(request: &PlanRequest) -> u64 {
    request.isl_budget / PLANNING_SHARE
}

/// The share of the SCoP's wall-clock budget one planning may take:
/// isl's scheduler can spend minutes within its operation budget (nine
/// statements with fragmented dependences: 70 s), and a SCoP whose
/// planning runs out keeps its source text, with time left to say so.
const PLANNING_TIME_SHARE: u32 = 2;

/// The wall-clock time allowed for planning (and for scanning a transformed schedule).
pub fn planning_time(request: &PlanRequest) -> Option<std::time::Duration> {
    request.time_budget.map(|t| t / PLANNING_TIME_SHARE)
}

/// The transformations `request` asks for, as far as they are legal and
/// affordable; the original schedule, with the reason, when planning fails.
pub fn plan(analyses: &Analyses, request: &PlanRequest) -> Plan {
    plan_relaxing(analyses, request, &[])
}

/// [`plan`] with only the flow dependences through the variables
/// `relaxed` (seed 004's proposal): a plan that may break their live
/// ranges, which the caller checks and repairs before using it.
pub fn plan_relaxing(analyses: &Analyses, request: &PlanRequest, relaxed: &[String]) -> Plan {
    let scop = analyses.scop();
    let original = Plan::original(scop);
    if !request.transforms() {
        return original;
    }
    isl::set_operation_budget(planning_budget(request));
    let phase = isl::phase("scheduling and planning");
    let planned = isl::within_time(planning_time(request), || transformed(analyses, request, relaxed));
    drop(phase);
    // Out of budget, the error is whatever operation came next (a parse
    // says "syntax error"): only the budget is worth reporting.
    let out_of_budget = isl::out_of_budget();
    isl::set_operation_budget(request.isl_budget);
    let mut kept = original;
    kept.keep_source = !scop.ast.has_multifor();
    match planned {
        Ok(Some(plan)) if !request.optimises() || plan.gains() => plan,
        Ok(Some(plan)) => {
            kept.notes.refused = plan.notes.refused;
            kept
        }
        Ok(None) => {
            let share = planning_time(request).unwrap_or_default().as_secs_f64();
            kept.notes
                .refused(format!("no transformation applied: scheduling and planning ran out of time ({share} s)"));
            kept
        }
        Err(_) if out_of_budget => {
            let budget = planning_budget(request);
            kept.notes
                .out_of_budget
                .push(format!("no transformation applied: planning ran out of {budget} isl operations"));
            kept
        }
        Err(e) => {
            let kept_how = if kept.keep_source { "kept as written" } else { "in its source order" };
            kept.notes.refused(format!(
                "no transformation applied: polyc's own error, not the input's (isl: {e}); the SCoP is {kept_how}: please report it"
            ));
            kept
        }
    }
}

/// Schedule the SCoP as a whole, then transform each of its loop nests
/// on its own (see [`Scattering::nests`]) and put them back together.
fn transformed(analyses: &Analyses, request: &PlanRequest, relaxed: &[String]) -> IslResult<Plan> {
    let (scop, deps) = (analyses.scop(), analyses.deps()?);
    let legality = deps.generators_relaxing(relaxed)?;
    let n_params = scop.ast.params.len();
    let mut notes = Notes::default();
    let scheduled = match request.schedule {
        ScheduleKind::Auto => scheduled(scop, deps, &legality, request.fuse, &mut notes)?,
        ScheduleKind::Identity => None,
    };
    let mut planners = match scheduled {
        Some(planners) => planners,
        None => Planner::for_nests(scop, deps, &legality, Scattering::original(scop), true)?,
    };
    for p in &mut planners {
        if request.schedule == ScheduleKind::Auto {
            p.original_order_if_iterators_dropped()?;
        }
        if !p.time_tiled(request)? && !p.vector_loop_strips(request)? {
            let mut replan = p.bands(request)?;
            if !replan && request.schedule == ScheduleKind::Auto {
                replan = p.original_order_if_it_vectorises()?;
            }
            if replan {
                p.bands(request)?;
            }
        }
        p.innermost_for_locality(request)?;
        if request.parallel {
            p.tile_loop_outermost()?;
        }
        p.mark(request)?;
        p.original_order_unless_it_gains(request)?;
        p.note_rect_fallback();
    }
    let nests: Vec<Nest> = planners.iter().map(|p| p.nest.clone()).collect();
    let scattering = Scattering::join(&nests, n_params)?;
    let mut marks = vec![vec![LoopMark::default(); scattering.dims]; scop.statements.len()];
    let mut tile_prefix = vec![0; scop.statements.len()];
    for p in planners {
        let offset = p.nest.prefix.len();
        for (&k, own) in p.nest.scattering.stmts.iter().zip(&p.marks) {
            marks[k][offset..offset + own.len()].copy_from_slice(own);
            if p.tile_prefix > 0 {
                tile_prefix[k] = offset + p.tile_prefix;
            }
        }
        notes.merge(p.notes);
    }
    let private_vars = private_vars(scop, deps);
    Ok(Plan { scattering, marks, private_vars, notes, tile_prefix, keep_source: false })
}

/// isl's schedule with the fusion `fuse` asks for, split into nests;
/// `None` (with the reason noted) when it is refused. `Smart` keeps
/// isl's fusion only if every statement's loops still all lie in
/// permutable bands (fusion that costs tiling or vectorisation is not
/// worth it), and otherwise keeps strongly connected components apart.
fn scheduled<'a>(
    scop: &'a Scop,
    deps: &'a Dependences,
    legality: &'a UnionMap,
    fuse: Fuse,
    notes: &mut Notes,
) -> IslResult<Option<Vec<Planner<'a>>>> {
    let Some((fused, _)) = checked(scop, legality, "schedule=auto", Scattering::auto(scop, legality, fuse), notes)?
    else {
        return Ok(None);
    };
    let planners = Planner::for_nests(scop, deps, legality, fused, false)?;
    let mut all_banded = true;
    for p in &planners {
        all_banded &= p.fully_banded()?;
    }
    if fuse != Fuse::Smart || all_banded {
        notes.applied("schedule=auto");
        return Ok(Some(planners));
    }
    let apart = Scattering::auto(scop, legality, Fuse::None);
    let Some((apart, _)) = checked(scop, legality, "schedule=auto", apart, notes)? else {
        return Ok(None);
    };
    notes.applied("schedule=auto");
    Ok(Some(Planner::for_nests(scop, deps, legality, apart, false)?))
}

/// `candidate` with its dependence distances, if it computed and passes
/// the verifier; `None` (and the reason noted) if not. Only running out
/// of budget is an error.
fn checked(
    scop: &Scop,
    legality: &UnionMap,
    name: &str,
    candidate: IslResult<Scattering>,
    notes: &mut Notes,
) -> IslResult<Option<(Scattering, Set)>> {
    checked_by(name, candidate, notes, |sc| sc.verify(scop, legality))
}

/// `candidate` with the distances `verify` finds, as for [`checked`].
fn checked_by(
    name: &str,
    candidate: IslResult<Scattering>,
    notes: &mut Notes,
    verify: impl FnOnce(&Scattering) -> Result<Set, Violation>,
) -> IslResult<Option<(Scattering, Set)>> {
    let verified = candidate.map_err(Violation::from).and_then(|sc| Ok((verify(&sc)?, sc)));
    match verified {
        Ok((distances, sc)) => Ok(Some((sc, distances))),
        Err(Violation::Isl(e)) if isl::out_of_budget() => Err(e),
        Err(why) => {
            notes.refused(format!("{name} not applied: {why}"));
            Ok(None)
        }
    }
}

/// The variables [`Dependences::privatisable`] names, in its order.
fn private_vars(scop: &Scop, deps: &Dependences) -> Vec<PrivateVar> {
    deps.privatisable()
        .map(|(name, _)| PrivateVar {
            name: name.to_string(),
            is_array: scop.ast.arrays.iter().any(|(array, decl)| array == name && decl.is_vector_object()),
        })
        .collect()
}

/// Whether `notes` name a tiling or a loop moved innermost for
/// locality, or `marks` a parallel or SIMD loop.
fn gains(notes: &Notes, marks: &[Vec<LoopMark>]) -> bool {
    tiles(notes)
        || notes.applied.iter().any(|a| a == FOR_LOCALITY)
        || marks.iter().flatten().any(|m| m.parallel && m.region || m.simd)
}

fn tiles(notes: &Notes) -> bool {
    notes.applied.iter().any(|a| a.starts_with("tile"))
}

impl Plan {
    /// The original schedule, unmarked.
    pub fn original(scop: &Scop) -> Plan {
        Plan {
            scattering: Scattering::original(scop),
            marks: Vec::new(),
            private_vars: Vec::new(),
            notes: Notes::default(),
            tile_prefix: vec![0; scop.statements.len()],
            keep_source: false,
        }
    }

    /// Whether some loop is tiled or marked parallel or SIMD: what a new
    /// loop order is for. An order that gains none of these (isl merely
    /// moving statements around) measured slower than the source
    /// (shape_scalars 0.88x).
    fn gains(&self) -> bool {
        gains(&self.notes, &self.marks)
    }

    /// The order this plan runs `scop` in: a statement's loops are
    /// concurrent from the outermost one marked parallel, SIMD or jammed
    /// (whether or not the printer uses the mark: a sound
    /// over-approximation).
    pub fn run_order<'a>(&'a self, scop: &Scop) -> RunOrder<'a> {
        let concurrent = (0..scop.statements.len())
            .map(|k| self.marks.get(k)?.iter().position(|m| m.parallel || m.simd || m.jam))
            .collect();
        RunOrder { schedule: &self.scattering, concurrent }
    }

    /// Whether some band is tiled.
    pub fn tiles(&self) -> bool {
        tiles(&self.notes)
    }

    /// Whether some band is tiled for the cache or a wavefront, not only
    /// strip-mined (strips cost no more than the loops they split).
    pub fn tiles_beyond_strips(&self) -> bool {
        self.notes.applied.iter().any(|a| a.starts_with("tile") && a != STRIPS)
    }
}

impl<'a> Planner<'a> {
    /// One planner per loop nest of `sc`.
    fn for_nests(
        scop: &'a Scop,
        deps: &'a Dependences,
        legality: &'a UnionMap,
        sc: Scattering,
        in_original_order: bool,
    ) -> IslResult<Vec<Planner<'a>>> {
        let n_params = scop.ast.params.len();
        let private_arrays = private_vars(scop, deps)
            .iter()
            .enumerate()
            .filter(|(bit, v)| v.is_array && *bit < u64::BITS as usize)
            .fold(0, |bits, (bit, _)| bits | 1 << bit);
        let mut planners = Vec::new();
        for nest in sc.nests(n_params)? {
            let analysis = Analysis::new(&nest.scattering, legality, n_params)?;
            let marks = Vec::new();
            let notes = Notes::default();
            planners.push(Planner {
                scop,
                deps,
                legality,
                n_params,
                nest,
                analysis,
                marks,
                notes,
                in_original_order,
                private_arrays,
                parallel_with_private: HashMap::new(),
                tiled_bands: Vec::new(),
                tile_prefix: 0,
                concurrent_refused: None,
            });
        }
        Ok(planners)
    }
}

impl Planner<'_> {
    /// Adopt `candidate` if it computed and passes the verifier; `Ok(false)`
    /// (and the reason noted) if not. Only running out of budget is an error.
    fn try_apply(&mut self, name: &str, candidate: IslResult<Scattering>) -> IslResult<bool> {
        let checked = checked(self.scop, self.legality, name, candidate, &mut self.notes)?;
        self.adopt(name, checked)
    }

    /// [`Planner::try_apply`] for a candidate whose dependence distances
    /// lie in `bound` (see [`Scattering::verify_within`]).
    fn try_apply_within(&mut self, name: &str, candidate: IslResult<Scattering>, bound: Set) -> IslResult<bool> {
        let scop = self.scop;
        let checked = checked_by(name, candidate, &mut self.notes, |sc| sc.verify_within(scop, bound))?;
        self.adopt(name, checked)
    }

    fn adopt(&mut self, name: &str, checked: Option<(Scattering, Set)>) -> IslResult<bool> {
        let Some((sc, distances)) = checked else {
            return Ok(false);
        };
        self.analysis = Analysis::from_distances(&sc, distances, self.n_params)?;
        self.nest.scattering = sc;
        self.parallel_with_private.clear();
        self.in_original_order = name == ORIGINAL_ORDER;
        if self.in_original_order {
            self.tile_prefix = 0;
            self.notes.tile_sizes.clear();
        }
        self.notes.applied(name);
        Ok(true)
    }

    /// Whether each statement's loop dimensions all lie in permutable bands
    /// of depth two or more or are short loops (or it has fewer than two
    /// loops).
    fn fully_banded(&self) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        let mut covered = vec![false; sc.dims];
        for (b, e) in self.analysis.bands()?.into_iter().filter(|(b, e)| e - b >= 2) {
            covered[b..e].iter_mut().for_each(|c| *c = true);
        }
        // A short loop (a filter's taps) stays innermost, where gcc unrolls it.
        for (k, c) in covered.iter_mut().enumerate() {
            *c = *c || (self.analysis.is_loop(k) && analysis::is_short_loop(self.scop, sc, k)?);
        }
        for (time, st) in sc.statements(self.scop) {
            let depth = st.domain.n_dims()?;
            let mut banded = 0;
            for (k, _) in covered.iter().enumerate().filter(|(_, c)| **c) {
                banded += usize::from(!time.out_is_constant(k)?);
            }
            if depth >= 2 && banded < depth {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Go back to the original order of a nest whose schedule leaves some
    /// iterator implicit (see [`analysis::drops_iterators`]: isl does not
    /// see a hand-tiled nest's tiles, and undoes them), or moves a short
    /// innermost loop outwards.
    fn original_order_if_iterators_dropped(&mut self) -> IslResult<()> {
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
    fn short_loop_moved_out(&self) -> IslResult<bool> {
        let (sc, original) = (&self.nest.scattering, self.original());
        let (Some(now), Some(before)) = (sc.innermost_loop(), original.innermost_loop()) else {
            return Ok(false);
        };
        Ok(analysis::is_short_loop(self.scop, &original, before)? && !analysis::is_short_loop(self.scop, sc, now)?)
    }

    /// When the innermost loop is no vector loop but an outer one is, in
    /// another band (isl put utsolve's columns `j` outermost and its
    /// reduction innermost): strips of that loop, each running its points
    /// innermost, where they vectorise while the strip of data they walk
    /// stays in cache (utsolve 0.9x untransformed, 1.7-2.0x in strips of
    /// 256, 1.3x of 32). Whether applied; the bands are then left as they
    /// are. Not with `--tile=sica`, which tiles only its own two loops.
    fn vector_loop_strips(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let Some(t) = request.tile.as_ref().filter(|t| t.shape != TileShape::Sica) else { return Ok(false) };
        let sc = &self.nest.scattering;
        let Some(innermost) = sc.innermost_loop() else { return Ok(false) };
        if analysis::contiguous_accesses(self.scop, sc, innermost)?.1 == 0
            || analysis::is_short_loop(self.scop, sc, innermost)?
        {
            return Ok(false);
        }
        let bands = self.analysis.bands()?;
        let apart = |k: usize| !bands.iter().any(|&(b, e)| (b..e).contains(&k) && (b..e).contains(&innermost));
        for k in (0..innermost).filter(|&k| self.analysis.is_loop(k) && apart(k)) {
            if self.is_vector_loop(k)? {
                let strips = tile::strip_mine_inward(sc, k, tile::strip_size(&t.sizes), self.n_params);
                return self.try_apply(STRIPS, strips);
            }
        }
        Ok(false)
    }

    /// Go back to the original order of a nest whose innermost loop, after
    /// all, is not a vector loop while the original innermost loop is one
    /// (isl put utsolve's reduction innermost: 0.13x), or walks rows where
    /// the current one walks columns (see [`Planner::rows_beat_columns`]).
    /// Whether it did; the bands are then to be planned again.
    fn original_order_if_it_vectorises(&mut self) -> IslResult<bool> {
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
        if analysis::contiguous_accesses(self.scop, &original, original_innermost)?.1 > 0 {
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
    fn rows_beat_columns(&self, original: &Scattering, in_original: &Analysis, innermost: usize) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        if analysis::contiguous_accesses(self.scop, sc, innermost)?.1 == 0 {
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

    /// Time tiling (tiled stencils): when the nest's outer loop carries
    /// dependences and no permutable band spans it, tile the outer band of
    /// a skewed schedule, run each tile's points in the current order (see
    /// [`tile::time_tiles`]), and with `--parallel` run tiles on a
    /// wavefront. Whether applied. Not with `--tile=sica`, which tiles
    /// only its own two loops.
    fn time_tiled(&mut self, request: &PlanRequest) -> IslResult<bool> {
        let Some(t) = request.tile.as_ref().filter(|t| t.shape != TileShape::Sica) else { return Ok(false) };
        let stmts = self.nest.scattering.stmts.clone();
        if !self.analysis.is_loop(0) || stmts.len() > MAX_TIME_TILED {
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
        }
        Ok(applied)
    }

    /// Reorder, tile and wavefront each permutable band of depth two or
    /// more; innermost band first, so the positions of the outer ones hold.
    /// Whether it went back to the original order instead (see
    /// [`Planner::original_tiles_as_well`]), whose bands are then to be
    /// planned again.
    fn bands(&mut self, request: &PlanRequest) -> IslResult<bool> {
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
                [] => tile::default_rect_tile_sizes(band.len(), self.is_vector_loop(band.end - 1)?),
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
            self.tiled_bands.push(placed.outer_tiles.clone());
            self.tile_prefix = placed.points.start;
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

    /// The original schedule of the nest's statements, when the loop over
    /// `innermost` is the nest's last, is not a vector loop, and walks
    /// memory less contiguously than the original innermost loop (a skewed
    /// band, as isl gives floyd-warshall or a summed-area table). Tiles of
    /// the band then run their points in the original order, which is
    /// legal (it orders every dependence inside a tile) and restores the
    /// locality; the tiles still run in parallel along a wavefront.
    fn original_order_if_more_contiguous(&self, innermost: usize) -> IslResult<Option<Scattering>> {
        let sc = &self.nest.scattering;
        if (innermost + 1..sc.dims).any(|k| self.analysis.is_loop(k)) || self.is_vector_loop(innermost)? {
            return Ok(None);
        }
        let original = self.original();
        let Some(original_innermost) = original.innermost_loop() else {
            return Ok(None);
        };
        if self.contiguity(&original, original_innermost)? <= self.contiguity(sc, innermost)? {
            return Ok(None);
        }
        Ok(Some(original))
    }

    /// Whether the original order's innermost loop and the loop around it
    /// form a permutable pair: instead of a skewed band, whose tiles are
    /// parallelograms, the original then keeps its locality (a summed-area
    /// table run along anti-diagonals measured 0.07x, in skewed tiles
    /// 0.3x, in the original order 1.0x).
    fn original_tiles_as_well(&self, original: &Scattering, in_original: &Analysis) -> IslResult<bool> {
        let Some(inner) = original.innermost_loop() else {
            return Ok(false);
        };
        let Some(outer) = (0..inner).rev().find(|&k| Analysis::varies(original, k)) else {
            return Ok(false);
        };
        match in_original.is_permutable(outer, inner + 1) {
            Err(e) if isl::out_of_budget() => Err(e),
            result => Ok(result.unwrap_or(false)),
        }
    }

    /// Whether the loops after dimension `k` are all short (and there is
    /// one): the source's own order of those, which gcc unrolls and
    /// vectorises around (a convolution's taps), is then the best order
    /// inside a tile.
    fn only_short_loops_after(&self, k: usize) -> IslResult<bool> {
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
    fn without_short_loops(&self, band: Range<usize>) -> IslResult<Vec<Range<usize>>> {
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
    /// is reused beyond what the cache keeps (see
    /// [`analysis::band_has_reuse`]). Tiles only for parallelism measured
    /// slower: blur2's fused rows 0.71x tiled, 1.63x untiled.
    fn worth_tiling(&self, band: Range<usize>) -> IslResult<bool> {
        Ok(self.band_has_parallel_member(band.clone())?
            && analysis::band_has_reuse(self.scop, &self.nest.scattering, band)?)
    }

    /// Whether some member of `band` is a parallel loop. Tiles of a band
    /// with none run in parallel only along a wavefront, whose skewed tile
    /// loops measured slower than the untiled loops on one thread.
    fn band_has_parallel_member(&self, band: Range<usize>) -> IslResult<bool> {
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
    fn vectorisable_innermost(&mut self, band: Range<usize>) -> IslResult<()> {
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

    /// For member `k` of `band` as its innermost loop: whether that loop
    /// is parallel, then how many more accesses it walks contiguously
    /// than not, then how near in memory the elements it walks are (see
    /// [`analysis::unmoved_subscripts`]: shape_dims' `T[i][j][k]` fused
    /// with a reduction over `j` ran 0.74x with `i` inside `j`).
    fn vector_score(&self, band: Range<usize>, k: usize) -> IslResult<(bool, i64, usize)> {
        let parallel = self.analysis.is_parallel_innermost(band, k)?;
        let sc = &self.nest.scattering;
        Ok((parallel, self.contiguity(sc, k)?, analysis::unmoved_subscripts(self.scop, sc, k)?))
    }

    /// How many more accesses a loop over `k` of `sc` walks contiguously than not.
    fn contiguity(&self, sc: &Scattering, k: usize) -> IslResult<i64> {
        let (contiguous, other) = analysis::contiguous_accesses(self.scop, sc, k)?;
        Ok(contiguous as i64 - other as i64)
    }

    /// How reports name `band`: by its nest's constant prefix (when the
    /// SCoP has more than one nest) and its time dimensions within the nest.
    fn band_name(&self, band: &Range<usize>) -> String {
        let nest = if self.nest.prefix.is_empty() { String::new() } else { format!("nest {:?}, ", self.nest.prefix) };
        format!("{nest}band c{}..c{}", band.start, band.end - 1)
    }

    /// The original schedule of the nest's statements.
    fn original(&self) -> Scattering {
        Scattering::original_of(self.scop, self.nest.scattering.stmts.clone())
    }

    /// Skew the tile loops of a band none of whose tile loops is parallel.
    fn wavefront_if_sequential(&mut self, tiles: Range<usize>) -> IslResult<()> {
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
    fn tile_loop_outermost(&mut self) -> IslResult<()> {
        let [tiles] = self.tiled_bands.as_slice() else { return Ok(()) };
        let sc = &self.nest.scattering;
        let Some(first) = (0..sc.dims).find(|&k| self.analysis.is_loop(k)) else { return Ok(()) };
        if self.analysis.is_parallel(first)? {
            return Ok(());
        }
        for k in tiles.clone().filter(|&k| k > first) {
            if self.analysis.is_fully_parallel(k)? {
                let candidate = tile::move_dim(sc, k, 0, self.n_params);
                self.try_apply("tile-loop-outermost", candidate)?;
                return Ok(());
            }
        }
        Ok(())
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
    fn innermost_for_locality(&mut self, request: &PlanRequest) -> IslResult<()> {
        let sc = &self.nest.scattering;
        let Some(last) = sc.innermost_loop() else { return Ok(()) };
        if analysis::contiguous_accesses(self.scop, sc, last)?.1 == 0 || analysis::is_short_loop(self.scop, sc, last)? {
            return Ok(());
        }
        let tiled = self.tile_prefix > 0;
        let inside = self.varying_at(last)?;
        let all = vec![true; sc.maps.len()];
        let now = self.contiguity(sc, last)?;
        let mut candidates = Vec::new();
        for k in (self.tile_prefix..last).rev() {
            if self.separates(k..k + 1, &all)? {
                break;
            }
            if !self.analysis.is_loop(k) {
                continue;
            }
            let candidate = tile::move_dim_of(sc, &inside, k, last, self.n_params)?;
            let (contiguous, other) = analysis::contiguous_accesses(self.scop, &candidate, last)?;
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

    /// Whether some dimension of `dims` puts the statements `among` (by
    /// position in the nest) at different constant values: the loops
    /// inside it are not one loop around them all.
    fn separates(&self, dims: Range<usize>, among: &[bool]) -> IslResult<bool> {
        let maps: Vec<&Map> = self.nest.scattering.maps.iter().zip(among).filter(|(_, &a)| a).map(|(m, _)| m).collect();
        for d in dims {
            let mut values = Vec::new();
            for m in &maps {
                match m.out_constant(d)? {
                    Some(v) => values.push(v),
                    None => break,
                }
            }
            if values.len() == maps.len() && values.iter().any(|&v| v != values[0]) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// By position in the nest, whether each statement varies at `k`.
    fn varying_at(&self, k: usize) -> IslResult<Vec<bool>> {
        self.nest.scattering.maps.iter().map(|m| Ok(!m.out_is_constant(k)?)).collect()
    }

    /// Whether the loop over `k` is parallel and walks every access contiguously.
    fn is_vector_loop(&self, k: usize) -> IslResult<bool> {
        Ok(self.analysis.is_parallel(k)? && analysis::contiguous_accesses(self.scop, &self.nest.scattering, k)?.1 == 0)
    }

    /// Go back to the original order of a nest that isl reordered for
    /// nothing: no tile, no parallel or SIMD loop (see [`Plan::gains`]);
    /// in that order (or if it was never left), strips of independent
    /// chains where the innermost loop is a recurrence.
    fn original_order_unless_it_gains(&mut self, request: &PlanRequest) -> IslResult<()> {
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

    /// [`Planner::recurrence_strips`], marked, within a share of the
    /// planning budget of its own: a nest of many statements (adi's 27)
    /// has spent most of it on isl's schedules by now. Out of budget,
    /// the nest stays as it was.
    fn recurrence_strips_if_affordable(&mut self, request: &PlanRequest) -> IslResult<()> {
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
    fn recurrence_strips(&mut self, request: &PlanRequest) -> IslResult<bool> {
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
                return self.adopt(STRIPS, checked);
            }
        }
        Ok(false)
    }
}
