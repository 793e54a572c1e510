//! Which transformations a SCoP gets, in order: schedule, then per
//! permutable band an intra-band order for vectorisation, tiles (where
//! some access reuses data along the band), and a wavefront when no tile
//! loop is parallel; then the loop marks
//! (parallel, SIMD) read off the final schedule. Every step is checked by
//! the legality verifier and dropped, with a reason, if it fails.

use super::{Fuse, Options, ScheduleKind};
use crate::deps;
use crate::emit::LoopMark;
use crate::model::isl::{self, IslResult, UnionMap};
use crate::model::Scop;
use crate::schedule::{analysis, Analysis, Scattering, Violation};
use crate::tile;
use std::ops::Range;

/// The schedule to scan, how to mark its loops, and what happened.
#[derive(Clone)]
pub struct Plan {
    pub scattering: Scattering,
    pub marks: Vec<LoopMark>,
    /// The transformations applied, for reports.
    pub applied: Vec<String>,
    /// Transformations refused, with the reason (each becomes a warning).
    pub refused: Vec<String>,
}

/// A planner for one SCoP: the current scattering, and the dependences
/// every candidate is checked against.
struct Planner<'a> {
    scop: &'a Scop,
    /// [`deps::Dependences::generators`].
    legality: UnionMap,
    n_params: usize,
    plan: Plan,
    /// Of the current scattering.
    analysis: Analysis,
}

/// The share of the SCoP's isl budget that planning may use: a SCoP too
/// hard to transform quickly is still regenerated, untransformed.
const PLANNING_SHARE: u64 = 10;

/// The isl operations allowed for planning, and for scanning a transformed schedule.
pub fn planning_budget(options: &Options) -> u64 {
    options.isl_budget / PLANNING_SHARE
}

/// The transformations `options` ask for, as far as they are legal and
/// affordable; the original schedule, with the reason, when planning fails.
pub fn plan(scop: &Scop, options: &Options) -> Plan {
    let original = Plan::original(scop);
    let transforms =
        options.schedule == ScheduleKind::Auto || options.tile.is_some() || options.parallel || options.simd;
    if !transforms {
        return original;
    }
    isl::set_operation_budget(planning_budget(options));
    let planned = transformed(scop, options, original.clone());
    isl::set_operation_budget(options.isl_budget);
    match planned {
        Ok(plan) => plan,
        Err(e) => Plan { refused: vec![format!("no transformation applied: out of isl budget ({e})")], ..original },
    }
}

fn transformed(scop: &Scop, options: &Options, plan: Plan) -> IslResult<Plan> {
    let legality = deps::analyse(scop)?.generators()?;
    let n_params = scop.ast.params.len();
    let analysis = Analysis::new(&plan.scattering, &legality, n_params)?;
    let mut planner = Planner { scop, legality, n_params, plan, analysis };
    if options.schedule == ScheduleKind::Auto {
        planner.schedule(options.fuse)?;
    }
    planner.bands(options)?;
    planner.mark(options)?;
    Ok(planner.plan)
}

impl Plan {
    /// The original schedule, unmarked.
    pub fn original(scop: &Scop) -> Plan {
        Plan { scattering: Scattering::original(scop), marks: Vec::new(), applied: Vec::new(), refused: Vec::new() }
    }
}

