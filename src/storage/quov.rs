//! Storage along a quasi-universal occupancy vector (Yuki and
//! Rajopadhye, *Memory allocations for tiled uniform dependence
//! programs*): for an array whose values flow along constant vectors, the
//! shortest vector `u` such that the value written at `z` is dead when
//! `z + u` writes, in every tiled execution of the source's loops (any
//! tile sizes, points in lexicographic order inside a tile). Cells `u`
//! apart then share storage: a projection along `u`.
//!
//! The analysis works in the source's 2d+1 time space (constant
//! dimensions for the textual order, loop dimensions between them). An
//! array may have several writers (a boundary and a main statement in
//! one body): time then maps to cells through all of them, which must
//! give one cell per loop point.
//!
//! The vector, carried to the cells through the writes, becomes a
//! projection (a unimodular completion: rows orthogonal to it, and one
//! row modulo its gcd), proven like every candidate against the schedule
//! that actually runs. The QUOV is computed on the source's order: a plan
//! that reorders statements (isl's fission) makes the proof fail, and the
//! array keeps its storage. Flows to a later nest (the values a nest leaves
//! behind) do not shape the vector; the proof decides.

use super::lifetime::Conflicts;
use super::mapping::{self, Mapping};
use crate::frontend::AccessKind;
use crate::model::affine::LinExpr;
use crate::model::isl::{self, FlowResult, IslResult, Map, Set, UnionMap};
use crate::model::{params_decl, Scop};
use std::ops::Range;

/// The shortest QUOV of an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quov {
    /// Over the loop dimensions, outermost first.
    pub vector: Vec<i64>,
    /// Every value is read only at the loop point that writes it, after
    /// its writer (Section 5.2's `[0, ..., 0, 1]`): one cell holds them all.
    pub scalar: bool,
}

/// Distance sets with more points than this are not taken for uniform
/// (enumerating them would cost more than the method saves).
const MAX_POINTS: usize = 4096;

/// `array`'s shortest QUOV (for the values written into the cells of
/// `piece` only, if given), if every flow of its values is uniform in the
/// source's time space and its writers give one cell per loop point.
pub fn shortest(scop: &Scop, array: &str, piece: Option<&Set>) -> IslResult<Option<Quov>> {
    let Some(space) = TimeSpace::of(scop, array)? else {
        return Ok(None);
    };
    let Some(flows) = space.dataflows(scop, array)? else {
        return Ok(None);
    };
    // A flow to a later nest (the first, ordering dimension tells nests
    // apart) reads values the nest leaves behind, such as its last time
    // step's: the vector is for the flows within the nest, and the proof
    // against the lifetimes decides whether the values left behind
    // survive the projection (they do when no later point of the nest
    // writes their cells).
    let mut vectors = Vec::new();
    for flow in flows.into_iter().filter(|f| f.vector[0] == 0) {
        if piece.map_or(Ok(true), |cells| flow.writes_into(scop, &space, cells))? {
            vectors.push(flow.vector);
        }
    }
    let scalar = vectors.iter().all(|v| space.read_after_at_same_point(v));
    let reduced: Vec<Vec<i64>> = vectors.iter().map(|v| space.reduced(v)).collect();
    let groups = bands(&reduced, space.loops());
    let active: Vec<&[i64]> = reduced.iter().map(|v| &v[1..]).collect();
    let vector = shortest_over(&active, &groups, space.loops());
    Ok(Some(Quov { vector, scalar }))
}

/// The projection along `array`'s shortest QUOV, as a mapping of its
/// cells (`None`: the method does not apply, or shares nothing).
pub fn mapping(
    scop: &Scop,
    array: &str,
    piece: Option<&Set>,
    conflicts: &Conflicts,
    n_params: usize,
) -> IslResult<Option<Mapping>> {
    let Some(quov) = shortest(scop, array, piece)? else {
        return Ok(None);
    };
    if quov.scalar {
        return one_cell(conflicts, array, n_params);
    }
    let Some(space) = TimeSpace::of(scop, array)? else {
        return Ok(None);
    };
    let Some(along_cells) = space.cell_vector(scop, &quov.vector)? else {
        return Ok(None);
    };
    projection(conflicts, array, n_params, &along_cells)
}

