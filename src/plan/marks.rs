//! The planner's verdict on each statement's loops, which the printer
//! reads: kept free of the printer's own types so that it can live with
//! the planner.

/// What the schedule allows for one statement's loop over one dimension.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopMark {
    /// No dependence is carried: `omp parallel for` on the outermost such
    /// loop, if some statement inside is worth a region (`region`).
    pub parallel: bool,
    /// The statement's work inside the loop is worth an OpenMP region.
    pub region: bool,
    /// Parallel and every access contiguous: a SIMD loop when innermost.
    pub simd: bool,
    /// Variables (bits of
    /// [`Program::private_vars`](crate::emit::Program::private_vars)) each
    /// iteration needs its own copy of: without them the loop would not be
    /// parallel.
    pub private: u64,
    /// Variables (bits as `private`) whose copies must be copied out
    /// after the loop: a value an iteration leaves in one may be read
    /// after it (see [`crate::schedule::analysis::live_after_iteration`]).
    pub copy_out: u64,
    /// Unroll-and-jam asked for, and every dependence the loop carries
    /// has distance zero inside it: copies of its body for consecutive
    /// iterations may run side by side, in order, inside the loops it
    /// holds (the SIMD loop among them stays parallel).
    pub jam: bool,
    /// Unroll-and-jam asked for, and the loop carries no dependence: jammed
    /// only around a jammed loop, where its copies share a vector load
    /// (gemm's rows `i` around its jammed `k`, sharing `B[k][j]`: an
    /// `MR x NR` block of `C` in registers; see
    /// `Printer::blocks_registers` in `emit::registers`).
    pub block: bool,
}

/// A variable a loop may give each iteration a copy of.
#[derive(Clone, Debug)]
pub struct PrivateVar {
    pub name: String,
    /// A one-dimensional array object (else a scalar).
    pub is_array: bool,
}
