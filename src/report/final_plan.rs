//! The plan the C output starts from, for the reports that show it.

use crate::model::ModelError;
use crate::names::FreshNames;
use crate::options::Options;
use crate::plan::expansion::{expanded_plan, transposed};
use crate::plan::{self, Analyses, Plan};
use std::cell::OnceCell;

/// `report` of the plan the C output starts from and the SCoP it is
/// for: with transposed copies of the operands that gain by them, and
/// storage expanded where that pays (`plan::expansion`).
pub fn with_final_plan<R>(
    analyses: &Analyses,
    names: &mut FreshNames,
    options: &Options,
    report: impl FnOnce(&Analyses, &Plan) -> Result<R, ModelError>,
) -> Result<R, ModelError> {
    let transposed = if options.trace { None } else { transposed(analyses.scop(), names, &options.plan) };
    match transposed {
        Some(t) => with_expansion(&Analyses::new(&t.scop), names, options, report),
        None => with_expansion(analyses, names, options, report),
    }
}

/// [`with_final_plan`] of a SCoP with its transposed copies made.
fn with_expansion<R>(
    analyses: &Analyses,
    names: &mut FreshNames,
    options: &Options,
    report: impl FnOnce(&Analyses, &Plan) -> Result<R, ModelError>,
) -> Result<R, ModelError> {
    let request = &options.plan;
    let planned = OnceCell::new();
    let expanded = if options.trace { None } else { expanded_plan(analyses, &planned, names, request)? };
    let planned = || planned.into_inner().unwrap_or_else(|| plan::plan(analyses, request));
    match expanded {
        Some(e) => report(&Analyses::known(&e.scop, e.deps), &e.plan),
        None => report(analyses, &planned()),
    }
}
