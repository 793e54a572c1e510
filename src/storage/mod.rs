//! Storage mappings: where a SCoP's values live. Storage expansion gives
//! each iteration of a nest its own copy of a scalar or a row that would
//! otherwise serialise the nest ([`expand`]); contraction folds a
//! temporary array onto fewer cells, as far as the lifetimes of its
//! values under the schedule allow ([`lifetime`], [`mapping`]).
//!
//! Expansion rewrites the `ScopAst` (statement text, accesses, iterator
//! uses), so that every later phase sees an ordinary array; which variables
//! are expanded is the planner's decision (`plan::expansion`, seed 004).
//! [`transpose`] rewrites it the same way, for a matrix a contraction
//! reads down its columns: the reads go to a transposed copy, made by a
//! statement that runs first ([`copy`] builds such statements).
//!
//! Contraction works on the temporaries (the front end's
//! `ScopAst::temporaries` and `--temporaries`) that are not live-out. For
//! each array: the conflicts of its cells under the plan's order
//! ([`lifetime`], with the loops the plan runs concurrently stretched over
//! whole runs), then candidate mappings by the method `--storage=` names
//! ([`Method`]: successive modulo along the axes or along [`bases`], SMO's
//! hyperplanes [`smo`], the QUOV's projection [`quov`], or all of them;
//! with every parameter fixed and `--storage-optimal`, [`optimal`]), each
//! proven against the conflicts ([`mapping`]); the smallest proven mapping
//! wins, compared at sample values of the unknown parameters, and
//! [`split`] may give pieces of the array mappings of their own.
//! [`report`] gives `--emit=storage` its table; [`contractions`] what the
//! C output uses, the driver rewriting the statements onto it
//! ([`rewrite`]) before printing.
//!
//! Each array is analysed under an isl budget of its own (out of it, it
//! keeps its storage, with a note, and the SCoP is still compiled), each
//! candidate mapping and its proof under a quarter of that, so that one
//! costly method only loses its own candidate.
//!
//! Invariants: after expansion each read gets its value from the same
//! instance as before, and after the SCoP the variable holds what it held
//! before; a contracted array is used only where its mapping was proven
//! (the parameters' context, checked at run time by `emit::versioned`).

pub mod bases;
mod copy;
pub mod expand;
pub mod in_place;
pub mod lifetime;
pub mod mapping;
pub mod optimal;
pub mod quov;
pub mod rewrite;
pub mod smo;
pub mod split;
pub mod transpose;

use crate::model::affine::{Constraint, LinExpr};
use crate::model::isl::{self, IslResult, Set};
use crate::model::{array_tuple, params_decl, Scop};
use crate::names::FreshNames;
use lifetime::{Conflicts, RunOrder, Unanalysable};
use mapping::Mapping;
use serde::Serialize;

/// How temporary arrays are contracted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Keep every array as declared.
    #[default]
    None,
    /// Lefebvre and Feautrier's successive modulo along the array's axes.
    Modulo,
    /// The successive modulo along several bases (Darte, Schreiber and
    /// Villard's Heuristic 3): the axes in every order, diagonals.
    Lattice,
    /// SMO's partitioning hyperplanes, each the solution of an integer
    /// program (Bhaskaracharya, Bondhugula and Cohen).
    Smo,
    /// A projection along the shortest quasi-universal occupancy vector
    /// for tiled execution (Yuki and Rajopadhye), for uniform flows.
    Quov,
    /// Every method above; the smallest proven mapping.
    Best,
}

impl Method {
    /// The name `--storage` takes.
    pub fn name(self) -> &'static str {
        match self {
            Method::None => "none",
            Method::Modulo => "modulo",
            Method::Lattice => "lattice",
            Method::Smo => "smo",
            Method::Quov => "quov",
            Method::Best => "best",
        }
    }
}

/// What storage contraction works from.
#[derive(Clone, Debug, Default)]
pub struct StorageOptions {
    pub method: Method,
    /// Arrays to treat as temporaries besides those polyc finds.
    pub temporaries: Vec<String>,
    /// Arrays whose last values are read after the SCoP.
    pub live_out: Vec<String>,
    /// With every parameter fixed: also search exhaustively for an
    /// optimal mapping (`--storage-optimal`, [`optimal`]).
    pub optimal: bool,
}

