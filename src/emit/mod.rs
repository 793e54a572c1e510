//! The C printer: loop AST in, C text out. Statement bodies are their
//! original text with iterator occurrences replaced by the expressions the
//! scanner bound them to, and each affine subscript holding one printed
//! from its value (`statement.rs`, `subscripts.rs`: `A[i][j]`, not
//! `A[(i + 1) - 1][j]`); loop variables take the original iterator's name
//! (and direction) where that is unambiguous, else a fresh name.
//!
//! [`print()`] takes a [`Program`] (`program.rs`: the statements, the
//! planner's marks, what the run-time checks need) and the scanner's loop
//! AST. It opens a block for the parameters the front end defined
//! (`const long`, see `ScopAst::definitions`), the variables the region
//! declares (`ScopAst::locals`) and the condition variables,
//! then prints the loops, behind the run-time checks where there are some
//! (`versioned`, whose other branch is the SCoP's source text). The helper
//! macros the code uses are defined once, at the top of the first
//! regenerated region ([`Helpers`]). [`print_loops`] prints the loops
//! alone (the loops for little work).
//!
//! Loops (`loops.rs`): `#pragma omp parallel for` on the outermost loop
//! marked parallel (with `private(..)` clauses, see `program` and
//! `copy_out`; `schedule(dynamic)` for coarse iterations of unequal work,
//! unless neighbouring iterations write neighbouring parts of the same
//! rows, `schedule(static)` otherwise; in the loops for little work, an
//! `if` on the region's own work, `gate.rs`; around a sequential loop whose
//! steps are parallel loops, one region, each step's loops `#pragma omp for`:
//! `wavefront.rs`), `#pragma omp simd` (`GCC ivdep` without OpenMP) with a hoisted
//! bound on marked loops with no loop inside (gcc vectorises around fully
//! unrolled short loops better by itself), unroll-and-jam (`jam.rs`,
//! `registers.rs`), scalar replacement in SIMD loops (`promote.rs`).
//! Invariant: a statement prints its source text with only its iterator
//! occurrences replaced, or the affine subscripts around them (and, with
//! contraction, its accesses to contracted arrays); a loop gets a mark only if every statement inside it has it (a
//! parallel region: if some statement is worth one).

mod branches;
mod chains;
mod copy_out;
mod exprs;
mod gate;
mod helpers;
mod jam;
mod loops;
mod nest;
mod packed;
mod printer;
mod program;
mod promote;
mod ragged;
mod registers;
mod rows;
mod statement;
mod subscripts;
mod versioned;
mod wavefront;

pub use helpers::{Helpers, DEFAULT_MIN_DATA, DEFAULT_MIN_REGION_WORK, DEFAULT_MIN_WORK};
pub use program::{marks_some_loop, Program, RegionWork};

use crate::names::FreshNames;
use crate::scan::ast::Node;
use printer::Printer;

/// The C text of a SCoP's loops, and what it took.
pub struct Printed {
    pub text: String,
    pub helpers: Helpers,
    /// Whether some loop was unrolled and jammed.
    pub jammed: bool,
    /// Whether some loop runs in parallel (`omp parallel for`).
    pub parallel: bool,
    /// Whether some loop is marked SIMD (`omp simd` or `GCC ivdep`).
    pub simd: bool,
    /// The targets of the contractions computed on packed panels
    /// (`packed.rs`), as written.
    pub packed: Vec<String>,
    /// When the SCoP's source text runs instead, in words: the run-time
    /// checks it falls back on (none: it never runs).
    pub fallback: Vec<&'static str>,
}

/// Print `nodes` as C, minting new names from `names`.
pub fn print(program: &Program, nodes: &[Node], names: &mut FreshNames) -> Printed {
    let mut p = Printer::new(program, nodes, names);
    let filters: Vec<&str> = program.stmts.iter().filter_map(|s| s.sets.as_deref()).collect();
    let defined = !program.definitions.is_empty() || !filters.is_empty() || !program.locals.is_empty();
    if defined {
        p.line(0, "{");
        for (name, value) in program.definitions {
            p.line(1, &format!("const long {name} = {value};"));
        }
        for (name, decl) in program.locals {
            let extents: String = decl.extents.iter().map(|e| format!("[{e}]")).collect();
            p.line(1, &format!("{} {name}{extents};", decl.ty));
        }
        if !filters.is_empty() {
            // Unused where every condition prints as the source's `if` (`branches`).
            p.line(1, &format!("__attribute__((unused)) int {};", filters.join(", ")));
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
    printed(p)
}

/// The text `p` printed, and what it does.
fn printed(p: Printer) -> Printed {
    let Printer { out, helpers, jammed, parallel, simd, packed, fallback, .. } = p;
    Printed { text: out, helpers, jammed, parallel, simd, packed, fallback }
}

/// Print `nodes` as C loops alone: no definitions, condition variables
/// or run-time checks (the [`Program::small`] of a program that has them).
pub fn print_loops(program: &Program, nodes: &[Node], names: &mut FreshNames) -> Printed {
    let mut p = Printer::new(program, nodes, names);
    p.nodes(nodes, 0);
    printed(p)
}