/// Every cell onto one.
fn one_cell(conflicts: &Conflicts, array: &str, n_params: usize) -> IslResult<Option<Mapping>> {
    let Some(mut m) = mapping::along(conflicts, array, n_params, &mapping::unit_basis(conflicts.rank))? else {
        return Ok(None);
    };
    for row in &mut m.rows {
        row.modulus = Some(LinExpr::constant(1));
    }
    Ok(Some(m))
}

/// Cells `c` and `c + k v` (any integer `k`) in one place: the rows of a
/// unimodular matrix `M` with `M v = (g, 0, ..., 0)`; rows after the
/// first are a basis of the vectors orthogonal to `v`, the first tells
/// apart the `g` cells between two multiples of `v` (taken modulo `g`).
fn projection(conflicts: &Conflicts, array: &str, n_params: usize, v: &[i64]) -> IslResult<Option<Mapping>> {
    let (basis, g) = unimodular_completion(v);
    let Some(mut m) = mapping::along(conflicts, array, n_params, &basis)? else {
        return Ok(None);
    };
    let first = &mut m.rows[0];
    let extent = first.range.1.sub(&first.range.0).add(&LinExpr::constant(1));
    let modulus = LinExpr::constant(g);
    first.modulus = mapping::saves_room(&modulus, &extent).then_some(modulus);
    Ok(Some(m))
}

/// A unimodular `M` (rows) and `g`, the gcd of `v`'s entries, with
/// `M v = (g, 0, ..., 0)`: Euclid's algorithm on `v` by row operations.
fn unimodular_completion(v: &[i64]) -> (Vec<Vec<i64>>, i64) {
    let n = v.len();
    let mut m = mapping::unit_basis(n);
    let mut w = v.to_vec();
    loop {
        let nonzero: Vec<usize> = (0..n).filter(|&k| w[k] != 0).collect();
        let Some(&p) = nonzero.iter().min_by_key(|&&k| w[k].abs()) else {
            return (m, 0);
        };
        if nonzero.len() == 1 {
            if w[p] < 0 {
                w[p] = -w[p];
                m[p].iter_mut().for_each(|x| *x = -*x);
            }
            m.swap(0, p);
            return (m, w[p]);
        }
        for &j in nonzero.iter().filter(|&&j| j != p) {
            let q = w[j] / w[p];
            w[j] -= q * w[p];
            let pivot = m[p].clone();
            m[j].iter_mut().zip(&pivot).for_each(|(x, y)| *x -= q * y);
        }
    }
}

/// Contiguous groups of loop dimensions (indices into the loop part of a
/// reduced vector), each tilable (no vector goes back along any of its
/// dimensions) or sequential.
fn bands(reduced: &[Vec<i64>], loops: usize) -> Vec<(Range<usize>, bool)> {
    let mut groups: Vec<(Range<usize>, bool)> = Vec::new();
    for d in 0..loops {
        let tilable = reduced.iter().all(|v| v[d + 1] >= 0);
        match groups.last_mut() {
            Some((range, t)) if *t == tilable => range.end = d + 1,
            _ => groups.push((d..d + 1, tilable)),
        }
    }
    groups
}

/// The shortest vector (Manhattan length) that every one of `active`
/// reaches first in every execution the groups allow: in a tilable
/// group, the element-wise maximum (Theorem 1); in a sequential one,
/// the lexicographic maximum `m` or `[m_1 + 1, 0, ...]`, whichever is
/// shorter (Corollary 1; the latter on a tie: it ends the constraints); group after group (Corollary 2). A vector
/// left behind in some group is done: only those equal to `u` there
/// constrain the groups inside.
fn shortest_over(active: &[&[i64]], groups: &[(Range<usize>, bool)], loops: usize) -> Vec<i64> {
    let mut u = vec![0; loops];
    let Some(((range, tilable), inner)) = groups.split_first() else {
        return u;
    };
    if active.is_empty() {
        return u;
    }
    let part: Vec<i64> = if *tilable {
        range.clone().map(|d| active.iter().map(|v| v[d]).max().unwrap_or(0)).collect()
    } else {
        active.iter().map(|v| v[range.clone()].to_vec()).max().unwrap_or_default()
    };
    let tied: Vec<&[i64]> = active.iter().copied().filter(|v| v[range.clone()] == part[..]).collect();
    let rest = shortest_over(&tied, inner, loops);
    u[range.end..].copy_from_slice(&rest[range.end..]);
    u[range.clone()].copy_from_slice(&part);
    if !*tilable {
        let mut past = vec![0; loops];
        past[range.start] = part[0] + 1;
        if manhattan(&past) <= manhattan(&u) {
            return past;
        }
    }
    u
}

