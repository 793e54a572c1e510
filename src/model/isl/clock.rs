//! Wall-clock limits on this thread's isl computations.
//!
//! isl counts operations, not time: a linear program whose numbers grow
//! can spend minutes within a modest operation budget. A [`TimeLimit`]
//! registers this thread's context with one watchdog thread (shared by
//! every thread, started on first use); when the limit passes, the
//! watchdog drops the context's operation bound to one, so the running
//! isl computation fails at its next operation check, and every later
//! isl result of the thread is an error (`Checked::checked`, which also
//! stops polyc's own loops between isl calls). Dropping the limit puts
//! the context's bound back, unless an enclosing limit has run out too.
//! Limits nest: an optional step runs under a share of its own
//! ([`within_time`]) and is skipped when that runs out.
//!
//! Each SCoP runs under `--time-budget` ([`DEFAULT_TIME_BUDGET`]: 10 s;
//! `0` turns it off), as isl's scheduler on nine statements with fragmented
//! dependences spent 70 s within two million operations, pivoting on ever
//! larger integers. Out of time, the SCoP keeps its source text with
//! `P0015`, naming the phase it was in ([`phase`]: modelling, dependence
//! analysis, scheduling and planning, storage, scanning, printing).
//! Planning, and scanning a transformed schedule, get half of it each
//! (`plan::planning_time`, through [`within_time`]); out of that, the SCoP
//! keeps its source with a `P0014` note, so a SCoP whose planning explodes
//! comes out in about half its budget. On a loaded machine a wall-clock
//! budget cuts earlier.

use super::context::{restore_operation_bound, with_ctx};
use super::error::IslResult;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The default wall-clock budget of one SCoP.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(10);

/// One registered limit.
struct Watch {
    id: u64,
    /// `isl_ctx *` of the thread that registered it.
    ctx: usize,
    deadline: Instant,
    expired: Arc<AtomicBool>,
}

#[derive(Default)]
struct Watchdog {
    watches: Mutex<(u64, Vec<Watch>)>,
    wake: Condvar,
}

fn watchdog() -> &'static Watchdog {
    static DOG: OnceLock<&'static Watchdog> = OnceLock::new();
    DOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::default());
        std::thread::Builder::new()
            .name("polyc-isl-watchdog".into())
            .spawn(move || dog.run())
            .expect("the watchdog thread starts");
        dog
    })
}

