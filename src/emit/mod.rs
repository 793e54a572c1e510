//! The C printer: loop AST in, C text out. Statement bodies are their
//! original text with iterator occurrences replaced by the expressions the
//! scanner bound them to; loop variables take the original iterator's name
//! (and direction) where that is unambiguous, else a fresh name.

use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::{AccessKind, Stmt};
use crate::model::affine::{Constraint, LinExpr, Term};
use crate::model::alias::AliasCheck;
use crate::model::rows::RowTable;
use crate::names::FreshNames;
use crate::scan::ast::Node;
use crate::storage::expand::ExpandedArray;
use crate::storage::Contraction;
use std::collections::BTreeSet;
use std::fmt::Write;

mod copy_out;
mod promote;
mod rows;
mod versioned;

/// Helper macros, defined once in the output when used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Helpers {
    pub floord: bool,
    pub ceild: bool,
    pub min: bool,
    pub max: bool,
    pub min_work: bool,
    pub modulo: bool,
    pub disjoint: bool,
}

impl Helpers {
    pub fn union(self, o: Helpers) -> Helpers {
        Helpers {
            floord: self.floord || o.floord,
            ceild: self.ceild || o.ceild,
            min: self.min || o.min,
            max: self.max || o.max,
            min_work: self.min_work || o.min_work,
            modulo: self.modulo || o.modulo,
            disjoint: self.disjoint || o.disjoint,
        }
    }

    pub fn any(self) -> bool {
        self.floord || self.ceild || self.min || self.max || self.min_work || self.modulo || self.disjoint
    }

    /// The definitions, guarded so that a second copy is harmless.
    pub fn definitions(self) -> String {
        let min_work = format!(" {DEFAULT_MIN_WORK}");
        let defs = [
            (self.floord, "polyc_floord", "(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))"),
            (self.ceild, "polyc_ceild", "(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))"),
            (self.min, "polyc_min", "(x, y) ((x) < (y) ? (x) : (y))"),
            (self.max, "polyc_max", "(x, y) ((x) > (y) ? (x) : (y))"),
            (self.min_work, "POLYC_MIN_WORK", &min_work),
            (self.modulo, "polyc_mod", "(a, m) ((((a) % (m)) + (m)) % (m))"),
            (
                self.disjoint,
                "polyc_disjoint",
                "(a, a_end, b, b_end) \\\n  ((__UINTPTR_TYPE__)(a_end) <= (__UINTPTR_TYPE__)(b) || (__UINTPTR_TYPE__)(b_end) <= (__UINTPTR_TYPE__)(a))",
            ),
        ];
        let mut out = String::new();
        for (used, name, body) in defs {
            if used {
                let _ = writeln!(out, "#ifndef {name}\n#define {name}{body}\n#endif");
            }
        }
        out
    }
}

/// What the printer needs besides the loop AST.
pub struct Program<'a> {
    pub stmts: &'a [Stmt],
    pub params: &'a [String],
    /// First dimension holding statement iterators.
    pub iter_base: usize,
    pub dims: usize,
    pub indent: &'a str,
    /// How loops may be marked, by statement, then time dimension
    /// (missing: no mark); see [`Program::loop_mark`].
    pub marks: &'a [Vec<LoopMark>],
    /// The variables a mark's `private` bits stand for.
    pub private_vars: &'a [PrivateVar],
    /// Whether the output is compiled with OpenMP (else SIMD loops get `GCC ivdep`).
    pub openmp: bool,
    /// Unroll-and-jam factor for loops marked `jam`.
    pub unroll_jam: Option<i64>,
    /// Scalars the statements hold in arrays instead: the loops run in a
    /// block that allocates them, with `source` (the SCoP's text) as
    /// the fallback if an allocation fails.
    pub expanded: &'a [ExpandedArray],
    /// Each statement's iterator extents over the parameters: the loops
    /// run only if the sum of their products reaches `POLYC_MIN_WORK`
    /// (a macro, [`DEFAULT_MIN_WORK`] unless defined), else `small`.
    pub work: Option<&'a [Vec<LinExpr>]>,
    /// The loops for less work than that ([`print_loops`]' text: what
    /// costs nothing at run time, no tiles, no threads), where the
    /// run-time checks hold; `None`: `source` serves.
    pub small: Option<&'a str>,
    /// The parameter values (disjuncts of constraints) where every
    /// subscript stays within its array's declared extents: the new
    /// loops run only there, else `source`.
    pub in_bounds: &'a [Vec<Constraint>],
    /// Variables that may share memory: the new loops run only where
    /// the address ranges of each pair do not meet, else `source`.
    pub disjoint: &'a [AliasCheck],
    /// Tables of row pointers whose rows `disjoint` compares, or that
    /// the SCoP writes: walked before the checks, which need them walked
    /// and (written) their rows apart.
    pub tables: &'a [RowTable],
    /// Pointers the new loops redeclare `restrict` (they run only where
    /// `disjoint` holds, or the user assumes it), so that the C compiler
    /// need not keep values in memory or check for overlaps itself.
    pub restricted: &'a [String],
    /// Temporary arrays folded onto fewer cells (the statements already
    /// access them): declared in the block of the new loops, which run
    /// only where the mappings are proven.
    pub contracted: &'a [Contraction],
    pub source: &'a str,
    /// Parameters the front end defined (name, C expression over the
    /// others; [`crate::frontend::ScopAst::definitions`]): declared
    /// first, in a block around everything else, so that the run-time
    /// checks and the new loops see them.
    pub definitions: &'a [(String, String)],
}

