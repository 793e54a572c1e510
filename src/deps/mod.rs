//! Dependence analysis: which statement instances must stay ordered.
//!
//! Flow (read-after-write) dependences are value-based: isl's dataflow
//! analysis finds, for each read, the last write of the same element
//! before it in the original schedule. Anti (write-after-read) and output
//! (write-after-write) dependences are memory-based: every earlier access
//! of the element counts, since a transformation may not reorder any of
//! them; they are what `--emit=deps` reports.
//!
//! Legality only needs a generating subset: the value-based anti and
//! output dependences (each write's last earlier write, and the reads
//! since it). Every memory-based dependence is a chain of value-based
//! ones, and distances add along a chain, so a schedule (or a parallel or
//! permutable dimension) that respects the chain links respects the whole
//! dependence. The subset is far smaller for stencils, where memory-based
//! dependences span every pair of time steps, and the scheduler's cost
//! grows with it.
//!
//! A write under a data-dependent condition (seed 001's filters) may not
//! happen: it is a may-source, which hides no earlier write, so the flow
//! into a read is every write that may have left its value, for all
//! values of the conditions. Legality then holds whatever they are.
//!
//! Exact where the filters allow it (seed 001, sections 4-6): the
//! filtered writes of one array directly in one loop nest certainly
//! write an element at an instance of the loops if, for every assignment
//! of truth values to their condition variables, one of the writes that
//! run under it writes the element (a `then` and an `else` branch both
//! writing it). For those elements a virtual must-write, placed right
//! after the last of the writes, hides older writes from later reads; a
//! virtual read just before it finds the real writes of that iteration
//! that may leave the value, and each flow from the virtual write becomes
//! a flow from those (a cover [`Cover`]). A write with no complementary
//! write still hides nothing. No value flows between instances that never
//! both run (one under a condition, the other under its negation, at the
//! same instance of its `if`). Anti and output dependences keep treating
//! filtered writes as may-writes.
//!
//! The value-based dependences are computed per group of variables: each
//! variable a loop might privatise on its own, all others together. No
//! dependence links two variables, so the groups' union is the joint
//! analysis, and leaving out a group is leaving out exactly the
//! dependences through that variable.

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, Map, UnionMap};
use crate::model::{params_decl, statement_index, Scop};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Flow,
    Anti,
    Output,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Flow, Kind::Anti, Kind::Output];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Flow => "flow",
            Kind::Anti => "anti",
            Kind::Output => "output",
        }
    }
}

/// The dependences of one SCoP, each `S<a>[..] -> S<b>[..]` (source before sink).
pub struct Dependences {
    pub flow: UnionMap,
    pub anti: UnionMap,
    pub output: UnionMap,
    /// Value-based dependences by the variables they go through: each
    /// variable a loop might privatise (see [`privatisable`]) on its own,
    /// then all others together.
    groups: Vec<Group>,
}

/// The value-based dependences through some of a SCoP's variables.
struct Group {
    /// The one privatisable variable, or `None` for all others.
    variable: Option<String>,
    flow: UnionMap,
    /// `flow` with the value-based anti and output dependences, which
    /// together generate every dependence through these variables.
    generators: UnionMap,
}

impl Dependences {
    pub fn of(&self, kind: Kind) -> &UnionMap {
        match kind {
            Kind::Flow => &self.flow,
            Kind::Anti => &self.anti,
            Kind::Output => &self.output,
        }
    }

    /// Dependences whose chains give every dependence: respecting these
    /// is respecting all of them.
    pub fn generators(&self) -> IslResult<UnionMap> {
        self.generators_except(&[])
    }

    /// [`Dependences::generators`] but those through the variables
    /// `private` (each a private copy per iteration of some loop).
    pub fn generators_except(&self, private: &[String]) -> IslResult<UnionMap> {
        let mut all = UnionMap::empty()?;
        for g in self.groups.iter().filter(|g| g.variable.as_ref().is_none_or(|v| !private.contains(v))) {
            all = all.union(&g.generators)?;
        }
        Ok(all)
    }

