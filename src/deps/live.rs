//! Live ranges (seed 004, Trifunovic and Cohen): each value a variable
//! holds lives from the write that defines it to the last read of it.
//! Flow dependences say what must run before what; the live ranges say
//! what the storage must keep. A new schedule keeps every live range of
//! a variable whole when no write of the same cell comes between a
//! write and a read of its value, and no read of a value comes after the
//! write that replaces it: exactly when it keeps the value-based anti
//! and output dependences through the variable in order. Those are the
//! *boundaries* of its live ranges.
//!
//! Which boundaries a schedule breaks is the schedule's to say
//! (`schedule::live`).

use super::dataflow::{dataflow, original_schedule, Allowance};
use super::{filters, Dependences};
use crate::model::isl::{IslResult, UnionMap};
use crate::model::Scop;

/// The live ranges of one variable, under the original schedule.
pub struct LiveRanges {
    pub variable: String,
    /// Each write to the last read of the value it leaves (original
    /// order); a write never read has none.
    pub ranges: UnionMap,
    /// The value-based anti and output dependences through the variable:
    /// a schedule that keeps them in order keeps every live range whole.
    pub boundaries: UnionMap,
}

/// The live ranges of every variable `scop` writes that `wanted` accepts.
/// The dataflow through a variable with a group of its own in `known`
/// (`scop`'s dependences) is not computed again (deriche's ten filter
/// states: 30 ms).
pub fn of_scop(scop: &Scop, known: Option<&Dependences>, wanted: &dyn Fn(&str) -> bool) -> IslResult<Vec<LiveRanges>> {
    let schedule = original_schedule(scop)?;
    let mut written: Vec<&str> = scop
        .statements
        .iter()
        .flat_map(|s| &s.accesses)
        .filter(|a| a.kind == crate::frontend::AccessKind::Write)
        .map(|a| a.array.as_str())
        .filter(|v| wanted(v))
        .collect();
    written.sort_unstable();
    written.dedup();
    let own_group = |v: &str| known.and_then(|d| d.groups.iter().find(|g| g.variable.as_deref() == Some(v)));
    let exclusive = if written.iter().all(|v| own_group(v).is_some()) {
        UnionMap::empty()?
    } else {
        filters::exclusive_pairs(scop)?
    };
    let mut all = Vec::new();
    for variable in written {
        let (flow, boundaries) = match own_group(variable) {
            Some(group) => (group.flow.clone(), group.boundaries.clone()),
            None => {
                let mut allowance = Allowance::new(1);
                let found = dataflow(scop, &schedule, &exclusive, &|array: &str| array == variable, &mut allowance)?;
                (found.flow, found.boundaries)
            }
        };
        // The last read of each value, in the original order.
        let last = flow.apply_range(&schedule)?.lexmax()?.apply_range(&schedule.reverse()?)?;
        all.push(LiveRanges { variable: variable.to_string(), ranges: last, boundaries });
    }
    Ok(all)
}
