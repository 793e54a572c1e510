//! The `--emit` reports of one SCoP's plan: its final schedule and
//! marks, the tile sizes chosen, the storage of its temporaries.

use super::final_plan::with_final_plan;
use crate::model::isl;
use crate::model::{self, ModelError};
use crate::names::FreshNames;
use crate::options::{Options, TileShape};
use crate::plan::{self, Analyses, Plan};
use crate::storage;
use crate::tile::hw::Hardware;

/// `--emit=schedule` for the plan the C output starts from.
pub fn schedule(analyses: &Analyses, names: &mut FreshNames, options: &Options) -> Result<String, ModelError> {
    with_final_plan(analyses, names, options, schedule_of)
}

/// `--emit=tile-sizes`: the tiling asked for (with SICA, the hardware
/// and rho), then, per band of the plan the C output starts from, the
/// sizes chosen and why, and what was applied or refused.
pub fn tile_sizes(analyses: &Analyses, names: &mut FreshNames, options: &Options) -> Result<String, ModelError> {
    let mut out = match &options.plan.tile {
        None => "tile: none\n".to_string(),
        Some(t) if t.shape == TileShape::Sica => {
            format!("tile: sica, rho = {}\nhardware: {}\n", t.sica_rho, Hardware::given_or_detected(t.hw.as_ref()))
        }
        Some(t) => format!("tile: {}\n", t.shape.name()),
    };
    let plan = with_final_plan(analyses, names, options, |_, plan| Ok(plan.clone()))?;
    for sized in &plan.notes.tile_sizes {
        out.push_str(&format!("{sized}\n"));
    }
    out.push_str(&format!("applied: {}\n", plan.notes.applied.join(", ")));
    for why in plan.notes.refused.iter().chain(&plan.notes.out_of_budget) {
        out.push_str(&format!("refused: {why}\n"));
    }
    Ok(out)
}

/// `--emit=storage`: [`storage`] as a table.
pub fn storage_table(analyses: &Analyses, options: &Options) -> Result<String, ModelError> {
    Ok(table(&storage(analyses, options)?))
}

/// A line per array.
fn table(entries: &[storage::ArrayStorage]) -> String {
    let mut out = format!("{:<10} {:<8} {:<20} {:<20} mapping\n", "array", "method", "original", "new");
    for e in entries {
        let sized = |text: &str, n: Option<i64>| match n {
            Some(n) if text != n.to_string() => format!("{text} = {n}"),
            _ => text.to_string(),
        };
        out.push_str(&format!(
            "{:<10} {:<8} {:<20} {:<20} {}\n",
            e.array,
            e.method.name(),
            sized(&e.original_size, e.original_cells),
            e.new_size.as_deref().map_or_else(|| "-".to_string(), |s| sized(s, e.new_cells)),
            e.mapping.as_deref().or(e.note.as_deref()).unwrap_or("-"),
        ));
    }
    out
}

/// `--emit=storage-json`: each temporary array's storage under the
/// schedule the SCoP is planned to run in.
pub fn storage(analyses: &Analyses, options: &Options) -> Result<Vec<storage::ArrayStorage>, ModelError> {
    let plan = plan::plan(analyses, &options.plan);
    let _phase = isl::phase("storage analysis");
    let scop = analyses.scop();
    Ok(storage::report(scop, &plan.run_order(scop), &options.storage, &options.params)?)
}

/// `--emit=schedule`: what was applied, each statement's time map, the marks.
fn schedule_of(analyses: &Analyses, plan: &Plan) -> Result<String, ModelError> {
    let scop = analyses.scop();
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