    /// The variables a loop might privatise, with the value-based flow
    /// through each.
    pub fn privatisable(&self) -> impl Iterator<Item = (&str, &UnionMap)> {
        self.groups.iter().filter_map(|g| g.variable.as_deref().map(|v| (v, &g.flow)))
    }
}

/// The flow, anti and output dependences of `scop` under its original schedule.
pub fn analyse(scop: &Scop) -> IslResult<Dependences> {
    let _phase = isl::phase("dependence analysis");
    let private = privatisable(scop)?;
    // A write under a data-dependent condition may not happen: it hides
    // no earlier write from later reads (a may-source).
    let accesses = |kind: AccessKind, may: Option<bool>, of: &dyn Fn(&str) -> bool| {
        let chosen = scop
            .statements
            .iter()
            .zip(&scop.ast.stmts)
            .filter(|(_, ast)| may.is_none_or(|m| ast.may_skip_writes() == m));
        UnionMap::from_maps(
            chosen.flat_map(|(st, _)| &st.accesses).filter(|a| a.kind == kind && of(&a.array)).map(|a| &a.relation),
        )
    };
    let schedule = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let mut groups = Vec::new();
    let mut flow = UnionMap::empty()?;
    let mut virtuals = 0;
    let exclusive = exclusive_pairs(scop)?;
    for variable in private.iter().map(Some).chain(std::iter::once(None)) {
        let of = |array: &str| match variable {
            Some(v) => v == array,
            None => !private.contains(array),
        };
        let reads = accesses(AccessKind::Read, None, &of)?;
        let (must, may) =
            (accesses(AccessKind::Write, Some(false), &of)?, accesses(AccessKind::Write, Some(true), &of)?);
        let covers = covers(scop, &of, &mut virtuals)?;
        let group_flow = if covers.is_empty() {
            isl::compute_flow(&reads, Some(&must), Some(&may), &schedule, FlowResult::May)?
        } else {
            flow_with_covers(scop, &covers, &reads, &must, &may)?
        };
        let group_flow = group_flow.subtract(&exclusive)?;
        let writes = must.union(&may)?;
        let value_based_false =
            isl::compute_flow(&writes, Some(&must), Some(&reads.union(&may)?), &schedule, FlowResult::May)?;
        flow = flow.union(&group_flow)?;
        let generators = group_flow.union(&value_based_false)?;
        groups.push(Group { variable: variable.cloned(), flow: group_flow, generators });
    }
    let every = |_: &str| true;
    let (reads, writes) = (accesses(AccessKind::Read, None, &every)?, accesses(AccessKind::Write, None, &every)?);
    let anti = isl::compute_flow(&writes, None, Some(&reads), &schedule, FlowResult::May)?;
    let output = isl::compute_flow(&writes, None, Some(&writes), &schedule, FlowResult::May)?;
    Ok(Dependences { flow, anti, output, groups })
}

/// Writes under filters that together certainly write some elements at
/// each instance of their loops (seed 001's case analysis on filter
/// values: the `then` and the `else` branch of one `if` writing the same
/// element). For the dataflow, a virtual must-write of those elements
/// (`polyc_vw<k>`) runs right after the last of the writes in each
/// iteration, and a virtual read of them (`polyc_vr<k>`) just before it,
/// which finds the real writes that leave the value the must-write stands
/// for.
struct Cover {
    /// `polyc_vw<k>[I] -> a[e]`: `e` is written at instance `I` of the
    /// loops for every value of the conditions.
    write: Map,
    /// The same elements read by `polyc_vr<k>[I]`.
    read: Map,
    /// `polyc_vr<k>[I] -> polyc_vw<k>[I]`.
    rename: Map,
    /// Where both run, in the original schedule with one more (last)
    /// dimension, 1 for the read, 2 for the write, 0 for every statement.
    schedules: [Map; 2],
    /// `S[I, ..] -> polyc_vr<k>[I]` for each statement inside the same
    /// loops: the writes in the same iteration `I`, the only ones that can
    /// leave the value at the virtual read (one of the group certainly
    /// writes each element in it).
    within: UnionMap,
}

/// At most this many condition variables in one case analysis (2^n cases).
const MAX_CASE_VARIABLES: usize = 6;