/// One array's storage, as `--emit=storage` reports it.
#[derive(Clone, Debug, Serialize)]
pub struct ArrayStorage {
    pub array: String,
    pub method: Method,
    /// `A[i0, i1] -> A[i0 mod N, i1]`; `None` when no mapping was found.
    pub mapping: Option<String>,
    /// The cells the SCoP writes, as the product of their extents.
    pub original_size: String,
    pub new_size: Option<String>,
    /// With every parameter fixed: the sizes as numbers.
    pub original_cells: Option<i64>,
    pub new_cells: Option<i64>,
    /// Why the array keeps its storage, if it does.
    pub note: Option<String>,
    /// `--storage=quov` or `best`: the shortest QUOV, over the loops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quov: Option<Vec<i64>>,
}

/// The storage of each temporary array of `scop` (those the front end
/// found, and `options.temporaries`) when it runs in the order of
/// `order`, with the parameters `fixed` (`--param N=100`) at their values.
pub fn report(
    scop: &Scop,
    order: &RunOrder,
    options: &StorageOptions,
    fixed: &[(String, i64)],
) -> IslResult<Vec<ArrayStorage>> {
    let params = &scop.ast.params;
    let on = Analysis::new(scop, order, options, fixed);
    let values = &on.values;
    let mut out = Vec::new();
    for array in temporaries(scop, options) {
        let quov = match options.method {
            Method::Quov | Method::Best => quov::shortest(scop, array, None)?.map(|q| q.vector),
            _ => None,
        };
        let entry = match chosen_storage(&on, array)? {
            Ok(chosen) => {
                let original = mapping::canonical(&chosen.whole, array, params.len())?.map(|m| with_params(m, values));
                let mapped = chosen.mappings();
                ArrayStorage {
                    array: array.to_string(),
                    method: options.method,
                    mapping: chosen.text(array, params)?,
                    original_size: original.as_ref().map_or_else(String::new, |m| size_text(m, params)),
                    new_size: mapped
                        .as_ref()
                        .map(|ms| ms.iter().map(|m| size_text(m, params)).collect::<Vec<_>>().join(" + ")),
                    original_cells: original.as_ref().and_then(|m| cells(m, values)),
                    new_cells: mapped
                        .as_ref()
                        .and_then(|ms| ms.iter().try_fold(0i64, |acc, m| Some(acc + cells(m, values)?))),
                    note: None,
                    quov,
                }
            }
            Err(why) => ArrayStorage {
                array: array.to_string(),
                method: options.method,
                mapping: None,
                original_size: String::new(),
                new_size: None,
                original_cells: None,
                new_cells: None,
                note: Some(match why {
                    Unanalysable::LiveIn => "read before the SCoP writes it".to_string(),
                    Unanalysable::NotWritten => "not written in the SCoP".to_string(),
                    Unanalysable::OutOfBudget => "out of isl budget".to_string(),
                }),
                quov,
            },
        };
        out.push(entry);
    }
    Ok(out)
}

/// A temporary array folded onto fewer cells.
pub struct Contraction {
    pub array: String,
    /// The new array's name (fresh).
    pub name: String,
    /// Its element type.
    pub ty: String,
    /// The original is not a local of the function (a global, or an
    /// array passed in): the new one goes on the heap, not the stack.
    pub on_heap: bool,
    pub mapping: Mapping,
    /// `A[i0] -> A[i0 mod 2]`, for a comment beside the declaration.
    pub text: String,
    /// Where the mapping is proven: a disjunction of conjunctions of
    /// constraints over the parameters.
    pub context: Vec<Vec<Constraint>>,
    /// The accesses it takes, as (statement, access) indices, when the
    /// array is split into pieces stored apart; `None`: every access.
    pub accesses: Option<Vec<(usize, usize)>>,
}