/// Statement instances below which a SCoP runs as written: tiles, loop
/// overheads and OpenMP regions cost more than they save in a few
/// milliseconds of work (jacobi-1d's 2 million instances took 0.3 ms
/// as written, 0.9 ms time-tiled, 2.6-14 ms on two threads), while the
/// smallest kernels that gain (gemver, 16 million) keep their new loops.
pub const DEFAULT_MIN_WORK: &str = "1e7";

/// The mark of a loop over `dim` around `body`, given each statement's
/// `marks`: what every statement inside allows.
fn loop_mark(marks: &[Vec<LoopMark>], dim: usize, body: &[Node]) -> LoopMark {
    let mut ids = Vec::new();
    Node::statements(body, &mut ids);
    let marks: Vec<LoopMark> =
        ids.iter().map(|&id| marks.get(id).and_then(|m| m.get(dim)).copied().unwrap_or_default()).collect();
    LoopMark {
        parallel: !marks.is_empty() && marks.iter().all(|m| m.parallel) && marks.iter().any(|m| m.region),
        region: marks.iter().any(|m| m.region),
        simd: !marks.is_empty() && marks.iter().all(|m| m.simd),
        private: marks.iter().fold(0, |bits, m| bits | m.private),
        copy_out: marks.iter().fold(0, |bits, m| bits | m.copy_out),
        jam: !marks.is_empty() && marks.iter().all(|m| m.jam),
        block: !marks.is_empty() && marks.iter().all(|m| m.block),
    }
}

/// Whether some loop of `nodes` gets a parallel or SIMD mark from
/// `marks`: statements marked one by one may still share no marked loop.
pub fn marks_some_loop(marks: &[Vec<LoopMark>], nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::For { dim, body, .. } => {
            let mark = loop_mark(marks, *dim, body);
            mark.parallel || mark.simd || marks_some_loop(marks, body)
        }
        Node::Let { body, .. } | Node::Guard { body, .. } => marks_some_loop(marks, body),
        Node::Stmt { .. } => false,
    })
}

impl Program<'_> {
    /// The mark of a loop over `dim` around `body`: what every statement
    /// inside allows, with private copies only of the variables some
    /// statement inside writes. The scanner may split a loop into several
    /// (statements apart): one whose statements never write a variable
    /// must not copy its uninitialised private copy out.
    fn loop_mark(&self, dim: usize, body: &[Node]) -> LoopMark {
        let mark = loop_mark(self.marks, dim, body);
        LoopMark { private: self.written_in(mark.private, body), ..mark }
    }

    /// The variables of `private` that some statement of `body` writes.
    fn written_in(&self, private: u64, body: &[Node]) -> u64 {
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        let written = |var: &PrivateVar| {
            ids.iter().filter_map(|&id| self.stmts.get(id)).any(|st| {
                st.accesses.iter().any(|a| a.kind == crate::frontend::AccessKind::Write && a.array == var.name)
            })
        };
        (0..self.private_vars.len())
            .filter(|&bit| private & (1 << bit) != 0 && written(&self.private_vars[bit]))
            .fold(0, |bits, bit| bits | 1 << bit)
    }

    /// The variables of the bit set `private`.
    fn private_vars(&self, private: u64) -> impl Iterator<Item = &PrivateVar> {
        self.private_vars.iter().enumerate().filter(move |(bit, _)| private & (1 << bit) != 0).map(|(_, v)| v)
    }

    /// The arrays among the variables of `private`.
    fn private_arrays(&self, private: u64) -> Vec<&str> {
        self.private_vars(private).filter(|v| v.is_array).map(|v| v.name.as_str()).collect()
    }

    /// The clauses giving each iteration a copy of the variables of
    /// `private`, or nothing: scalars `private(..)`, plain locals the C
    /// compiler keeps in registers (those of `copy_out` the printer copies
    /// out itself, see [`copy_out`]); arrays of `copy_out`, which OpenMP
    /// copies out whole from the last iteration, `lastprivate(row)`.
    fn private_clauses(&self, private: u64, copy_out: u64) -> String {
        let names = |vars: Vec<&PrivateVar>| vars.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ");
        let (arrays, local): (Vec<&PrivateVar>, Vec<&PrivateVar>) =
            self.private_vars(private).partition(|v| v.is_array && self.private_bit(v) & copy_out != 0);
        let mut clause = String::new();
        if !local.is_empty() {
            clause.push_str(&format!(" private({})", names(local)));
        }
        if !arrays.is_empty() {
            clause.push_str(&format!(" lastprivate({})", names(arrays)));
        }
        clause
    }

    /// The bit of `var` in marks' `private` sets.
    fn private_bit(&self, var: &PrivateVar) -> u64 {
        self.private_vars.iter().position(|v| v.name == var.name).map_or(0, |bit| 1 << bit)
    }

    /// `private(..)` for the condition variables the statements of
    /// `body` set ([`Stmt::sets`]): each value lives within one iteration
    /// of any loop that carries no dependence (its readers depend on it).
    fn filter_clause(&self, body: &[Node]) -> String {
        let mut ids = Vec::new();
        Node::statements(body, &mut ids);
        // A statement the scanner split over pieces appears once per piece.
        let names: BTreeSet<&str> = ids.iter().filter_map(|&id| self.stmts[id].sets.as_deref()).collect();
        if names.is_empty() {
            return String::new();
        }
        format!(" private({})", names.into_iter().collect::<Vec<_>>().join(", "))
    }
}

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
    /// Variables (bits of [`Program::private_vars`]) each iteration needs
    /// its own copy of: without them the loop would not be parallel.
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
    /// `MR x NR` block of `C` in registers; see [`Printer::blocks_registers`]).
    pub block: bool,
}

