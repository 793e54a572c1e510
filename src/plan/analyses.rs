//! The analyses of one SCoP that its plans and reports read. A SCoP can
//! be planned up to five times (the proposal for storage expansion, the
//! plan itself, the loops for little work, a rectangular fallback, a
//! report); its dependences are computed once, at their first use, within
//! the budget of the step that first needs them, and so is isl's schedule
//! for each fusion asked for.

use crate::deps::{self, Dependences};
use crate::model::isl::{IslResult, UnionMap};
use crate::model::Scop;
use crate::schedule::{Fuse, Scattering};
use std::cell::{OnceCell, RefCell};

pub struct Analyses<'a> {
    scop: &'a Scop,
    deps: OnceCell<Dependences>,
    /// isl's schedules so far, by fusion and the variables whose
    /// dependences were relaxed.
    schedules: RefCell<Vec<(Fuse, Vec<String>, Scattering)>>,
}

impl<'a> Analyses<'a> {
    /// Nothing computed yet.
    pub fn new(scop: &'a Scop) -> Analyses<'a> {
        Analyses::known(scop, None)
    }

    /// With the dependences an earlier [`Analyses`] of `scop` computed.
    pub fn known(scop: &'a Scop, deps: Option<Dependences>) -> Analyses<'a> {
        let deps = deps.map_or_else(OnceCell::new, OnceCell::from);
        Analyses { scop, deps, schedules: RefCell::default() }
    }

    /// The dependences, if they were computed, for [`Analyses::known`].
    pub fn into_deps(self) -> Option<Dependences> {
        self.deps.into_inner()
    }

    pub fn scop(&self) -> &'a Scop {
        self.scop
    }

    /// The SCoP's dependences. A failure (out of budget, out of time) is
    /// not kept: a later step with a budget of its own tries again.
    pub fn deps(&self) -> IslResult<&Dependences> {
        if let Some(deps) = self.deps.get() {
            return Ok(deps);
        }
        let deps = deps::analyse(self.scop)?;
        Ok(self.deps.get_or_init(|| deps))
    }

    /// isl's schedule of the whole SCoP with `fuse`, under `legality`
    /// (the dependences but those through `relaxed`), computed once: the
    /// plan and the loops for little work both start from it.
    pub fn auto_schedule(&self, legality: &UnionMap, fuse: Fuse, relaxed: &[String]) -> IslResult<Scattering> {
        let known = self.schedules.borrow().iter().find(|(f, r, _)| *f == fuse && r == relaxed).map(|k| k.2.clone());
        if let Some(sc) = known {
            return Ok(sc);
        }
        let sc = Scattering::auto(self.scop, legality, fuse)?;
        self.schedules.borrow_mut().push((fuse, relaxed.to_vec(), sc.clone()));
        Ok(sc)
    }
}