impl Contraction {
    /// Whether access `j` of statement `k` goes to this array.
    pub fn takes(&self, k: usize, j: usize) -> bool {
        self.accesses.as_ref().is_none_or(|list| list.contains(&(k, j)))
    }
}

/// The temporary arrays of `scop` that a proven mapping by
/// `options.method` stores in fewer cells (new names minted by `names`),
/// with the parameters `fixed` at their values.
pub fn contractions(
    scop: &Scop,
    order: &RunOrder,
    options: &StorageOptions,
    fixed: &[(String, i64)],
    names: &mut FreshNames,
) -> IslResult<Vec<Contraction>> {
    let on = Analysis::new(scop, order, options, fixed);
    let values = &on.values;
    let mut out = Vec::new();
    // A live-out array keeps its storage: code after the SCoP reads it
    // where it was (its last values would need copying back).
    for array in temporaries(scop, options).filter(|a| !is_live_out(scop, options, a)) {
        let Ok(chosen) = chosen_storage(&on, array)? else {
            continue;
        };
        let Some(mapped) = chosen.mappings() else {
            continue;
        };
        let Some(canonical) = mapping::canonical(&chosen.whole, array, scop.ast.params.len())? else {
            continue;
        };
        if !fewer(&mapped, &[&with_params(canonical, values)], values) {
            continue;
        }
        let decl = scop.ast.arrays.iter().find(|(a, _)| a == array).map(|(_, d)| d);
        let split = chosen.pieces.len() > 1;
        for (k, piece) in chosen.pieces.iter().enumerate() {
            let Some(mapping) = piece.mapping.clone() else {
                continue;
            };
            let base = if split { format!("polyc_{array}_{k}") } else { format!("polyc_{array}") };
            let name = names.mint(&base);
            out.push(Contraction {
                array: array.to_string(),
                name,
                ty: decl.map(|d| d.ty.clone()).unwrap_or_default(),
                on_heap: decl.is_none_or(|d| !d.is_local),
                text: mapping.text(array, piece.conflicts.rank, &scop.ast.params),
                mapping,
                context: piece.conflicts.context.disjuncts()?,
                accesses: piece.accesses.clone(),
            });
        }
    }
    Ok(out)
}

/// An array's storage: one mapping for all its cells, or one per piece.
struct Chosen {
    /// The conflicts of all its cells.
    whole: Conflicts,
    pieces: Vec<Piece>,
}

/// A part of an array's cells and its mapping.
struct Piece {
    /// The cells (`None`: all of them).
    cells: Option<Set>,
    conflicts: Conflicts,
    mapping: Option<Mapping>,
    /// The accesses into it (`None`: all of them).
    accesses: Option<Vec<(usize, usize)>>,
}

impl Chosen {
    /// Each piece's mapping, if every piece has one.
    fn mappings(&self) -> Option<Vec<&Mapping>> {
        self.pieces.iter().map(|p| p.mapping.as_ref()).collect()
    }

    /// `A[i0] -> A[i0 mod 2]`; for pieces, each after the cells it holds.
    fn text(&self, array: &str, params: &[String]) -> IslResult<Option<String>> {
        let mut parts = Vec::new();
        for piece in &self.pieces {
            let Some(mapping) = &piece.mapping else {
                return Ok(None);
            };
            let text = mapping.text(array, piece.conflicts.rank, params);
            parts.push(match &piece.cells {
                Some(cells) => {
                    let distinct = cells.gist(&self.whole.written)?.coalesce()?;
                    format!("{}: {text}", piece_text(&distinct, array, params)?)
                }
                None => text,
            });
        }
        Ok(Some(parts.join("; ")))
    }
}

/// The cells of a piece as `{ A[i0, i1] : i1 = 0 }`, parameters by name
/// (isl's text, for the report only).
fn piece_text(cells: &Set, array: &str, params: &[String]) -> IslResult<String> {
    let text = cells.to_text()?;
    let body = text.split_once("-> ").map_or(text.as_str(), |(_, body)| body);
    let mut out = body.replace(&array_tuple(array), array);
    // Highest index first: `p1` must not eat the start of `p10`.
    for (k, name) in params.iter().enumerate().rev() {
        out = out.replace(&format!("p{k}"), name);
    }
    for k in (0..16).rev() {
        out = out.replace(&format!("o{k}"), &format!("i{k}"));
    }
    Ok(out)
}

