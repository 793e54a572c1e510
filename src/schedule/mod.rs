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

use crate::frontend::AccessKind;
use crate::model::isl::{self, IslError, IslResult, Map, SchedulerOptions, Set, UnionMap, UnionSet};
use crate::model::{params_decl, Scop, Statement};
use serde::Serialize;

/// How aggressively `--schedule=auto` fuses loop nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

/// The schedules of some statements of a SCoP (all of them, or one loop
/// nest's) into one space of `dims` dimensions.
#[derive(Clone)]
pub struct Scattering {
    /// The SCoP's indices of the statements scheduled, ascending.
    pub stmts: Vec<usize>,
    /// `S<k>[i..] -> [c0..c(dims-1)]`, one per entry of `stmts`.
    pub maps: Vec<Map>,
    pub dims: usize,
}

/// The statements of one loop nest (see [`Scattering::nests`]) and the
/// constant time dimensions that place the nest among the others.
#[derive(Clone)]
pub struct Nest {
    pub prefix: Vec<i64>,
    pub scattering: Scattering,
}

impl Scattering {
    pub fn original(scop: &Scop) -> Scattering {
        Scattering::original_of(scop, (0..scop.statements.len()).collect())
    }

    /// The original schedule of the statements `stmts`.
    pub fn original_of(scop: &Scop, stmts: Vec<usize>) -> Scattering {
        let maps = stmts.iter().map(|&k| scop.statements[k].schedule.clone()).collect();
        Scattering { stmts, maps, dims: scop.schedule_dims }
    }

    /// The same statements, each scheduled by an equal map.
    pub fn is_equal(&self, other: &Scattering) -> IslResult<bool> {
        if self.stmts != other.stmts || self.dims != other.dims {
            return Ok(false);
        }
        for (a, b) in self.maps.iter().zip(&other.maps) {
            if !a.is_subset_of(b)? || !b.is_subset_of(a)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The last dimension at which some statement varies.
    pub fn innermost_loop(&self) -> Option<usize> {
        (0..self.dims).rev().find(|&k| Analysis::varies(self, k))
    }

    /// Each map with the statement it schedules.
    pub fn statements<'a>(&'a self, scop: &'a Scop) -> impl Iterator<Item = (&'a Map, &'a Statement)> {
        self.maps.iter().zip(self.stmts.iter().map(|&k| &scop.statements[k]))
    }

    /// isl's scheduler, configured like PLUTO: outer parallelism, permutable
    /// bands, small skews; every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) is a validity, proximity and
    /// coincidence constraint.
    pub fn auto(scop: &Scop, legality: &UnionMap, fuse: Fuse) -> IslResult<Scattering> {
        let options = SchedulerOptions {
            outer_coincidence: true,
            serialize_sccs: fuse == Fuse::None,
            whole_component: fuse == Fuse::Max,
            max_coefficient: MAX_SCHEDULE_COEFFICIENT,
        };
        Scattering::computed(scop, (0..scop.statements.len()).collect(), legality, options)
    }

    /// A schedule of the statements `stmts` (one loop nest) whose outer
    /// band is as deep as the dependences allow, outer parallelism
    /// forgone: time loops skewed so that time and space tile together.
    pub fn skewed(scop: &Scop, stmts: Vec<usize>, legality: &UnionMap) -> IslResult<Scattering> {
        let options = SchedulerOptions {
            outer_coincidence: false,
            serialize_sccs: false,
            whole_component: true,
            max_coefficient: MAX_SCHEDULE_COEFFICIENT,
        };
        Scattering::computed(scop, stmts, legality, options)
    }

    /// isl's schedule of the statements `stmts` under the dependences among them.
    fn computed(
        scop: &Scop,
        stmts: Vec<usize>,
        legality: &UnionMap,
        options: SchedulerOptions,
    ) -> IslResult<Scattering> {
        let domain = UnionSet::from_sets(stmts.iter().map(|&k| &scop.statements[k].domain))?;
        let among = legality.intersect_domain(&domain)?.intersect_range(&domain)?;
        let scalars = match crate::deps::condition_scalars(scop)? {
            Some((live, reuse)) => Some((
                live.intersect_domain(&domain)?.intersect_range(&domain)?,
                reuse.intersect_domain(&domain)?.intersect_range(&domain)?,
            )),
            None => None,
        };
        let conditional = scalars.as_ref().map(|(live, reuse)| (live, reuse));
        let flat = isl::compute_schedule(&domain, &among, &among, &among, conditional, options)?;
        let mut maps: Vec<Option<Map>> = vec![None; stmts.len()];
        for m in flat.maps()? {
            let name = m.domain_name()?;
            match stmts.iter().position(|&k| scop.statements[k].name == name) {
                Some(k) => maps[k] = Some(m),
                None => return Err(IslError(format!("the scheduler returned an unknown statement `{name}`"))),
            }
        }
        let maps: Vec<Map> = maps
            .into_iter()
            .map(|m| m.ok_or_else(|| IslError("the scheduler dropped a statement".into())))
            .collect::<IslResult<_>>()?;
        Scattering::padded(stmts, maps)
    }

    /// Statement schedules of different lengths, padded with zeros to one space.
    pub fn padded(stmts: Vec<usize>, maps: Vec<Map>) -> IslResult<Scattering> {
        let mut dims = 0;
        for m in &maps {
            dims = dims.max(m.n_out()?);
        }
        let maps = maps.iter().map(|m| m.pad_out(dims - m.n_out()?)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts, maps, dims })
    }

