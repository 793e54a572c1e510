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
//!
//! Where the plan lets a statement's loop run its iterations in any order
//! or at once (the outermost loop marked parallel, SIMD or jammed:
//! [`RunOrder`]), a lifetime starting or ending inside it is stretched over
//! the whole run of that loop, so that a mapping never lets one iteration
//! overwrite what another may still read. Two cells conflict when a value
//! of one is written while a value of the other is live: one comparison of
//! stamps each way, the stamps leaving out the time dimensions constant
//! across the array's statements. DS, the differences of conflicting
//! cells, is coalesced in the space of differences, for the parameter
//! values where every statement runs ([`Conflicts`]).

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, Map, Set, UnionMap, UnionSet};
use crate::model::{params_decl, Scop};
use crate::schedule::Scattering;

/// The conflicts of one array's cells, for the parameter values where
/// every statement of the SCoP runs (where sizes have one formula).
#[derive(Clone)]
pub struct Conflicts {
    /// The array's number of dimensions.
    pub rank: usize,
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
    /// The analysis ran out of its isl budget.
    OutOfBudget,
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
/// `live_out`: its last values are read after the SCoP; `piece`: only
/// between the cells of this set (a piece stored apart from the rest).
pub fn conflicts(
    scop: &Scop,
    order: &RunOrder,
    array: &str,
    live_out: bool,
    piece: Option<&Set>,
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
    let involved: Vec<usize> = writes.iter().chain(&reads).map(|&(k, _)| k).collect();
    let stamps = Stamps::new(scop, order, &involved, live_out, &every_statement_runs)?;
    let starts = stamps.of(&writes, 1, Edge::Start)?;
    let mut ends = flow.apply_range(&stamps.of(&reads, 0, Edge::End)?)?.union(&stamps.of(&writes, 1, Edge::End)?)?;
    if live_out {
        ends = ends.union(&stamps.at_end(&last_writes(scop, &writes, &w, &source_order)?)?)?;
    }
    let ends = ends.lexmax()?;
    // Two lifetimes overlap iff one starts within the other: the pairs
    // (a, b) where b is written while a is live, and their reverse. One
    // comparison each way between one stamp and another, rather than the
    // intersection of two comparisons with the piecewise ends.
    let written_during = starts.lex_le_pairs(&starts)?.intersect(&ends.lex_ge_pairs(&starts)?)?;
    let w_piece = match piece {
        Some(cells) => w.intersect_range(&UnionSet::from_sets([cells])?)?,
        None => w.clone(),
    };
    let cell_pairs = written_during.apply_domain(&w_piece)?.apply_range(&w_piece)?;
    let cell_pairs = cell_pairs.union(&cell_pairs.reverse()?)?;
    let differences = differences(&cell_pairs, rank, scop.ast.params.len())?;
    let mut written = writes[0].1.range()?;
    for (_, m) in &writes[1..] {
        written = written.union(&m.range()?)?;
    }
    let mut written = written.intersect_params(&every_statement_runs)?;
    if let Some(cells) = piece {
        written = written.intersect(cells)?;
    }
    Ok(Ok(Conflicts { rank, differences, written, context: every_statement_runs }))
}

/// DS: the differences `c' - c` of the distinct cells `c -> c'` of
/// `cell_pairs`, coalesced in the space of differences: coalescing the
/// pairs themselves, many more pieces with the tiles' divisions, took
/// minutes on a tiled 2-d kernel.
fn differences(cell_pairs: &UnionMap, rank: usize, np: usize) -> IslResult<Set> {
    let zero = vec!["0"; rank].join(", ");
    let origin = Set::parse(&format!("{} -> {{ [{zero}] }}", params_decl(np)))?;
    if cell_pairs.is_empty()? {
        return origin.subtract(&origin);
    }
    let deltas = cell_pairs.as_single_map()?.deltas()?.coalesce()?;
    deltas.subtract(&origin)?.coalesce()
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
/// documentation), for the parameter values of `context`. A schedule
/// dimension constant and equal across the statements involved orders
/// none of their instances: it is left out, and so is the phase when
/// nothing lives past the SCoP (each level of a lexicographic comparison
/// is one more piece).
///
/// Where a statement's loop at time dimension `k` runs concurrently, its
/// iterations' order is unknown: a lifetime that starts or ends inside it
/// is stretched to the whole run of that loop (all its iterations, within
/// one iteration of the loops around). A bracket before dimension `k`
/// says where a stamp stands: before the run (-1), in it (0), after it
/// (1).
struct Stamps<'a> {
    scop: &'a Scop,
    order: &'a RunOrder<'a>,
    /// The schedule dimensions kept.
    kept: Vec<usize>,
    /// The kept dimensions with a bracket.
    brackets: Vec<usize>,
    /// Whether the stamps start with the phase.
    phase: bool,
    context: &'a Set,
}

/// Which stamp of an instance in a concurrent loop: the start or the end
/// of the loop's run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    Start,
    End,
}

