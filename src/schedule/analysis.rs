//! What a scattering allows: read off the dependence distances in time
//! space (`T(y) - T(x)` for each dependence `x -> y`).
//!
//! Dimension `k` is parallel when no dependence that the dimensions
//! before it leave unsatisfied has a non-zero distance at `k`; dimensions
//! `b..e` form a permutable band when those dependences have non-negative
//! distances on all of them, so any order of them, and tiles, are legal.

use super::scattering::Scattering;
use super::strides::{zero_prefix, Strides};
use crate::frontend::AccessKind;
use crate::model::isl::{self, set_text, IslResult, Map, Set, UnionMap, UnionSet};
use crate::model::Scop;
use std::cell::RefCell;

/// The dependence distances of `deps` under `sc`, one point per distance vector.
pub fn distances(sc: &Scattering, deps: &UnionMap, n_params: usize) -> IslResult<Set> {
    match in_time(sc, deps)? {
        Some(pairs) => pairs.deltas(),
        None => nothing(n_params, sc.dims),
    }
}

/// The pairs of `deps` among the statements of `sc`, as pairs of times;
/// `None` when there are none.
pub fn in_time(sc: &Scattering, deps: &UnionMap) -> IslResult<Option<Map>> {
    let names = sc.maps.iter().map(Map::domain_name).collect::<IslResult<Vec<_>>>()?;
    // Most nests of a SCoP depend on none of their own statements (adi:
    // 73 of 101 scatterings analysed); composing every dependence with
    // the schedule would find that only after the work.
    let among = deps.among(&names)?;
    if among.is_empty()? {
        return Ok(None);
    }
    let times = sc.union()?;
    let pairs = among.apply_domain(&times)?.apply_range(&times)?;
    match pairs.is_empty()? {
        true => Ok(None),
        false => pairs.as_single_map().map(Some),
    }
}

/// The empty set of `dims`-tuples (isl's parser takes no `false`, nor a
/// constraint without variables).
fn nothing(n_params: usize, dims: usize) -> IslResult<Set> {
    let all = Set::parse(&set_text(n_params, dims, ""))?;
    all.subtract(&all)
}

/// The vectors of `dims` dimensions negative at dimension `k`.
pub fn negative_at(n_params: usize, dims: usize, k: usize) -> IslResult<Set> {
    Set::parse(&set_text(n_params, dims, &format!("c{k} < 0")))
}

/// The vectors of `dims` dimensions zero at dimension `k`.
pub fn zero_at(n_params: usize, dims: usize, k: usize) -> IslResult<Set> {
    Set::parse(&set_text(n_params, dims, &format!("c{k} = 0")))
}

/// Parallelism, permutability and access strides of one scattering.
#[derive(Clone)]
pub struct Analysis {
    distances: Set,
    n_params: usize,
    dims: usize,
    /// Whether some statement has more than one value at each dimension.
    loop_dims: Vec<bool>,
    /// [`Analysis::is_parallel`] by dimension, once known: the planner
    /// asks again at each step (deriche: 249 times, 3% of its compile time).
    parallel: RefCell<Vec<Option<bool>>>,
    strides: Strides,
}

impl Analysis {
    pub fn new(sc: &Scattering, deps: &UnionMap, n_params: usize) -> IslResult<Analysis> {
        Analysis::from_distances(sc, distances(sc, deps, n_params)?, n_params)
    }

    /// With the dependence `distances` under `sc` already known.
    pub fn from_distances(sc: &Scattering, distances: Set, n_params: usize) -> IslResult<Analysis> {
        let loop_dims = (0..sc.dims).map(|k| sc.varies(k)).collect();
        let parallel = RefCell::new(vec![None; sc.dims]);
        Ok(Analysis { distances, n_params, dims: sc.dims, loop_dims, parallel, strides: Strides::new(sc) })
    }