    /// The loop nests that constant leading time dimensions keep apart
    /// (the children of the schedule tree's outer sequences), in time
    /// order. Dependences between nests are carried by those constants,
    /// so each nest can be transformed on its own as long as its prefix
    /// stays.
    pub fn nests(&self, n_params: usize) -> IslResult<Vec<Nest>> {
        let mut out = Vec::new();
        self.split_into(Vec::new(), n_params, &mut out)?;
        Ok(out)
    }

    fn split_into(&self, prefix: Vec<i64>, n_params: usize, out: &mut Vec<Nest>) -> IslResult<()> {
        let mut leading = Vec::with_capacity(self.maps.len());
        for m in &self.maps {
            match (self.dims > 0).then(|| m.out_constant(0)).transpose()?.flatten() {
                Some(v) => leading.push(v),
                None => {
                    out.push(Nest { prefix, scattering: self.clone() });
                    return Ok(());
                }
            }
        }
        let mut values = leading.clone();
        values.sort_unstable();
        values.dedup();
        let rest: Vec<String> = (1..self.dims).map(|k| format!("c{k}")).collect();
        let strip = time_map(n_params, self.dims, &rest)?;
        for v in values {
            let (mut stmts, mut maps) = (Vec::new(), Vec::new());
            for ((&k, m), _) in self.stmts.iter().zip(&self.maps).zip(&leading).filter(|(_, &l)| l == v) {
                stmts.push(k);
                maps.push(m.apply_range(&strip)?);
            }
            let inner = Scattering { stmts, maps, dims: self.dims - 1 };
            inner.split_into([prefix.as_slice(), &[v]].concat(), n_params, out)?;
        }
        Ok(())
    }

    /// The nests put back in place: one scattering of every statement,
    /// each nest behind its prefix, padded with zeros to a common depth.
    pub fn join(nests: &[Nest], n_params: usize) -> IslResult<Scattering> {
        let dims = nests.iter().map(|n| n.prefix.len() + n.scattering.dims).max().unwrap_or(0);
        let mut placed: Vec<(usize, Map)> = Vec::new();
        for n in nests {
            let mut out: Vec<String> = n.prefix.iter().map(i64::to_string).collect();
            out.extend((0..n.scattering.dims).map(|k| format!("c{k}")));
            out.resize(dims, "0".into());
            let place = time_map(n_params, n.scattering.dims, &out)?;
            for (&k, m) in n.scattering.stmts.iter().zip(&n.scattering.maps) {
                placed.push((k, m.apply_range(&place)?));
            }
        }
        placed.sort_by_key(|(k, _)| *k);
        let (stmts, maps) = placed.into_iter().unzip();
        Ok(Scattering { stmts, maps, dims })
    }

