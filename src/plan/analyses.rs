//! The analyses of one SCoP that its plans and reports read. A SCoP can
//! be planned up to five times (the proposal for storage expansion, the
//! plan itself, the loops for little work, a rectangular fallback, a
//! report); its dependences are computed once, at their first use, under
//! a fresh count of the bound of the step that first needs them, and so
//! is isl's schedule for each fusion asked for. Dependences that ran out
//! of operations are not computed again under a bound no larger: three
//! attempts of one random program's (the proposal for expansion, its
//! fallback and the plan) spent 0.9 s each, to the same end.

use crate::deps::{self, Dependences};
use crate::model::isl::{self, IslError, IslResult, UnionMap};
use crate::model::Scop;
use crate::schedule::{Fuse, Scattering};
use std::cell::{Cell, OnceCell, RefCell};

pub struct Analyses<'a> {
    scop: &'a Scop,
    deps: OnceCell<Dependences>,
    /// The operation bound the dependences ran out of, if they did.
    deps_failed_within: Cell<Option<u64>>,
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
        Analyses { scop, deps, deps_failed_within: Cell::new(None), schedules: RefCell::default() }
    }

    /// The dependences, if they were computed, for [`Analyses::known`].
    pub fn into_deps(self) -> Option<Dependences> {
        self.deps.into_inner()
    }

    pub fn scop(&self) -> &'a Scop {
        self.scop
    }

    /// The SCoP's dependences if they were computed, without computing them.
    pub fn known_deps(&self) -> Option<&Dependences> {
        self.deps.get()
    }

    /// The SCoP's dependences, computed under a fresh count of the bound
    /// in force (the caller's count restarts after them, as after any
    /// [`isl::within_budget`]). Out of operations, they fail at once under
    /// the same bound or a smaller one, with the budget spent; a later
    /// step with a larger bound, or out of time, tries again.
    pub fn deps(&self) -> IslResult<&Dependences> {
        if let Some(deps) = self.deps.get() {
            return Ok(deps);
        }
        let bound = isl::operation_budget();
        if self.deps_failed_within.get().is_none_or(|failed| bound > failed) {
            if let Some(deps) = isl::within_budget(bound, || deps::analyse(self.scop))? {
                return Ok(self.deps.get_or_init(|| deps));
            }
            self.deps_failed_within.set(Some(bound));
        }
        isl::exhaust_budget();
        Err(IslError(format!("the dependences need more than {bound} isl operations")))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Source;

    /// Seven statements reading and writing three small arrays under
    /// guards: far more than a thousand operations of dataflow.
    const GUARDED: &str = "double X[80], Y[80], Z[80];
void f(int n) {
  int i, j;
#pragma scop
  for (i = 1; i < n - 2; i++) {
    for (j = 2; j < n - 1; j++) {
      if (i >= n / 2 - 3)
        X[j] = Y[j - 1] + Z[j + 1];
      Y[j] = X[j] * 0.5 + Y[j];
      if (j <= i + 5)
        Z[j - 1] = X[j + 1] - Z[j];
    }
    X[i] = Z[i] + Y[i + 1];
    if (i <= 5)
      Y[i + 2] = X[i - 1];
  }
#pragma endscop
}
";

    #[test]
    fn dependences_out_of_operations_are_not_computed_again_under_a_bound_no_larger() {
        let source = Source::parse(GUARDED.to_string()).unwrap();
        let scop = Scop::build(source.scops().scops.remove(0)).unwrap();
        let analyses = Analyses::new(&scop);
        for bound in [1_000, 500, 1_000] {
            let _bound = isl::budget(bound);
            assert!(analyses.deps().is_err());
            assert!(isl::out_of_budget(), "under {bound} operations, the step sees its budget run out");
            assert_eq!(analyses.deps_failed_within.get(), Some(1_000), "not computed again under {bound}");
        }
        assert!(!isl::out_of_budget());
        let deps = analyses.deps().expect("within the default bound");
        assert!(!deps.flow.is_empty().unwrap());
    }
}
