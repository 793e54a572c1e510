//! The value-based dataflow of a SCoP under its original schedule, per
//! group of variables (see the parent module): what the dependences and
//! the live ranges are computed from.

use super::filters;
use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslError, IslResult, Map, UnionMap, UnionSet};
use crate::model::Scop;

/// Every statement instance of `scop` to its time in the original order.
pub(super) fn original_schedule(scop: &Scop) -> IslResult<UnionMap> {
    UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))
}

/// The operations the exact dataflow of the groups may spend: what is
/// left of the count in force, shared by the groups, until it runs out;
/// then a share of the bound, counted afresh, for each group after.
/// Where all groups fit in the bound, nothing changes; otherwise the
/// total stays within twice the bound (and the memory-based analyses).
pub(super) struct Allowance {
    share: u64,
    spent: bool,
}

impl Allowance {
    pub(super) fn new(groups: usize) -> Allowance {
        Allowance { share: isl::operation_budget() / groups.max(1) as u64, spent: false }
    }
}

/// The dependences through the variables `of` accepts, in the original
/// order `schedule`: value-based ([`value_based`]) where isl's exact
/// dataflow fits in `allowance`, memory-based ([`memory_based`]), under
/// the bound in force counted afresh, otherwise.
pub(super) fn dataflow(
    scop: &Scop,
    schedule: &UnionMap,
    exclusive: &UnionMap,
    of: &dyn Fn(&str) -> bool,
    allowance: &mut Allowance,
) -> IslResult<Dataflow> {
    let exact = || value_based(scop, schedule, exclusive, of);
    let found = if allowance.spent {
        isl::within_budget(allowance.share, exact)?
    } else {
        match exact() {
            Ok(found) => Some(found),
            Err(_) if isl::out_of_budget() => {
                allowance.spent = true;
                None
            }
            Err(e) => return Err(e),
        }
    };
    if let Some((flow, boundaries)) = found {
        return Ok(Dataflow { flow, boundaries, exact: true });
    }
    let bound = isl::operation_budget();
    match isl::within_budget(bound, || memory_based(scop, schedule, exclusive, of))? {
        Some(found) => Ok(found),
        None => {
            isl::exhaust_budget();
            Err(IslError(format!("the memory-based dependences need more than {bound} isl operations")))
        }
    }
}

/// The dependences through some variables, and whether they are exact.
pub(super) struct Dataflow {
    /// Each read from the writes that may have left its value.
    pub flow: UnionMap,
    /// The anti and output dependences that bound the live ranges.
    pub boundaries: UnionMap,
    /// Whether both are value-based, or memory-based.
    pub exact: bool,
}

/// The value-based dependences: the flow (each read from the writes
/// that may have left its value, through the covers of complementary
/// filters, none between the instance pairs `exclusive` that never both
/// run), and the value-based anti and output dependences (each write
/// after the last write before it, and the reads since).
fn value_based(
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

/// The memory-based dependences: each read from every earlier write of
/// its element (but those `exclusive` with it), each write after every
/// earlier access, each access without the constraints on existentials
/// (strides and modulo conditions, what made the exact dataflow costly,
/// cost nothing here), the pairs then kept to instances that run. A
/// superset of the value-based ones, without isl's lexicographic
/// maxima: what respects them respects the true dependences (fewer
/// transformations are proved legal, none wrongly); a loop privatises
/// no variable whose reads these let earlier iterations' writes reach.
fn memory_based(
    scop: &Scop,
    schedule: &UnionMap,
    exclusive: &UnionMap,
    of: &dyn Fn(&str) -> bool,
) -> IslResult<Dataflow> {
    let reads = without_existentials(&accesses(scop, AccessKind::Read, None, of)?)?;
    let writes = without_existentials(&accesses(scop, AccessKind::Write, None, of)?)?;
    let domains = UnionSet::from_sets(scop.statements.iter().map(|s| &s.domain))?;
    let running = |pairs: UnionMap| pairs.intersect_domain(&domains)?.intersect_range(&domains);
    let flow = isl::compute_flow(&reads, None, Some(&writes), schedule, FlowResult::May)?.subtract(exclusive)?;
    let boundaries = isl::compute_flow(&writes, None, Some(&reads.union(&writes)?), schedule, FlowResult::May)?;
    Ok(Dataflow { flow: running(flow)?, boundaries: running(boundaries)?, exact: false })
}

/// Each map of `accesses` without existentials: a superset.
fn without_existentials(accesses: &UnionMap) -> IslResult<UnionMap> {
    let maps = accesses.maps()?.iter().map(Map::without_existentials).collect::<IslResult<Vec<_>>>()?;
    UnionMap::from_maps(&maps)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Source;

    fn contains(big: &UnionMap, small: &UnionMap) -> bool {
        small.subtract(big).unwrap().is_empty().unwrap()
    }

    /// A strided loop, writes under a modulo condition and its `else`,
    /// a read halving its iterator: the memory-based dependences hold
    /// the value-based ones, through every variable.
    #[test]
    fn memory_based_dependences_hold_the_value_based_ones() {
        let text = "double X[200], Y[200];
void f(int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i += 3) {
    for (j = 0; j < n / 2; j++) {
      if ((i + j) % 2 == 0)
        X[j + 1] = Y[2 * j] + X[j];
      else
        Y[i + j] = X[j / 2] * 0.5;
      X[i / 3 + j] = Y[j + 1] + 1.0;
    }
  }
#pragma endscop
}
";
        let source = Source::parse(text.to_string()).unwrap();
        let scop = Scop::build(source.scops().scops.remove(0)).unwrap();
        let (schedule, exclusive) = (original_schedule(&scop).unwrap(), filters::exclusive_pairs(&scop).unwrap());
        let every = |_: &str| true;
        let (flow, boundaries) = value_based(&scop, &schedule, &exclusive, &every).unwrap();
        let memory = memory_based(&scop, &schedule, &exclusive, &every).unwrap();
        assert!(!flow.is_empty().unwrap() && !boundaries.is_empty().unwrap());
        assert!(contains(&memory.flow, &flow), "a value-based flow is missing");
        assert!(contains(&memory.boundaries, &boundaries), "a value-based anti or output dependence is missing");
        assert!(!contains(&flow, &memory.flow), "as exact as the value-based flow: nothing was approximated");
    }
}