fn manhattan(v: &[i64]) -> i64 {
    v.iter().map(|x| x.abs()).sum()
}

/// The source's time space as the array's writers see it.
pub(super) struct TimeSpace {
    /// Its dimensions: constants at even positions, loops at odd ones.
    dims: usize,
    /// The statements writing the array, and the cells they write.
    pub(super) writers: Vec<(usize, Map)>,
    /// The earliest writer's constant dimensions (lexicographically), by
    /// position: a cell may be overwritten from there on at a loop point.
    earliest: Vec<i64>,
}

impl TimeSpace {
    pub(super) fn of(scop: &Scop, array: &str) -> IslResult<Option<TimeSpace>> {
        let dims = scop.schedule_dims;
        if dims.is_multiple_of(2) {
            return Ok(None);
        }
        let writers: Vec<(usize, Map)> = scop
            .statements
            .iter()
            .enumerate()
            .flat_map(|(k, s)| s.accesses.iter().map(move |a| (k, a)))
            .filter(|(_, a)| a.array == array && a.kind == AccessKind::Write)
            .map(|(k, a)| (k, a.relation.clone()))
            .collect();
        let mut earliest: Option<Vec<i64>> = None;
        for (k, _) in &writers {
            let Some(constants) = constant_dims(&scop.statements[*k].schedule, dims)? else {
                return Ok(None);
            };
            if earliest.as_ref().is_none_or(|e| constants < *e) {
                earliest = Some(constants);
            }
        }
        Ok(earliest.map(|earliest| TimeSpace { dims, writers, earliest }))
    }

    fn loops(&self) -> usize {
        self.dims / 2
    }

    /// The flows of the array's values, one per distance: time of the
    /// reader minus time of the writer, the constant entries counted from
    /// the writer that may overwrite the value at the reader's loop point
    /// (the reader itself if it writes the array, else the earliest
    /// writer). `None` if some flow within a nest is not a finite set of
    /// constant vectors.
    pub(super) fn dataflows(&self, scop: &Scop, array: &str) -> IslResult<Option<Vec<DataFlow>>> {
        let reads: Vec<&Map> = scop
            .statements
            .iter()
            .flat_map(|s| s.accesses.iter())
            .filter(|a| a.array == array && a.kind == AccessKind::Read)
            .map(|a| &a.relation)
            .collect();
        let w = UnionMap::from_maps(self.writers.iter().map(|(_, m)| m))?;
        let r = UnionMap::from_maps(reads)?;
        let source_order = UnionMap::from_maps(scop.statements.iter().map(|s| &s.schedule))?;
        let flows = isl::compute_flow(&r, Some(&w), None, &source_order, FlowResult::Must)?;
        let mut out = Vec::new();
        for flow in flows.maps()? {
            let (writer, reader) = (statement_of(scop, &flow.domain_name()?), statement_of(scop, &flow.range_name()?));
            let (Some(writer), Some(reader)) = (writer, reader) else {
                return Ok(None);
            };
            let (from, to) = (&scop.statements[writer].schedule, &scop.statements[reader].schedule);
            let times = from.reverse()?.apply_range(&flow)?.apply_range(to)?;
            let Some(own) = constant_dims(from, self.dims)? else {
                return Ok(None);
            };
            let Some(points) = constant_points(&times.deltas()?)? else {
                // A value read by a later nest (the last time step's, read
                // after the loops) lives on: that needs no constant distance.
                match constant_dims(to, self.dims)?.map(|c| c[0] - own[0]).filter(|&later| later > 0) {
                    Some(later) => {
                        let mut vector = vec![0; self.dims];
                        vector[0] = later;
                        out.push(DataFlow { writer, reader, flow: flow.clone(), distance: None, vector });
                        continue;
                    }
                    None => return Ok(None),
                }
            };
            // A reader that writes the array is the one writer at its loop
            // point (one cell per point), and reads before it writes: no
            // other writer there can overwrite the value first.
            let reader_writes = self.writers.iter().any(|(k, _)| *k == reader);
            for distance in points {
                let mut vector = distance.clone();
                for (c, x) in (0..self.dims).step_by(2).enumerate() {
                    vector[x] = if reader_writes { 0 } else { vector[x] + own[c] - self.earliest[c] };
                }
                out.push(DataFlow { writer, reader, flow: flow.clone(), distance: Some(distance), vector });
            }
        }
        Ok(Some(out))
    }