/// A variable a loop may give each iteration a copy of.
#[derive(Clone, Debug)]
pub struct PrivateVar {
    pub name: String,
    /// A one-dimensional array object (else a scalar).
    pub is_array: bool,
}

/// The most bytes of private arrays a parallel loop may copy onto each
/// thread's stack (threads other than the first get a few MiB).
const PRIVATE_ARRAYS_MAX: usize = 1 << 18;

/// The C text of a SCoP's loops, and what it took.
pub struct Printed {
    pub text: String,
    pub helpers: Helpers,
    /// Whether some loop was unrolled and jammed.
    pub jammed: bool,
}

/// Print `nodes` as C, minting new names from `names`.
pub fn print(program: &Program, nodes: &[Node], names: &mut FreshNames) -> Printed {
    let mut p = Printer::new(program, names);
    let filters: Vec<&str> = program.stmts.iter().filter_map(|s| s.sets.as_deref()).collect();
    let defined = !program.definitions.is_empty() || !filters.is_empty();
    if defined {
        p.line(0, "{");
        for (name, value) in program.definitions {
            p.line(1, &format!("const long {name} = {value};"));
        }
        if !filters.is_empty() {
            p.line(1, &format!("int {};", filters.join(", ")));
        }
    }
    let in_bounds_everywhere = program.in_bounds.iter().any(|conj| conj.is_empty());
    let unchecked = program.work.is_none()
        && in_bounds_everywhere
        && program.disjoint.is_empty()
        && program.tables.is_empty()
        && program.restricted.is_empty();
    if program.expanded.is_empty() && program.contracted.is_empty() && unchecked {
        p.nodes(nodes, 0);
    } else {
        p.versioned(nodes);
    }
    if defined {
        p.line(0, "}");
    }
    Printed { text: p.out, helpers: p.helpers, jammed: p.jammed }
}

/// Print `nodes` as C loops alone: no definitions, condition variables
/// or run-time checks (the [`Program::small`] of a program that has them).
pub fn print_loops(program: &Program, nodes: &[Node], names: &mut FreshNames) -> Printed {
    let mut p = Printer::new(program, names);
    p.nodes(nodes, 0);
    Printed { text: p.out, helpers: p.helpers, jammed: p.jammed }
}

struct Printer<'a> {
    program: &'a Program<'a>,
    names: &'a mut FreshNames,
    out: String,
    helpers: Helpers,
    /// Each dimension's value over loop variables (`Dim(k)` = variable of loop `k`).
    env: Vec<LinExpr>,
    /// Loop variable names by dimension.
    vars: Vec<Option<String>>,
    /// Inside an `omp parallel for` (no nested parallel regions).
    in_parallel: bool,
    /// The variables the parallel loop around copies out.
    private_outside: u64,
    /// How many loops enclose the current position.
    loops_outside: usize,
    /// Whether some loop was unrolled and jammed.
    jammed: bool,
    /// Array elements the statements here read from local variables.
    scalars: Vec<promote::Scalar>,
    /// The scalars the parallel loop around copies out itself, and its
    /// iteration's time value in C: each write is recorded.
    records: Vec<(copy_out::Record, String)>,
}

/// A loop's header line, and the dimension its variable `name` stands
/// for (times `sign`).
struct LoopHead {
    dim: usize,
    sign: i64,
    name: String,
    text: String,
}

/// A statement instance below a loop: its id and the bindings on the way.
struct Leaf {
    id: usize,
    bindings: Vec<(usize, LinExpr)>,
}

fn leaves(nodes: &[Node], path: &mut Vec<(usize, LinExpr)>, out: &mut Vec<Leaf>) {
    for n in nodes {
        match n {
            Node::Stmt { id } => out.push(Leaf { id: *id, bindings: path.clone() }),
            Node::Let { dim, value, body } => {
                path.push((*dim, value.clone()));
                leaves(body, path, out);
                path.pop();
            }
            Node::For { body, .. } | Node::Guard { body, .. } => leaves(body, path, out),
        }
    }
}

impl<'a> Printer<'a> {
    fn new(program: &'a Program<'a>, names: &'a mut FreshNames) -> Printer<'a> {
        Printer {
            program,
            names,
            out: String::new(),
            helpers: Helpers::default(),
            env: (0..program.dims).map(LinExpr::dim).collect(),
            vars: vec![None; program.dims],
            in_parallel: false,
            private_outside: 0,
            loops_outside: 0,
            jammed: false,
            scalars: Vec::new(),
            records: Vec::new(),
        }
    }
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{}{}", self.program.indent, "  ".repeat(depth), text);
    }