/// `array`'s storage: the smallest proven mapping of all its cells, or,
/// where UOV-guided splitting finds pieces that every access keeps to and
/// the pieces' mappings hold fewer cells in all, one mapping per piece.
fn chosen_storage(on: &Analysis, array: &str) -> IslResult<Result<Chosen, Unanalysable>> {
    let (scop, values) = (on.scop, on.values.as_slice());
    let (whole, mapping) = match affordable_mapping(on, array, None)? {
        Ok(found) => found,
        Err(why) => return Ok(Err(why)),
    };
    let single = Piece { cells: None, conflicts: whole.clone(), mapping, accesses: None };
    // The split is a search for a better mapping, under a budget of its
    // own (out of it, the array keeps one mapping), and none is better
    // than one cell.
    let one_cell = single.mapping.as_ref().is_some_and(Mapping::is_one_cell);
    let pieces = match one_cell {
        true => None,
        false => isl::within_budget(isl::operation_budget(), || split::pieces(scop, array))?.flatten(),
    };
    let split = match pieces {
        Some(cells) => mapped_pieces(on, array, cells)?,
        None => None,
    };
    let splits_better = |split: &[Piece]| {
        let parts: Vec<&Mapping> = split.iter().filter_map(|p| p.mapping.as_ref()).collect();
        single.mapping.as_ref().is_none_or(|one| fewer(&parts, &[one], values))
    };
    let pieces = match split {
        Some(split) if splits_better(&split) => split,
        _ => vec![single],
    };
    Ok(Ok(Chosen { whole, pieces }))
}

/// Each piece of `cells` with its smallest proven mapping, if every
/// piece has one and every access to the array keeps to one piece.
fn mapped_pieces(on: &Analysis, array: &str, cells: Vec<Set>) -> IslResult<Option<Vec<Piece>>> {
    let scop = on.scop;
    let mut taken: Vec<Vec<(usize, usize)>> = vec![Vec::new(); cells.len()];
    for (k, statement) in scop.statements.iter().enumerate() {
        for (j, access) in statement.accesses.iter().enumerate().filter(|(_, a)| a.array == array) {
            let touched = access.relation.range()?;
            let Some(p) = position_of_subset(&touched, &cells)? else {
                return Ok(None);
            };
            taken[p].push((k, j));
        }
    }
    let mut pieces = Vec::new();
    for (piece, accesses) in cells.into_iter().zip(taken) {
        let Ok((conflicts, Some(mapping))) = affordable_mapping(on, array, Some(&piece))? else {
            return Ok(None);
        };
        pieces.push(Piece { cells: Some(piece), conflicts, mapping: Some(mapping), accesses: Some(accesses) });
    }
    Ok(Some(pieces))
}

/// The first of `sets` that holds all of `touched`.
fn position_of_subset(touched: &Set, sets: &[Set]) -> IslResult<Option<usize>> {
    for (p, set) in sets.iter().enumerate() {
        if touched.is_subset_of(set)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// The arrays of `scop` that are temporaries.
fn temporaries<'a>(scop: &'a Scop, options: &'a StorageOptions) -> impl Iterator<Item = &'a str> {
    scop.ast
        .arrays
        .iter()
        .filter(|(name, decl)| {
            decl.is_array()
                && decl.delinearised.is_none()
                && (scop.ast.temporaries.contains(name) || options.temporaries.contains(name))
        })
        .map(|(name, _)| name.as_str())
}

/// Whether `--live-out` or `#pragma polyc live_out` names `array`.
fn is_live_out(scop: &Scop, options: &StorageOptions, array: &str) -> bool {
    options.live_out.iter().any(|a| a == array) || scop.ast.live_out.contains(array)
}

/// What the analysis of every temporary of a SCoP shares.
struct Analysis<'a> {
    scop: &'a Scop,
    order: &'a RunOrder<'a>,
    options: &'a StorageOptions,
    /// Each parameter's value, where `--param` fixes it.
    values: Vec<Option<i64>>,
}

impl<'a> Analysis<'a> {
    fn new(
        scop: &'a Scop,
        order: &'a RunOrder<'a>,
        options: &'a StorageOptions,
        fixed: &[(String, i64)],
    ) -> Analysis<'a> {
        let values =
            scop.ast.params.iter().map(|p| fixed.iter().find(|(name, _)| name == p).map(|(_, v)| *v)).collect();
        Analysis { scop, order, options, values }
    }
}

