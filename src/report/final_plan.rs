//! The plan the C output starts from, for the reports that show it.

use crate::model::ModelError;
use crate::names::FreshNames;
use crate::options::Options;
use crate::plan::expansion::expanded_plan;
use crate::plan::{self, Analyses, Plan};

/// `report` of the plan the C output starts from and the SCoP it is
/// for: with storage expanded if that tiles a band.
pub fn with_final_plan<R>(
    analyses: &Analyses,
    names: &mut FreshNames,
    options: &Options,
    report: impl FnOnce(&Analyses, &Plan) -> Result<R, ModelError>,
) -> Result<R, ModelError> {
    let request = &options.plan;
    let expanded = if options.trace { None } else { expanded_plan(analyses, names, request)? };
    match expanded {
        Some(e) => report(&Analyses::known(&e.scop, e.deps), &e.plan),
        None => report(analyses, &plan::plan(analyses, request)),
    }
}