    fn nodes(&mut self, nodes: &[Node], depth: usize) {
        for n in nodes {
            match n {
                Node::Stmt { id } => {
                    let text = self.statement(*id);
                    self.line(depth, &text);
                }
                Node::Let { dim, value, body } => {
                    let saved = self.env[*dim].clone();
                    self.env[*dim] = value.substitute(&|k| self.env[k].clone());
                    self.nodes(body, depth);
                    self.env[*dim] = saved;
                }
                Node::Guard { cond, body } => {
                    let c = self.condition(cond);
                    self.block(depth, &format!("if ({c})"), body);
                }
                Node::For { dim, lower, upper, stride, body } => {
                    self.for_loop(*dim, lower, upper, *stride, body, depth)
                }
            }
        }
    }

    /// `head` then `body`, braced only when it prints more than one line
    /// at its own level.
    fn block(&mut self, depth: usize, head: &str, body: &[Node]) {
        if printed_items(body) == 1 {
            self.line(depth, head);
            self.nodes(body, depth + 1);
        } else {
            self.line(depth, &format!("{head} {{"));
            self.nodes(body, depth + 1);
            self.line(depth, "}");
        }
    }

    fn for_loop(&mut self, dim: usize, lower: &[LinExpr], upper: &[LinExpr], stride: i64, body: &[Node], depth: usize) {
        let (name, ty, sign) = self.loop_variable(dim, body);
        let mark = self.program.loop_mark(dim, body);
        // A few iterations (a filter's taps) are no work for threads. A
        // private array is copied out whole from the loop's last iteration:
        // only where every iteration runs every statement inside.
        let arrays_exact = self.program.private_arrays(mark.private).is_empty() || runs_all_inside(dim, body);
        let parallel = mark.parallel && !self.in_parallel && !is_short(lower, upper) && arrays_exact;
        let simd = mark.simd && !parallel && !contains_loop(body);
        let lower: Vec<LinExpr> = lower.iter().map(|e| e.substitute(&|k| self.env[k].clone())).collect();
        let mut upper: Vec<LinExpr> = upper.iter().map(|e| e.substitute(&|k| self.env[k].clone())).collect();
        // With sign -1 the variable is -c: it starts at -max(lower) and runs down to -min(upper).
        let neg = |v: &[LinExpr]| v.iter().map(|e| e.scale(-1)).collect::<Vec<_>>();
        let start = if sign > 0 { self.extreme(&lower, true) } else { self.extreme(&neg(&lower), false) };
        if let Some(factor) = self.program.unroll_jam {
            let block = !mark.jam && mark.block && self.blocks_registers(dim, body);
            if (mark.jam || block) && !parallel && stride == 1 && sign > 0 && self.jammable(dim, body) {
                let end = self.extreme(&upper, false);
                let head = LoopHead { dim, sign, text: String::new(), name };
                let factor = if block { BLOCK_ROWS_PER_COPY * factor } else { factor };
                self.jammed_loop(head, &ty, &start, &end, body, depth, factor);
                return;
            }
        }
        let mut depth = depth;
        let hoisted = simd && (upper.len() > 1 || upper.iter().any(LinExpr::has_floor));
        if hoisted {
            // A plain local bound lets the vectoriser see the trip count.
            let end_name = self.fresh_local(&format!("{name}_end"));
            let end = if sign > 0 { self.extreme(&upper, false) } else { self.extreme(&neg(&upper), true) };
            self.line(depth, "{");
            depth += 1;
            self.line(depth, &format!("const {ty} {end_name} = {end};"));
            let var = self.env.len();
            // The hoisted bound is the variable's own (negated with it).
            upper = vec![LinExpr::dim(var).scale(sign)];
            self.env.push(LinExpr::dim(var));
            self.vars.push(Some(end_name));
        }
        let end =
            if sign > 0 { self.bound_cmp(&name, &upper, false) } else { self.bound_cmp(&name, &neg(&upper), true) };
        let step = match (sign > 0, stride) {
            (true, 1) => format!("{name}++"),
            (false, 1) => format!("{name}--"),
            (true, s) => format!("{name} += {s}"),
            (false, s) => format!("{name} -= {s}"),
        };
        let head = LoopHead { dim, sign, text: format!("for ({ty} {name} = {start}; {end}; {step})"), name };
        let arrays = self.program.private_arrays(mark.private);
        if parallel && !arrays.is_empty() {
            // Each thread's copy of a private array lives on its stack:
            // only arrays small enough run in parallel. gcc 12 copies an
            // indeterminate array out of a loop that runs no iteration:
            // only a loop that runs does.
            let size: Vec<String> = arrays.iter().map(|a| format!("sizeof({a})")).collect();
            let first = parenthesised(start.clone());
            let runs = if sign > 0 {
                self.bound_cmp(&first, &upper, false)
            } else {
                self.bound_cmp(&first, &neg(&upper), true)
            };
            self.line(depth, &format!("if ({} <= {PRIVATE_ARRAYS_MAX} && {runs}) {{", size.join(" + ")));
            self.parallel_loop(&head, mark, body, depth + 1);
            self.line(depth, "} else {");
            self.loop_body(&head, body, depth + 1, true);
            self.line(depth, "}");
        } else if parallel {
            self.parallel_loop(&head, mark, body, depth);
        } else {
            if simd && self.program.openmp && self.writes_copied_scalars(mark, body) {
                self.loop_body(&head, body, depth, self.in_parallel);
            } else if simd && self.program.openmp {
                // The SIMD loop's private copies of what the parallel loop
                // around privatises (a nested construct's own).
                let outside = self.program.written_in(self.private_outside, body);
                let private = self.program.private_clauses(mark.private | outside, mark.copy_out);
                let filters = self.program.filter_clause(body);
                let pragma = format!("#pragma omp simd{private}{filters}");
                self.simd_loop(&head, mark, &pragma, &lower, &upper, body, depth);
            } else if simd {
                self.simd_loop(&head, mark, "#pragma GCC ivdep", &lower, &upper, body, depth);
            } else {
                self.loop_body(&head, body, depth, self.in_parallel);
            }
        }
        if hoisted {
            self.env.pop();
            self.vars.pop();
            self.line(depth - 1, "}");
        }
    }

