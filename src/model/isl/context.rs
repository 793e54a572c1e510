//! This thread's isl context, and the operation bound it runs under.
//!
//! One isl context per thread (`thread_local!`), never shared.

use isl_rs::{Context, Options};

/// isl's default on-error behaviour prints to stderr; polyc reports errors itself.
const ISL_ON_ERROR_CONTINUE: i32 = 1;

/// Operations allowed per SCoP unless the caller says otherwise.
pub const DEFAULT_OPERATION_BUDGET: u64 = 20_000_000;

thread_local! {
    static CTX: Context = new_context();
}

fn new_context() -> Context {
    let ctx = Context::alloc();
    // An error here only means isl keeps printing its warnings.
    let _ = Options::set_on_error(&ctx, ISL_ON_ERROR_CONTINUE);
    ctx.set_max_operations(DEFAULT_OPERATION_BUDGET);
    ctx
}

pub(super) fn with_ctx<R>(f: impl FnOnce(&Context) -> R) -> R {
    CTX.with(f)
}

thread_local! {
    /// The operation bound this thread asked for (its context's, unless a
    /// time limit ran out and stopped it).
    static BOUND: std::cell::Cell<u64> = const { std::cell::Cell::new(DEFAULT_OPERATION_BUDGET) };
}

/// Restart this thread's operation counter under `max_operations`, the
/// bound the thread asks for from now on.
pub(super) fn restart_operations(max_operations: u64) {
    BOUND.with(|b| b.set(max_operations));
    with_ctx(|ctx| {
        ctx.reset_operations();
        ctx.set_max_operations(max_operations);
    })
}

/// The bound asked for, back on the context after a time limit that
/// stopped it is gone.
pub(super) fn restore_operation_bound() {
    with_ctx(|ctx| {
        ctx.set_max_operations(BOUND.with(|b| b.get()));
        ctx.reset_error();
    })
}

/// This thread's current bound on isl operations.
pub fn operation_budget() -> u64 {
    BOUND.with(|b| b.get())
}
