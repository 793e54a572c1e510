//! The inter-tile dependence graph of a tiled schedule for fixed
//! parameter values, and what it says about parallelism: tiles, the
//! critical path, the tiles ready at start-up, and the time of a list
//! schedule on some processors, each tile taking one unit of time.
//!
//! A tile is named by the leading time dimensions of its statements'
//! scattering that hold the tile loops and the loops outside them
//! (`Plan::tile_prefix`); the same coordinates from different
//! statements are one tile. A statement that is not tiled counts as one
//! node per value of its constant leading time dimensions (its whole
//! loop nest). The graph is built with isl (the dependence relation
//! mapped through the tile names on both sides, its points enumerated);
//! the graph algorithms are plain functions on an adjacency list.
//!
//! Self-edges (a dependence inside one tile) are dropped; the graph
//! functions give a topological order, wavefronts (longest-path levels),
//! each node's distance to the end, and a critical-path-first list
//! schedule with unit time per tile. Invariant: the same coordinates from
//! different statements are one tile, and a cycle (tiles that are not
//! atomic) is an error, not a schedule.

use crate::model::isl::{IslError, IslResult, Map, Set, UnionMap};
use crate::model::{params_decl, statement_index, Scop};
use crate::schedule::Scattering;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The most tiles, or pairs of dependent tiles, that are enumerated: a
/// graph beyond it asks for larger tiles or smaller parameters.
pub const MAX_ENUMERATED: usize = 4_000_000;

/// The `[p0, ..] -> { : p0 = v0 and .. }` set that fixes every
/// parameter, for intersecting domains and relations with.
pub fn fixed_params(values: &[i64]) -> IslResult<Set> {
    let equalities: Vec<String> = values.iter().enumerate().map(|(k, v)| format!("p{k} = {v}")).collect();
    let body = if equalities.is_empty() { String::new() } else { format!(" : {}", equalities.join(" and ")) };
    Set::parse(&format!("{} -> {{ {body} }}", params_decl(values.len())))
}

/// How a statement's instances name their tile.
pub struct TileNaming {
    /// `S<k>[i..] -> [tile]` over the statement's domain, parameters fixed.
    pub map: Map,
    /// Whether the statement is tiled (else its tile is its whole nest).
    pub tiled: bool,
}

/// Each statement's [`TileNaming`] under `scattering`, with
/// `tile_prefix[k]` leading time dimensions naming statement `k`'s tile
/// (0: untiled, named by its constant leading dimensions).
pub fn tile_namings(
    scop: &Scop,
    scattering: &Scattering,
    tile_prefix: &[usize],
    params: &Set,
) -> IslResult<Vec<TileNaming>> {
    let mut namings = Vec::with_capacity(scattering.stmts.len());
    for (time, st) in scattering.statements(scop) {
        let k = statement_index(&st.name);
        let prefix = tile_prefix.get(k).copied().unwrap_or(0);
        let (kept, tiled) = if prefix > 0 { (prefix, true) } else { (constant_prefix(time)?, false) };
        let map = time.intersect_domain(&st.domain)?.intersect_params(params)?.keep_leading_out(kept)?;
        namings.push(TileNaming { map, tiled });
    }
    Ok(namings)
}

/// How many leading output dimensions of `time` are constants.
fn constant_prefix(time: &Map) -> IslResult<usize> {
    let n = time.n_out()?;
    for d in 0..n {
        if time.out_constant(d)?.is_none() {
            return Ok(d);
        }
    }
    Ok(n)
}

/// Tiles and the dependences between them.
pub struct TileGraph {
    /// Each tile's name, in lexicographic order (the sequential order of
    /// tiles for a schedule whose tile loops are outermost).
    pub tiles: Vec<Vec<i64>>,
    /// By tile, the tiles that depend on it (no tile depends on itself).
    pub successors: Vec<Vec<usize>>,
    /// The statements counted as one node per loop nest.
    pub untiled: Vec<String>,
}

impl TileGraph {
    /// The graph of the tiles named by `namings` (one per entry of
    /// `scattering.stmts`) under `dependences` (between statement
    /// instances, e.g. [`crate::deps::Dependences::generators`]).
    pub fn build(
        scop: &Scop,
        scattering: &Scattering,
        namings: &[TileNaming],
        dependences: &UnionMap,
        params: &Set,
    ) -> IslResult<TileGraph> {
        let mut tiles: Vec<Vec<i64>> = Vec::new();
        for naming in namings {
            tiles.extend(enumerated(&naming.map.range()?, "tiles")?);
        }
        tiles.sort();
        tiles.dedup();
        let index: HashMap<&[i64], usize> = tiles.iter().enumerate().map(|(k, t)| (t.as_slice(), k)).collect();
        let naming_of = |name: &str| {
            let k = statement_index(name);
            scattering.stmts.iter().position(|&s| s == k).map(|at| &namings[at].map)
        };
        let mut successors = vec![Vec::new(); tiles.len()];
        for dep in dependences.maps()? {
            let (Some(source), Some(sink)) = (naming_of(&dep.domain_name()?), naming_of(&dep.range_name()?)) else {
                return Err(IslError("a dependence between statements the schedule does not hold".into()));
            };
            let between = dep.intersect_params(params)?.reverse()?.apply_range(source)?.reverse()?.apply_range(sink)?;
            for (from, to) in related_tiles(&between, source.n_out()?, sink.n_out()?)? {
                if let (Some(&a), Some(&b)) = (index.get(from.as_slice()), index.get(to.as_slice())) {
                    if a != b {
                        successors[a].push(b);
                    }
                }
            }
        }
        for s in &mut successors {
            s.sort_unstable();
            s.dedup();
        }
        let untiled = scattering
            .statements(scop)
            .zip(namings)
            .filter(|(_, n)| !n.tiled)
            .map(|((_, st), _)| st.name.clone())
            .collect();
        Ok(TileGraph { tiles, successors, untiled })
    }
}