/// The [`Cover`]s of the arrays `of` selects: per array and loop nest,
/// the filtered writes of statements directly in that nest; the elements
/// some of them write for every assignment of truth values to the
/// conditions they run under (a sound abstraction: the real values are
/// one such assignment). `next` numbers the virtual statements.
fn covers(scop: &Scop, of: &dyn Fn(&str) -> bool, next: &mut usize) -> IslResult<Vec<Cover>> {
    type Key<'a> = (&'a str, usize, &'a [usize]);
    let mut groups: BTreeMap<Key, Vec<(usize, &Map)>> = BTreeMap::new();
    for (k, (st, ast)) in scop.statements.iter().zip(&scop.ast.stmts).enumerate() {
        if !ast.may_skip_writes() || ast.component.is_some() {
            continue;
        }
        let d = ast.iterators.len();
        for a in st.accesses.iter().filter(|a| a.kind == AccessKind::Write && of(&a.array)) {
            groups.entry((&a.array, d, &ast.beta[..d])).or_default().push((k, &a.relation));
        }
    }
    let np = scop.ast.params.len();
    let params = params_decl(np);
    let dims =
        |name: &str, n: usize| format!("{name}[{}]", (0..n).map(|d| format!("i{d}")).collect::<Vec<_>>().join(", "));
    let mut found = Vec::new();
    for ((_, d, loops), members) in groups {
        if members.len() < 2 {
            continue;
        }
        let variables: BTreeSet<&str> =
            members.iter().flat_map(|(k, _)| scop.ast.stmts[*k].filters.iter().map(|(v, _)| v.as_str())).collect();
        if variables.len() > MAX_CASE_VARIABLES {
            continue;
        }
        let variables: Vec<&str> = variables.into_iter().collect();
        let (vw, vr) = (format!("polyc_vw{next}"), format!("polyc_vr{next}"));
        let renamed = members
            .iter()
            .map(|(k, relation)| {
                let to = Map::parse(&format!(
                    "{params} -> {{ {} -> {} }}",
                    dims(&vw, d),
                    dims(&scop.statements[*k].name, d)
                ))?;
                to.apply_range(relation)
            })
            .collect::<IslResult<Vec<_>>>()?;
        let mut certain: Option<Map> = None;
        for case in 0..1usize << variables.len() {
            let holds = |v: &str| variables.iter().position(|w| *w == v).is_some_and(|p| case >> p & 1 == 1);
            let mut written: Option<Map> = None;
            for ((k, _), relation) in members.iter().zip(&renamed) {
                if scop.ast.stmts[*k].filters.iter().all(|(v, value)| holds(v) == *value) {
                    written = Some(match written {
                        Some(w) => w.union(relation)?,
                        None => relation.clone(),
                    });
                }
            }
            let Some(written) = written else {
                certain = None;
                break;
            };
            certain = Some(match certain {
                Some(c) => c.intersect(&written)?,
                None => written,
            });
            if certain.as_ref().map_or(Ok(true), |c| c.is_empty())? {
                break;
            }
        }
        let Some(write) = certain.filter(|c| !c.is_empty().unwrap_or(true)) else { continue };
        *next += 1;
        let rename = Map::parse(&format!("{params} -> {{ {} -> {} }}", dims(&vr, d), dims(&vw, d)))?;
        let read = rename.apply_range(&write)?;
        let last = members.iter().map(|(k, _)| *k).max_by_key(|k| scop.ast.stmts[*k].beta[d]).unwrap_or(members[0].0);
        let n = scop.schedule_dims;
        let place = |name: &str, at: usize| -> IslResult<Map> {
            let to = Map::parse(&format!(
                "{params} -> {{ {} -> {} }}",
                dims(name, d),
                dims(&scop.statements[last].name, d)
            ))?;
            let outs: Vec<String> = (0..n).map(|c| format!("c{c}")).collect();
            let last_dim = Map::parse(&format!("{{ [{0}, z] -> [{0}, {at}] }}", outs.join(", ")))?;
            to.apply_range(&scop.statements[last].schedule.pad_out(1)?)?.apply_range(&last_dim)
        };
        let schedules = [place(&vr, 1)?, place(&vw, 2)?];
        let inside = scop
            .statements
            .iter()
            .zip(&scop.ast.stmts)
            .filter(|(_, s)| s.iterators.len() >= d && s.beta[..d] == *loops && s.component.is_none());
        let within = inside
            .map(|(st, s)| {
                Map::parse(&format!("{params} -> {{ {} -> {} }}", dims(&st.name, s.iterators.len()), dims(&vr, d)))
            })
            .collect::<IslResult<Vec<_>>>()?;
        let within = UnionMap::from_maps(&within)?;
        found.push(Cover { write, read, rename, schedules, within });
    }
    Ok(found)
}