/// [`best_mapping`] under an isl budget of its own (the SCoP's bound,
/// counted afresh): an array whose analysis runs out of it keeps its
/// storage, rather than failing the whole SCoP.
fn affordable_mapping(
    on: &Analysis,
    array: &str,
    piece: Option<&Set>,
) -> IslResult<Result<(Conflicts, Option<Mapping>), Unanalysable>> {
    let found = isl::within_budget(isl::operation_budget(), || best_mapping(on, array, piece))?;
    Ok(found.unwrap_or(Err(Unanalysable::OutOfBudget)))
}

/// The share of an array's isl budget each candidate mapping may use.
const CANDIDATE_SHARE: u64 = 4;

/// `array`'s conflicts (between the cells of `piece`, if given), and the
/// smallest mapping `options.method` finds that passes the proof
/// (`None`: none does).
fn best_mapping(
    on: &Analysis,
    array: &str,
    piece: Option<&Set>,
) -> IslResult<Result<(Conflicts, Option<Mapping>), Unanalysable>> {
    let (scop, options, values) = (on.scop, on.options, on.values.as_slice());
    let live_out = is_live_out(scop, options, array);
    let conflicts = match lifetime::conflicts(scop, on.order, array, live_out, piece)? {
        Ok(c) => fixed(c, array, values)?,
        Err(why) => return Ok(Err(why)),
    };
    let np = scop.ast.params.len();
    // Each candidate under a share of the budget: one costly method (a
    // tiled DS with many divisions) must not cost the others' mappings.
    let share = isl::operation_budget() / CANDIDATE_SHARE;
    let attempt = |f: &dyn Fn() -> IslResult<Option<Mapping>>| -> IslResult<Option<Mapping>> {
        Ok(isl::within_budget(share, f)?.flatten())
    };
    let mut candidates = Vec::new();
    if matches!(options.method, Method::Modulo | Method::Best) {
        candidates.push(attempt(&|| mapping::successive_modulo(&conflicts, array, np))?);
    }
    if matches!(options.method, Method::Lattice | Method::Best) {
        let bases = isl::within_budget(share, || bases::lattice_bases(&conflicts, values))?.unwrap_or_default();
        for basis in bases {
            candidates.push(attempt(&|| mapping::successive_modulo_along(&conflicts, array, np, &basis))?);
        }
    }
    if matches!(options.method, Method::Smo | Method::Best) {
        candidates.push(attempt(&|| smo::smo(&conflicts, array, np))?);
    }
    if matches!(options.method, Method::Quov | Method::Best) {
        candidates.push(attempt(&|| quov::mapping(scop, array, piece, &conflicts, np))?);
    }
    let mut best = smallest_proven(candidates.into_iter().flatten(), &conflicts, np, values)?;
    if options.optimal && options.method != Method::None && values.iter().all(Option::is_some) {
        // The size to beat: the best heuristic's, else the array's.
        let to_beat = match &best {
            Some(m) => Some(m.clone()),
            None => mapping::canonical(&conflicts, array, np)?.map(|m| with_params(m, values)),
        };
        let below = to_beat.and_then(|m| cells(&m, values)).unwrap_or(i64::MAX);
        let optimal = optimal::optimal_mapping(&conflicts, array, np, below)?;
        best = smallest_proven(best.into_iter().chain(optimal), &conflicts, np, values)?;
    }
    Ok(Ok((conflicts, best)))
}