    /// The dependence distances (or a sound over-approximation of them).
    pub fn distances(&self) -> &Set {
        &self.distances
    }

    /// How the scattering's accesses move along its dimensions.
    pub fn strides(&self) -> &Strides {
        &self.strides
    }

    /// Whether some statement has more than one value at dimension `k`
    /// (false past the last dimension).
    pub fn is_loop(&self, k: usize) -> bool {
        self.loop_dims.get(k).copied().unwrap_or(false)
    }

    /// The distances of the dependences not satisfied before dimension `k`.
    fn unsatisfied_at(&self, k: usize) -> IslResult<Set> {
        let prefix = zero_prefix(k);
        self.distances.intersect(&Set::parse(&set_text(self.n_params, self.dims, prefix.trim_end_matches(" and ")))?)
    }

    pub fn is_parallel(&self, k: usize) -> IslResult<bool> {
        if let Some(Some(known)) = self.parallel.borrow().get(k) {
            return Ok(*known);
        }
        let parallel = self.unsatisfied_at(k)?.intersect(&self.moving_at(k)?)?.is_empty()?;
        if let Some(slot) = self.parallel.borrow_mut().get_mut(k) {
            *slot = Some(parallel);
        }
        Ok(parallel)
    }

    /// Whether every dependence carried at `k` has distance zero on all
    /// the dimensions after it (nothing carried: trivially). Copies of
    /// the body for consecutive values of `k` may then run, in order,
    /// inside the loops below `k`: unroll-and-jam.
    pub fn carries_only_vertically(&self, k: usize) -> IslResult<bool> {
        let slanted: Vec<String> = (k + 1..self.dims).map(|j| format!("c{j} != 0")).collect();
        if slanted.is_empty() {
            return Ok(true);
        }
        let slanted = Set::parse(&set_text(self.n_params, self.dims, &slanted.join(" or ")))?;
        self.unsatisfied_at(k)?.intersect(&self.moving_at(k)?)?.intersect(&slanted)?.is_empty()
    }

    /// Whether no dependence at all has a distance at `k`, whatever the
    /// dimensions before it: the loop over `k` may move outermost.
    pub fn is_fully_parallel(&self, k: usize) -> IslResult<bool> {
        self.distances.intersect(&self.moving_at(k)?)?.is_empty()
    }

    /// The distance vectors with a non-zero entry at `k`.
    fn moving_at(&self, k: usize) -> IslResult<Set> {
        Set::parse(&set_text(self.n_params, self.dims, &format!("c{k} != 0")))
    }

    /// Whether member `k` of the permutable `band`, moved to its innermost
    /// position, would be parallel: no dependence left by the dimensions
    /// before the band and the other members has a distance on `k`.
    pub fn is_parallel_innermost(&self, band: std::ops::Range<usize>, k: usize) -> IslResult<bool> {
        let mut body: Vec<String> =
            (0..band.start).chain(band.filter(|&j| j != k)).map(|j| format!("c{j} = 0")).collect();
        body.push(format!("c{k} != 0"));
        let carried = Set::parse(&set_text(self.n_params, self.dims, &body.join(" and ")))?;
        self.distances.intersect(&carried)?.is_empty()
    }

    pub fn is_permutable(&self, first: usize, end: usize) -> IslResult<bool> {
        let negative: Vec<String> = (first..end).map(|k| format!("c{k} < 0")).collect();
        let backward = Set::parse(&set_text(self.n_params, self.dims, &negative.join(" or ")))?;
        self.unsatisfied_at(first)?.intersect(&backward)?.is_empty()
    }

    /// Maximal runs of loop dimensions that are permutable, outermost first.
    pub fn bands(&self) -> IslResult<Vec<(usize, usize)>> {
        let mut bands = Vec::new();
        let mut b = 0;
        while b < self.dims {
            if !self.loop_dims[b] {
                b += 1;
                continue;
            }
            let mut e = b + 1;
            while e < self.dims && self.loop_dims[e] && self.is_permutable(b, e + 1)? {
                e += 1;
            }
            bands.push((b, e));
            b = e;
        }
        Ok(bands)
    }
}

