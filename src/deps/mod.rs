//! Dependence analysis: which statement instances must stay ordered.
//!
//! Flow (read-after-write) dependences are value-based: isl's dataflow
//! analysis finds, for each read, the last write of the same element
//! before it in the original schedule. Anti (write-after-read) and output
//! (write-after-write) dependences are memory-based: every earlier access
//! of the element counts, since a transformation may not reorder any of
//! them; they are what `--emit=deps` reports.
//!
//! Legality only needs a generating subset: the value-based anti and
//! output dependences (each write's last earlier write, and the reads
//! since it). Every memory-based dependence is a chain of value-based
//! ones, and distances add along a chain, so a schedule (or a parallel or
//! permutable dimension) that respects the chain links respects the whole
//! dependence. The subset is far smaller for stencils, where memory-based
//! dependences span every pair of time steps, and the scheduler's cost
//! grows with it.

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, UnionMap};
use crate::model::Scop;
use std::collections::BTreeMap;

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
    pub anti: UnionMap,
    pub output: UnionMap,
    /// Value-based anti and output dependences, which with `flow` generate all others.
    value_based_false: UnionMap,
}

impl Dependences {
    pub fn of(&self, kind: Kind) -> &UnionMap {
        match kind {
            Kind::Flow => &self.flow,
            Kind::Anti => &self.anti,
            Kind::Output => &self.output,
        }
    }

    /// Dependences whose chains give every dependence: respecting these
    /// is respecting all of them.
    pub fn generators(&self) -> IslResult<UnionMap> {
        self.flow.union(&self.value_based_false)
    }
}

/// The flow, anti and output dependences of `scop` under its original schedule.
pub fn analyse(scop: &Scop) -> IslResult<Dependences> {
    let accesses = |kind: AccessKind| {
        let relations = scop.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.kind == kind);
        UnionMap::from_maps(relations.map(|a| &a.relation))
    };
    let (reads, writes) = (accesses(AccessKind::Read)?, accesses(AccessKind::Write)?);
    let schedule = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let flow = isl::compute_flow(&reads, Some(&writes), None, &schedule, FlowResult::Must)?;
    let anti = isl::compute_flow(&writes, None, Some(&reads), &schedule, FlowResult::May)?;
    let output = isl::compute_flow(&writes, None, Some(&writes), &schedule, FlowResult::May)?;
    let value_based_false = isl::compute_flow(&writes, Some(&writes), Some(&reads), &schedule, FlowResult::May)?;
    Ok(Dependences { flow, anti, output, value_based_false })
}

/// `--emit=deps`: each kind, then each (source, sink) statement pair, in
/// isl notation with the program's names.
pub fn report(scop: &Scop, deps: &Dependences) -> IslResult<String> {
    let mut out = String::new();
    for kind in Kind::ALL {
        let mut by_pair: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
        for m in deps.of(kind).coalesce()?.maps()? {
            let pair = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
            by_pair.entry(pair).or_default().push(crate::model::readable(&m.to_text()?, &scop.ast.params));
        }
        out.push_str(&format!("{} dependences: {}\n", kind.as_str(), by_pair.len()));
        for ((src, dst), relations) in by_pair {
            for r in relations {
                out.push_str(&format!("  S{src} -> S{dst}: {r}\n"));
            }
        }
    }
    Ok(out)
}

fn statement_index(name: &str) -> usize {
    name.strip_prefix('S').and_then(|k| k.parse().ok()).unwrap_or(usize::MAX)
}
