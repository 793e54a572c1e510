//! Lifetimes of an array's values under a schedule, and the pairs of
//! cells they make conflict (Alias, Baray and Darte, Bee+Cl@k; SMO's
//! Definition 2.3).
//!
//! A value is written at one instance and read, as isl's exact dataflow
//! under the source order says, by others: it lives from its write to
//! its last read under the schedule. Times are the schedule's vectors
//! with a leading phase (0 inside the SCoP, 1 after it) and a trailing
//! 0 for a read, 1 for a write, so that an instance reads before it
//! writes: a value whose last read is the instance that writes another
//! does not conflict with it (they may share a cell). A value nothing
//! reads lives at its write only (it still must not land on a live
//! cell); a value left in a live-out array lives to the end (phase 1).
//! Two cells conflict when values of theirs live at once.

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, Map, Set, UnionMap};
use crate::model::{array_tuple, params_decl, Scop};
use crate::schedule::Scattering;

/// The conflicts of one array's cells, for the parameter values where
/// every statement of the SCoP runs (where sizes have one formula).
pub struct Conflicts {
    /// The array's number of dimensions.
    pub rank: usize,
    /// Pairs of distinct cells simultaneously live: `A_x[c] -> A_x[c']`.
    pub cells: Map,
    /// DS: the differences `c - c'` of conflicting cells.
    pub differences: Set,
    /// Every cell the SCoP writes.
    pub written: Set,
    /// The parameter values the conflicts are for.
    pub context: Set,
}

/// Why an array's storage cannot be analysed.
#[derive(Debug, PartialEq, Eq)]
pub enum Unanalysable {
    /// Some read has no source in the SCoP: the array is live-in.
    LiveIn,
    /// The SCoP never writes it.
    NotWritten,
}

/// The order a SCoP runs in: a schedule (a legal reordering of the
/// source), and per statement the outermost time dimension whose loop
/// may run its iterations in any order or at once (a parallel, SIMD or
/// jammed loop), if any.
pub struct RunOrder<'a> {
    pub schedule: &'a Scattering,
    pub concurrent: Vec<Option<usize>>,
}

impl<'a> RunOrder<'a> {
    /// `schedule`'s loops run one iteration after another.
    pub fn sequential(schedule: &'a Scattering, n_statements: usize) -> RunOrder<'a> {
        RunOrder { schedule, concurrent: vec![None; n_statements] }
    }
}

/// The conflicts of `array`'s cells when the SCoP runs in `order`;
/// `live_out`: its last values are read after the SCoP.
pub fn conflicts(
    scop: &Scop,
    order: &RunOrder,
    array: &str,
    live_out: bool,
) -> IslResult<Result<Conflicts, Unanalysable>> {
    let accesses = |kind: AccessKind| -> Vec<(usize, &Map)> {
        scop.statements
            .iter()
            .enumerate()
            .flat_map(|(k, s)| s.accesses.iter().map(move |a| (k, a)))
            .filter(|(_, a)| a.array == array && a.kind == kind)
            .map(|(k, a)| (k, &a.relation))
            .collect()
    };
    let (writes, reads) = (accesses(AccessKind::Write), accesses(AccessKind::Read));
    let Some(&(_, first)) = writes.first() else {
        return Ok(Err(Unanalysable::NotWritten));
    };
    let rank = first.n_out()?;
    let w = UnionMap::from_maps(writes.iter().map(|(_, m)| *m))?;
    let r = UnionMap::from_maps(reads.iter().map(|(_, m)| *m))?;
    let source_order = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let flow = isl::compute_flow(&r, Some(&w), None, &source_order, FlowResult::Must)?;
    let every_statement_runs =
        scop.statements.iter().try_fold(scop.context.clone(), |acc, st| acc.intersect(&st.domain.params()?))?;
    let flows = flow.maps()?;
    for &(k, read) in &reads {
        let instances = read.domain()?.intersect_params(&every_statement_runs)?;
        let mut sourced = instances.subtract(&instances)?;
        for m in &flows {
            if m.range_name()? == scop.statements[k].name {
                sourced = sourced.union(&m.range()?)?;
            }
        }
        if !instances.is_subset_of(&sourced)? {
            return Ok(Err(Unanalysable::LiveIn));
        }
    }
    let stamps = Stamps::new(scop, order);
    let written_at = stamps.of(&writes, 1, Edge::Start)?;
    let mut ends = flow.apply_range(&stamps.of(&reads, 0, Edge::End)?)?.union(&stamps.of(&writes, 1, Edge::End)?)?;
    if live_out {
        ends = ends.union(&stamps.at_end(&last_writes(scop, &writes, &w, &source_order)?)?)?;
    }
    let ends = ends.lexmax()?;
    let overlapping = written_at.lex_le_pairs(&ends)?.intersect(&ends.lex_ge_pairs(&written_at)?)?;
    let cell_pairs = overlapping.apply_domain(&w)?.apply_range(&w)?;
    let np = scop.ast.params.len();
    let indices: Vec<String> = (0..rank).map(|d| format!("o{d}")).collect();
    let tuple = format!("{}[{}]", array_tuple(array), indices.join(", "));
    let primed: Vec<String> = indices.iter().map(|o| format!("{o}'")).collect();
    let distinct: Vec<String> = indices.iter().zip(&primed).map(|(a, b)| format!("{a} != {b}")).collect();
    let distinct = Map::parse(&format!(
        "{} -> {{ {tuple} -> {}[{}] : {} }}",
        params_decl(np),
        array_tuple(array),
        primed.join(", "),
        if distinct.is_empty() { "false".to_string() } else { distinct.join(" or ") }
    ))?;
    let cells = if cell_pairs.is_empty()? { distinct.subtract(&distinct)? } else { cell_pairs.as_single_map()? };
    let cells = cells.intersect(&distinct)?.coalesce()?;
    let mut written = writes[0].1.range()?;
    for (_, m) in &writes[1..] {
        written = written.union(&m.range()?)?;
    }
    let differences = cells.deltas()?.intersect_params(&every_statement_runs)?.coalesce()?;
    let written = written.intersect_params(&every_statement_runs)?;
    Ok(Ok(Conflicts { rank, cells, differences, written, context: every_statement_runs }))
}

/// The write instances of `writes` that no later write of the same cell
/// overwrites (in the source order): the array's last values.
fn last_writes(
    scop: &Scop,
    writes: &[(usize, &Map)],
    w: &UnionMap,
    source_order: &UnionMap,
) -> IslResult<Vec<(usize, Set)>> {
    let overwrites = isl::compute_flow(w, Some(w), None, source_order, FlowResult::Must)?.maps()?;
    let mut last = Vec::new();
    for &(k, m) in writes {
        let instances = m.domain()?;
        let mut overwritten = instances.subtract(&instances)?;
        for o in &overwrites {
            if o.domain_name()? == scop.statements[k].name {
                overwritten = overwritten.union(&o.domain()?)?;
            }
        }
        last.push((k, instances.subtract(&overwritten)?));
    }
    Ok(last)
}

/// Time stamps of statement instances under a schedule (see the module
/// documentation). Where a statement's loop at time dimension `k` runs
/// concurrently, its iterations' order is unknown: a lifetime that starts
/// or ends inside it is stretched to the whole run of that loop (all its
/// iterations, within one iteration of the loops around). A bracket
/// before dimension `k` says where a stamp stands: before the run (-1),
/// in it (0), after it (1).
struct Stamps<'a> {
    scop: &'a Scop,
    order: &'a RunOrder<'a>,
    /// The time dimensions with a bracket, in order.
    brackets: Vec<usize>,
}

