//! `--emit=parallelism(-json)`: the tile graph of a SCoP's plan for the
//! `--param` values, simulated on `--procs` processors (see
//! [`super::simulate`]); with `--scaling`, a weak-scaling sweep
//! (Gustafson): the scaled parameter and the processors grow together.

use super::final_plan::with_final_plan;
use super::simulate::{self, Parallelism, TileGraph};
use crate::model::isl::{self, UnionMap};
use crate::model::{ModelError, Scop};
use crate::names::FreshNames;
use crate::options::Options;
use crate::plan::{Analyses, Plan};
use serde::Serialize;

/// One simulated run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// The scaling step (1 for a single run).
    pub k: usize,
    /// Every parameter's value, in the SCoP's order.
    #[serde(serialize_with = "as_object")]
    pub params: Vec<(String, i64)>,
    #[serde(flatten)]
    pub parallelism: Parallelism,
}

/// `[(name, value)..]` as the JSON object `{ name: value, .. }`.
fn as_object<S: serde::Serializer>(pairs: &[(String, i64)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(n, v)| (n, v)))
}

/// A SCoP's simulation report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub line: usize,
    /// The transformations of the plan simulated (`tile=time`, ..).
    pub applied: Vec<String>,
    /// The parameter scaled, with `--scaling`.
    pub scaled: Option<String>,
    /// Statements that are not tiled: one node per loop nest each.
    pub untiled: Vec<String>,
    pub runs: Vec<Run>,
}

/// The simulation of the plan the C output starts from, as `options` ask.
pub fn of_final_plan(
    analyses: &Analyses,
    names: &mut FreshNames,
    line: usize,
    options: &Options,
) -> Result<Report, ModelError> {
    with_final_plan(analyses, names, options, |analyses, plan| report(analyses, plan, line, options))
}

/// The simulation of `plan` (the plan of `scop`) as `options` ask.
pub fn report(analyses: &Analyses, plan: &Plan, line: usize, options: &Options) -> Result<Report, ModelError> {
    let scop = analyses.scop();
    let base = parameter_values(scop, options)?;
    let sim = &options.simulate;
    let steps: Vec<(usize, Vec<i64>)> = match &sim.scaling {
        None => vec![(1, base)],
        Some(scaling) => {
            let Some(at) = scop.ast.params.iter().position(|p| *p == scaling.param) else {
                return Err(ModelError::Input(format!("the SCoP has no parameter `{}` to scale", scaling.param)));
            };
            let scaled = |k: usize| base[at].checked_mul(k as i64);
            let mut steps = Vec::new();
            for &k in &scaling.steps {
                let Some(value) = scaled(k) else {
                    return Err(ModelError::Input(format!("{} x {} overflows", scaling.param, k)));
                };
                let mut values = base.clone();
                values[at] = value;
                steps.push((k, values));
            }
            steps
        }
    };
    let dependences = analyses.deps()?.generators()?;
    let mut runs = Vec::new();
    let mut untiled = Vec::new();
    for (k, values) in steps {
        let _step = isl::budget(options.plan.isl_budget);
        let graph = tile_graph(scop, plan, &dependences, &values).map_err(|e| match isl::out_of_budget() {
            true => ModelError::Input(format!("out of isl budget for the tile graph at step {k}: raise --isl-budget")),
            false => e,
        })?;
        let procs = sim.procs.saturating_mul(k);
        let parallelism =
            simulate::parallelism(&graph.successors, procs).map_err(|c| ModelError::Input(c.to_string()))?;
        untiled = graph.untiled;
        let params = scop.ast.params.iter().cloned().zip(values).collect();
        runs.push(Run { k, params, parallelism });
    }
    Ok(Report {
        line,
        applied: plan.notes.applied.clone(),
        scaled: sim.scaling.as_ref().map(|s| s.param.clone()),
        untiled,
        runs,
    })
}

