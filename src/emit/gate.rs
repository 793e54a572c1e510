//! Threads only where a region's work pays them: in the loops for little
//! work and in loops with no tiles but strips (`Program::region_work`),
//! each `omp parallel for` runs on more than one thread only when the
//! instances one run of the region holds reach `POLYC_MIN_REGION_WORK`,
//! and otherwise runs as a plain loop.
//!
//! The work of a region is, summed over the statements inside, the
//! product of the extents of the statement's iterators that vary inside
//! it (bound to the parallel loop or a loop inside, directly or through
//! bindings): over the whole domain, so a triangle counts as its square.
//! A row loop inside a time loop counts one time step's rows. Below the
//! threshold, or with one thread (`POLYC_THREADS`, OpenMP's count), the
//! same loop runs without OpenMP. bicg, gesummv and mvt at
//! LARGE (4 to 8 million instances, below `POLYC_MIN_WORK`) ran 1.4x to
//! 1.6x faster on two threads than on one.

use super::nest::leaves;
use super::printer::{LoopHead, Printer};
use super::program::RegionWork;
use crate::model::affine::LinExpr;
use crate::scan::ast::Node;

/// When a parallel loop starts threads.
pub(super) enum Gate {
    /// Always: the program gates no region.
    Always,
    /// Never: no statement inside has two iterators that vary inside (a
    /// row's loop, atax's `y[i] = 0`), which below `POLYC_MIN_WORK` is too
    /// little work for threads whatever the sizes (the loops for little
    /// work only); the loop stays plain.
    Never,
    /// Where this condition holds.
    When(String),
}

impl Printer<'_> {
    /// When a parallel loop over `dim` around `body` starts threads: where
    /// the program gates its regions, `work >= POLYC_MIN_REGION_WORK &&
    /// POLYC_THREADS > 1`.
    pub(super) fn region_gate(&mut self, dim: usize, body: &[Node]) -> Gate {
        let Some(RegionWork { extents, below_min_work }) = self.program.region_work else { return Gate::Always };
        let mut loops = vec![dim];
        loop_dims(body, &mut loops);
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        // Per statement, which of its iterators vary inside, over every
        // place it appears.
        let mut inside: Vec<(usize, Vec<bool>)> = Vec::new();
        for leaf in &found {
            let Some(of_statement) = extents.get(leaf.id) else { continue };
            let mut varying = loops.clone();
            for (bound, value) in &leaf.bindings {
                if varying.iter().any(|&d| value.involves_dim(d)) {
                    varying.push(*bound);
                }
            }
            let its: Vec<bool> =
                (0..of_statement.len()).map(|d| varying.contains(&(self.program.iter_base + d))).collect();
            match inside.iter_mut().find(|(id, _)| *id == leaf.id) {
                Some((_, known)) => known.iter_mut().zip(its).for_each(|(k, v)| *k |= v),
                None => inside.push((leaf.id, its)),
            }
        }
        if below_min_work && inside.iter().all(|(_, its)| its.iter().filter(|v| **v).count() < 2) {
            return Gate::Never;
        }
        let products: Vec<Vec<&LinExpr>> = inside
            .iter()
            .map(|(id, its)| extents[*id].iter().zip(its).filter(|(_, v)| **v).map(|(e, _)| e).collect())
            .collect();
        self.helpers.min_region_work = true;
        // The work first: where it is a constant below the bar, the C
        // compiler drops the branch, and OpenMP's call with it.
        Gate::When(format!("{} >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1", self.work_sum(&products)))
    }

    /// The parallel loop `head` over `body` where `gate` holds, else the
    /// same loop on this thread: not an OpenMP region whose `if` clause
    /// fails, which gcc still outlines into a function of its own and
    /// optimises less (gesummv's loops for little work on one thread:
    /// 0.0017 s as a plain loop, 0.0021 s outlined).
    pub(super) fn gated_parallel_loop(
        &mut self,
        gate: &str,
        parallel: impl FnOnce(&mut Self, usize),
        (head, body): (&LoopHead, &[Node]),
        depth: usize,
    ) {
        self.line(depth, &format!("if ({gate}) {{"));
        parallel(self, depth + 1);
        self.line(depth, "} else {");
        // No region inside either: this loop is the one worth threads.
        self.loop_body(head, body, depth + 1, true);
        self.line(depth, "}");
    }
}

/// Extend `dims` with the dimension of every loop in `nodes`.
fn loop_dims(nodes: &[Node], dims: &mut Vec<usize>) {
    for n in nodes {
        match n {
            Node::For { dim, body, .. } => {
                dims.push(*dim);
                loop_dims(body, dims);
            }
            Node::Let { body, .. } | Node::Guard { body, .. } => loop_dims(body, dims),
            Node::Stmt { .. } => {}
        }
    }
}
