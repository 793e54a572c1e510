//! The printer's state, shared by the files that print each construct:
//! kept apart from them (and from what they compute) so that none of them
//! depends on another to reach it.

use super::helpers::Helpers;
use super::program::Program;
use crate::model::affine::LinExpr;
use crate::names::FreshNames;
use crate::scan::ast::Node;
use std::fmt::Write;

pub(super) struct Printer<'a> {
    pub(super) program: &'a Program<'a>,
    pub(super) names: &'a mut FreshNames,
    pub(super) out: String,
    pub(super) helpers: Helpers,
    /// Each dimension's value over loop variables (`Dim(k)` = variable of loop `k`).
    pub(super) env: Vec<LinExpr>,
    /// Loop variable names by dimension.
    pub(super) vars: Vec<Option<String>>,
    /// Inside an `omp parallel for` (no nested parallel regions).
    pub(super) in_parallel: bool,
    /// Inside a region around a wavefront, outside its worksharing loops:
    /// a loop marked parallel is one of those (see `wavefront`).
    pub(super) sharing: bool,
    /// The scalars the parallel loop around privatises, which a SIMD loop
    /// inside privatises per lane again. Not its arrays: each thread's
    /// is its own already, and a SIMD loop writes its elements apart (a
    /// copy per lane, copied out from the last, would lose the others).
    pub(super) private_outside: u64,
    /// How many loops enclose the current position.
    pub(super) loops_outside: usize,
    /// Printing the planned loops of a contraction whose panels could not
    /// be allocated (see `packed`): not packed again.
    pub(super) unpacked: bool,
    /// Whether some loop was unrolled and jammed.
    pub(super) jammed: bool,
    /// Whether some loop runs in parallel.
    pub(super) parallel: bool,
    /// Whether some loop is marked SIMD.
    pub(super) simd: bool,
    /// The targets of the contractions printed on packed panels, as written.
    pub(super) packed: Vec<String>,
    /// Whether the source text runs where the run-time checks fail.
    pub(super) fallback: Vec<&'static str>,
    /// Array elements the statements here read from local variables.
    pub(super) scalars: Vec<Scalar>,
    /// The scalars the parallel loop around copies out itself, and its
    /// iteration's time value in C: each write is recorded.
    pub(super) records: Vec<(Record, String)>,
    /// By statement, whether it appears exactly once in the tree printed.
    pub(super) once: Vec<bool>,
}

/// A loop's header line, and the dimension its variable `name` stands
/// for (times `sign`).
pub(super) struct LoopHead {
    pub(super) dim: usize,
    pub(super) sign: i64,
    pub(super) name: String,
    pub(super) text: String,
}

/// An array element in a local variable ([`promote`](super::promote)).
#[derive(Clone, Debug)]
pub(super) struct Scalar {
    pub array: String,
    /// The element as the statements spell it at this point.
    pub access: String,
    pub name: String,
    /// Loaded from memory first (else the first statement only writes it).
    pub load: bool,
}

/// A scalar the parallel loop around copies out, and the names of the
/// thread's record of its last write ([`copy_out`](super::copy_out)).
#[derive(Clone, Debug)]
pub(super) struct Record {
    pub(super) var: String,
    /// Whether the thread wrote it.
    pub(super) wrote: String,
    /// The loop's time value at the thread's last write.
    pub(super) when: String,
    /// The value that write left.
    pub(super) value: String,
    /// The shared flag: some thread copied its value out.
    pub(super) copied: String,
    /// The shared time value of the write copied out.
    pub(super) last: String,
}

impl<'a> Printer<'a> {
    pub(super) fn new(program: &'a Program<'a>, nodes: &[Node], names: &'a mut FreshNames) -> Printer<'a> {
        let mut ids = Vec::new();
        Node::statements(nodes, &mut ids);
        let mut seen = vec![0usize; program.stmts.len()];
        for id in ids {
            if let Some(count) = seen.get_mut(id) {
                *count += 1;
            }
        }
        Printer {
            program,
            names,
            out: String::new(),
            helpers: Helpers::default(),
            env: (0..program.dims).map(LinExpr::dim).collect(),
            vars: vec![None; program.dims],
            in_parallel: false,
            sharing: false,
            private_outside: 0,
            loops_outside: 0,
            unpacked: false,
            jammed: false,
            parallel: false,
            simd: false,
            packed: Vec::new(),
            fallback: Vec::new(),
            scalars: Vec::new(),
            records: Vec::new(),
            once: seen.into_iter().map(|count| count == 1).collect(),
        }
    }
}

impl Printer<'_> {
    pub(super) fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{}{}", self.program.indent, "  ".repeat(depth), text);
    }

    /// `print` with the loop `head`'s variable in scope.
    pub(super) fn in_loop(&mut self, head: &LoopHead, in_parallel: bool, print: impl FnOnce(&mut Self)) {
        let dim = head.dim;
        let saved = (self.env[dim].clone(), self.vars[dim].clone(), self.in_parallel);
        self.env[dim] = LinExpr::dim(dim).scale(head.sign);
        self.vars[dim] = Some(head.name.clone());
        self.in_parallel = in_parallel;
        self.loops_outside += 1;
        print(self);
        self.loops_outside -= 1;
        (self.env[dim], self.vars[dim], self.in_parallel) = saved;
    }

    /// A new name from `base` for the SCoP's block ([`FreshNames::mint`]).
    pub(super) fn fresh_name(&mut self, base: &str) -> String {
        self.names.mint(base)
    }

    /// A new name from `base` for a block of its own, clear of the loop
    /// variables in scope ([`FreshNames::mint_local`]).
    pub(super) fn fresh_local(&mut self, base: &str) -> String {
        let vars = &self.vars;
        self.names.mint_local(base, |n| vars.iter().flatten().any(|v| v == n))
    }
}