    /// Whether `body`, the body of a loop over `dim`, is a perfect nest of
    /// loops whose bounds do not depend on `dim` and whose innermost loop
    /// is a SIMD loop: copies of its body for several values of `dim` then
    /// run over the same iterations, each from a vector register (gemm
    /// 1.17x -> 1.29-1.36x jammed by 4). Copies walking columns only
    /// multiply cache misses (syr2k 3.2x -> 2.0x).
    fn jammable(&self, dim: usize, body: &[Node]) -> bool {
        let mut nodes = body;
        loop {
            match nodes {
                [Node::For { dim: inner, body: inner_body, .. }] if !contains_loop(inner_body) => {
                    // Every loop of the nest, not only the innermost: the
                    // copies run inside bounds evaluated for the first.
                    return self.program.loop_mark(*inner, inner_body).simd
                        && !inner_bounds_vary_with(body, &mut vec![dim]);
                }
                [Node::For { body, .. }] => nodes = body,
                _ => return false,
            }
        }
    }

    /// Whether copies of `body` for consecutive values of `dim` form a
    /// register block: a loop of the perfect nest inside is jammed, and
    /// the innermost (SIMD) loop reads an element that moves with it but
    /// not with `dim`, which the copies then load once. Rows jammed
    /// without a jammed loop inside only multiply memory streams (gemm's
    /// rows alone 1.12x -> 1.00x); with its `k` jammed by 4 and its rows
    /// by 8, LARGE gemm 0.112 s -> 0.075 s.
    fn blocks_registers(&mut self, dim: usize, body: &[Node]) -> bool {
        let mut nodes = body;
        let mut jammed_inside = false;
        while let [Node::For { dim: inner, body: inner_body, stride, .. }] = nodes {
            if contains_loop(inner_body) {
                let mark = self.program.loop_mark(*inner, inner_body);
                jammed_inside |= mark.jam && *stride == 1 && self.jammable(*inner, inner_body);
                nodes = inner_body;
                continue;
            }
            return jammed_inside && self.shares_a_vector_load(dim, *inner, inner_body);
        }
        false
    }

    /// Unroll-and-jam of the loop `head` from `start` to `end` over `body`
    /// (see [`Printer::jammable`]): `factor` iterations per step, their copies of
    /// the innermost body side by side; then the iterations left, one by
    /// one. Legal as the loop carries no dependence but between points
    /// that the loops inside share (its `jam` mark).
    #[allow(clippy::too_many_arguments)]
    fn jammed_loop(
        &mut self,
        head: LoopHead,
        ty: &str,
        start: &str,
        end: &str,
        body: &[Node],
        depth: usize,
        factor: i64,
    ) {
        self.jammed = true;
        let name = head.name.clone();
        let end_name = self.fresh_local(&format!("{name}_end"));
        self.line(depth, "{");
        self.line(depth + 1, &format!("const {ty} {end_name} = {end};"));
        self.line(depth + 1, &format!("{ty} {name} = {start};"));
        let steps =
            LoopHead { text: format!("for (; {name} <= {end_name} - {}; {name} += {factor})", factor - 1), ..head };
        self.loop_body(&steps, &jam_copies(steps.dim, body, factor), depth + 1, self.in_parallel);
        let rest = LoopHead { text: format!("for (; {name} <= {end_name}; {name}++)"), ..steps };
        self.loop_body(&rest, body, depth + 1, self.in_parallel);
        self.line(depth, "}");
    }

    /// `#pragma omp parallel for` and the loop `head` over `body`.
    fn parallel_loop(&mut self, head: &LoopHead, mark: LoopMark, body: &[Node], depth: usize) {
        // Coarse iterations of unequal work (triangular or tiled bounds
        // around a nest): a static split leaves one thread with most of
        // it (syrk: 1.34x on two threads static, 1.95x dynamic; cholesky's
        // tiles inside its wavefront 0.26 s static, 0.20 s dynamic). Not
        // for fine iterations (seidel-2d's wavefront of points: 0.40 s
        // static, 0.8-4.6 s dynamic), nor inside two or more loops, where
        // each thread's data stays in its own cache only with a static
        // split (floyd-warshall: 2.5 s static, 5.8-7.5 s dynamic), nor
        // where neighbouring iterations write neighbouring parts of rows
        // (see `writes_share_rows`).
        let unequal = inner_bounds_vary_with(body, &mut vec![head.dim]);
        let dynamic =
            unequal && loop_depth(body) >= 2 && self.loops_outside <= 1 && !self.writes_share_rows(head.dim, body);
        let schedule = if dynamic { " schedule(dynamic)" } else { "" };
        let private = self.program.private_clauses(mark.private, mark.copy_out);
        let filters = self.program.filter_clause(body);
        let copied: Vec<String> =
            self.program.copied_scalars(mark.private, mark.copy_out).iter().map(|v| v.name.clone()).collect();
        if !copied.is_empty() {
            let clauses = format!("{schedule}{private}{filters}");
            self.parallel_loop_copying_out(head, mark, &copied, &clauses, body, depth);
            return;
        }
        self.line(depth, &format!("#pragma omp parallel for{schedule}{private}{filters}"));
        let outside = std::mem::replace(&mut self.private_outside, mark.private);
        self.loop_body(head, body, depth, true);
        self.private_outside = outside;
    }