/// Which stamp of an instance: its own, or the start or the end of the
/// concurrent loop run it is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    Start,
    End,
}

impl<'a> Stamps<'a> {
    fn new(scop: &'a Scop, order: &'a RunOrder<'a>) -> Stamps<'a> {
        let mut brackets: Vec<usize> = order.concurrent.iter().flatten().copied().collect();
        brackets.sort_unstable();
        brackets.dedup();
        Stamps { scop, order, brackets }
    }

    /// `S_k[i] -> [0, schedule(i), rw]` for the instances of each access,
    /// stretched to `edge` of a concurrent loop run.
    fn of(&self, accesses: &[(usize, &Map)], rw: i64, edge: Edge) -> IslResult<UnionMap> {
        let dims: Vec<String> = (0..self.order.schedule.dims).map(|d| format!("c{d}")).collect();
        let mut maps = Vec::new();
        for &(k, access) in accesses {
            let stamp = Map::parse(&format!(
                "{} -> {{ [{}] -> [0, {}] }}",
                params_decl(self.scop.ast.params.len()),
                dims.join(", "),
                self.stamp(&dims, rw, self.order.concurrent[k].map(|at| (at, edge))).join(", ")
            ))?;
            maps.push(self.time_of(k)?.intersect_domain(&access.domain()?)?.apply_range(&stamp)?);
        }
        UnionMap::from_maps(&maps)
    }

    /// The stamp after the phase: the time dimensions `dims` with their
    /// brackets, then `rw`; from a concurrent dimension on, the bracket
    /// of `edge` and zeros.
    fn stamp(&self, dims: &[String], rw: i64, stretched: Option<(usize, Edge)>) -> Vec<String> {
        let mut out = Vec::new();
        for (d, dim) in dims.iter().enumerate() {
            match stretched {
                Some((at, edge)) if d >= at => {
                    if self.brackets.contains(&d) {
                        out.push(
                            if d > at {
                                "0"
                            } else if edge == Edge::Start {
                                "-1"
                            } else {
                                "1"
                            }
                            .to_string(),
                        );
                    }
                    out.push("0".to_string());
                }
                _ => {
                    if self.brackets.contains(&d) {
                        out.push("0".to_string());
                    }
                    out.push(dim.clone());
                }
            }
        }
        out.push(if stretched.is_some() { "0".to_string() } else { rw.to_string() });
        out
    }

    /// `S_k[i] -> [1, 0, ..., 0]`, after every instance, for `instances`.
    fn at_end(&self, instances: &[(usize, Set)]) -> IslResult<UnionMap> {
        let zeros = vec!["0"; self.order.schedule.dims + self.brackets.len() + 1].join(", ");
        let end = Map::parse(&format!(
            "{} -> {{ [{}] -> [1, {zeros}] }}",
            params_decl(self.scop.ast.params.len()),
            (0..self.order.schedule.dims).map(|d| format!("c{d}")).collect::<Vec<_>>().join(", ")
        ))?;
        let mut maps = Vec::new();
        for (k, set) in instances {
            maps.push(self.time_of(*k)?.intersect_domain(set)?.apply_range(&end)?);
        }
        UnionMap::from_maps(&maps)
    }

    /// Statement `k`'s schedule.
    fn time_of(&self, k: usize) -> IslResult<Map> {
        let schedule = self.order.schedule;
        let at = schedule.stmts.iter().position(|&s| s == k);
        let at = at.ok_or_else(|| isl::IslError(format!("S{k} has no schedule")))?;
        Ok(schedule.maps[at].clone())
    }
}
