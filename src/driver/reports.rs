//! The `--emit` reports of one SCoP's plan: its final schedule and
//! marks, the tile sizes chosen, the storage of its temporaries.

use super::plan::{self, Plan};
use super::{expansion::expanded_plan, run_order, Options, TileShape};
use crate::model::isl;
use crate::model::{self, ModelError, Scop};
use crate::names::FreshNames;
use crate::storage;
use crate::tile::hw::Hardware;

/// `--emit=schedule` for the plan [`regenerate`] starts from.
pub(super) fn planned_schedule_report(
    scop: &Scop,
    names: &mut FreshNames,
    options: &Options,
) -> Result<String, ModelError> {
    with_final_plan(scop, names, options, schedule_report)
}

/// `report` of the plan [`regenerate`] starts from and the SCoP it is
/// for: with storage expanded if that tiles a band.
pub(super) fn with_final_plan<R>(
    scop: &Scop,
    names: &mut FreshNames,
    options: &Options,
    report: impl FnOnce(&Scop, &Plan) -> Result<R, ModelError>,
) -> Result<R, ModelError> {
    match expanded_plan(scop, names, options)? {
        Some(e) => report(&e.scop, &e.plan),
        None => report(scop, &plan::plan(scop, options)),
    }
}

/// `--emit=tile-sizes`: the tiling asked for (with SICA, the hardware
/// and rho), then, per band of the plan [`regenerate`] starts from, the
/// sizes chosen and why, and what was applied or refused.
pub(super) fn tile_sizes_report(scop: &Scop, names: &mut FreshNames, options: &Options) -> Result<String, ModelError> {
    let mut out = match &options.tile {
        None => "tile: none\n".to_string(),
        Some(t) if t.shape == TileShape::Sica => {
            format!("tile: sica, rho = {}\nhardware: {}\n", t.sica_rho, Hardware::given_or_detected(t.hw.as_ref()))
        }
        Some(t) => {
            let shape = clap::ValueEnum::to_possible_value(&t.shape);
            format!("tile: {}\n", shape.as_ref().map_or("", |v| v.get_name()))
        }
    };
    let plan = match expanded_plan(scop, names, options)? {
        Some(e) => e.plan,
        None => plan::plan(scop, options),
    };
    for sized in &plan.notes.tile_sizes {
        out.push_str(&format!("{sized}\n"));
    }
    out.push_str(&format!("applied: {}\n", plan.notes.applied.join(", ")));
    for why in plan.notes.refused.iter().chain(&plan.notes.out_of_budget) {
        out.push_str(&format!("refused: {why}\n"));
    }
    Ok(out)
}

/// `--emit=storage`: each temporary array's storage under the schedule
/// the SCoP is planned to run in.
pub(super) fn storage_report(scop: &Scop, options: &Options) -> Result<Vec<storage::ArrayStorage>, ModelError> {
    let plan = plan::plan(scop, options);
    let _phase = isl::phase("storage analysis");
    Ok(storage::report(scop, &run_order(scop, &plan), &options.storage)?)
}

/// `--emit=schedule`: what was applied, each statement's time map, the marks.
fn schedule_report(scop: &Scop, plan: &Plan) -> Result<String, ModelError> {
    let mut out = format!("applied: {}\n", plan.notes.applied.join(", "));
    for why in plan.notes.refused.iter().chain(&plan.notes.out_of_budget) {
        out.push_str(&format!("refused: {why}\n"));
    }
    for m in &plan.scattering.maps {
        out.push_str(&format!("{}\n", model::readable(&m.to_text()?, &scop.ast.params)));
    }
    for (st, marks) in scop.statements.iter().zip(&plan.marks) {
        let marked: Vec<String> = marks
            .iter()
            .enumerate()
            .filter(|(_, m)| m.parallel && m.region || m.simd)
            .map(|(k, m)| {
                format!(
                    "c{k}:{}{}",
                    if m.parallel && m.region { " parallel" } else { "" },
                    if m.simd { " simd" } else { "" }
                )
            })
            .collect();
        out.push_str(&format!("marks {}: {}\n", st.name, marked.join(", ")));
    }
    Ok(out)
}