/// The flow into `reads` with the covers' virtual must-writes hiding the
/// writes before them, each flow from a virtual write then replaced by
/// the flow from the real writes its virtual read finds in the same
/// iteration (those that write an element the sink reads).
fn flow_with_covers(
    scop: &Scop,
    covers: &[Cover],
    reads: &UnionMap,
    must: &UnionMap,
    may: &UnionMap,
) -> IslResult<UnionMap> {
    let padded = scop.statements.iter().map(|s| s.schedule.pad_out(1)).collect::<IslResult<Vec<_>>>()?;
    let schedule = UnionMap::from_maps(padded.iter().chain(covers.iter().flat_map(|c| &c.schedules)))?;
    let of = |f: fn(&Cover) -> &Map| UnionMap::from_maps(covers.iter().map(f));
    let (virtual_writes, virtual_reads, rename) = (of(|c| &c.write)?, of(|c| &c.read)?, of(|c| &c.rename)?);
    let mut within = UnionMap::empty()?;
    for c in covers {
        within = within.union(&c.within)?;
    }
    let raw = isl::compute_flow(reads, Some(&must.union(&virtual_writes)?), Some(may), &schedule, FlowResult::May)?;
    let (mut real, mut from_virtual) = (UnionMap::empty()?, UnionMap::empty()?);
    for m in raw.maps()? {
        let single = UnionMap::from_maps([&m])?;
        if m.domain_name()?.starts_with("polyc_vw") {
            from_virtual = from_virtual.union(&single)?;
        } else {
            real = real.union(&single)?;
        }
    }
    if from_virtual.is_empty()? {
        return Ok(real);
    }
    let last_writes = isl::compute_flow(&virtual_reads, Some(must), Some(may), &schedule, FlowResult::May)?;
    let last_writes = last_writes.intersect(&within)?;
    let writes = must.union(may)?;
    let same_element = writes.apply_range(&reads.reverse()?)?;
    let replaced = last_writes.apply_range(&rename)?.apply_range(&from_virtual)?.intersect(&same_element)?;
    real.union(&replaced)
}

/// The pairs of statement instances that never both run (seed 001's
/// contradicting filters): one runs where a condition holds, the other
/// where it fails, at the same instance of its `if` (the same values of
/// the loops around it). No value flows between them.
fn exclusive_pairs(scop: &Scop) -> IslResult<UnionMap> {
    let mut pairs = Vec::new();
    let depth: BTreeMap<&str, usize> =
        scop.ast.stmts.iter().filter_map(|s| s.sets.as_deref().map(|v| (v, s.iterators.len()))).collect();
    let params = params_decl(scop.ast.params.len());
    let stmts = || scop.statements.iter().zip(&scop.ast.stmts).filter(|(_, s)| !s.filters.is_empty());
    for (a, sa) in stmts() {
        for (b, sb) in stmts() {
            let contradiction = sa
                .filters
                .iter()
                .filter(|(v, holds)| sb.filters.contains(&(v.clone(), !holds)))
                .filter_map(|(v, _)| depth.get(v.as_str()))
                .max();
            let Some(&shared) = contradiction else { continue };
            let dims = |prefix: &str, n: usize| (0..n).map(|d| format!("{prefix}{d}")).collect::<Vec<_>>().join(", ");
            let equal: Vec<String> = (0..shared).map(|d| format!("i{d} = j{d}")).collect();
            let constraints = if equal.is_empty() { String::new() } else { format!(" : {}", equal.join(" and ")) };
            pairs.push(Map::parse(&format!(
                "{params} -> {{ {}[{}] -> {}[{}]{constraints} }}",
                a.name,
                dims("i", sa.iterators.len()),
                b.name,
                dims("j", sb.iterators.len()),
            ))?);
        }
    }
    UnionMap::from_maps(&pairs)
}