    pub fn union(&self) -> IslResult<UnionMap> {
        UnionMap::from_maps(&self.maps)
    }

    /// Every statement composed with the same map of the time space
    /// (`[c..] -> [c'..]`), which has `dims` output dimensions.
    pub fn then(&self, f: &Map, dims: usize) -> IslResult<Scattering> {
        let maps = self.maps.iter().map(|m| m.apply_range(f)).collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims })
    }

    /// Each statement's time in `self`, then its time in `other` (a
    /// scattering of the same statements).
    pub fn beside(&self, other: &Scattering) -> IslResult<Scattering> {
        if self.stmts != other.stmts {
            return Err(IslError("scatterings of different statements put side by side".into()));
        }
        let maps = self.maps.iter().zip(&other.maps).map(|(a, b)| a.flat_range_product(b)).collect::<IslResult<_>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims: self.dims + other.dims })
    }

    /// Every statement composed with `[c0..] -> [out..]`, `out` written
    /// over the current dimensions `c<k>`.
    pub fn remap(&self, out: &[String], n_params: usize) -> IslResult<Scattering> {
        self.then(&time_map(n_params, self.dims, out)?, out.len())
    }

    /// [`Scattering::remap`] for the statements `which` names (by
    /// position), the others kept as they are: `out` has one entry per
    /// current dimension.
    pub fn remap_some(&self, out: &[String], which: &[bool], n_params: usize) -> IslResult<Scattering> {
        let f = time_map(n_params, self.dims, out)?;
        let maps = self
            .maps
            .iter()
            .zip(which)
            .map(|(m, &w)| if w { m.apply_range(&f) } else { Ok(m.clone()) })
            .collect::<IslResult<Vec<_>>>()?;
        Ok(Scattering { stmts: self.stmts.clone(), maps, dims: self.dims })
    }

    /// Every statement composed with a piecewise map of the time space:
    /// `(condition, out)` pieces over the dimensions `c<k>`, which the
    /// caller makes disjoint and covering, each `out` of one length (each
    /// an expression, or a name the condition constrains).
    pub fn remap_pieces(&self, pieces: &[(String, Vec<String>)], n_params: usize) -> IslResult<Scattering> {
        let dims = pieces.first().map_or(0, |(_, out)| out.len());
        self.then(&piecewise_time_map(n_params, self.dims, pieces)?, dims)
    }

    /// The legality verifier: every instance of `scop` is scheduled exactly
    /// once and every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) goes forward in time.
    /// Returns the dependence distances, for [`Analysis::from_distances`].
    pub fn verify(&self, scop: &Scop, legality: &UnionMap) -> Result<Set, Violation> {
        self.runs_each_once(scop)?;
        self.keeps_condition_values(scop)?;
        let distances = analysis::distances(self, legality, scop.ast.params.len())?;
        forward(distances, scop.ast.params.len(), self.dims)
    }

    /// The verifier for a scattering whose dependence distances are known
    /// to lie in `bound` (a sound over-approximation built from verified
    /// pieces, as for tiles of a permutable band): every instance runs
    /// once and every vector of `bound` goes forward in time. Cheaper than
    /// [`Scattering::verify`] where floors make exact distances costly.
    pub fn verify_within(&self, scop: &Scop, bound: Set) -> Result<Set, Violation> {
        self.runs_each_once(scop)?;
        self.keeps_condition_values(scop)?;
        forward(bound, scop.ast.params.len(), self.dims)
    }

    /// Seed 004's live-range check for the variables holding the values
    /// of data-dependent conditions ([`crate::frontend::Stmt::sets`]),
    /// which the model gives an element per instance of their `if` but
    /// the output keeps in one scalar: no evaluation of a condition may
    /// come between another evaluation of it and a statement reading
    /// that value. Checked as: each value's reads share the first `d`
    /// time dimensions with its evaluation, and at most one evaluation
    /// runs per value of those (any time between the two shares them).
    /// This is sufficient, not necessary; it costs two subset tests per
    /// dimension, where the exact test (three relations composed over
    /// the time space) took seconds on hexagonal tiles. Conditions whose
    /// evaluation this scattering does not schedule are checked where it
    /// is (the whole SCoP's scattering).
    fn keeps_condition_values(&self, scop: &Scop) -> Result<(), Violation> {
        if !scop.ast.has_filters() {
            return Ok(());
        }
        let n_params = scop.ast.params.len();
        let timed: Vec<(usize, Map)> = self
            .stmts
            .iter()
            .zip(&self.maps)
            .map(|(&id, time)| Ok((id, time.intersect_domain(&scop.statements[id].domain)?)))
            .collect::<IslResult<_>>()?;
        for (writer, var) in scop.ast.stmts.iter().enumerate().filter_map(|(k, s)| Some((k, s.sets.as_deref()?))) {
            let Some((_, evaluation)) = timed.iter().find(|(id, _)| *id == writer) else {
                continue;
            };
            let cells = |kind: AccessKind| {
                scop.statements.iter().flat_map(|st| &st.accesses).filter(move |a| a.array == var && a.kind == kind)
            };
            let mut live: Option<Map> = None;
            for write in cells(AccessKind::Write) {
                let written = evaluation.reverse()?.apply_range(&write.relation)?;
                for (id, time) in &timed {
                    for read in
                        scop.statements[*id].accesses.iter().filter(|a| a.array == var && a.kind == AccessKind::Read)
                    {
                        let pairs = written.apply_range(&time.reverse()?.apply_range(&read.relation)?.reverse()?)?;
                        live = Some(match live {
                            Some(l) => l.union(&pairs)?,
                            None => pairs,
                        });
                    }
                }
            }
            let Some(live) = live else { continue };
            let mut shared = 0;
            while shared < self.dims
                && live.is_subset_of(&analysis::prefix_relation(n_params, self.dims, shared + 1, "")?)?
            {
                shared += 1;
            }
            if !evaluation.keep_leading_out(shared)?.reverse()?.is_single_valued()? {
                return Err(Violation::Overwritten(var.to_string()));
            }
        }
        Ok(())
    }

    fn runs_each_once(&self, scop: &Scop) -> Result<(), Violation> {
        for (m, s) in self.statements(scop) {
            if !m.is_single_valued()? || !s.domain.is_subset_of(&m.domain()?)? {
                return Err(Violation::NotOnce(s.name.clone()));
            }
        }
        Ok(())
    }
}