/// What each statement's innermost loop of `sc` costs a vector unit,
/// summed over the statements: how many of those loops carry a
/// dependence of `deps` (a reduction's chain, which gcc keeps
/// sequential), then how many accesses they walk other than contiguously
/// (see [`Strides::contiguous_accesses`]). What a new loop order for locality and
/// vectorisation lowers.
pub fn innermost_costs(scop: &Scop, sc: &Scattering, deps: &UnionMap) -> IslResult<(usize, usize)> {
    let n_params = scop.ast.params.len();
    let (mut carrying, mut strided) = (0, 0);
    for (&k, map) in sc.stmts.iter().zip(&sc.maps) {
        let own = Scattering { stmts: vec![k], maps: vec![map.clone()], dims: sc.dims };
        let Some(d) = own.innermost_loop() else { continue };
        let analysis = Analysis::new(&own, deps, n_params)?;
        carrying += usize::from(!analysis.is_parallel(d)?);
        strided += analysis.strides().contiguous_accesses(scop, d)?.1;
    }
    Ok((carrying, strided))
}

/// How many of the statement's iterators still vary once the time
/// dimensions before `k` are fixed (the dimension of one iteration of the
/// loops outside `k`).
pub fn iterators_inside(time: &Map, st: &crate::model::Statement, k: usize) -> IslResult<usize> {
    let outside = time.intersect_domain(&st.domain)?.keep_leading_out(k)?;
    outside.apply_range(&outside.reverse()?)?.deltas()?.dimension()
}

/// Whether statement `st` runs a single iteration of the loop over `k`
/// of its schedule `time` for each iteration of the loops outside (the
/// diagonal tile of a wavefront, `c2 = c1 / 2`).
pub fn single_iteration_at(time: &Map, st: &crate::model::Statement, k: usize) -> IslResult<bool> {
    let instances = time.intersect_domain(&st.domain)?;
    let outside = instances.keep_leading_out(k)?;
    outside.reverse()?.apply_range(&instances.keep_leading_out(k + 1)?)?.is_single_valued()
}

