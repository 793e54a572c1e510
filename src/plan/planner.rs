//! The planner of one loop nest: its current scattering, the analysis of
//! it, and the checks every candidate step passes before it is adopted.

use super::marks::{LoopMark, PrivateVar};
use super::notes::{Notes, ORIGINAL_ORDER};
use crate::deps::Dependences;
use crate::model::isl::{self, IslResult, Map, Set, UnionMap};
use crate::model::Scop;
use crate::schedule::{analysis, Analysis, Nest, Scattering, Violation};
use std::collections::HashMap;
use std::ops::Range;

/// A planner for one loop nest of a SCoP: its current scattering, and
/// the dependences every candidate is checked against.
#[derive(Clone)]
pub(super) struct Planner<'a> {
    pub(super) scop: &'a Scop,
    pub(super) deps: &'a Dependences,
    /// [`Dependences::generators`].
    pub(super) legality: &'a UnionMap,
    pub(super) n_params: usize,
    pub(super) nest: Nest,
    /// Of the nest's current scattering.
    pub(super) analysis: Analysis,
    /// By statement of the nest, then time dimension.
    pub(super) marks: Vec<Vec<LoopMark>>,
    pub(super) notes: Notes,
    /// Whether the nest's scattering is its statements' original one.
    pub(super) in_original_order: bool,
    /// The bits of marks' `private` sets that stand for arrays.
    pub(super) private_arrays: u64,
    /// [`Planner::parallel_with_private`] by dimension, for the current
    /// scattering (time tiling and marking both ask about the outer loop).
    pub(super) parallel_with_private: HashMap<usize, Option<u64>>,
    /// By bit of a privatisable variable, its flow in pairs of times under
    /// the current scattering (see [`Planner::parallel_with_private`]).
    pub(super) private_flows_in_time: HashMap<usize, Option<Map>>,
    /// The outer tile dimensions of each band tiled by [`Planner::bands`].
    pub(super) tiled_bands: Vec<Range<usize>>,
    /// The time dimensions that name a tile (see [`Plan::tile_prefix`](super::Plan::tile_prefix)),
    /// of the outermost tiling so far.
    pub(super) tile_prefix: usize,
    /// Why concurrent-start tiles were refused, noted once planning knows
    /// what the rectangular fallback did.
    pub(super) concurrent_refused: Option<String>,
}

impl<'a> Planner<'a> {
    /// One planner per loop nest of `sc`.
    pub(super) fn for_nests(
        scop: &'a Scop,
        deps: &'a Dependences,
        legality: &'a UnionMap,
        sc: Scattering,
        in_original_order: bool,
    ) -> IslResult<Vec<Planner<'a>>> {
        let nests = sc.nests(scop.ast.params.len())?;
        nests.into_iter().map(|nest| Planner::for_nest(scop, deps, legality, nest, None, in_original_order)).collect()
    }

    /// One planner per nest of a scattering [`Scattering::verify_nests`]
    /// accepted, with the distances it found.
    pub(super) fn for_verified_nests(
        scop: &'a Scop,
        deps: &'a Dependences,
        legality: &'a UnionMap,
        nests: Vec<(Nest, Set)>,
    ) -> IslResult<Vec<Planner<'a>>> {
        nests
            .into_iter()
            .map(|(nest, distances)| Planner::for_nest(scop, deps, legality, nest, Some(distances), false))
            .collect()
    }

    /// The planner of one loop nest (`verified`: its dependence distances,
    /// if the verifier found them).
    pub(super) fn for_nest(
        scop: &'a Scop,
        deps: &'a Dependences,
        legality: &'a UnionMap,
        nest: Nest,
        verified: Option<Set>,
        in_original_order: bool,
    ) -> IslResult<Planner<'a>> {
        let n_params = scop.ast.params.len();
        let private_arrays = private_vars(scop, deps)
            .iter()
            .enumerate()
            .filter(|(bit, v)| v.is_array && *bit < u64::BITS as usize)
            .fold(0, |bits, (bit, _)| bits | 1 << bit);
        let analysis = match verified {
            Some(distances) => Analysis::from_distances(&nest.scattering, distances, n_params)?,
            None => Analysis::new(&nest.scattering, legality, n_params)?,
        };
        Ok(Planner {
            scop,
            deps,
            legality,
            n_params,
            nest,
            analysis,
            marks: Vec::new(),
            notes: Notes::default(),
            in_original_order,
            private_arrays,
            parallel_with_private: HashMap::new(),
            private_flows_in_time: HashMap::new(),
            tiled_bands: Vec::new(),
            tile_prefix: 0,
            concurrent_refused: None,
        })
    }
}

