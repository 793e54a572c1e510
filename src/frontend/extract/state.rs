//! The extractor's state as it walks a region: the loops, conditions and
//! `multifor`s around the current statement, the statements, parameters
//! and accesses found so far; and the checks that need all of it.

use super::conditional;
use super::poly::Poly;
use crate::diagnostics::{Code, Diagnostic};
use crate::frontend::ast::{Access, Iterator, RankMapping, Referential, Stmt};
use crate::frontend::decls::{Names, VarDecl};
use crate::frontend::qexpr::{Cond, QExpr};
use crate::frontend::syntax::text;
use crate::names::FreshNames;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use tree_sitter::Node;

pub(super) type Res<T> = Result<T, Diagnostic>;

pub(super) struct LoopCtx {
    pub(super) iter: Iterator,
    /// An ascending loop whose first value is provably non-negative
    /// (see `casts`).
    pub(super) counts_up_from_nonnegative: bool,
}

/// The three parts of a loop header, and the node to blame for a
/// missing one.
pub(super) struct Header<'t> {
    pub(super) whole: Node<'t>,
    pub(super) init: Option<Node<'t>>,
    pub(super) cond: Option<Node<'t>>,
    pub(super) update: Option<Node<'t>>,
}

pub(super) struct Extractor<'a> {
    pub(super) src: &'a str,
    pub(super) names: &'a Names,
    /// Where new names come from (a copy, kept if the region is a SCoP).
    pub(super) fresh: FreshNames,
    pub(super) loops: Vec<LoopCtx>,
    pub(super) conds: Vec<Cond>,
    pub(super) beta: Vec<usize>,
    pub(super) params: Vec<String>,
    /// First use of each parameter in an affine context.
    pub(super) param_uses: BTreeMap<String, Range<usize>>,
    pub(super) stmts: Vec<Stmt>,
    /// Every loop iterator of the region.
    pub(super) iterator_names: BTreeSet<String>,
    /// Iterators not declared in their `for` initialiser.
    pub(super) outer_iterators: BTreeSet<String>,
    /// Names used where no iterator of that name is in scope.
    pub(super) free_uses: Vec<(String, Range<usize>)>,
    /// Every variable written by a statement, with the write's span.
    pub(super) writes: Vec<(String, Range<usize>)>,
    /// Per enclosing loop: where a `multifor` loop places its iterations.
    pub(super) referential: Vec<Option<Referential>>,
    /// The `multifor` loops the walk is inside.
    pub(super) multifor: Scope,
    pub(super) rank_mapping: Option<RankMapping>,
    /// Fresh parameters and their C definitions (see [`crate::frontend::ScopAst::definitions`]).
    pub(super) definitions: Vec<(String, String)>,
    /// Each subscripted access: the array, how its subscripts were read,
    /// and its span.
    pub(super) shapes: Vec<(String, Shape, Range<usize>)>,
    /// The data-dependent conditions around the walk: the variable
    /// holding each one's value, the branch (`false`: `else`), and the
    /// loop depth of its `if`.
    pub(super) filters: Vec<(String, bool, usize)>,
    /// Every condition variable of the region ([`Stmt::sets`]).
    pub(super) filter_names: Vec<String>,
    /// The variables the region declares that are in scope, innermost
    /// last (see `locals`).
    pub(super) locals: Vec<Local>,
    /// Where each block the walk is in starts in `locals`.
    pub(super) scopes: Vec<usize>,
    /// Every variable the region declares: the name the regenerated
    /// code declares it by, and its declaration.
    pub(super) hoisted: Vec<(String, VarDecl)>,
    /// The names the block around the region uses after it: a variable
    /// declared at the region's top level may be hoisted only if its
    /// scope does not go on to one of those.
    pub(super) named_after: BTreeSet<String>,
    /// Reads of variables the region declares, whose values bounds and
    /// subscripts use: the statement being read reads them.
    pub(super) local_reads: Vec<Access>,
    /// The hoisted variables with a name of their own: (name as written, new name).
    pub(super) renamed: Vec<(String, String)>,
    /// The struct members accessed as arrays, by their names in the SCoP.
    pub(super) fields: Vec<(String, crate::frontend::decls::VarDecl)>,
}

/// How the subscripts of an access were read.
pub(super) enum Shape {
    Several,
    /// One affine subscript, and, for an array whose subscripts may be
    /// split, the polynomial it is (if it is one).
    Affine(Option<Poly>),
    /// One subscript split by these strides ([`super::poly::Split`]).
    Split(Vec<Vec<usize>>),
}