/// `distances`, if all are lexicographically positive.
fn forward(distances: Set, n_params: usize, dims: usize) -> Result<Set, Violation> {
    if distances.n_dims()? != dims {
        return Err(Violation::Isl(IslError("dependence distances of the wrong dimension".into())));
    }
    if !distances.subtract(&analysis::lex_positive(n_params, dims)?)?.is_empty()? {
        return Err(Violation::Backward);
    }
    Ok(distances)
}

/// `[c0..c(dims-1)] -> [out..]`.
fn time_map(n_params: usize, dims: usize, out: &[String]) -> IslResult<Map> {
    piecewise_time_map(n_params, dims, &[(String::new(), out.to_vec())])
}

/// `[c0..c(dims-1)] -> [out..] : condition`, a piece per `(condition, out)`
/// (an empty condition: everywhere).
fn piecewise_time_map(n_params: usize, dims: usize, pieces: &[(String, Vec<String>)]) -> IslResult<Map> {
    let from: Vec<String> = (0..dims).map(|k| format!("c{k}")).collect();
    let pieces: Vec<String> = pieces
        .iter()
        .map(|(condition, out)| {
            let guard = if condition.is_empty() { String::new() } else { format!(" : {condition}") };
            format!("[{}] -> [{}]{guard}", from.join(", "), out.join(", "))
        })
        .collect();
    Map::parse(&format!("{} -> {{ {} }}", params_decl(n_params), pieces.join("; ")))
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
    /// A condition's value would be overwritten before a statement
    /// under it reads it.
    Overwritten(String),
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
            Violation::Overwritten(v) => {
                write!(f, "the condition held in `{v}` would be evaluated again before its last use")
            }
            Violation::Isl(e) => write!(f, "isl: {e}"),
        }
    }
}