/// Whether some statement's time at some dimension of `band` is neither
/// constant nor one of its iterators (or its negation): tiles of such a
/// band are parallelograms in the statement's own space.
pub fn is_skewed(scop: &Scop, sc: &Scattering, band: std::ops::Range<usize>) -> IslResult<bool> {
    let n_params = scop.ast.params.len();
    let outs: Vec<String> = (0..sc.dims).map(|j| format!("c{j}")).collect();
    for (time, st) in sc.statements(scop) {
        let depth = st.domain.n_dims()?;
        let ins: Vec<String> = (0..depth).map(|d| format!("i{d}")).collect();
        for k in band.clone() {
            if time.out_is_constant(k)? {
                continue;
            }
            let mut plain = false;
            for (d, sign) in (0..depth).flat_map(|d| [(d, ""), (d, "-")]) {
                let axis = Map::parse(&format!(
                    "{} -> {{ {}[{}] -> [{}] : c{k} = {sign}i{d} }}",
                    crate::model::params_decl(n_params),
                    st.name,
                    ins.join(", "),
                    outs.join(", ")
                ))?;
                if time.is_subset_of(&axis)? {
                    plain = true;
                    break;
                }
            }
            if !plain {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Trip counts up to this are short loops (see [`is_short_loop`]).
const SHORT_LOOP: i64 = 16;

/// Whether every statement that loops over dimension `k` of `sc` does so
/// a few times at most (a filter's taps), with the parameters that are
/// integer macros at their values (NPB's `BLOCK_SIZE` of 5): gcc unrolls
/// such a loop fully and vectorises the loop around it, which a tile or a
/// permutation that moves it outwards would undo.
pub fn is_short_loop(scop: &Scop, sc: &Scattering, k: usize) -> IslResult<bool> {
    runs_at_most(scop, sc, k, SHORT_LOOP)
}

/// Whether every statement that loops over dimension `k` of `sc` does so
/// `trips` times at most, as for [`is_short_loop`].
pub fn runs_at_most(scop: &Scop, sc: &Scattering, k: usize, trips: i64) -> IslResult<bool> {
    spread_within(scop, sc, k, trips - 1)
}

/// Whether some statement of `sc` varies in fewer time dimensions than
/// its domain has (independent iterators): the others are determined only
/// through floors (isl
/// drops a hand-written tile loop that its point loop determines), and
/// the scanner regenerates each as a loop of one iteration per point.
pub fn drops_iterators(scop: &Scop, sc: &Scattering) -> IslResult<bool> {
    for (time, st) in sc.statements(scop) {
        let mut varying = 0;
        for k in 0..sc.dims {
            varying += usize::from(!time.out_is_constant(k)?);
        }
        if varying < st.domain.dimension()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether some statement varies at dimension `k` and, for every such
/// statement, the values at `k` under one prefix (the dimensions before
/// it) differ by at most `limit`.
fn spread_within(scop: &Scop, sc: &Scattering, k: usize, limit: i64) -> IslResult<bool> {
    // (`limit` is one less than the longest trip count allowed.)
    let n_params = scop.ast.params.len();
    let prefix_equal = prefix_relation(n_params, sc.dims, k, Then::Anything)?;
    // Where the parameters that are macros take other values than their
    // own, the spread is not asked about.
    let elsewhere: String = (scop.ast.param_values.iter().enumerate())
        .filter_map(|(p, v)| v.map(|v| format!(" or p{p} < {v} or p{p} > {v}")))
        .collect();
    let within = Set::parse(&set_text(n_params, sc.dims, &format!("(-{limit} <= c{k} <= {limit}){elsewhere}")))?;
    let mut loops = false;
    for (time, st) in sc.statements(scop) {
        if time.out_is_constant(k)? {
            continue;
        }
        loops = true;
        let points = time.intersect_domain(&st.domain)?.range()?;
        let spread = prefix_equal.intersect_domain(&points)?.intersect_range(&points)?.deltas()?;
        if !spread.is_subset_of(&within)? {
            return Ok(false);
        }
    }
    Ok(loops)
}

/// Whether each iteration of the loop over `k` of `sc` may have its own
/// copy of variable `name` (a scalar or an array), copied out after the
/// loop (OpenMP's `lastprivate`): `sc`'s statements write it, and every
/// read of it among them gets its value (`flow`: the value-based flow
/// through it) from a write in the same iteration. A scalar's copy-out
/// is the last iteration that wrote it (`emit::copy_out`); an
/// array is copied out whole from the last iteration, so in every run of
/// the loop (each value of the loops around it where any statement of
/// `sc` runs inside it) that iteration must write every cell of the
/// declared object: a cell it leaves unwritten (an array only partly
/// written, a run whose last iteration writes nothing: a guard, an inner
/// loop empty there) would get an indeterminate value. The last writer
/// of each cell is then that iteration, as in the sequential loop.
/// `in_time`: [`in_time`] of the flow under `sc`, which does not depend
/// on `k`.
pub fn is_privatisable(scop: &Scop, sc: &Scattering, in_time: Option<&Map>, name: &str, k: usize) -> IslResult<bool> {
    let n_params = scop.ast.params.len();
    let none = || nothing(n_params, sc.dims);
    let (mut reads, mut written) = (none()?, None::<Map>);
    let mut writes_may_skip = false;
    for (&id, time) in sc.stmts.iter().zip(&sc.maps) {
        let st = &scop.statements[id];
        // Most privatisable variables of a SCoP are not this nest's.
        if !st.accesses.iter().any(|a| a.array == name) {
            continue;
        }
        writes_may_skip |= scop.ast.stmts[id].may_skip_writes();
        let at = time.intersect_domain(&st.domain)?;
        for a in st.accesses.iter().filter(|a| a.array == name) {
            match a.kind {
                AccessKind::Read => reads = reads.union(&at.intersect_domain(&a.relation.domain()?)?.range()?)?,
                AccessKind::Write => {
                    let elements = at.reverse()?.apply_range(&a.relation)?;
                    written = Some(match written {
                        Some(w) => w.union(&elements)?,
                        None => elements,
                    });
                }
            }
        }
    }
    let Some(written) = written else {
        return Ok(false);
    };
    let covered = match in_time {
        None => none()?,
        Some(pairs) => pairs.intersect(&prefix_relation(n_params, sc.dims, k + 1, Then::Anything)?)?.range()?,
    };
    if !reads.is_subset_of(&covered)? {
        return Ok(false);
    }
    // With writes that may not happen, a read covered by its own
    // iteration's write may also get an older value.
    if let Some(pairs) = in_time.filter(|_| writes_may_skip) {
        let same_iteration = prefix_relation(n_params, sc.dims, k + 1, Then::Anything)?;
        if !pairs.subtract(&same_iteration)?.is_empty()? {
            return Ok(false);
        }
    }
    if written.n_out()? == 0 {
        // A scalar's copy-out (`emit::copy_out`) is the value of the
        // last iteration that wrote it, or none.
        return Ok(true);
    }
    // An array's copy-out is whole: every cell must be written.
    if writes_may_skip {
        return Ok(false);
    }
    let Some(declared) = declared_cells(scop, name, written.n_out()?, k + 1)? else {
        return Ok(false);
    };
    // By iteration of the loop (time dimensions up to `k`): the cells
    // written, and each run's last iteration.
    let written = written.reverse()?.keep_leading_out(k + 1)?.reverse()?;
    let mut points = none()?;
    for (&id, time) in sc.stmts.iter().zip(&sc.maps) {
        points = points.union(&time.intersect_domain(&scop.statements[id].domain)?.range()?)?;
    }
    let points = points.keep_leading_dims(k + 1)?;
    let writes_all = |iterations: &Set| declared.intersect_domain(iterations)?.is_subset_of(&written);
    // Where every iteration writes every cell, so does the last.
    if writes_all(&points)? {
        return Ok(true);
    }
    let share = isl::operation_budget() / LAST_ITERATION_SHARE;
    match isl::within_budget(share, || last_of_runs(&points, k, n_params))? {
        Some(last) => writes_all(&last),
        None => Ok(false),
    }
}

/// The share of the bound in force that finding each run's last
/// iteration may take: in the points of skewed tiles (floors,
/// existential variables) it took a random program's planning 3 s, and
/// more than its whole budget. Out of it, a copy-out is not proven
/// complete.
const LAST_ITERATION_SHARE: u64 = 20;

/// The last point of each run of `points` (those sharing their first `k`
/// dimensions).
fn last_of_runs(points: &Set, k: usize, n_params: usize) -> IslResult<Set> {
    let later = prefix_relation(n_params, k + 1, k, Then::Later)?;
    points.subtract(&later.intersect_domain(points)?.intersect_range(points)?.domain()?)
}

/// Whether a private copy of `name` per iteration of the loop over `k`
/// of `sc` must be copied out after the loop: something may read a value
/// an iteration leaves in it, outside that iteration (`flow`: the
/// value-based flow through it). That is a read after the loop, in the
/// SCoP (another nest, or the same nest after the loop) or after it,
/// unless nothing outside the SCoP reads the variable
/// ([`crate::frontend::ScopAst::dead_after`]). Without a copy-out the
/// copy is a plain local of each iteration, which the C compiler keeps
/// in a register (a scalar accumulator's `lastprivate` measured 5x
/// slower on one thread than `private`). `in_time`: [`in_time`] of `flow`
/// under `sc`, which is that of its part from the nest once nothing flows
/// out of the nest.
pub fn live_after_iteration(
    scop: &Scop,
    sc: &Scattering,
    (flow, in_time): (&UnionMap, Option<&Map>),
    name: &str,
    k: usize,
) -> IslResult<bool> {
    if !scop.ast.dead_after.contains(name) {
        return Ok(true);
    }
    let instances = UnionSet::from_sets(sc.stmts.iter().map(|&id| &scop.statements[id].domain))?;
    let from_nest = flow.intersect_domain(&instances)?;
    if !from_nest.subtract(&from_nest.intersect_range(&instances)?)?.is_empty()? {
        return Ok(true);
    }
    let Some(pairs) = in_time else {
        return Ok(false);
    };
    let same_iteration = prefix_relation(scop.ast.params.len(), sc.dims, k + 1, Then::Anything)?;
    Ok(!pairs.is_subset_of(&same_iteration)?)
}

/// `{ [c0 .. c(dims-1)] -> A_name[o] }` for every cell `o` of the object
/// `name` declares, accessed with `rank` subscripts: `0 <= o0 < extent`
/// for a one-dimensional array whose extent is a literal or a parameter;
/// `None` for anything else (no copy-out is then proven complete).
fn declared_cells(scop: &Scop, name: &str, rank: usize, dims: usize) -> IslResult<Option<Map>> {
    let array = crate::model::array_tuple(name);
    let (params, n_params) = (&scop.ast.params, scop.ast.params.len());
    // Only an object has cells of its own to copy: what a pointer
    // reaches belongs to another.
    let object = scop.ast.arrays.iter().find(|(array, decl)| array == name && decl.is_vector_object());
    let extents = object.map_or(&[][..], |(_, decl)| &decl.extents);
    if extents.len() != rank {
        return Ok(None);
    }
    let cells = match extents {
        [extent] => {
            let extent = extent.trim();
            let bound = match params.iter().position(|p| p == extent) {
                Some(k) => format!("p{k}"),
                None => match extent.parse::<i64>() {
                    Ok(n) => n.to_string(),
                    Err(_) => return Ok(None),
                },
            };
            format!("{array}[o0] : 0 <= o0 < {bound}")
        }
        _ => return Ok(None),
    };
    Map::parse(&format!("{} -> {{ [{}] -> {cells} }}", crate::model::params_decl(n_params), dim_names("c", dims)))
        .map(Some)
}

/// What [`prefix_relation`] asks of the dimension after the equal ones.
#[derive(Clone, Copy)]
pub(crate) enum Then {
    Anything,
    /// `d > c` there.
    Later,
    /// `d < c` there.
    Earlier,
}

/// `{ [c0..] -> [d0..] : c_j = d_j for j < equal }` over `dims`
/// dimensions, and at dimension `equal` what `then` asks. Built on one
/// parsed universe per `dims`: a text per relation took deriche 2.5% of its
/// compile time to parse.
pub(crate) fn prefix_relation(n_params: usize, dims: usize, equal: usize, then: Then) -> IslResult<Map> {
    let all = Map::parse(&format!(
        "{} -> {{ [{}] -> [{}] }}",
        crate::model::params_decl(n_params),
        dim_names("c", dims),
        dim_names("d", dims)
    ))?;
    let prefix = all.equate_leading(equal)?;
    match then {
        Then::Anything => Ok(prefix),
        Then::Later => prefix.order_at(equal, true),
        Then::Earlier => prefix.order_at(equal, false),
    }
}

/// `c0, c1, ..` for `dims` dimensions named with `prefix`.
fn dim_names(prefix: &str, dims: usize) -> String {
    (0..dims).map(|j| format!("{prefix}{j}")).collect::<Vec<_>>().join(", ")
}
