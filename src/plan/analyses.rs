//! The analyses of one SCoP that its plans and reports read. A SCoP can
//! be planned up to five times (the proposal for storage expansion, the
//! plan itself, the loops for little work, a rectangular fallback, a
//! report); its dependences are computed once, at their first use, within
//! the budget of the step that first needs them.

use crate::deps::{self, Dependences};
use crate::model::isl::IslResult;
use crate::model::Scop;
use std::cell::OnceCell;

pub struct Analyses<'a> {
    scop: &'a Scop,
    deps: OnceCell<Dependences>,
}

impl<'a> Analyses<'a> {
    /// Nothing computed yet.
    pub fn new(scop: &'a Scop) -> Analyses<'a> {
        Analyses { scop, deps: OnceCell::new() }
    }

    /// With the dependences an earlier [`Analyses`] of `scop` computed.
    pub fn known(scop: &'a Scop, deps: Option<Dependences>) -> Analyses<'a> {
        Analyses { scop, deps: deps.map_or_else(OnceCell::new, OnceCell::from) }
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
}