    /// Whether iterations of the loop over `dim` write neighbouring parts
    /// of the same rows: some write's last subscript moves with the loop
    /// (directly or through inner loop bounds) and none of its others
    /// (there are some: a row per value of them) does. A dynamic
    /// schedule hands neighbouring iterations to
    /// different threads, whose writes then share a cache line in every
    /// row (gramschmidt's column tiles on two threads: 95 ms dynamic,
    /// 55 ms static).
    fn writes_share_rows(&self, dim: usize, body: &[Node]) -> bool {
        let mut moving = vec![dim];
        moving_with(body, &mut moving);
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        let base = self.program.iter_base;
        found.iter().any(|leaf| {
            let stmt = &self.program.stmts[leaf.id];
            let moves =
                |e: &QExpr| (0..stmt.iterators.len()).any(|j| e.mentions(Var::Iter(j)) && moving.contains(&(base + j)));
            stmt.accesses.iter().filter(|a| a.kind == AccessKind::Write).any(|a| match a.subscripts.split_last() {
                Some((last, others)) => !others.is_empty() && moves(last) && !others.iter().any(moves),
                None => false,
            })
        })
    }

    /// The loop `head` over `body`; `in_parallel`: inside a parallel
    /// region (no nested ones).
    fn loop_body(&mut self, head: &LoopHead, body: &[Node], depth: usize, in_parallel: bool) {
        self.in_loop(head, in_parallel, |p| p.block(depth, &head.text, body));
    }

    /// `print` with the loop `head`'s variable in scope.
    fn in_loop(&mut self, head: &LoopHead, in_parallel: bool, print: impl FnOnce(&mut Self)) {
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
    fn fresh_name(&mut self, base: &str) -> String {
        self.names.mint(base)
    }

    /// A new name from `base` for a block of its own, clear of the loop
    /// variables in scope ([`FreshNames::mint_local`]).
    fn fresh_local(&mut self, base: &str) -> String {
        let vars = &self.vars;
        self.names.mint_local(base, |n| vars.iter().flatten().any(|v| v == n))
    }

    /// Name, type and direction of the loop over `dim`: the original
    /// iterator's when every statement below binds its iterator of that
    /// name to exactly this dimension (or its negation).
    fn loop_variable(&mut self, dim: usize, body: &[Node]) -> (String, String, i64) {
        let mut found = Vec::new();
        leaves(body, &mut Vec::new(), &mut found);
        let base = self.program.iter_base;
        let binding =
            |leaf: &Leaf, it_dim: usize| leaf.bindings.iter().rev().find(|(d, _)| *d == it_dim).map(|(_, v)| v.clone());
        let in_scope: BTreeSet<String> = self.vars.iter().flatten().cloned().collect();
        for sign in [1, -1] {
            let target = LinExpr::dim(dim).scale(sign);
            let candidate = found.iter().find_map(|leaf| {
                let its = &self.program.stmts[leaf.id].iterators;
                its.iter()
                    .enumerate()
                    .find(|(j, _)| binding(leaf, base + j).as_ref() == Some(&target))
                    .map(|(_, it)| it.clone())
            });
            let Some(it) = candidate else { continue };
            let consistent = found.iter().all(|leaf| {
                self.program.stmts[leaf.id]
                    .iterators
                    .iter()
                    .enumerate()
                    .filter(|(_, other)| other.name == it.name)
                    .all(|(j, _)| binding(leaf, base + j).as_ref() == Some(&target))
            });
            if consistent && !in_scope.contains(&it.name) {
                return (it.name, it.ty, sign);
            }
        }
        (self.fresh_local(&format!("c{dim}")), "int".to_string(), 1)
    }

    /// `max(exprs)` (or min when `max` is false) as C.
    fn extreme(&mut self, exprs: &[LinExpr], max: bool) -> String {
        let mut texts: Vec<String> = exprs.iter().map(|e| self.expr(e)).collect();
        texts.dedup();
        let mut acc = texts.pop().unwrap_or_default();
        while let Some(t) = texts.pop() {
            if max {
                self.helpers.max = true;
                acc = format!("polyc_max({t}, {acc})");
            } else {
                self.helpers.min = true;
                acc = format!("polyc_min({t}, {acc})");
            }
        }
        acc
    }

    /// `v <= min(bounds)` (or `v >= max(bounds)` when descending), written
    /// `v < e + 1` when that reads better.
    fn bound_cmp(&mut self, v: &str, bounds: &[LinExpr], descending: bool) -> String {
        if let [b] = bounds {
            let shifted = b.add(&LinExpr::constant(if descending { -1 } else { 1 }));
            let strict_reads_better = !b.is_constant() && shifted.constant.abs() < b.constant.abs();
            if strict_reads_better {
                let op = if descending { ">" } else { "<" };
                return format!("{v} {op} {}", self.expr(&shifted));
            }
        }
        let e = self.extreme(bounds, descending);
        format!("{v} {} {e}", if descending { ">=" } else { "<=" })
    }

    fn condition(&mut self, disjuncts: &[Vec<Constraint>]) -> String {
        let parts: Vec<String> = disjuncts
            .iter()
            .map(|conj| {
                let atoms: Vec<String> = conj.iter().map(|c| self.constraint(c)).collect();
                if atoms.is_empty() {
                    "1".to_string()
                } else {
                    atoms.join(" && ")
                }
            })
            .collect();
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            parts.iter().map(|p| format!("({p})")).collect::<Vec<_>>().join(" || ")
        }
    }

