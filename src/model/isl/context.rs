//! This thread's isl context, the operation bound it runs under, and the
//! texts it has parsed for the SCoP at hand.
//!
//! One isl context per thread (`thread_local!`), never shared.
//!
//! polyc builds many of its sets and maps as text (a constraint system, a
//! schedule's time map) and builds the same text again and again: the
//! scanner's bounds at each level, the analyses' "moves by one at most"
//! per loop and access. isl's parser cost a quarter of adi's compile time.
//! So a parsed text is kept and handed out again as a copy (isl counts
//! references; a copy is not parsed or allocated). What is kept lasts for
//! one SCoP ([`remember_parses`]), so that the operations a SCoP counts
//! against its budget never depend on the SCoP compiled before it on the
//! same thread.

use super::error::{IslError, IslResult};
use isl_rs::{Context, Map as IslMap, Options, Set as IslSet};
use std::cell::RefCell;
use std::collections::HashMap;

/// isl's default on-error behaviour prints to stderr; polyc reports errors itself.
const ISL_ON_ERROR_CONTINUE: i32 = 1;

/// Operations allowed per SCoP unless the caller says otherwise.
pub const DEFAULT_OPERATION_BUDGET: u64 = 20_000_000;

/// Texts kept at most, a bound on the memory one SCoP's texts hold;
/// past it, what is kept is dropped and kept afresh.
const MAX_REMEMBERED: usize = 4096;

/// A thread's context and what was parsed in it.
struct ThreadIsl {
    /// Declared before `ctx`: its objects are freed before their context.
    parsed: RefCell<Parsed>,
    ctx: Context,
}

/// Parsed texts, kept while a [`ParsedTexts`] guard is alive.
#[derive(Default)]
pub(super) struct Parsed {
    active: bool,
    sets: HashMap<String, IslSet>,
    maps: HashMap<String, IslMap>,
}

impl Parsed {
    fn clear(&mut self) {
        self.sets.clear();
        self.maps.clear();
    }
}

thread_local! {
    static ISL: ThreadIsl = ThreadIsl { parsed: RefCell::default(), ctx: new_context() };
}

fn new_context() -> Context {
    let ctx = Context::alloc();
    // An error here only means isl keeps printing its warnings.
    let _ = Options::set_on_error(&ctx, ISL_ON_ERROR_CONTINUE);
    ctx.set_max_operations(DEFAULT_OPERATION_BUDGET);
    ctx
}

pub(super) fn with_ctx<R>(f: impl FnOnce(&Context) -> R) -> R {
    ISL.with(|isl| f(&isl.ctx))
}

/// Keep the texts parsed on this thread, and hand them out again, until
/// the guard returned is dropped (the driver holds one per SCoP).
#[must_use]
pub fn remember_parses() -> ParsedTexts {
    ISL.with(|isl| {
        let mut parsed = isl.parsed.borrow_mut();
        parsed.clear();
        parsed.active = true;
    });
    ParsedTexts(())
}

/// Parsed texts kept until dropped (see [`remember_parses`]).
pub struct ParsedTexts(());

impl Drop for ParsedTexts {
    fn drop(&mut self) {
        ISL.with(|isl| {
            let mut parsed = isl.parsed.borrow_mut();
            parsed.clear();
            parsed.active = false;
        });
    }
}

/// A kind of isl object polyc parses, and where its texts are kept.
pub(super) trait Parsable: Sized {
    fn kept(parsed: &mut Parsed) -> &mut HashMap<String, Self>;
    /// Another reference to the same object.
    fn share(&self) -> IslResult<Self>;
}

macro_rules! parsable {
    ($($t:ty => $field:ident),*) => {$(
        impl Parsable for $t {
            fn kept(parsed: &mut Parsed) -> &mut HashMap<String, Self> {
                &mut parsed.$field
            }
            fn share(&self) -> IslResult<Self> {
                // A copy only counts a reference: it fails only on an error isl left pending.
                self.copy().map_err(|e| IslError(e.to_string()))
            }
        }
    )*};
}
parsable!(IslSet => sets, IslMap => maps);

/// `text` parsed by `read` (which reports a failure as `Err`), or the
/// object it gave before, while texts are remembered.
pub(super) fn parsed<T: Parsable>(text: &str, read: impl FnOnce(&Context) -> IslResult<T>) -> IslResult<T> {
    ISL.with(|isl| {
        if let Some(kept) = T::kept(&mut isl.parsed.borrow_mut()).get(text) {
            return kept.share();
        }
        let object = read(&isl.ctx)?;
        let mut parsed = isl.parsed.borrow_mut();
        if parsed.active {
            if parsed.sets.len() + parsed.maps.len() >= MAX_REMEMBERED {
                parsed.clear();
            }
            T::kept(&mut parsed).insert(text.to_string(), object.share()?);
        }
        Ok(object)
    })
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
