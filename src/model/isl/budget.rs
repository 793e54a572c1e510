//! Bounds on the number of isl operations a computation may take.
//!
//! isl counts its operations against the context's bound and fails once
//! past it, so a pathological input fails with an error instead of
//! hanging. Each SCoP runs under a budget; an optional step runs under a
//! share of its own ([`within_budget`]) and is skipped when that runs out.
//!
//! A budget is a scope guard ([`budget`] returns a [`BudgetGuard`]): the
//! driver sets the SCoP's (`--isl-budget`,
//! [`super::DEFAULT_OPERATION_BUDGET`]: 20 million) for the whole SCoP,
//! and each step that takes a share nests a guard of its own, which gives
//! the outer bound back, counted afresh, when dropped. Nothing resets a
//! bound by hand. Planning, and scanning a transformed schedule, get a
//! tenth of the SCoP's budget each (`plan::planning_budget`; the scan of
//! diamonds and hexagons a sixth, as their bounds cost more). Optional
//! steps get budgets of their own: the search for expandable scalars (as
//! much as planning), a skewed schedule for time tiles, recurrence strips
//! and a loop moved innermost for locality (a quarter of planning's
//! each), the last iteration of a loop that a private array is copied
//! out of (a twentieth of the bound in force), each array's storage
//! analysis (the SCoP's bound, afresh) and each of its candidate
//! mappings (a quarter of that). A SCoP, or its
//! planning, out of budget keeps its source text with a `P0022` warning
//! naming the step (`plan::Notes::out_of_budget`); an optional step out
//! of budget is skipped. A computation known to need more than the bound
//! in force (`plan::Analyses::deps`) spends it at once ([`exhaust_budget`]),
//! so that the step fails as it would have, without the cost.
//!
//! The default leaves correlation's planning (about 1.1 million
//! operations) room; a million operations take about a quarter of a
//! second.

use super::check::out_of_budget;
use super::clock::{time_is_up, STOPPED};
use super::context::{operation_budget, restart_operations, with_ctx};
use super::error::IslResult;

/// Restart this thread's operation counter with a new bound.
fn set_operation_budget(max_operations: u64) {
    restart_operations(max_operations);
    // The watchdog may have stopped the context before this call.
    if time_is_up() {
        with_ctx(|ctx| ctx.set_max_operations(STOPPED));
    }
}

/// Run this thread's isl computations under a bound of `max_operations`
/// (counted afresh) until the guard returned is dropped; the bound in
/// force before comes back then, its count restarted. Guards nest: each
/// restores the bound its own call replaced.
#[must_use]
pub fn budget(max_operations: u64) -> BudgetGuard {
    let previous = operation_budget();
    set_operation_budget(max_operations);
    BudgetGuard { previous }
}

/// An operation budget in force until dropped (see [`budget`]).
pub struct BudgetGuard {
    /// The bound to restore.
    previous: u64,
}

impl Drop for BudgetGuard {
    fn drop(&mut self) {
        set_operation_budget(self.previous);
    }
}

/// Run `f` under a budget of its own, then restart the thread's previous
/// bound with a fresh count; `Ok(None)` if `f` ran out of its budget.
pub fn within_budget<R>(max_operations: u64, f: impl FnOnce() -> IslResult<R>) -> IslResult<Option<R>> {
    let guard = budget(max_operations);
    let result = f();
    let out = result.is_err() && out_of_budget();
    drop(guard);
    match result {
        Ok(r) => Ok(Some(r)),
        Err(_) if out => Ok(None),
        Err(e) => Err(e),
    }
}

/// Spend what is left of this thread's operation budget: from now until
/// the guard in force is dropped, every isl operation fails and
/// [`out_of_budget`] says so, as if a computation known to need more than
/// the bound had run again.
pub fn exhaust_budget() {
    with_ctx(|ctx| ctx.set_max_operations(STOPPED));
    // A count just restarted lets an operation or two through.
    for _ in 0..8 {
        if out_of_budget() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::isl::{Map, Set, DEFAULT_OPERATION_BUDGET};

    #[test]
    fn budget_exhaustion_is_an_error_not_a_hang() {
        let guard = budget(10);
        let r = Set::parse("[p0] -> { [c0, c1, c2] : 0 <= c0 < p0 and c0 <= c1 < p0 and c1 <= c2 < 3p0 }")
            .and_then(|s| s.keep_leading_dims(1).and_then(|p| p.coalesce()))
            .and_then(|s| s.is_empty());
        drop(guard);
        assert!(r.is_err());
        assert!(Set::parse("{ [c0] : 0 <= c0 < 4 }").unwrap().n_dims().unwrap() == 1);
    }

    #[test]
    fn a_parse_out_of_budget_is_reported_as_the_budget_not_a_syntax_error() {
        // adi's scan ran out of operations inside a parse: isl said "syntax error".
        let guard = budget(10);
        let _ = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and c0 <= c1 < p0 }").and_then(|s| s.coalesce());
        let e = Map::parse("[p0, p1] -> { [c0, c1, c2, c3] -> [c1, c2, c3] }").err();
        drop(guard);
        let e = e.expect("out of budget, the parse fails").0;
        assert!(e.contains("operations exceeded") && !e.contains("syntax"), "{e}");
        assert!(Map::parse("[p0, p1] -> { [c0, c1, c2, c3] -> [c1, c2, c3] }").is_ok());
    }

    #[test]
    fn an_exhausted_budget_fails_every_operation_until_its_guard_drops() {
        {
            let _guard = budget(5_000);
            exhaust_budget();
            assert!(out_of_budget());
            assert!(Set::parse("{ [c0] : 0 <= c0 < 4 }").is_err());
        }
        assert!(!out_of_budget());
        assert!(Set::parse("{ [c0] : 0 <= c0 < 4 }").is_ok());
    }

    #[test]
    fn a_nested_budget_restores_the_outer_one() {
        assert_eq!(operation_budget(), DEFAULT_OPERATION_BUDGET);
        {
            let _outer = budget(5_000);
            assert_eq!(operation_budget(), 5_000);
            {
                let _inner = budget(10);
                assert_eq!(operation_budget(), 10);
                let r = Set::parse("[p0] -> { [c0, c1, c2] : 0 <= c0 < p0 and c0 <= c1 < p0 and c1 <= c2 < 3p0 }")
                    .and_then(|s| s.keep_leading_dims(1).and_then(|p| p.coalesce()))
                    .and_then(|s| s.is_empty());
                assert!(r.is_err());
            }
            assert_eq!(operation_budget(), 5_000);
            assert!(!out_of_budget(), "the outer budget counts afresh");
        }
        assert_eq!(operation_budget(), DEFAULT_OPERATION_BUDGET);
    }

    #[test]
    fn a_text_parsed_again_for_the_same_scop_costs_no_operations() {
        let text = "[p0] -> { [c0, c1] : 0 <= c0 < p0 and c0 <= c1 < 2p0 }";
        let again_in_ten_operations = || {
            let _guard = budget(10);
            Set::parse(text).and_then(|s| s.n_dims()).is_ok()
        };
        {
            let _parses = crate::model::isl::remember_parses();
            let first = Set::parse(text).unwrap();
            assert!(again_in_ten_operations(), "a remembered text is parsed again");
            assert!(Set::parse(text).unwrap().is_equal(&first).unwrap());
        }
        assert!(!again_in_ten_operations(), "texts are remembered beyond their SCoP");
    }
}
