//! Dependence analysis: which statement instances must stay ordered.
//!
//! Flow (read-after-write) dependences are value-based: isl's dataflow
//! analysis finds, for each read, the last write of the same element
//! before it in the original schedule. Anti (write-after-read) and output
//! (write-after-write) dependences are memory-based: every earlier access
//! of the element counts, since a transformation may not reorder any of
//! them; they are what `--emit=deps` reports and what keeps a multifor's
//! loops together, computed only when asked for (a quarter to a third of
//! the analysis's time, which planning never needs).
//!
//! Legality only needs a generating subset: the value-based anti and
//! output dependences (each write's last earlier write, and the reads
//! since it). Every memory-based dependence is a chain of value-based
//! ones, and distances add along a chain, so a schedule (or a parallel or
//! permutable dimension) that respects the chain links respects the whole
//! dependence. The subset is far smaller for stencils, where memory-based
//! dependences span every pair of time steps, and the scheduler's cost
//! grows with it.
//!
//! A write under a data-dependent condition (seed 001's filters) may not
//! happen: it is a may-source, which hides no earlier write, so the flow
//! into a read is every write that may have left its value, for all
//! values of the conditions. Legality then holds whatever they are.
//!
//! Exact where the filters allow it (seed 001, sections 4-6): the
//! filtered writes of one array directly in one loop nest certainly
//! write an element at an instance of the loops if, for every assignment
//! of truth values to their condition variables, one of the writes that
//! run under it writes the element (a `then` and an `else` branch both
//! writing it). For those elements a virtual must-write, placed right
//! after the last of the writes, hides older writes from later reads; a
//! virtual read just before it finds the real writes of that iteration
//! that may leave the value, and each flow from the virtual write becomes
//! a flow from those (a cover, `filters::Cover`). A write with no complementary
//! write still hides nothing. No value flows between instances that never
//! both run (one under a condition, the other under its negation, at the
//! same instance of its `if`). Anti and output dependences keep treating
//! filtered writes as may-writes.
//!
//! The value-based dependences are computed per group of variables: each
//! variable a loop might privatise on its own, all others together. No
//! dependence links two variables, so the groups' union is the joint
//! analysis, and leaving out a group is leaving out exactly the
//! dependences through that variable.
//!
//! The groups' exact dataflow shares the operation bound in force; once
//! it runs out (writes under data-dependent conditions with `%` and `/`,
//! whose may-sources make isl's maxima split without end), each group
//! after gets a share of the bound of its own (`dataflow::Allowance`).
//! A group out of operations gets memory-based dependences instead: a
//! superset, so legality still holds, and the SCoP is planned in its
//! source's order where they allow it instead of kept as written
//! ([`Dependences::memory_based_through`] says which variables, for a
//! `P0022` warning).
//!
//! The entry points: [`analyse`] computes [`Dependences`] once per SCoP
//! (`plan::Analyses` keeps them). [`Dependences::generators`] is what
//! legality is checked against; [`Dependences::generators_except`] leaves
//! out the variables a loop privatises, and
//! [`Dependences::generators_relaxing`] keeps only the flow through some
//! variables (seed 004's proposal for storage expansion). The privatisable
//! variables ([`privatisable`]) are the scalars and one-dimensional array
//! objects of constant size (not a pointer, a parameter or a variable-length
//! array, so that `sizeof` is a constant) written inside some loop.
//! [`condition_scalars`] gives isl's scheduler the live ranges of the
//! condition variables and the dependences holding each in one scalar adds
//! (its conditional validity). `--emit=deps` prints the flow, anti and
//! output dependences (`report::deps`); each variable's live ranges are
//! `live`'s.
//!
//! Invariants: a schedule, parallel loop or permutable band that respects
//! the generators respects every dependence (distances add along chains);
//! the groups' union is exactly the joint analysis, as no dependence links
//! two variables.

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, UnionMap};
use crate::model::Scop;
use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;

mod dataflow;
mod filters;
pub mod live;

use dataflow::{accesses, dataflow, original_schedule, Allowance};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Flow,
    Anti,
    Output,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Flow, Kind::Anti, Kind::Output];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Flow => "flow",
            Kind::Anti => "anti",
            Kind::Output => "output",
        }
    }
}

