//! Loop marks: which loops of a nest run in parallel (with which
//! private copies), as SIMD loops, or unrolled and jammed.
//!
//! OpenMP privatisation: every loop variable and hoisted bound is declared
//! in its loop header or block, so it is private by OpenMP's rules. A
//! scalar or a one-dimensional array object (`deps::privatisable`) written
//! in a loop carries output and anti dependences on it. Where a private
//! copy per iteration is exact (`analysis::is_privatisable`: every read
//! gets its value from a write of the same iteration, and the last
//! iteration of every run of the loop writes every element any iteration
//! writes), the loop is parallel if no other dependence is carried
//! ([`Planner::parallel_with_private`], against
//! `Dependences::generators_except`). The copies whose values something may
//! read after an iteration (`analysis::live_after_iteration`: a read
//! outside it in the SCoP, or any variable but a local nothing reads after
//! the SCoP, `ScopAst::dead_after`) are copied out, so that the values
//! after the loop are the sequential ones: scalars by the printer
//! (`emit::copy_out`), arrays whole from the last iteration
//! (`lastprivate`); the others are `private`, plain locals of each
//! iteration that gcc keeps in registers. A loop with a private array is
//! never a SIMD loop, and time tiling gives way to a parallel outer loop
//! with private copies.
//!
//! A parallel loop inside a sequential one gets an OpenMP region only
//! where, for some statement inside, two or more of its iterators, and
//! more than outside, vary inside it. Unroll-and-jam marks: `jam` on a loop
//! that carries dependences only between points the loops inside share
//! (`Analysis::carries_only_vertically`), `block` on a parallel one (a
//! register block, see `emit::registers`).

use super::marks::LoopMark;
use super::planner::Planner;
use crate::model::isl::{IslResult, Map, UnionMap};
use crate::options::{PlanRequest, ScheduleKind};
use crate::schedule::{analysis, Analysis};

