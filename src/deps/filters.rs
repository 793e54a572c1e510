//! Exact dataflow through data-dependent conditions (seed 001, sections
//! 4-6), see the parent module: covers of complementary filters, whose
//! virtual must-writes hide older writes, and the instance pairs that
//! contradicting filters keep from both running.

use crate::frontend::AccessKind;
use crate::model::isl::{self, FlowResult, IslResult, Map, UnionMap};
use crate::model::{params_decl, Scop};
use std::collections::{BTreeMap, BTreeSet};

/// Writes under filters that together certainly write some elements at
/// each instance of their loops (seed 001's case analysis on filter
/// values: the `then` and the `else` branch of one `if` writing the same
/// element). For the dataflow, a virtual must-write of those elements
/// (`polyc_vw<k>`) runs right after the last of the writes in each
/// iteration, and a virtual read of them (`polyc_vr<k>`) just before it,
/// which finds the real writes that leave the value the must-write stands
/// for.
pub(super) struct Cover {
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
/// one such assignment).
pub(super) fn covers(scop: &Scop, of: &dyn Fn(&str) -> bool) -> IslResult<Vec<Cover>> {
    let mut next = 0;
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
        next += 1;
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
pub(super) fn flow_with_covers(
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
pub(super) fn exclusive_pairs(scop: &Scop) -> IslResult<UnionMap> {
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