impl<'a> Stamps<'a> {
    fn new(
        scop: &'a Scop,
        order: &'a RunOrder<'a>,
        involved: &[usize],
        phase: bool,
        context: &'a Set,
    ) -> IslResult<Stamps<'a>> {
        let mut brackets: Vec<usize> = involved.iter().filter_map(|&k| order.concurrent[k]).collect();
        brackets.sort_unstable();
        brackets.dedup();
        let mut stamps = Stamps { scop, order, kept: Vec::new(), brackets, phase, context };
        for d in 0..order.schedule.dims {
            let mut values = Vec::new();
            for &k in involved {
                values.push(stamps.time_of(k)?.out_constant(d)?);
            }
            if stamps.brackets.contains(&d) || values.iter().any(|v| v.is_none() || *v != values[0]) {
                stamps.kept.push(d);
            }
        }
        Ok(stamps)
    }

    /// `S_k[i] -> [0, schedule(i), rw]` for the instances of each access
    /// (the kept dimensions of the schedule; the phase if any), stretched
    /// to `edge` of a concurrent loop's run.
    fn of(&self, accesses: &[(usize, &Map)], rw: i64, edge: Edge) -> IslResult<UnionMap> {
        let instances = accesses.iter().map(|&(k, access)| Ok((k, access.domain()?)));
        self.stamped(instances, "0", |k| self.stamp(rw, self.order.concurrent[k].map(|at| (at, edge))))
    }

    /// The stamp after the phase: the kept dimensions with their
    /// brackets, then `rw`; from a concurrent dimension on, the bracket
    /// of the edge and zeros.
    fn stamp(&self, rw: i64, stretched: Option<(usize, Edge)>) -> Vec<String> {
        let mut out = Vec::new();
        for &d in &self.kept {
            let bracket = match stretched {
                Some((at, Edge::Start)) if d == at => "-1",
                Some((at, Edge::End)) if d == at => "1",
                _ => "0",
            };
            if self.brackets.contains(&d) {
                out.push(bracket.to_string());
            }
            out.push(if stretched.is_some_and(|(at, _)| d >= at) { "0".to_string() } else { format!("c{d}") });
        }
        out.push(if stretched.is_some() { "0".to_string() } else { rw.to_string() });
        out
    }

    /// `S_k[i] -> [1, 0, ..., 0]`, after every instance, for `instances`.
    fn at_end(&self, instances: &[(usize, Set)]) -> IslResult<UnionMap> {
        let zeros = vec!["0".to_string(); self.kept.len() + self.brackets.len() + 1];
        self.stamped(instances.iter().map(|(k, set)| Ok((*k, set.clone()))), "1", |_| zeros.clone())
    }

    /// `S_k[i] -> [phase, stamp(k)..]` for each statement `k` and its
    /// instances, with the stamp in terms of the schedule's `c0, c1, ..`.
    fn stamped(
        &self,
        instances: impl Iterator<Item = IslResult<(usize, Set)>>,
        phase: &str,
        stamp: impl Fn(usize) -> Vec<String>,
    ) -> IslResult<UnionMap> {
        let dims: Vec<String> = (0..self.order.schedule.dims).map(|d| format!("c{d}")).collect();
        let leading = if self.phase { vec![phase.to_string()] } else { Vec::new() };
        let mut maps = Vec::new();
        for item in instances {
            let (k, set) = item?;
            let stamp = Map::parse(&format!(
                "{} -> {{ [{}] -> [{}] }}",
                params_decl(self.scop.ast.params.len()),
                dims.join(", "),
                leading.iter().cloned().chain(stamp(k)).collect::<Vec<_>>().join(", ")
            ))?;
            let set = set.intersect_params(self.context)?;
            maps.push(self.time_of(k)?.intersect_domain(&set)?.apply_range(&stamp)?);
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