/// The pairs of tiles `between` relates (`n_from` and `n_to`
/// coordinates). Between tiles of one space, by distance: a few
/// distances, each with the set of tiles it leaves from, enumerate far
/// faster than the pairs themselves, whose set has twice the dimensions
/// to slice (jacobi-1d with 32000 tiles: 40 s by pairs); a distance of
/// zero (a dependence inside one tile) is skipped.
fn related_tiles(between: &Map, n_from: usize, n_to: usize) -> IslResult<Vec<(Vec<i64>, Vec<i64>)>> {
    if n_from != n_to {
        let pairs = enumerated(&between.domain_then_range()?, "pairs of dependent tiles")?;
        return Ok(pairs.into_iter().map(|mut p| (p.drain(..n_from).collect(), p)).collect());
    }
    let mut out = Vec::new();
    for distance in enumerated(&between.deltas()?, "tile distances")? {
        if distance.iter().all(|&d| d == 0) {
            continue;
        }
        let from = between.intersect(&translation(&distance)?)?.domain()?;
        for tile in enumerated(&from, "pairs of dependent tiles")? {
            let to = tile.iter().zip(&distance).map(|(t, d)| t + d).collect();
            out.push((tile, to));
        }
    }
    Ok(out)
}

/// `{ [x] -> [x + distance] }`.
fn translation(distance: &[i64]) -> IslResult<Map> {
    let xs: Vec<String> = (0..distance.len()).map(|k| format!("x{k}")).collect();
    let moved: Vec<String> = xs.iter().zip(distance).map(|(x, d)| format!("{x} + ({d})")).collect();
    Map::parse(&format!("{{ [{}] -> [{}] }}", xs.join(", "), moved.join(", ")))
}

/// The points of a set whose parameters are fixed; an error if there are
/// more than [`MAX_ENUMERATED`] (`what` says of what) or infinitely many.
fn enumerated(set: &Set, what: &str) -> IslResult<Vec<Vec<i64>>> {
    set.points(MAX_ENUMERATED)?.ok_or_else(|| {
        IslError(format!(
            "more than {MAX_ENUMERATED} {what} (or unbounded): use smaller parameter values or larger tiles"
        ))
    })
}

/// The graph is not acyclic: some tiles depend on each other, so they
/// cannot run as atomic units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle;

impl std::fmt::Display for Cycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the tile graph has a cycle: tiles depend on each other and cannot run as atomic units")
    }
}

/// The nodes of a DAG in an order where each comes after its
/// predecessors (Kahn's algorithm).
pub fn topological_order(successors: &[Vec<usize>]) -> Result<Vec<usize>, Cycle> {
    let mut waiting = in_degrees(successors);
    let mut order: Vec<usize> = (0..successors.len()).filter(|&v| waiting[v] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &w in &successors[v] {
            waiting[w] -= 1;
            if waiting[w] == 0 {
                order.push(w);
            }
        }
    }
    if order.len() == successors.len() {
        Ok(order)
    } else {
        Err(Cycle)
    }
}

fn in_degrees(successors: &[Vec<usize>]) -> Vec<usize> {
    let mut degree = vec![0; successors.len()];
    successors.iter().flatten().for_each(|&w| degree[w] += 1);
    degree
}

/// Each node's wavefront: the number of nodes on the longest path from
/// a source to it, itself included (sources are in wavefront 1).
pub fn wavefronts(successors: &[Vec<usize>], order: &[usize]) -> Vec<usize> {
    let mut level = vec![1; successors.len()];
    for &v in order {
        for &w in &successors[v] {
            level[w] = level[w].max(level[v] + 1);
        }
    }
    level
}

/// Each node's distance to the end: the number of nodes on the longest
/// path from it to a sink, itself included (list scheduling's priority).
pub fn distances_to_end(successors: &[Vec<usize>], order: &[usize]) -> Vec<usize> {
    let mut distance = vec![1; successors.len()];
    for &v in order.iter().rev() {
        distance[v] = 1 + successors[v].iter().map(|&w| distance[w]).max().unwrap_or(0);
    }
    distance
}

