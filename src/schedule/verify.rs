//! The legality verifier every transformation goes through.

use super::analysis::{self, Then};
use super::scattering::{Nest, Scattering};
use crate::frontend::AccessKind;
use crate::model::isl::{IslError, IslResult, Map, Set, UnionMap};
use crate::model::Scop;

impl Scattering {
    /// The legality verifier: every instance of `scop` is scheduled exactly
    /// once and every dependence of `legality` (see
    /// [`crate::deps::Dependences::generators`]) goes forward in time.
    /// Returns the dependence distances, for [`Analysis::from_distances`](super::Analysis::from_distances).
    pub fn verify(&self, scop: &Scop, legality: &UnionMap) -> Result<Set, Violation> {
        self.runs_each_once(scop)?;
        self.keeps_condition_values(scop)?;
        let distances = analysis::distances(self, legality, scop.ast.params.len())?;
        forward(distances, scop.ast.params.len(), self.dims)
    }

    /// [`Scattering::verify`] nest by nest ([`Scattering::nests`]): each
    /// nest's dependence distances, which its planner reads, composed with
    /// its schedule once. A dependence between two nests goes forward when
    /// its source's nest has the smaller prefix, which needs no
    /// composition. Composing every dependence with the whole scattering,
    /// then each nest's again, took 14% of deriche's compile time; nest by
    /// nest, deriche runs 9% fewer instructions and adi 4%.
    pub fn verify_nests(&self, scop: &Scop, legality: &UnionMap) -> Result<Vec<(Nest, Set)>, Violation> {
        self.runs_each_once(scop)?;
        self.keeps_condition_values(scop)?;
        let n_params = scop.ast.params.len();
        let nests = self.nests(n_params)?;
        nests_ordered(scop, &nests, legality)?;
        nests
            .into_iter()
            .map(|nest| {
                let distances = analysis::distances(&nest.scattering, legality, n_params)?;
                let distances = forward(distances, n_params, nest.scattering.dims)?;
                Ok((nest, distances))
            })
            .collect()
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
                && live.is_subset_of(&analysis::prefix_relation(n_params, self.dims, shared + 1, Then::Anything)?)?
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

/// Whether each dependence of `legality` between statements of two of
/// `nests` runs from the earlier nest to the later one: the prefixes, in
/// time order, diverge at a constant time dimension where the earlier is
/// smaller. A dependence on a statement of no nest counts as backward.
fn nests_ordered(scop: &Scop, nests: &[Nest], legality: &UnionMap) -> Result<(), Violation> {
    let nest_of =
        |name: &str| nests.iter().position(|n| n.scattering.stmts.iter().any(|&k| scop.statements[k].name == name));
    for dep in legality.maps()? {
        let (from, to) = (nest_of(&dep.domain_name()?), nest_of(&dep.range_name()?));
        match (from, to) {
            (Some(a), Some(b)) if a == b || nests[a].prefix < nests[b].prefix => {}
            _ if dep.is_empty()? => {}
            _ => return Err(Violation::Backward),
        }
    }
    Ok(())
}

/// `distances`, if all are lexicographically positive. Tested level by
/// level (none negative at `k` among those zero before it, none zero
/// throughout): emptiness tests of intersections, where subtracting the
/// lexicographically positive cone split every disjunct with floors
/// into pieces (a quarter of shape_modguard's compile time).
fn forward(distances: Set, n_params: usize, dims: usize) -> Result<Set, Violation> {
    if distances.n_dims()? != dims {
        return Err(Violation::Isl(IslError("dependence distances of the wrong dimension".into())));
    }
    let mut tied = distances.clone();
    for k in 0..=dims {
        if tied.is_empty()? {
            return Ok(distances);
        }
        if k == dims || !tied.intersect(&analysis::negative_at(n_params, dims, k)?)?.is_empty()? {
            return Err(Violation::Backward);
        }
        tied = tied.intersect(&analysis::zero_at(n_params, dims, k)?)?;
    }
    Ok(distances)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn goes_forward(text: &str) -> bool {
        let set = Set::parse(text).unwrap();
        let dims = set.n_dims().unwrap();
        match forward(set, 1, dims) {
            Ok(_) => true,
            Err(Violation::Backward) => false,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn distances_go_forward_when_their_first_nonzero_entry_is_positive() {
        assert!(goes_forward("[n] -> { [1, c1] : -n <= c1 <= n }"));
        assert!(goes_forward("[n] -> { [0, c1, c2] : 0 < c1 < n and c2 = -3 }"));
        assert!(goes_forward("[n] -> { [0, 0, c2] : 2 <= c2 <= n and c2 = 2 * floor(c2 / 2) }"));
        assert!(goes_forward("[n] -> { [c0, c1] : 0 <= c0 < n and c1 = 5 and n < 0 }"));
    }

    #[test]
    fn distances_go_backward_when_one_is_negative_or_zero_throughout() {
        assert!(!goes_forward("[n] -> { [0, c1] : -1 <= c1 <= n }"));
        assert!(!goes_forward("[n] -> { [c0, 0, 0] : 0 <= c0 < n }"));
        assert!(!goes_forward("[n] -> { [0, c1, c2] : c1 = 0 and 0 <= c2 <= 1; [1, 0, -4] }"));
        assert!(!goes_forward("[n] -> { [0, 0, c2] : -4 <= c2 <= n and c2 = 2 * floor(c2 / 2) and c2 != -4 }"));
    }
}
