//! Schedules: when each statement instance runs.
//!
//! A [`Scattering`] maps every statement's instances into one common,
//! anonymous time space (`S<k>[i..] -> [c0, ..]`), executed in
//! lexicographic order. It starts as the original (2d+1) schedule or as
//! one computed by isl's scheduler; later phases (tiling) rewrite it.
//! [`Scattering::verify`] is the one legality check every transformation
//! goes through, and [`Analysis`] reads off which dimensions are parallel
//! and which bands are permutable.

pub mod analysis;

pub use analysis::Analysis;

use crate::model::isl::{self, IslError, IslResult, Map, SchedulerOptions, Set, UnionMap, UnionSet};
use crate::model::Scop;
use serde::Serialize;

/// How aggressively `--schedule=auto` fuses loop nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fuse {
    /// Fuse whenever the dependences allow it.
    Max,
    /// isl's fusion where it keeps every statement's loops in permutable
    /// bands (so tiling and vectorisation survive it); otherwise none.
    Smart,
    /// Keep every strongly connected component in its own nest.
    None,
}

/// Every statement's schedule into one space of `dims` dimensions.
#[derive(Clone)]
pub struct Scattering {
    /// `S<k>[i..] -> [c0..c(dims-1)]`, by statement index.
    pub maps: Vec<Map>,
    pub dims: usize,
}

impl Scattering {
    pub fn original(scop: &Scop) -> Scattering {
        Scattering { maps: scop.statements.iter().map(|s| s.schedule.clone()).collect(), dims: scop.schedule_dims }
    }

    /// isl's scheduler, configured like PLUTO: outer parallelism, permutable
    /// bands, small skews; every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) is a validity, proximity and
    /// coincidence constraint.
    pub fn auto(scop: &Scop, legality: &UnionMap, fuse: Fuse) -> IslResult<Scattering> {
        let domain = UnionSet::from_sets(scop.statements.iter().map(|s| &s.domain))?;
        let all = legality;
        let options = SchedulerOptions {
            outer_coincidence: true,
            serialize_sccs: fuse == Fuse::None,
            whole_component: fuse == Fuse::Max,
            max_coefficient: MAX_SCHEDULE_COEFFICIENT,
        };
        let flat = isl::compute_schedule(&domain, all, all, all, options)?;
        let mut maps: Vec<Option<Map>> = vec![None; scop.statements.len()];
        for m in flat.maps()? {
            let name = m.domain_name()?;
            match scop.statements.iter().position(|s| s.name == name) {
                Some(k) => maps[k] = Some(m),
                None => return Err(IslError(format!("the scheduler returned an unknown statement `{name}`"))),
            }
        }
        let maps: Vec<Map> = maps
            .into_iter()
            .map(|m| m.ok_or_else(|| IslError("the scheduler dropped a statement".into())))
            .collect::<IslResult<_>>()?;
        Scattering::padded(maps)
    }

    /// Statement schedules of different lengths, padded with zeros to one space.
    pub fn padded(maps: Vec<Map>) -> IslResult<Scattering> {
        let mut dims = 0;
        for m in &maps {
            dims = dims.max(m.n_out()?);
        }
        let maps = maps.iter().map(|m| m.pad_out(dims - m.n_out()?)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { maps, dims })
    }

    pub fn union(&self) -> IslResult<UnionMap> {
        UnionMap::from_maps(&self.maps)
    }

    /// Every statement composed with the same map of the time space
    /// (`[c..] -> [c'..]`), which has `dims` output dimensions.
    pub fn then(&self, f: &Map, dims: usize) -> IslResult<Scattering> {
        let maps = self.maps.iter().map(|m| m.apply_range(f)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { maps, dims })
    }

    /// The legality verifier: every instance of `scop` is scheduled exactly
    /// once and every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) goes forward in time.
    /// Returns the dependence distances, for [`Analysis::from_distances`].
    pub fn verify(&self, scop: &Scop, legality: &UnionMap) -> Result<Set, Violation> {
        for (m, s) in self.maps.iter().zip(&scop.statements) {
            if !m.is_single_valued()? || !s.domain.is_subset_of(&m.domain()?)? {
                return Err(Violation::NotOnce(s.name.clone()));
            }
        }
        let n_params = scop.ast.params.len();
        let distances = analysis::distances(self, legality, n_params)?;
        if !distances.subtract(&analysis::lex_positive(n_params, self.dims)?)?.is_empty()? {
            return Err(Violation::Backward);
        }
        Ok(distances)
    }
}

/// Larger coefficients give steep skews whose tiles vectorise badly.
const MAX_SCHEDULE_COEFFICIENT: i32 = 4;

/// Why a schedule was refused.
#[derive(Debug)]
pub enum Violation {
    /// A statement's instances are not each scheduled exactly once.
    NotOnce(String),
    /// Some dependence would run backwards.
    Backward,
    Isl(IslError),
}

impl From<IslError> for Violation {
    fn from(e: IslError) -> Self {
        Violation::Isl(e)
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::NotOnce(s) => write!(f, "statement {s} would not run each instance exactly once"),
            Violation::Backward => f.write_str("a dependence would run backwards"),
            Violation::Isl(e) => write!(f, "isl: {e}"),
        }
    }
}
