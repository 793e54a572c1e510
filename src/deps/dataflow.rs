//! The value-based dataflow of a SCoP under its original schedule, per
//! group of variables (see the parent module): what the dependences and
//! the live ranges are computed from.

use super::filters;
use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, UnionMap};
use crate::model::Scop;

/// Every statement instance of `scop` to its time in the original order.
pub(super) fn original_schedule(scop: &Scop) -> IslResult<UnionMap> {
    UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))
}

/// The value-based dependences through the variables `of` accepts, in
/// the original order `schedule`: the flow (each read from the writes
/// that may have left its value, through the covers of complementary
/// filters, none between the instance pairs `exclusive` that never both
/// run), and the value-based anti and output dependences (each write
/// after the last write before it, and the reads since).
pub(super) fn dataflow(
    scop: &Scop,
    schedule: &UnionMap,
    exclusive: &UnionMap,
    of: &dyn Fn(&str) -> bool,
) -> IslResult<(UnionMap, UnionMap)> {
    let reads = accesses(scop, AccessKind::Read, None, of)?;
    let must = accesses(scop, AccessKind::Write, Some(false), of)?;
    let may = accesses(scop, AccessKind::Write, Some(true), of)?;
    let covers = filters::covers(scop, of)?;
    let flow = if covers.is_empty() {
        isl::compute_flow(&reads, Some(&must), Some(&may), schedule, FlowResult::May)?
    } else {
        filters::flow_with_covers(scop, &covers, &reads, &must, &may)?
    };
    let flow = flow.subtract(exclusive)?;
    let writes = must.union(&may)?;
    let value_based_false =
        isl::compute_flow(&writes, Some(&must), Some(&reads.union(&may)?), schedule, FlowResult::May)?;
    Ok((flow, value_based_false))
}

/// The accesses of `kind` to the variables `of` accepts; with `may`,
/// only those of statements whose writes may (or may not) be skipped:
/// a write under a data-dependent condition may not happen, and hides
/// no earlier write from later reads (a may-source).
pub(super) fn accesses(
    scop: &Scop,
    kind: AccessKind,
    may: Option<bool>,
    of: &dyn Fn(&str) -> bool,
) -> IslResult<UnionMap> {
    let chosen =
        scop.statements.iter().zip(&scop.ast.stmts).filter(|(_, ast)| may.is_none_or(|m| ast.may_skip_writes() == m));
    UnionMap::from_maps(
        chosen.flat_map(|(st, _)| &st.accesses).filter(|a| a.kind == kind && of(&a.array)).map(|a| &a.relation),
    )
}