    /// Whether the read is at the writing loop point, after the earliest
    /// writer in the innermost body (only the last constant differs).
    fn read_after_at_same_point(&self, v: &[i64]) -> bool {
        let last = self.dims - 1;
        v[..last].iter().all(|&x| x == 0) && v[last] > 0
    }

    /// `v` over the first constant and the loop dimensions, with Section
    /// 5.2's rule: a read at the same loop point as a possible overwrite,
    /// but after it in the text (the first constant dimension that
    /// differs is larger), must come before the overwrite, which can then
    /// be no earlier than the next iteration of the loop around that
    /// dimension. (Counted from the reader's iteration: the paper's
    /// `max(v, 1)` lets a reader in the next iteration lose its value.)
    pub(super) fn reduced(&self, v: &[i64]) -> Vec<i64> {
        let mut r: Vec<i64> = std::iter::once(v[0]).chain((1..self.dims).step_by(2).map(|x| v[x])).collect();
        let first_difference = (0..self.dims).step_by(2).find(|&x| v[x] != 0);
        if let Some(x) = first_difference.filter(|&x| x > 0 && v[x] > 0) {
            r[x / 2] += 1;
        }
        r
    }

    /// The difference of the cells written `u` apart (loop dimensions),
    /// if it is one constant vector and each loop point writes one cell
    /// (and each cell is written at one loop point).
    fn cell_vector(&self, scop: &Scop, u: &[i64]) -> IslResult<Option<Vec<i64>>> {
        let np = scop.ast.params.len();
        let decl = params_decl(np);
        let t: Vec<String> = (0..self.dims).map(|d| format!("t{d}")).collect();
        let loops: Vec<&str> = (1..self.dims).step_by(2).map(|x| t[x].as_str()).collect();
        let to_loops = Map::parse(&format!("{decl} -> {{ [{}] -> [{}] }}", t.join(", "), loops.join(", ")))?;
        let mut cells: Option<Map> = None;
        for (k, write) in &self.writers {
            let at = scop.statements[*k].schedule.apply_range(&to_loops)?.reverse()?.apply_range(write)?;
            cells = Some(match cells {
                Some(c) => c.union(&at)?,
                None => at,
            });
        }
        let Some(cells) = cells else {
            return Ok(None);
        };
        if !cells.is_single_valued()? || !cells.reverse()?.is_single_valued()? {
            return Ok(None);
        }
        let l: Vec<String> = (0..u.len()).map(|d| format!("l{d}")).collect();
        let shifted: Vec<String> = l.iter().zip(u).map(|(x, k)| format!("{x} + {k}")).collect();
        let shift = Map::parse(&format!("{decl} -> {{ [{}] -> [{}] }}", l.join(", "), shifted.join(", ")))?;
        let pairs = cells.reverse()?.apply_range(&shift)?.apply_range(&cells)?;
        match constant_points(&pairs.deltas()?)? {
            Some(mut points) if points.len() == 1 => Ok(points.pop()),
            _ => Ok(None),
        }
    }
}