/// What a statement under construction has collected.
#[derive(Default)]
pub(super) struct StmtParts {
    pub(super) accesses: Vec<Access>,
    pub(super) iter_uses: Vec<(Range<usize>, usize)>,
    pub(super) guarded: conditional::Guarded,
    /// Names in the text to replace (pointers the region declares).
    pub(super) substitutions: Vec<Substitution>,
}

/// The span of a name in a statement, the text that replaces it and the
/// iterator occurrences in that text (range in it, loop depth).
pub(super) type Substitution = (Range<usize>, String, Vec<(Range<usize>, usize)>);

/// Where the walk is among multifors.
#[derive(Default)]
pub(super) struct Scope {
    /// The outermost multifor (its start byte) and the loop being walked.
    pub(super) current: Option<(usize, usize)>,
    /// The index names of each enclosing multifor, outermost first.
    pub(super) levels: Vec<Vec<String>>,
    /// For a statement prefixed by a list: its loop's position in the
    /// list, and the list's length.
    pub(super) pick: Option<(usize, usize)>,
}

impl Scope {
    pub(super) fn component(&self) -> Option<(usize, usize)> {
        self.current
    }
}

pub(super) fn reject(code: Code, n: Node, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::warning(code, n.byte_range(), message).with_label(label.to_string())
}

impl<'a> Extractor<'a> {
    pub(super) fn t(&self, n: Node) -> &'a str {
        text(n, self.src)
    }

    pub(super) fn operator(&self, n: Node) -> &'a str {
        n.child_by_field_name("operator").map_or("", |o| self.t(o))
    }

    pub(super) fn in_scope_iterator(&self, name: &str) -> Option<usize> {
        self.loops.iter().rposition(|l| l.iter.name == name)
    }

    /// Checks that need the whole region: parameters and iterators are
    /// never written, iterators never read outside their loops.
    pub(super) fn check_names(&self) -> Res<()> {
        for (name, span) in &self.writes {
            if let Some(use_span) = self.param_uses.get(name) {
                return Err(Diagnostic::warning(
                    Code::P0003,
                    use_span.clone(),
                    format!("`{name}` is used as a bound or subscript but written in the SCoP"),
                )
                .with_label("used as a parameter here")
                .with_note(format!("written at byte {}", span.start)));
            }
            if self.iterator_names.contains(name) {
                return Err(Diagnostic::warning(
                    Code::P0005,
                    span.clone(),
                    format!("write to loop iterator `{name}` outside its loop"),
                )
                .with_label("iterator written here"));
            }
        }
        for (name, span) in &self.free_uses {
            if self.iterator_names.contains(name) {
                return Err(Diagnostic::warning(
                    Code::P0009,
                    span.clone(),
                    format!("iterator `{name}` is read outside its loop"),
                )
                .with_label("its final value is not preserved"));
            }
        }
        Ok(())
    }
}

/// The value a variable the region declares was initialised to, where it
/// is quasi-affine (or, for a delinearised subscript, a polynomial) in
/// the parameters and the iterators around its declaration and its type
/// holds it: the value its uses as a bound or subscript stand for, until
/// a statement writes it.
#[derive(Clone)]
pub(super) struct Known {
    pub(super) value: Option<QExpr>,
    pub(super) poly: Option<Poly>,
    /// The parameters they number, by name.
    pub(super) params: Vec<String>,
}

/// A variable the region declares, while the walk is in its scope.
pub(super) struct Local {
    /// Its name as written.
    pub(super) name: String,
    pub(super) binding: Binding,
}

pub(super) enum Binding {
    /// A variable of the regenerated code: its index in
    /// [`Extractor::hoisted`], its value where known, and whether a bound
    /// or subscript used that.
    Hoisted { index: usize, known: Option<Known>, used: bool },
    /// A pointer substituted into its uses.
    Row(RowPointer),
}

/// What a pointer declared in the region points to.
#[derive(Clone)]
pub(super) struct RowPointer {
    /// The array's name as written (for its declaration) and as modelled.
    pub(super) written: String,
    pub(super) array: String,
    /// Its subscripts before the pointer's own.
    pub(super) prefix: Vec<QExpr>,
    /// Added to the pointer's own (last) subscript: `&m[e]`, `m + e`.
    pub(super) offset: Option<Offset>,
    /// The C text that replaces the pointer's name, and the iterator
    /// occurrences in it (byte range in it, loop depth).
    pub(super) text: String,
    pub(super) uses: Vec<(Range<usize>, usize)>,
}

/// An offset into an array's last dimension: its affine value and its
/// polynomial (for a delinearised view), where they exist.
#[derive(Clone)]
pub(super) struct Offset {
    pub(super) value: Option<QExpr>,
    pub(super) poly: Option<Poly>,
}