/// The dependences of one SCoP, each `S<a>[..] -> S<b>[..]` (source before sink).
pub struct Dependences {
    pub flow: UnionMap,
    /// The memory-based anti and output dependences, once asked for.
    memory_based: OnceCell<(UnionMap, UnionMap)>,
    /// What they are computed from.
    accesses: Accesses,
    /// Value-based dependences by the variables they go through: each
    /// variable a loop might privatise (see [`privatisable`]) on its own,
    /// then all others together.
    groups: Vec<Group>,
    /// [`Dependences::generators_except`] by the variables left out, each
    /// computed once: every phase asks for all of them, the marking of
    /// each nest for all but the variables its loops would privatise.
    generators: RefCell<Vec<(Vec<String>, UnionMap)>>,
}

/// Every read and write of a SCoP, and its original schedule.
struct Accesses {
    reads: UnionMap,
    writes: UnionMap,
    schedule: UnionMap,
}

/// The value-based dependences through some of a SCoP's variables.
struct Group {
    /// The one privatisable variable, or `None` for all others.
    variable: Option<String>,
    flow: UnionMap,
    /// The value-based anti and output dependences: the boundaries of
    /// the live ranges (see [`live`]).
    boundaries: UnionMap,
    /// `flow` with `boundaries`, which together generate every
    /// dependence through these variables.
    generators: UnionMap,
    /// Whether `flow` and `boundaries` are value-based, or memory-based
    /// (the exact dataflow ran out of operations).
    exact: bool,
}

impl Dependences {
    pub fn of(&self, kind: Kind) -> IslResult<&UnionMap> {
        let (anti, output) = match kind {
            Kind::Flow => return Ok(&self.flow),
            _ => self.memory_based()?,
        };
        Ok(if kind == Kind::Anti { anti } else { output })
    }

    /// The anti and output dependences, computed at the first call. A
    /// failure (out of budget) is not kept.
    fn memory_based(&self) -> IslResult<&(UnionMap, UnionMap)> {
        if let Some(both) = self.memory_based.get() {
            return Ok(both);
        }
        let Accesses { reads, writes, schedule } = &self.accesses;
        let anti = isl::compute_flow(writes, None, Some(reads), schedule, FlowResult::May)?;
        let output = isl::compute_flow(writes, None, Some(writes), schedule, FlowResult::May)?;
        Ok(self.memory_based.get_or_init(|| (anti, output)))
    }

    /// Dependences whose chains give every dependence: respecting these
    /// is respecting all of them; coalesced for isl's scheduler (see
    /// [`UnionMap::coalesce_alike`]).
    pub fn generators(&self) -> IslResult<UnionMap> {
        self.generators_except(&[])
    }

    /// [`Dependences::generators`] but those through the variables
    /// `private` (each a private copy per iteration of some loop).
    pub fn generators_except(&self, private: &[String]) -> IslResult<UnionMap> {
        if let Some((_, known)) = self.generators.borrow().iter().find(|(p, _)| p == private) {
            return Ok(known.clone());
        }
        let mut all = UnionMap::empty()?;
        for g in self.groups.iter().filter(|g| g.variable.as_ref().is_none_or(|v| !private.contains(v))) {
            all = all.union(&g.generators)?;
        }
        let all = all.coalesce_alike()?;
        self.generators.borrow_mut().push((private.to_vec(), all.clone()));
        Ok(all)
    }

    /// [`Dependences::generators`] with only the flow through the
    /// variables `relaxed`: seed 004's proposal, whose schedule is then
    /// checked against those variables' live ranges
    /// (`schedule::live::violations`) and their storage repaired where it breaks
    /// them.
    pub fn generators_relaxing(&self, relaxed: &[String]) -> IslResult<UnionMap> {
        if relaxed.is_empty() {
            return self.generators();
        }
        let mut all = UnionMap::empty()?;
        for g in &self.groups {
            let flow_only = g.variable.as_ref().is_some_and(|v| relaxed.contains(v));
            all = all.union(if flow_only { &g.flow } else { &g.generators })?;
        }
        all.coalesce_alike()
    }