/// The flows of an array's values along one distance.
pub(super) struct DataFlow {
    /// The statement writing the values, and the one reading them.
    pub writer: usize,
    reader: usize,
    /// Every flow between the two (along any distance).
    flow: Map,
    /// The distance in time, if it is constant.
    distance: Option<Vec<i64>>,
    /// The distance in the source's time space (see
    /// [`TimeSpace::dataflows`]); for a flow to a later nest whose
    /// distance is not constant, only how many nests later.
    pub vector: Vec<i64>,
}

impl DataFlow {
    /// The writer's instances whose values flow along this distance
    /// (computed on demand: an array may have thousands of distances).
    pub fn producers(&self, scop: &Scop) -> IslResult<Set> {
        let Some(distance) = &self.distance else {
            return self.flow.domain();
        };
        let (from, to) = (&scop.statements[self.writer].schedule, &scop.statements[self.reader].schedule);
        let apart = shift(distance, scop.ast.params.len())?;
        self.flow.intersect(&from.apply_range(&apart)?.apply_range(&to.reverse()?)?)?.domain()
    }

    /// Whether some of its values are written into the cells `piece`.
    fn writes_into(&self, scop: &Scop, space: &TimeSpace, piece: &Set) -> IslResult<bool> {
        let Some((_, write)) = space.writers.iter().find(|(k, _)| *k == self.writer) else {
            return Ok(false);
        };
        Ok(!write.intersect_domain(&self.producers(scop)?)?.intersect_range(piece)?.is_empty()?)
    }
}

/// `[t] -> [t + distance]` over the time space.
fn shift(distance: &[i64], n_params: usize) -> IslResult<Map> {
    let t: Vec<String> = (0..distance.len()).map(|d| format!("t{d}")).collect();
    let moved: Vec<String> = t.iter().zip(distance).map(|(x, k)| format!("{x} + {k}")).collect();
    Map::parse(&format!("{} -> {{ [{}] -> [{}] }}", params_decl(n_params), t.join(", "), moved.join(", ")))
}

/// The statement named `name` (`S<k>`).
fn statement_of(scop: &Scop, name: &str) -> Option<usize> {
    scop.statements.iter().position(|s| s.name == name)
}

/// The values of a schedule's even (constant) output dimensions.
fn constant_dims(schedule: &Map, dims: usize) -> IslResult<Option<Vec<i64>>> {
    (0..dims).step_by(2).map(|x| schedule.out_constant(x)).collect()
}

/// The points of `set` as vectors, if it is a finite set of constant
/// vectors (the same for every parameter value where they exist) of at
/// most [`MAX_POINTS`] points.
fn constant_points(set: &Set) -> IslResult<Option<Vec<Vec<i64>>>> {
    set.points(MAX_POINTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tilable(loops: usize) -> Vec<(Range<usize>, bool)> {
        vec![(0..loops, true)]
    }

    #[test]
    fn a_fully_tilable_space_takes_the_element_wise_maximum() {
        let flows: Vec<&[i64]> = vec![&[2, 0], &[2, 1], &[1, 2], &[0, 2]];
        assert_eq!(shortest_over(&flows, &tilable(2), 2), vec![2, 2]);
    }

    #[test]
    fn a_sequential_space_takes_the_lexicographic_maximum_or_the_next_row() {
        let sequential = vec![(0..2, false)];
        let flows: Vec<&[i64]> = vec![&[1, 1], &[1, -1], &[1, 0]];
        assert_eq!(shortest_over(&flows, &sequential, 2), vec![2, 0]);
        let flows: Vec<&[i64]> = vec![&[0, 5], &[1, 0]];
        assert_eq!(shortest_over(&flows, &sequential, 2), vec![1, 0]);
    }

    #[test]
    fn the_completion_maps_the_vector_onto_its_gcd() {
        for v in [vec![2, 2], vec![1, 1], vec![0, 3], vec![-2, 4, 6]] {
            let (m, g) = unimodular_completion(&v);
            let image: Vec<i64> = m.iter().map(|row| row.iter().zip(&v).map(|(a, b)| a * b).sum()).collect();
            assert_eq!(image[0], g, "{v:?}");
            assert!(image[1..].iter().all(|&x| x == 0), "{v:?}");
        }
    }
}