impl Planner<'_> {
    /// Adopt `candidate` if it computed and passes the verifier; `Ok(false)`
    /// (and the reason noted) if not. Only running out of budget is an error.
    fn try_apply(&mut self, name: &str, candidate: IslResult<Scattering>) -> IslResult<bool> {
        let checked = candidate.map_err(Violation::from).and_then(|sc| {
            let distances = sc.verify(self.scop, &self.legality)?;
            Ok((Analysis::from_distances(&sc, distances, self.n_params)?, sc))
        });
        match checked {
            Ok((analysis, sc)) => {
                self.plan.scattering = sc;
                self.analysis = analysis;
                self.plan.applied.push(name.to_string());
                Ok(true)
            }
            Err(Violation::Isl(e)) if isl::out_of_budget() => Err(e),
            Err(why) => {
                self.plan.refused.push(format!("{name} not applied: {why}"));
                Ok(false)
            }
        }
    }

    /// isl's schedule with the fusion `fuse` asks for. `Smart` keeps isl's
    /// fusion only if every statement's loops still all lie in permutable
    /// bands (fusion that costs tiling or vectorisation is not worth it),
    /// and otherwise keeps strongly connected components apart.
    fn schedule(&mut self, fuse: Fuse) -> IslResult<()> {
        let before = (self.plan.clone(), self.analysis.clone());
        let fused = Scattering::auto(self.scop, &self.legality, fuse);
        if !self.try_apply("schedule=auto", fused)? || fuse != Fuse::Smart || self.fully_banded()? {
            return Ok(());
        }
        (self.plan, self.analysis) = before;
        let apart = Scattering::auto(self.scop, &self.legality, Fuse::None);
        self.try_apply("schedule=auto", apart)?;
        Ok(())
    }

    /// Whether each statement's loop dimensions all lie in permutable bands
    /// of depth two or more (or it has fewer than two loops).
    fn fully_banded(&self) -> IslResult<bool> {
        let bands = self.analysis.bands()?;
        for (time, st) in self.plan.scattering.maps.iter().zip(&self.scop.statements) {
            let depth = st.domain.n_dims()?;
            let mut banded = 0;
            for (b, e) in bands.iter().filter(|(b, e)| e - b >= 2) {
                for k in *b..*e {
                    banded += usize::from(!time.out_is_constant(k)?);
                }
            }
            if depth >= 2 && banded < depth {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Reorder, tile and wavefront each permutable band of depth two or
    /// more; innermost band first, so the positions of the outer ones hold.
    fn bands(&mut self, options: &Options) -> IslResult<()> {
        let bands = self.analysis.bands()?;
        for band in bands.into_iter().rev().filter(|(b, e)| e - b >= 2) {
            let band = band.0..band.1;
            if options.simd {
                self.vectorisable_innermost(band.clone())?;
            }
            let Some(t) = &options.tile else { continue };
            if !self.band_has_reuse(band.clone())? || !self.band_has_parallel_member(band.clone())? {
                continue;
            }
            let name = if t.l2_ratio.is_some() { "tile=rect+l2" } else { "tile=rect" };
            match tile::rectangular(&self.plan.scattering, band.clone(), &t.sizes, t.l2_ratio, self.n_params) {
                Ok((tiled, placed)) => {
                    if self.try_apply(name, Ok(tiled))? && options.parallel {
                        self.wavefront_if_sequential(placed.outer_tiles)?;
                    }
                }
                Err(e) => {
                    self.try_apply(name, Err(e))?;
                }
            }
        }
        Ok(())
    }

    /// Whether tiles over `band` keep data that its loops, untiled, would
    /// evict between uses. A sweep without such reuse (a stencil's space
    /// loops) gains nothing from tiles and loses vector length to them.
    fn band_has_reuse(&self, band: Range<usize>) -> IslResult<bool> {
        for k in band.clone() {
            if analysis::reuses_along(self.scop, &self.plan.scattering, band.clone(), k)? {
                return Ok(true);
            }
        }
        Ok(false)
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
        let mut best = (last, self.vector_score(band.clone(), last)?);
        for k in band.start..last {
            let score = self.vector_score(band.clone(), k)?;
            if score > best.1 {
                best = (k, score);
            }
        }
        if best.0 != last {
            let candidate = tile::move_dim(&self.plan.scattering, best.0, last, self.n_params);
            self.try_apply("permute-for-simd", candidate)?;
        }
        Ok(())
    }

    /// For member `k` of `band` as its innermost loop: whether that loop
    /// is parallel, then how many more accesses it walks contiguously
    /// than not.
    fn vector_score(&self, band: Range<usize>, k: usize) -> IslResult<(bool, i64)> {
        let parallel = self.analysis.is_parallel_innermost(band, k)?;
        let (contiguous, other) = analysis::contiguous_accesses(self.scop, &self.plan.scattering, k)?;
        Ok((parallel, contiguous as i64 - other as i64))
    }

    /// Skew the tile loops of a band none of whose tile loops is parallel.
    fn wavefront_if_sequential(&mut self, tiles: Range<usize>) -> IslResult<()> {
        for k in tiles.clone() {
            if self.analysis.is_parallel(k)? {
                return Ok(());
            }
        }
        let candidate = tile::wavefront(&self.plan.scattering, tiles, self.n_params);
        self.try_apply("wavefront", candidate)?;
        Ok(())
    }

    /// Parallel loop dimensions, and those whose accesses are all contiguous.
    fn mark(&mut self, options: &Options) -> IslResult<()> {
        let sc = &self.plan.scattering;
        let mut marks = vec![LoopMark::default(); sc.dims];
        for (k, mark) in marks.iter_mut().enumerate() {
            if !self.analysis.is_loop(k) || !self.analysis.is_parallel(k)? {
                continue;
            }
            mark.parallel = options.parallel;
            mark.simd = options.simd && analysis::contiguous_accesses(self.scop, sc, k)?.1 == 0;
        }
        if marks.iter().any(|m| m.parallel) {
            self.plan.applied.push("parallel".into());
        }
        if marks.iter().any(|m| m.simd) {
            self.plan.applied.push("simd".into());
        }
        self.plan.marks = marks;
        Ok(())
    }
}