/// For isl's scheduler, as PPCG treats scalars (its conditional
/// validity): the live ranges of the variables holding the values of
/// data-dependent conditions (each evaluation to its readers) and the
/// dependences that holding each in one scalar adds (each evaluation
/// after the previous one and its readers). The scheduler may break the
/// second only where it keeps the first within one band iteration, so
/// that a schedule reusing one scalar exists without serialising the
/// nest; `Scattering::verify` checks the result. `None` without such
/// variables.
pub fn condition_scalars(scop: &Scop) -> IslResult<Option<(UnionMap, UnionMap)>> {
    if !scop.ast.has_filters() {
        return Ok(None);
    }
    let schedule = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
    let (mut live, mut reuse) = (UnionMap::empty()?, UnionMap::empty()?);
    for var in scop.ast.filter_variables() {
        let scalar = |kind: AccessKind| -> IslResult<UnionMap> {
            let accesses =
                scop.statements.iter().flat_map(|s| &s.accesses).filter(|a| a.array == var && a.kind == kind);
            let maps = accesses.map(|a| a.relation.keep_leading_out(0)).collect::<IslResult<Vec<_>>>()?;
            UnionMap::from_maps(&maps)
        };
        let (reads, writes) = (scalar(AccessKind::Read)?, scalar(AccessKind::Write)?);
        live = live.union(&isl::compute_flow(&reads, Some(&writes), None, &schedule, FlowResult::May)?)?;
        reuse = reuse.union(&isl::compute_flow(&writes, Some(&writes), Some(&reads), &schedule, FlowResult::May)?)?;
    }
    Ok(Some((live, reuse)))
}

/// The variables the SCoP writes inside some loop that a loop might give
/// each thread a copy of: scalars, and one-dimensional array objects of
/// constant size (a temporary row, like doitgen's `sum`). A variable
/// written only outside every loop (adi's coefficients) stays with the
/// others: no loop could privatise it, and each group costs two
/// dataflow analyses.
pub fn privatisable(scop: &Scop) -> IslResult<BTreeSet<String>> {
    let mut found = BTreeSet::new();
    for (st, _) in scop.statements.iter().zip(&scop.ast.stmts).filter(|(_, ast)| !ast.iterators.is_empty()) {
        for a in st.accesses.iter().filter(|a| a.kind == AccessKind::Write) {
            let vector = scop.ast.arrays.iter().any(|(name, decl)| *name == a.array && decl.is_vector_object());
            if a.relation.n_out()? == 0 || vector {
                found.insert(a.array.clone());
            }
        }
    }
    Ok(found)
}

/// `--emit=deps`: each kind, then each (source, sink) statement pair, in
/// isl notation with the program's names.
pub fn report(scop: &Scop, deps: &Dependences) -> IslResult<String> {
    let mut out = String::new();
    for kind in Kind::ALL {
        let mut by_pair: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
        for m in deps.of(kind).coalesce()?.maps()? {
            let pair = (statement_index(&m.domain_name()?), statement_index(&m.range_name()?));
            by_pair.entry(pair).or_default().push(crate::model::readable(&m.to_text()?, &scop.ast.params));
        }
        out.push_str(&format!("{} dependences: {}\n", kind.as_str(), by_pair.len()));
        for ((src, dst), relations) in by_pair {
            // A flow from a write that may not happen: the conditions it runs under.
            let under = match scop.ast.stmts.get(src).filter(|s| kind == Kind::Flow && s.may_skip_writes()) {
                Some(s) => {
                    let literals: Vec<String> =
                        s.filters.iter().map(|(v, holds)| if *holds { v.clone() } else { format!("!{v}") }).collect();
                    format!(" under {}", literals.join(" && "))
                }
                None => String::new(),
            };
            for r in relations {
                out.push_str(&format!("  S{src} -> S{dst}: {r}{under}\n"));
            }
        }
    }
    Ok(out)
}