    /// A constraint over the current environment, as a comparison with
    /// positive terms on the left.
    fn constraint(&mut self, c: &Constraint) -> String {
        let e = c.expr.substitute(&|k| self.env[k].clone());
        if let Some((num, k)) = divisibility(&e).or_else(|| divisibility(&e.scale(-1))).filter(|_| c.is_eq) {
            return format!("({}) % {k} == 0", self.expr(&num));
        }
        // e = L - R + k with L, R having positive coefficients.
        let mut left = LinExpr::default();
        let mut right = LinExpr::default();
        for (t, coef) in &e.terms {
            if *coef > 0 {
                left.add_term(t.clone(), *coef);
            } else {
                right.add_term(t.clone(), -coef);
            }
        }
        let k = e.constant;
        let op = if c.is_eq { "==" } else { ">=" };
        if left.terms.is_empty() {
            let op = if c.is_eq { "==" } else { "<=" };
            return format!("{} {op} {k}", self.expr(&right));
        }
        format!("{} {op} {}", self.expr(&left), self.expr(&right.add(&LinExpr::constant(-k))))
    }

    fn statement(&mut self, id: usize) -> String {
        let scalars = std::mem::take(&mut self.scalars);
        let text = self.render(id, 0..self.program.stmts[id].text.len(), &scalars);
        self.scalars = scalars;
        self.program.stmts[id].wrap(&self.recording_writes(id, text))
    }

    /// An expression safe to drop into any C context.
    fn atom(&mut self, e: &LinExpr) -> String {
        parenthesised(self.expr(e))
    }

    /// C text of an affine expression over loop variables and parameters.
    fn expr(&mut self, e: &LinExpr) -> String {
        let mut s = String::new();
        for (t, coef) in &e.terms {
            let (coef, text) = match t {
                Term::Floor(num, k) if *coef < 0 => {
                    self.helpers.ceild = true;
                    (-coef, format!("polyc_ceild({}, {k})", self.expr(&num.scale(-1))))
                }
                Term::Floor(num, k) => {
                    self.helpers.floord = true;
                    (*coef, format!("polyc_floord({}, {k})", self.expr(num)))
                }
                Term::Dim(d) => (*coef, self.vars[*d].clone().unwrap_or_else(|| format!("c{d}"))),
                Term::Param(p) => (*coef, self.program.params[*p].clone()),
            };
            let magnitude = if coef.abs() == 1 { text } else { format!("{} * {text}", coef.abs()) };
            match (s.is_empty(), coef < 0) {
                (true, false) => s.push_str(&magnitude),
                (true, true) => s.push_str(&format!("-{magnitude}")),
                (false, false) => s.push_str(&format!(" + {magnitude}")),
                (false, true) => s.push_str(&format!(" - {magnitude}")),
            }
        }
        match (s.is_empty(), e.constant) {
            (true, c) => s = c.to_string(),
            (false, 0) => {}
            (false, c) if c > 0 => s.push_str(&format!(" + {c}")),
            (false, c) => s.push_str(&format!(" - {}", -c)),
        }
        s
    }
}

/// `num - k*floor(num/k)`: the expression is `num mod k`.
fn divisibility(e: &LinExpr) -> Option<(LinExpr, i64)> {
    let floors: Vec<&(Term, i64)> = e.terms.iter().filter(|(t, _)| matches!(t, Term::Floor(..))).collect();
    let [(Term::Floor(num, k), coef)] = floors[..] else {
        return None;
    };
    if *coef != -k {
        return None;
    }
    let mut rest = e.clone();
    rest.terms.retain(|(t, _)| !matches!(t, Term::Floor(..)));
    (rest == **num).then_some((rest, *k))
}

/// The perfect nest `body` (see [`Printer::jammable`]) with its innermost body
/// repeated `factor` times, for `dim` plus 0, 1, ...
fn jam_copies(dim: usize, body: &[Node], factor: i64) -> Vec<Node> {
    body.iter()
        .map(|n| match n {
            Node::For { dim: inner, lower, upper, stride, body } => {
                let body = if contains_loop(body) {
                    jam_copies(dim, body, factor)
                } else {
                    (0..factor)
                        .map(|u| Node::Let {
                            dim,
                            value: LinExpr::dim(dim).add(&LinExpr::constant(u)),
                            body: body.clone(),
                        })
                        .collect()
                };
                Node::For { dim: *inner, lower: lower.clone(), upper: upper.clone(), stride: *stride, body }
            }
            other => other.clone(),
        })
        .collect()
}

/// `text`, in parentheses unless it is a name or a number.
fn parenthesised(text: String) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        text
    } else {
        format!("({text})")
    }
}