    /// Whether [`Dependences::generators_relaxing`] `relaxed` leaves out
    /// any dependence: whether some variable of `relaxed` with a group of
    /// its own has value-based anti or output dependences beyond its flow.
    pub fn relaxing_drops_any(&self, relaxed: &[String]) -> IslResult<bool> {
        for g in self.groups.iter().filter(|g| g.variable.as_ref().is_some_and(|v| relaxed.contains(v))) {
            if !g.generators.subtract(&g.flow)?.is_empty()? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The variables whose dependences are memory-based, as the exact
    /// dataflow through them ran out of operations: a privatisable
    /// variable by name, the others together as "the other variables".
    pub fn memory_based_through(&self) -> Vec<&str> {
        let inexact = self.groups.iter().filter(|g| !g.exact);
        inexact.map(|g| g.variable.as_deref().unwrap_or("the other variables")).collect()
    }

    /// The variables a loop might privatise, with the value-based flow
    /// through each.
    pub fn privatisable(&self) -> impl Iterator<Item = (&str, &UnionMap)> {
        self.groups.iter().filter_map(|g| g.variable.as_deref().map(|v| (v, &g.flow)))
    }
}

/// The flow, anti and output dependences of `scop` under its original schedule.
pub fn analyse(scop: &Scop) -> IslResult<Dependences> {
    let _phase = isl::phase("dependence analysis");
    let private = privatisable(scop)?;
    let schedule = original_schedule(scop)?;
    let exclusive = filters::exclusive_pairs(scop)?;
    let mut groups = Vec::new();
    let mut flow = UnionMap::empty()?;
    let mut allowance = Allowance::new(private.len() + 1);
    for variable in private.iter().map(Some).chain(std::iter::once(None)) {
        let of = |array: &str| match variable {
            Some(v) => v == array,
            None => !private.contains(array),
        };
        let found = dataflow(scop, &schedule, &exclusive, &of, &mut allowance)?;
        flow = flow.union(&found.flow)?;
        let generators = found.flow.union(&found.boundaries)?;
        let (variable, exact) = (variable.cloned(), found.exact);
        groups.push(Group { variable, flow: found.flow, boundaries: found.boundaries, generators, exact });
    }
    let every = |_: &str| true;
    let (reads, writes) =
        (accesses(scop, AccessKind::Read, None, &every)?, accesses(scop, AccessKind::Write, None, &every)?);
    let accesses = Accesses { reads, writes, schedule };
    Ok(Dependences { flow, memory_based: OnceCell::new(), accesses, groups, generators: RefCell::default() })
}

/// For isl's scheduler, as PPCG treats scalars (its conditional
/// validity): the live ranges of the variables holding the values of
/// data-dependent conditions (each evaluation to its readers) and the
/// dependences that holding each in one scalar adds (each evaluation
/// after the previous one and its readers). The scheduler may break the
/// second only where it keeps the first within one band iteration, so
/// that a schedule reusing one scalar exists without serialising the
/// nest; `Scattering::verify` checks the result. `None` without such
/// variables.
pub fn condition_scalars(scop: &Scop) -> IslResult<Option<(UnionMap, UnionMap)>> {
    if !scop.ast.has_filters() {
        return Ok(None);
    }
    let schedule = original_schedule(scop)?;
    let (mut live, mut reuse) = (UnionMap::empty()?, UnionMap::empty()?);
    for var in scop.ast.filter_variables() {
        let scalar = |kind: AccessKind| -> IslResult<UnionMap> {
            let accesses =
                scop.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.array == var && a.kind == kind);
            let maps = accesses.map(|a| a.relation.keep_leading_out(0)).collect::<IslResult<Vec<_>>>()?;
            UnionMap::from_maps(&maps)
        };
        let (reads, writes) = (scalar(AccessKind::Read)?, scalar(AccessKind::Write)?);
        live = live.union(&isl::compute_flow(&reads, Some(&writes), None, &schedule, FlowResult::May)?)?;
        reuse = reuse.union(&isl::compute_flow(&writes, Some(&writes), Some(&reads), &schedule, FlowResult::May)?)?;
    }
    Ok(Some((live, reuse)))
}

/// The variables the SCoP writes inside some loop that a loop might give
/// each thread a copy of, or an expansion each iteration
/// (`storage::expand`): scalars, one-dimensional array objects of
/// constant size (a temporary row, like doitgen's `sum`), and rows
/// reached through a pointer (PolyBench's own doitgen passes `sum`; only
/// an expansion can copy those, see `schedule::analysis::is_privatisable`).
/// A variable
/// written only outside every loop (adi's coefficients) stays with the
/// others: no loop could privatise it, and each group costs two
/// dataflow analyses.
pub fn privatisable(scop: &Scop) -> IslResult<BTreeSet<String>> {
    let mut found = BTreeSet::new();
    for (st, _) in scop.statements.iter().zip(&scop.ast.stmts).filter(|(_, ast)| !ast.iterators.is_empty()) {
        for a in st.accesses.iter().filter(|a| a.kind == AccessKind::Write) {
            let vector = scop
                .ast
                .arrays
                .iter()
                .any(|(name, decl)| *name == a.array && (decl.is_vector_object() || decl.is_vector_pointer()));
            if a.relation.n_out()? == 0 || vector {
                found.insert(a.array.clone());
            }
        }
    }
    Ok(found)
}
