//! The one place polyc talks to isl (through `isl-rs`).
//!
//! Every wrapper method borrows its inputs and returns a fresh object, so
//! ownership never leaks out of this module: callers hold plain values and
//! isl's reference counting does the copying. Every result is checked twice
//! (`check`): the error isl reported through the context, and a NULL object.
//!
//! One isl context per thread (`context`), never shared. Each SCoP runs
//! under an operation [`budget()`] and a wall-clock [`TimeLimit`], so a
//! pathological input fails with an error instead of hanging.
//!
//! isl is built with small integers kept inline (`imath-32`, configured by
//! `scripts/isl-config.site`): the same results as isl-rs's `imath`, about
//! four times faster. isl's own error printing is off: errors are read
//! from the context and reported by polyc. Operations are not time, so
//! both bounds are needed (see `clock`); a parse that fails because either
//! ran out (isl says "syntax error") is reported as what it is, any other
//! failed parse as a bug, with the text (`check`).
//!
//! Where isl itself goes wrong, polyc works around it here: a dataflow
//! isl refuses is taken memory-based (`flow`), and a lexicographic
//! optimum over a context with two equal divisions, which crashes isl,
//! gets the context simplified first (`duplicate_divs`).

mod budget;
mod check;
mod clock;
mod context;
mod convert;
mod duplicate_divs;
mod error;
mod flow;
mod map;
mod scheduler;
mod set;
mod solve;
mod union;

pub use budget::{budget, exhaust_budget, within_budget, BudgetGuard};
pub use check::out_of_budget;
pub use clock::{expired_in, phase, time_is_up, within_time, PhaseGuard, TimeLimit, DEFAULT_TIME_BUDGET};
pub use context::{operation_budget, remember_parses, ParsedTexts, DEFAULT_OPERATION_BUDGET};
pub use error::{IslError, IslResult};
pub use flow::{compute_flow, FlowResult};
pub use map::Map;
pub use scheduler::{compute_schedule, SchedulerOptions};
pub use set::{set_text, Set};
pub use union::{UnionMap, UnionSet};