/// `candidate` with its dependence distances, if it computed and passes
/// the verifier; `None` (and the reason noted) if not. Only running out
/// of budget is an error.
pub(super) fn checked(
    scop: &Scop,
    legality: &UnionMap,
    name: &str,
    candidate: IslResult<Scattering>,
    notes: &mut Notes,
) -> IslResult<Option<(Scattering, Set)>> {
    checked_by(name, candidate, notes, |sc| sc.verify(scop, legality))
}

/// `candidate` with what `verify` finds (the distances, of the whole or by
/// nest), as for [`checked`].
pub(super) fn checked_by<T>(
    name: &str,
    candidate: IslResult<Scattering>,
    notes: &mut Notes,
    verify: impl FnOnce(&Scattering) -> Result<T, Violation>,
) -> IslResult<Option<(Scattering, T)>> {
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
pub(super) fn private_vars(scop: &Scop, deps: &Dependences) -> Vec<PrivateVar> {
    deps.privatisable()
        .map(|(name, _)| PrivateVar {
            name: name.to_string(),
            is_array: scop.ast.arrays.iter().any(|(array, decl)| array == name && decl.is_vector_object()),
        })
        .collect()
}

impl Planner<'_> {
    /// Adopt `candidate` if it computed and passes the verifier; `Ok(false)`
    /// (and the reason noted) if not. Only running out of budget is an error.
    pub(super) fn try_apply(&mut self, name: &str, candidate: IslResult<Scattering>) -> IslResult<bool> {
        let checked = checked(self.scop, self.legality, name, candidate, &mut self.notes)?;
        self.adopt(name, checked)
    }

    /// [`Planner::try_apply`] for a candidate whose dependence distances
    /// lie in `bound` (see [`Scattering::verify_within`]).
    pub(super) fn try_apply_within(
        &mut self,
        name: &str,
        candidate: IslResult<Scattering>,
        bound: Set,
    ) -> IslResult<bool> {
        let scop = self.scop;
        let checked = checked_by(name, candidate, &mut self.notes, |sc| sc.verify_within(scop, bound))?;
        self.adopt(name, checked)
    }

    pub(super) fn adopt(&mut self, name: &str, checked: Option<(Scattering, Set)>) -> IslResult<bool> {
        let Some((sc, distances)) = checked else {
            return Ok(false);
        };
        self.analysis = Analysis::from_distances(&sc, distances, self.n_params)?;
        self.nest.scattering = sc;
        self.parallel_with_private.clear();
        self.private_flows_in_time.clear();
        self.in_original_order = name == ORIGINAL_ORDER;
        if self.in_original_order {
            self.tile_prefix = 0;
            self.notes.tile_sizes.clear();
            self.notes.tiled.clear();
        }
        self.notes.applied(name);
        Ok(true)
    }

    /// Whether each statement's loop dimensions all lie in permutable bands
    /// of depth two or more or are short loops (or it has fewer than two
    /// loops).
    pub(super) fn fully_banded(&self) -> IslResult<bool> {
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

    /// For member `k` of `band` as its innermost loop: whether that loop
    /// is parallel, then how many more accesses it walks contiguously
    /// than not, then how near in memory the elements it walks are (see
    /// [`Strides::unmoved_subscripts`]: shape_dims' `T[i][j][k]` fused
    /// with a reduction over `j` ran 0.74x with `i` inside `j`).
    ///
    /// [`Strides::unmoved_subscripts`]: crate::schedule::strides::Strides::unmoved_subscripts
    pub(super) fn vector_score(&self, band: Range<usize>, k: usize) -> IslResult<(bool, i64, usize)> {
        let parallel = self.analysis.is_parallel_innermost(band, k)?;
        Ok((parallel, self.contiguity(k)?, self.analysis.strides().unmoved_subscripts(self.scop, k)?))
    }

    /// How many more accesses a loop over `k` walks contiguously than not.
    pub(super) fn contiguity(&self, k: usize) -> IslResult<i64> {
        let (contiguous, other) = self.analysis.strides().contiguous_accesses(self.scop, k)?;
        Ok(contiguous as i64 - other as i64)
    }

    /// How reports name `band`: by its nest's constant prefix (when the
    /// SCoP has more than one nest) and its time dimensions within the nest.
    pub(super) fn band_name(&self, band: &Range<usize>) -> String {
        let nest = if self.nest.prefix.is_empty() { String::new() } else { format!("nest {:?}, ", self.nest.prefix) };
        format!("{nest}band c{}..c{}", band.start, band.end - 1)
    }

    /// The original schedule of the nest's statements.
    pub(super) fn original(&self) -> Scattering {
        Scattering::original_of(self.scop, self.nest.scattering.stmts.clone())
    }

    /// Whether some dimension of `dims` puts the statements `among` (by
    /// position in the nest) at different constant values: the loops
    /// inside it are not one loop around them all.
    pub(super) fn separates(&self, dims: Range<usize>, among: &[bool]) -> IslResult<bool> {
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
    pub(super) fn varying_at(&self, k: usize) -> IslResult<Vec<bool>> {
        self.nest.scattering.maps.iter().map(|m| Ok(!m.out_is_constant(k)?)).collect()
    }

    /// By statement of the nest: how many loops run outside its outermost
    /// parallel region, if it has one.
    pub(super) fn region_depths(&self) -> Vec<Option<usize>> {
        let depth = |k: usize| (0..k).filter(|&d| self.analysis.is_loop(d)).count();
        self.marks.iter().map(|own| own.iter().position(|m| m.parallel && m.region).map(depth)).collect()
    }

    /// Whether the nest's statements are not all inside its outermost loop.
    pub(super) fn split_outermost(&self) -> IslResult<bool> {
        let sc = &self.nest.scattering;
        let Some(outermost) = (0..sc.dims).find(|&k| self.analysis.is_loop(k)) else { return Ok(false) };
        self.separates(0..outermost + 1, &vec![true; sc.maps.len()])
    }

    /// By statement of the nest: whether some loop of it is a SIMD loop;
    /// in the original order, whose marks leave SIMD to gcc, whether the
    /// innermost loop is a vector loop.
    pub(super) fn vector_statements(&self) -> IslResult<Vec<bool>> {
        let innermost_vector = match self.nest.scattering.innermost_loop() {
            Some(k) if self.in_original_order => self.is_vector_loop(k)?,
            _ => false,
        };
        Ok(self.marks.iter().map(|own| innermost_vector || own.iter().any(|m| m.simd)).collect())
    }

    /// Whether the loop over `k` is parallel and walks every access contiguously.
    pub(super) fn is_vector_loop(&self, k: usize) -> IslResult<bool> {
        Ok(self.analysis.is_parallel(k)? && self.analysis.strides().contiguous_accesses(self.scop, k)?.1 == 0)
    }
}

/// Whether every statement with a parallel region in `other` (by
/// [`Planner::region_depths`]) has one in `one` too, inside no more loops.
pub(super) fn regions_as_outer(one: &[Option<usize>], other: &[Option<usize>]) -> bool {
    one.iter().zip(other).all(|(one, other)| match (one, other) {
        (_, None) => true,
        (Some(one), Some(other)) => one <= other,
        (None, Some(_)) => false,
    })
}