/// Whether `nodes` hold a loop. Only a loop without inner loops gets a
/// SIMD mark: gcc fully unrolls short inner loops (a filter's taps) and
/// vectorises around them better by itself (conv2d: 0.94x with the mark
/// on the loop around its taps, 0.99x without).
fn contains_loop(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::For { .. } => true,
        Node::Let { body, .. } | Node::Guard { body, .. } => contains_loop(body),
        Node::Stmt { .. } => false,
    })
}

/// A register block's rows per copy of the jammed loop inside: eight
/// rows around four copies of gemm's `k` (32 updates of 8 locals per
/// vector) measured 0.075 s at LARGE on one thread, four rows 0.081 s,
/// OpenBLAS 0.057 s.
const BLOCK_ROWS_PER_COPY: i64 = 2;

/// Loops with constant bounds up to this many iterations are short.
const SHORT_TRIP: i64 = 16;

/// Whether bounds `lower..=upper` are constants at most [`SHORT_TRIP`] apart.
fn is_short(lower: &[LinExpr], upper: &[LinExpr]) -> bool {
    matches!((lower, upper), ([l], [u]) if l.is_constant() && u.is_constant() && u.constant - l.constant < SHORT_TRIP)
}

/// How deeply loops nest in `nodes`.
fn loop_depth(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::For { body, .. } => 1 + loop_depth(body),
            Node::Let { body, .. } | Node::Guard { body, .. } => loop_depth(body),
            Node::Stmt { .. } => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Whether some loop in `nodes` has a bound that depends on one of the
/// dimensions `varying` (a dimension bound to an expression of them joins
/// them): the iterations of a loop over `varying[0]` then differ in work.
/// Whether each iteration of a loop over `dim` around `body` runs every
/// statement of `body` at least once: no guard inside, no inner loop
/// whose bounds move with it (the loops inside, the same for every
/// iteration, are not empty where some statement runs).
fn runs_all_inside(dim: usize, body: &[Node]) -> bool {
    fn unguarded(nodes: &[Node]) -> bool {
        nodes.iter().all(|n| match n {
            Node::Guard { .. } => false,
            Node::For { body, .. } | Node::Let { body, .. } => unguarded(body),
            Node::Stmt { .. } => true,
        })
    }
    unguarded(body) && !inner_bounds_vary_with(body, &mut vec![dim])
}

fn inner_bounds_vary_with(nodes: &[Node], varying: &mut Vec<usize>) -> bool {
    let depends = |e: &LinExpr, varying: &[usize]| varying.iter().any(|&d| e.involves_dim(d));
    nodes.iter().any(|n| match n {
        Node::For { lower, upper, body, .. } => {
            lower.iter().chain(upper).any(|e| depends(e, varying)) || inner_bounds_vary_with(body, varying)
        }
        Node::Let { dim: bound, value, body } => {
            let joins = depends(value, varying);
            if joins {
                varying.push(*bound);
            }
            let found = inner_bounds_vary_with(body, varying);
            if joins {
                varying.pop();
            }
            found
        }
        Node::Guard { body, .. } => inner_bounds_vary_with(body, varying),
        Node::Stmt { .. } => false,
    })
}

/// Extend `moving` with the dimensions of `nodes` that move with one in
/// it: loops whose bounds involve one, and bindings to one.
fn moving_with(nodes: &[Node], moving: &mut Vec<usize>) {
    let involved = |e: &LinExpr, moving: &[usize]| moving.iter().any(|&d| e.involves_dim(d));
    for n in nodes {
        let (dim, moves, body) = match n {
            Node::For { dim, lower, upper, body, .. } => {
                (Some(*dim), lower.iter().chain(upper).any(|e| involved(e, moving)), body)
            }
            Node::Let { dim, value, body } => (Some(*dim), involved(value, moving), body),
            Node::Guard { body, .. } => (None, false, body),
            Node::Stmt { .. } => continue,
        };
        if let Some(dim) = dim.filter(|d| moves && !moving.contains(d)) {
            moving.push(dim);
        }
        moving_with(body, moving);
    }
}

/// How many lines a body prints at its own level (bindings print nothing).
fn printed_items(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Let { body, .. } => printed_items(body),
            _ => 1,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_over(dim: usize, body: Vec<Node>) -> Node {
        Node::For { dim, lower: vec![LinExpr::constant(0)], upper: vec![LinExpr::constant(9)], stride: 1, body }
    }

    #[test]
    fn a_loop_is_marked_only_if_every_statement_inside_allows_it() {
        let parallel = LoopMark { parallel: true, region: true, ..LoopMark::default() };
        let nodes = vec![loop_over(0, vec![Node::Stmt { id: 0 }, loop_over(1, vec![Node::Stmt { id: 1 }])])];
        // Statement 1 alone allows a parallel loop over dimension 0.
        let one_only = vec![vec![LoopMark::default(); 2], vec![parallel, LoopMark::default()]];
        assert!(!marks_some_loop(&one_only, &nodes));
        let both = vec![vec![parallel, LoopMark::default()], vec![parallel, LoopMark::default()]];
        assert!(marks_some_loop(&both, &nodes));
        // The inner loop holds statement 1 only.
        let inner = vec![vec![LoopMark::default(); 2], vec![LoopMark::default(), parallel]];
        assert!(marks_some_loop(&inner, &nodes));
    }
}