impl Watchdog {
    fn run(&self) {
        let mut guard = self.watches.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let now = Instant::now();
            for w in guard.1.iter().filter(|w| w.deadline <= now && !w.expired.load(Ordering::SeqCst)) {
                w.expired.store(true, Ordering::SeqCst);
                abort_context(w.ctx);
            }
            let next = guard.1.iter().filter(|w| !w.expired.load(Ordering::SeqCst)).map(|w| w.deadline).min();
            guard = match next {
                Some(at) => {
                    let wait = at.saturating_duration_since(Instant::now());
                    self.wake.wait_timeout(guard, wait).unwrap_or_else(|e| e.into_inner()).0
                }
                None => self.wake.wait(guard).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }
}

/// Stop another thread's isl computation: its context's operation bound
/// drops to one, so isl fails at its next operation check with "maximal
/// number of operations exceeded", as when an operation budget runs out.
/// (`isl_ctx_abort` would be the documented way, but isl reports an abort
/// with no message, and isl-rs 0.3.1 reads that message through a NULL
/// pointer.) The context outlives the watch: a watch is removed, under
/// the watchdog's lock, before its thread goes on.
fn abort_context(ctx: usize) {
    let mut handle = isl_rs::Context { ptr: ctx, should_free_on_drop: false };
    handle.do_not_free_on_drop();
    handle.set_max_operations(STOPPED);
}

/// The operation bound of a stopped context.
pub(super) const STOPPED: u64 = 1;

thread_local! {
    /// The flags of this thread's active limits, outermost first.
    static ACTIVE: RefCell<Vec<Arc<AtomicBool>>> = const { RefCell::new(Vec::new()) };
    /// What the thread is computing, innermost last, for reports of a limit running out.
    static PHASES: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    /// The phase the outermost limit ran out in.
    static EXPIRED_IN: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// Whether some active limit of this thread has run out: every isl
/// result is then an error.
pub fn time_is_up() -> bool {
    ACTIVE.with(|a| a.borrow().iter().any(|f| f.load(Ordering::Relaxed)))
}

fn outermost_expired() -> bool {
    ACTIVE.with(|a| a.borrow().first().is_some_and(|f| f.load(Ordering::Relaxed)))
}

/// A wall-clock limit on this thread's isl computations, active until dropped.
pub struct TimeLimit {
    id: u64,
    expired: Arc<AtomicBool>,
}

impl TimeLimit {
    /// Start a limit of `budget` from now (`None`: a limit that never runs out).
    pub fn start(budget: Option<Duration>) -> TimeLimit {
        let expired = Arc::new(AtomicBool::new(false));
        if ACTIVE.with(|a| a.borrow().is_empty()) {
            EXPIRED_IN.with(|e| e.set(None));
        }
        ACTIVE.with(|a| a.borrow_mut().push(expired.clone()));
        let Some(budget) = budget else {
            return TimeLimit { id: 0, expired };
        };
        let ctx = with_ctx(|c| c.ptr);
        let dog = watchdog();
        let mut guard = dog.watches.lock().unwrap_or_else(|e| e.into_inner());
        guard.0 += 1;
        let id = guard.0;
        let now = Instant::now();
        let deadline = now.checked_add(budget).unwrap_or(now + Duration::from_secs(1 << 32));
        guard.1.push(Watch { id, ctx, deadline, expired: expired.clone() });
        dog.wake.notify_all();
        TimeLimit { id, expired }
    }

    /// Whether this limit has run out.
    pub fn expired(&self) -> bool {
        self.expired.load(Ordering::SeqCst)
    }
}

impl Drop for TimeLimit {
    fn drop(&mut self) {
        if outermost_expired() {
            note_expiry();
        }
        let ours = |f: &Arc<AtomicBool>| Arc::ptr_eq(f, &self.expired);
        ACTIVE.with(|a| a.borrow_mut().retain(|f| !ours(f)));
        if self.id != 0 {
            let dog = watchdog();
            let mut guard = dog.watches.lock().unwrap_or_else(|e| e.into_inner());
            guard.1.retain(|w| w.id != self.id);
            // Under the lock: the watchdog cannot abort the context between
            // this test and the resume.
            if self.expired() && !time_is_up() {
                restore_operation_bound();
            }
        }
    }
}

/// Name what this thread computes until the guard returned is dropped:
/// the phase reported if the outermost limit runs out during it.
#[must_use]
pub fn phase(name: &'static str) -> PhaseGuard {
    PHASES.with(|p| p.borrow_mut().push(name));
    PhaseGuard(())
}

pub struct PhaseGuard(());

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        if outermost_expired() {
            note_expiry();
        }
        PHASES.with(|p| p.borrow_mut().pop());
    }
}

fn note_expiry() {
    let now = PHASES.with(|p| p.borrow().last().copied()).unwrap_or("modelling");
    EXPIRED_IN.with(|e| {
        if e.get().is_none() {
            e.set(Some(now));
        }
    });
}

/// The phase this thread was in when its outermost limit ran out
/// (`None`: it has not, since it started).
pub fn expired_in() -> Option<&'static str> {
    if outermost_expired() {
        note_expiry();
    }
    EXPIRED_IN.with(|e| e.get())
}

/// Run `f` under a limit of `share` from now (or less, if an enclosing
/// limit ends first); `Ok(None)` if that share ran out while the
/// enclosing limits still run, the context usable again.
pub fn within_time<R>(share: Option<Duration>, f: impl FnOnce() -> IslResult<R>) -> IslResult<Option<R>> {
    let limit = TimeLimit::start(share);
    let result = f();
    let ran_out = limit.expired();
    drop(limit);
    match result {
        _ if ran_out && !time_is_up() => Ok(None),
        Ok(r) => Ok(Some(r)),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::isl::{out_of_budget, Set};

    #[test]
    fn a_time_limit_stops_isl_and_the_context_works_again() {
        let text = "[p0] -> { [c0, c1, c2] : 0 <= c0 < p0 and c0 <= c1 < p0 and c1 <= c2 < 3p0 }";
        let r = within_time(Some(std::time::Duration::from_millis(50)), || loop {
            Set::parse(text)?.keep_leading_dims(1)?.coalesce()?;
        });
        assert_eq!(r.map(|_: Option<()>| ()), Ok(()));
        assert!(!time_is_up() && !out_of_budget());
        assert!(Set::parse(text).unwrap().n_dims().unwrap() == 3);
        let outer = TimeLimit::start(Some(std::time::Duration::from_millis(20)));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(outer.expired() && time_is_up() && Set::parse(text).is_err());
        drop(outer);
        assert!(Set::parse(text).is_ok());
    }
}