/// The smallest of `candidates` that passes the proof.
fn smallest_proven(
    candidates: impl IntoIterator<Item = Mapping>,
    conflicts: &Conflicts,
    np: usize,
    values: &[Option<i64>],
) -> IslResult<Option<Mapping>> {
    let mut best: Option<Mapping> = None;
    for candidate in candidates {
        let candidate = with_params(candidate, values);
        let share = isl::operation_budget() / CANDIDATE_SHARE;
        // A proof out of its budget proves nothing.
        if !isl::within_budget(share, || candidate.is_valid(conflicts, np))?.unwrap_or(false) {
            continue;
        }
        if best.as_ref().is_none_or(|b| fewer(&[&candidate], &[b], values)) {
            best = Some(candidate);
        }
    }
    Ok(best)
}

/// Whether mappings `a` hold fewer cells in all than `b`: by value where the
/// parameters are known, and for the others at large sample values
/// (1000, then 100 to break a tie): a heuristic choice between mappings
/// that are all proven.
fn fewer(a: &[&Mapping], b: &[&Mapping], values: &[Option<i64>]) -> bool {
    for sample in [1000, 100] {
        let at: Vec<Option<i64>> = values.iter().map(|v| Some(v.unwrap_or(sample))).collect();
        let total = |ms: &[&Mapping]| ms.iter().try_fold(0i64, |sum, m| Some(sum.saturating_add(cells(m, &at)?)));
        match (total(a), total(b)) {
            (Some(a), Some(b)) if a != b => return a < b,
            _ => {}
        }
    }
    false
}

/// `conflicts` with the parameters of known value fixed.
fn fixed(conflicts: Conflicts, array: &str, values: &[Option<i64>]) -> IslResult<Conflicts> {
    let known: Vec<String> = values.iter().enumerate().filter_map(|(k, v)| v.map(|v| format!("p{k} = {v}"))).collect();
    if known.is_empty() {
        return Ok(conflicts);
    }
    let condition = known.join(" and ");
    let dims: Vec<String> = (0..conflicts.rank).map(|d| format!("c{d}")).collect();
    let decl = params_decl(values.len());
    let anywhere = Set::parse(&format!("{decl} -> {{ [{}] : {condition} }}", dims.join(", ")))?;
    let cells = Set::parse(&format!("{decl} -> {{ {}[{}] : {condition} }}", array_tuple(array), dims.join(", ")))?;
    // The output runs the contracted loops only for these values.
    let values = Set::parse(&format!("{decl} -> {{ : {condition} }}"))?;
    Ok(Conflicts {
        differences: conflicts.differences.intersect(&anywhere)?,
        written: conflicts.written.intersect(&cells)?,
        context: conflicts.context.intersect(&values)?,
        ..conflicts
    })
}

/// `mapping` with the known parameters' values substituted.
fn with_params(mapping: Mapping, values: &[Option<i64>]) -> Mapping {
    Mapping {
        rows: mapping
            .rows
            .into_iter()
            .map(|r| mapping::Row {
                modulus: r.modulus.map(|m| m.with_params(values)),
                range: (r.range.0.with_params(values), r.range.1.with_params(values)),
                normal: r.normal,
            })
            .collect(),
    }
}

/// The product of the mapping's extents, parameters by name.
fn size_text(mapping: &Mapping, params: &[String]) -> String {
    let factors: Vec<String> = mapping
        .rows
        .iter()
        .filter(|r| !r.is_one_cell())
        .map(|r| {
            let e = r.extent();
            let text = e.param_text(params).unwrap_or_else(|| e.to_isl_text());
            if text.contains(' ') {
                format!("({text})")
            } else {
                text
            }
        })
        .collect();
    if factors.is_empty() {
        "1".to_string()
    } else {
        factors.join(" * ")
    }
}

/// The number of cells of the mapping, if every extent is known.
fn cells(mapping: &Mapping, values: &[Option<i64>]) -> Option<i64> {
    mapping.extents().iter().try_fold(1i64, |acc, e: &LinExpr| {
        let e = e.with_params(values);
        e.is_constant().then_some(acc.saturating_mul(e.constant.max(0)))
    })
}