impl Planner<'_> {
    /// Parallel loop dimensions (some only once scalars are privatised:
    /// see [`Planner::parallel_with_private`]), and those whose accesses
    /// are all contiguous.
    pub(super) fn mark(&mut self, request: &PlanRequest) -> IslResult<()> {
        let (dims, n_stmts) = (self.nest.scattering.dims, self.nest.scattering.maps.len());
        let mut marks = vec![vec![LoopMark::default(); dims]; n_stmts];
        let mut sequential_outside = false;
        // A nest the planner put back in the source order gets no SIMD
        // marks: gcc vectorises the source loops as well, and the pragma
        // can keep it from jamming the loop around (utsolve 0.67x).
        let fallen_back = self.in_original_order && request.schedule == ScheduleKind::Auto;
        let loops: Vec<usize> = (0..dims).filter(|&k| self.analysis.is_loop(k)).collect();
        for k in loops {
            // A loop carrying a dependence only vertically is jammed where
            // its iterations update one cell in turn (gemm's reduction
            // 1.35x: the sum stays in a register); where each writes a
            // cell of its own (TSVC's s1119, `a[i][j] = a[i-1][j] + ..`),
            // the copies share only a load the cache serves anyway, and
            // their streams cost more (1.2x-1.5x slower). A parallel loop
            // is jammed only as a register block around such a loop, as
            // alone it multiplies memory streams and keeps nothing in
            // registers (gemm's rows 1.12x -> 1.00x).
            if request.unroll_jam.is_some() {
                if self.analysis.is_parallel(k)? {
                    marks.iter_mut().for_each(|own| own[k].block = true);
                } else if self.jams(k)? {
                    marks.iter_mut().for_each(|own| own[k].jam = true);
                }
            }
            let Some(private) = self.parallel_with_private(k)? else {
                sequential_outside = true;
                continue;
            };
            // A private array per SIMD lane is no vector loop.
            let simd = request.simd
                && !fallen_back
                && private & self.private_arrays == 0
                && self.analysis.strides().contiguous_accesses(self.scop, k)?.1 == 0;
            let worth_a_region = self.worth_a_parallel_region(k, sequential_outside)?;
            // A SIMD loop inside copies out the scalars the loops around
            // privatise (their arrays are each thread's own already).
            let outside = if simd {
                marks.iter().flat_map(|own| &own[..k]).fold(0, |b, m| b | m.private) & !self.private_arrays
            } else {
                0
            };
            let copy_out = self.copy_out(k, private | outside)?;
            for (own, worth) in marks.iter_mut().zip(worth_a_region) {
                own[k] = LoopMark {
                    parallel: request.parallel,
                    region: request.parallel && worth,
                    simd,
                    private,
                    copy_out,
                    jam: own[k].jam,
                    block: own[k].block,
                };
            }
        }
        let all: Vec<&LoopMark> = marks.iter().flatten().collect();
        if all.iter().any(|m| m.parallel && m.region) {
            self.notes.applied("parallel");
        }
        if all.iter().any(|m| m.simd) {
            self.notes.applied("simd");
        }
        if all.iter().any(|m| m.private != 0) {
            self.notes.applied("privatise");
        }
        self.marks = marks;
        Ok(())
    }

    /// Whether the loop over `k` is parallel once the scalars of the bit
    /// set it returns get a private copy per iteration (see
    /// [`analysis::is_privatisable`]); `Some(0)` when it is parallel as it
    /// is. symm's `temp2` and doitgen's `sum` are such variables.
    pub(super) fn parallel_with_private(&mut self, k: usize) -> IslResult<Option<u64>> {
        if let Some(&known) = self.parallel_with_private.get(&k) {
            return Ok(known);
        }
        let found = self.find_parallel_with_private(k)?;
        self.parallel_with_private.insert(k, found);
        Ok(found)
    }

    /// [`Planner::parallel_with_private`], computed.
    fn find_parallel_with_private(&mut self, k: usize) -> IslResult<Option<u64>> {
        if self.analysis.is_parallel(k)? {
            return Ok(Some(0));
        }
        let deps = self.deps;
        let (mut names, mut bits) = (Vec::new(), 0u64);
        for (bit, (name, flow)) in deps.privatisable().enumerate().take(u64::BITS as usize) {
            let in_time = self.private_flow_in_time(bit, flow)?;
            if analysis::is_privatisable(self.scop, &self.nest.scattering, in_time.as_ref(), name, k)? {
                names.push(name.to_string());
                bits |= 1 << bit;
            }
        }
        if names.is_empty() {
            return Ok(None);
        }
        let rest = deps.generators_except(&names)?;
        let parallel = Analysis::new(&self.nest.scattering, &rest, self.n_params)?.is_parallel(k)?;
        Ok(parallel.then_some(bits))
    }

    /// The flow through the privatisable variable `bit` in pairs of times
    /// under the nest's scattering ([`analysis::in_time`]), once per
    /// scattering: every loop dimension asks (composed once per dimension
    /// and variable, deriche ran 3% more instructions).
    fn private_flow_in_time(&mut self, bit: usize, flow: &UnionMap) -> IslResult<Option<Map>> {
        if let Some(known) = self.private_flows_in_time.get(&bit) {
            return Ok(known.clone());
        }
        let pairs = analysis::in_time(&self.nest.scattering, flow)?;
        self.private_flows_in_time.insert(bit, pairs.clone());
        Ok(pairs)
    }

    /// The variables of the bit set `private` whose copies per iteration
    /// of the loop over `k` must be copied out (see
    /// [`analysis::live_after_iteration`]).
    fn copy_out(&mut self, k: usize, private: u64) -> IslResult<u64> {
        let deps = self.deps;
        let mut bits = 0;
        for (bit, (name, flow)) in deps.privatisable().enumerate().take(u64::BITS as usize) {
            if private & 1 << bit == 0 {
                continue;
            }
            let in_time = self.private_flow_in_time(bit, flow)?;
            if analysis::live_after_iteration(self.scop, &self.nest.scattering, (flow, in_time.as_ref()), name, k)? {
                bits |= 1 << bit;
            }
        }
        Ok(bits)
    }

    /// For each statement of the nest, whether a parallel loop over `k`
    /// around it is worth an OpenMP region: always outside every
    /// sequential loop; inside one (a region per iteration) only when the
    /// region's work outgrows their number: two or more of the
    /// statement's iterators vary inside it, and more than outside.
    /// utsolve's region around its innermost loop alone measured 0.49x on
    /// two threads, doitgen's around two of four iterators (105,000
    /// regions) 0.5x even on one; floyd-warshall's tiles of (i, j) inside
    /// `k` and the wavefront, 1.8x on two. A loop runs in parallel when
    /// some statement inside is worth it (adi's rows, whose boundary
    /// statements alone are not: 1.0x -> 2.0x on two threads). Not for
    /// a statement the loop runs once per outer iteration (the first
    /// time tiles of fdtd-2d's wavefront): its region holds one thread's
    /// work. A loop whose statements run once only on some iterations
    /// (trisolv's diagonal tiles, split from the others by the scanner)
    /// still gets one.
    fn worth_a_parallel_region(&self, k: usize, sequential_outside: bool) -> IslResult<Vec<bool>> {
        let sc = &self.nest.scattering;
        if !sequential_outside {
            return Ok(vec![true; sc.maps.len()]);
        }
        sc.statements(self.scop)
            .map(|(time, st)| {
                let inside = analysis::iterators_inside(time, st, k)?;
                Ok(inside >= 2 && 2 * inside > st.domain.dimension()? && !analysis::single_iteration_at(time, st, k)?)
            })
            .collect()
    }
}
