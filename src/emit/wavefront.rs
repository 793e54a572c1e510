//! One parallel region around a wavefront: where a sequential loop's
//! statements all lie in loops marked parallel directly inside it
//! (through bindings and guards only: diamond tiles' time steps, lu's
//! and floyd-warshall's `k`), the team of threads is started once,
//! around the sequential loop, and each step's parallel loops are its
//! worksharing loops (`#pragma omp for`), whose implicit barrier keeps
//! the steps in order. Every thread runs the sequential loop and its
//! guards itself: they read only loop variables and parameters, so all
//! threads take the same branches and meet every `omp for`, as OpenMP
//! requires. What a step runs outside its parallel loops, if no loop in
//! it is marked parallel (fdtd-2d's boundary row `ey[0][j] = fict[t]`),
//! runs on one thread, `#pragma omp single`, whose barrier orders it
//! with the rest. Not where a parallel loop copies private arrays or
//! scalars out, nor where regions are gated on their own work (`gate`):
//! each of those decides per loop whether threads run it at all.

use super::printer::{LoopHead, Printer};
use crate::scan::ast::Node;

impl Printer<'_> {
    /// Whether the loop over `body` steps a wavefront (see the module's
    /// doc): some loop inside is shared out, and the rest runs no loop
    /// marked parallel.
    pub(super) fn steps_wavefront(&self, body: &[Node]) -> bool {
        self.program.region_work.is_none() && !self.in_parallel && self.shares_loops(body) == Some(true)
    }

    /// `print`, on one thread of the team, in a block of its own.
    pub(super) fn on_one_thread(&mut self, depth: usize, print: impl FnOnce(&mut Self)) {
        self.line(depth, "#pragma omp single");
        self.line(depth, "{");
        self.with_sharing(false, print);
        self.line(depth, "}");
    }

    /// The loop `head` over `body` on a team started once around it, its
    /// parallel loops shared out among the team.
    pub(super) fn wavefront_region(&mut self, head: &LoopHead, body: &[Node], depth: usize) {
        self.line(depth, "#pragma omp parallel");
        self.with_sharing(true, |p| p.loop_body(head, body, depth, true));
    }

    /// `print` with [`Printer::sharing`] set to `sharing`, then as it was.
    pub(super) fn with_sharing(&mut self, sharing: bool, print: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.sharing, sharing);
        print(self);
        self.sharing = outer;
    }

    /// Whether some loop of `nodes`, under bindings and guards, is shared
    /// out as it is (marked parallel, not short, with nothing to copy
    /// out of its threads); `None` if some other node runs a loop marked
    /// parallel, which one thread would run alone.
    fn shares_loops(&self, nodes: &[Node]) -> Option<bool> {
        let mut shares = false;
        for n in nodes {
            shares |= match n {
                Node::Let { body, .. } | Node::Guard { body, .. } => self.shares_loops(body)?,
                Node::For { dim, lower, upper, body, .. } => {
                    let mark = self.program.loop_mark(*dim, body);
                    let shared = self.program.private_arrays(mark.private).is_empty()
                        && self.program.copied_scalars(mark.private, mark.copy_out).is_empty()
                        && self.worth_threads(&mark, *dim, (lower, upper), body);
                    if !shared && self.marks_parallel(std::slice::from_ref(n)) {
                        return None;
                    }
                    shared
                }
                Node::Stmt { .. } => false,
            };
        }
        Some(shares)
    }

    /// Whether some loop of `nodes` is marked parallel.
    fn marks_parallel(&self, nodes: &[Node]) -> bool {
        nodes.iter().any(|n| match n {
            Node::For { dim, body, .. } => self.program.loop_mark(*dim, body).parallel || self.marks_parallel(body),
            Node::Let { body, .. } | Node::Guard { body, .. } => self.marks_parallel(body),
            Node::Stmt { .. } => false,
        })
    }
}