/// The tile graph of `plan` with the parameters at `values`.
pub fn tile_graph(scop: &Scop, plan: &Plan, dependences: &UnionMap, values: &[i64]) -> Result<TileGraph, ModelError> {
    let params = simulate::fixed_params(values)?;
    let namings = simulate::tile_namings(scop, &plan.scattering, &plan.tile_prefix, &params)?;
    Ok(TileGraph::build(scop, &plan.scattering, &namings, dependences, &params)?)
}

/// Every parameter's `--param` value, in the SCoP's order.
pub fn parameter_values(scop: &Scop, options: &Options) -> Result<Vec<i64>, ModelError> {
    let given = &options.params;
    let missing: Vec<&str> =
        scop.ast.params.iter().filter(|p| !given.iter().any(|(n, _)| n == *p)).map(String::as_str).collect();
    if !missing.is_empty() {
        let example: Vec<String> = missing.iter().map(|p| format!("{p}=VALUE")).collect();
        return Err(ModelError::Input(format!(
            "no value for parameter{} {}: pass --param {}",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            example.join(",")
        )));
    }
    Ok(scop.ast.params.iter().filter_map(|p| given.iter().rev().find(|(n, _)| n == p).map(|(_, v)| *v)).collect())
}

impl Report {
    /// The report as text: one run in full, or a sweep as a table.
    pub fn text(&self) -> String {
        let plan = if self.applied.is_empty() { "the original schedule".to_string() } else { self.applied.join(", ") };
        let mut out = format!("# SCoP at line {}\nplan: {plan}\n", self.line);
        if !self.untiled.is_empty() {
            out.push_str(&format!(
                "untiled statements (one node per loop nest, i.e. per value of their constant time prefix): {}\n",
                self.untiled.join(", ")
            ));
        }
        out.push_str("model: unit time per tile, greedy list schedule, longest path to the end first\n");
        match (&self.scaled, self.runs.as_slice()) {
            (None, [run]) => out.push_str(&run.text()),
            _ => out.push_str(&self.table()),
        }
        out
    }

    fn table(&self) -> String {
        let scaled = self.scaled.as_deref().unwrap_or("");
        let fixed: Vec<String> = self
            .runs
            .first()
            .map(|r| r.params.iter().filter(|(n, _)| n != scaled).map(|(n, v)| format!("{n}={v}")).collect())
            .unwrap_or_default();
        let mut out = format!("weak scaling: {scaled} and processors x k; {}\n", fixed.join(", "));
        out.push_str(&format!(
            "{:>4} {:>8} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}\n",
            "k", scaled, "procs", "tiles", "critical", "avg-par", "start-up", "widest", "time", "speed-up", "effic."
        ));
        for run in &self.runs {
            let p = &run.parallelism;
            let value = run.params.iter().find(|(n, _)| n == scaled).map_or(0, |(_, v)| *v);
            out.push_str(&format!(
                "{:>4} {:>8} {:>6} {:>8} {:>8} {:>8.2} {:>8} {:>8} {:>8} {:>8.2} {:>7.3}\n",
                run.k,
                value,
                p.procs,
                p.tiles,
                p.critical_path,
                p.average_parallelism,
                p.startup_parallelism,
                p.widest_wavefront,
                p.time,
                p.speedup,
                p.efficiency
            ));
        }
        out
    }
}

impl Run {
    fn text(&self) -> String {
        let p = &self.parallelism;
        let params: Vec<String> = self.params.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!(
            "parameters: {}\n\
             tiles: {}\n\
             dependences between tiles: {}\n\
             critical path: {} tiles (wavefronts)\n\
             average parallelism: {:.2} (tiles / critical path)\n\
             start-up parallelism: {} (tiles with no predecessor = the first wavefront's width)\n\
             widest wavefront: {}\n\
             on {} processors: {} steps, speed-up {:.2}, efficiency {:.3}\n",
            params.join(", "),
            p.tiles,
            p.edges,
            p.critical_path,
            p.average_parallelism,
            p.startup_parallelism,
            p.widest_wavefront,
            p.procs,
            p.time,
            p.speedup,
            p.efficiency
        )
    }
}