/// The steps a greedy list schedule takes on `procs` processors, each
/// node taking one step: at each step the ready nodes farthest from the
/// end (`priority`) run first, ties to the lower index.
pub fn list_schedule_steps(successors: &[Vec<usize>], procs: usize, priority: &[usize]) -> usize {
    let mut waiting = in_degrees(successors);
    let mut ready: BinaryHeap<(usize, Reverse<usize>)> =
        (0..successors.len()).filter(|&v| waiting[v] == 0).map(|v| (priority[v], Reverse(v))).collect();
    let mut steps = 0;
    while !ready.is_empty() {
        steps += 1;
        let running: Vec<usize> = (0..procs).map_while(|_| ready.pop()).map(|(_, Reverse(v))| v).collect();
        for v in running {
            for &w in &successors[v] {
                waiting[w] -= 1;
                if waiting[w] == 0 {
                    ready.push((priority[w], Reverse(w)));
                }
            }
        }
    }
    steps
}

/// What a tile graph says about parallelism on `procs` processors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Parallelism {
    pub tiles: usize,
    pub edges: usize,
    /// The longest path, in tiles: the number of wavefronts.
    pub critical_path: usize,
    /// Tiles per wavefront on average.
    pub average_parallelism: f64,
    /// Tiles with no predecessor, i.e. the width of the first wavefront:
    /// what can start at once.
    pub startup_parallelism: usize,
    pub widest_wavefront: usize,
    pub procs: usize,
    /// The steps of the critical-path-first list schedule on `procs`.
    pub time: usize,
    /// `tiles / time`.
    pub speedup: f64,
    /// `speedup / procs`.
    pub efficiency: f64,
}

/// [`Parallelism`] of the DAG `successors` on `procs` processors.
pub fn parallelism(successors: &[Vec<usize>], procs: usize) -> Result<Parallelism, Cycle> {
    let order = topological_order(successors)?;
    let levels = wavefronts(successors, &order);
    let critical_path = levels.iter().copied().max().unwrap_or(0);
    let mut widths = vec![0; critical_path + 1];
    levels.iter().for_each(|&l| widths[l] += 1);
    let tiles = successors.len();
    let time = list_schedule_steps(successors, procs, &distances_to_end(successors, &order));
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let speedup = ratio(tiles, time);
    Ok(Parallelism {
        tiles,
        edges: successors.iter().map(Vec::len).sum(),
        critical_path,
        average_parallelism: ratio(tiles, critical_path),
        startup_parallelism: widths.get(1).copied().unwrap_or(0),
        widest_wavefront: widths.iter().copied().max().unwrap_or(0),
        procs,
        time,
        speedup,
        efficiency: speedup / procs.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// a -> b -> d, a -> c -> d, plus e alone.
    fn diamond_and_loner() -> Vec<Vec<usize>> {
        vec![vec![1, 2], vec![3], vec![3], vec![], vec![]]
    }

    #[test]
    fn wavefronts_are_longest_path_levels() {
        let g = diamond_and_loner();
        let order = topological_order(&g).unwrap();
        assert_eq!(wavefronts(&g, &order), vec![1, 2, 2, 3, 1]);
        assert_eq!(distances_to_end(&g, &order), vec![3, 2, 2, 1, 1]);
    }

    #[test]
    fn a_cycle_is_found() {
        assert_eq!(topological_order(&[vec![1], vec![2], vec![0]]), Err(Cycle));
    }

    #[test]
    fn list_schedule_on_one_processor_takes_one_step_per_node() {
        let g = diamond_and_loner();
        let p = parallelism(&g, 1).unwrap();
        assert_eq!((p.tiles, p.time, p.critical_path), (5, 5, 3));
        assert_eq!((p.startup_parallelism, p.widest_wavefront, p.edges), (2, 2, 4));
    }

    #[test]
    fn list_schedule_on_many_processors_takes_the_critical_path() {
        let p = parallelism(&diamond_and_loner(), usize::MAX).unwrap();
        assert_eq!(p.time, 3);
    }

    #[test]
    fn the_critical_path_runs_first() {
        // 0 -> 1 -> 2 is the long chain; 3 and 4 are independent. On two
        // processors, starting the chain first finishes in 3 steps;
        // starting 3 and 4 first would take 4.
        let g = vec![vec![1], vec![2], vec![], vec![], vec![]];
        assert_eq!(parallelism(&g, 2).unwrap().time, 3);
    }

    #[test]
    fn a_chain_has_no_parallelism() {
        let g = vec![vec![1], vec![2], vec![3], vec![]];
        let p = parallelism(&g, 4).unwrap();
        assert_eq!((p.critical_path, p.startup_parallelism, p.time), (4, 1, 4));
        assert_eq!(p.average_parallelism, 1.0);
        assert_eq!(p.efficiency, 0.25);
    }
}
