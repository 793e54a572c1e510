//! A SCoP as the front end hands it on: its statements (text, loops,
//! domain, accesses) and what the region around it says, each with what
//! the later phases need and nothing of the syntax tree.
//!
//! A [`Stmt`] has its text and span, its domain (the loop bounds and affine
//! conditions around it, with C's semantics, quasi-affine), its 2d+1
//! position among its siblings (`beta`), its accesses and the occurrences
//! of its iterators in its text. A statement's accesses sit at
//! `span.start + offset in text`, even when its text is written expanded
//! (see `expanded`).
//!
//! An `if` whose condition reads data becomes a statement that evaluates
//! the condition into a variable of its own ([`Stmt::sets`], `polyc_c<k>`,
//! modelled as an array with one element per instance of the `if`), and
//! the statements of its branches run under that variable
//! ([`Stmt::filters`]): their writes may not happen
//! ([`Stmt::may_skip_writes`]). [`Stmt::wrap`] prints both forms.
//!
//! A rewrite of part of a statement's text (a multifor's index lists,
//! storage expansion and contraction) goes through [`Stmt::replace_text`],
//! which moves the iterator occurrences and access spans with it.
//!
//! Besides its statements, a [`ScopAst`] carries what the function around
//! the region says: its temporaries and live-out arrays, the variables
//! nothing reads after it ([`ScopAst::dead_after`]), the parameters the
//! front end defined ([`ScopAst::definitions`]) and a multifor's rank
//! mapping.

use super::decls::VarDecl;
use super::qexpr::{Cond, QExpr};
use std::ops::Range;

/// A statement of a SCoP, with everything later phases need.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// The statement's source text, `;` included.
    pub text: String,
    pub span: Range<usize>,
    /// Enclosing loop iterators, outermost first.
    pub iterators: Vec<Iterator>,
    /// Conjunction of the enclosing loop bounds and `if` conditions.
    pub domain: Cond,
    /// Textual position among siblings at each depth (2d+1 schedule).
    pub beta: Vec<usize>,
    pub accesses: Vec<Access>,
    /// Iterator occurrences in `text`: byte range relative to the statement
    /// start, and loop depth.
    pub iter_uses: Vec<(Range<usize>, usize)>,
    /// Per iterator: `Some` for a loop of a `multifor`, placed on its
    /// referential domain instead of at its own value.
    pub referential: Vec<Option<Referential>>,
    /// The outermost `multifor` around the statement (its start byte) and
    /// the loop of it the statement belongs to.
    pub component: Option<(usize, usize)>,
    /// The data-dependent conditions the statement runs under, outermost
    /// first (seed 001's filters): each the variable holding the
    /// condition's value ([`Stmt::sets`] of the statement that evaluates
    /// it) and the value the statement runs for (`false`: an `else`).
    pub filters: Vec<(String, bool)>,
    /// For the evaluation of a data-dependent condition (its `text` is the
    /// condition): the variable it sets, one per instance of the `if`,
    /// to the condition's value where every filter holds and to 0 elsewhere.
    pub sets: Option<String>,
}

/// Where the iterations of one loop of a `multifor` run: iteration `q`
/// (the iterator at `lower + step * q`) at point `offset + grain * q` of
/// the referential domain.
#[derive(Clone, Debug)]
pub struct Referential {
    pub lower: QExpr,
    pub step: i64,
    pub grain: i64,
    pub offset: i64,
}

#[derive(Clone, Debug)]
pub struct Iterator {
    pub name: String,
    pub ty: String,
    /// Whether the loop counts down (its schedule dimension is negated).
    pub descending: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AccessKind {
    Read,
    Write,
}

#[derive(Clone, Debug)]
pub struct Access {
    pub array: String,
    pub kind: AccessKind,
    pub subscripts: Vec<QExpr>,
    pub span: Range<usize>,
    /// Evaluated only under a condition of its statement's expression
    /// (`c ? a[i] : 0`, `c && a[i]`): an instance of the statement may
    /// not read it.
    pub conditional: bool,
}

/// One static control part, ready for the model.
#[derive(Clone, Debug)]
pub struct ScopAst {
    /// Bytes replaced by regenerated code: the lines strictly between the
    /// two pragmas (for a run narrowed from a pragma region around a
    /// `while` loop, or detected, the statements' own lines).
    pub region: Range<usize>,
    /// The `#pragma scop` line, for diagnostics about the whole region
    /// (a narrowed or detected run: the first line of its first statement).
    pub pragma: Range<usize>,
    /// Indentation of the `#pragma scop` line.
    pub indent: String,
    pub params: Vec<String>,
    /// Each parameter's value where it is a macro whose value is an
    /// integer literal (`#define BLOCK_SIZE 5`): the parameter stays
    /// symbolic in the output, but a loop over it is known to be short.
    pub param_values: Vec<Option<i64>>,
    pub stmts: Vec<Stmt>,
    pub arrays: Vec<(String, VarDecl)>,
    /// Arrays of the SCoP that nothing outside it can see: declared in
    /// the enclosing function and named nowhere else in it (so neither
    /// read after the SCoP nor pointed to), or named by `#pragma polyc
    /// temporary(A, B)` there.
    pub temporaries: std::collections::BTreeSet<String>,
    /// Arrays `#pragma polyc live_out(A)` in the enclosing function names:
    /// their last values are read after the SCoP.
    pub live_out: std::collections::BTreeSet<String>,
    /// Variables whose values nothing reads after the SCoP: automatic
    /// locals of its function, named nowhere else in it but in their
    /// declaration, in a region that runs once per call. A loop that
    /// gives each iteration a copy of one need not copy it out.
    pub dead_after: std::collections::BTreeSet<String>,
    /// A multifor of two 2-deep nests, one run by rank inside the other.
    pub rank_mapping: Option<RankMapping>,
    /// Parameters the front end introduced for products and quotients of
    /// parameters (`n * m` in a bound, a delinearised extent): each fresh
    /// name (one of `params`) with its C expression over the original
    /// parameters, defined at the region's entry by the printed code.
    pub definitions: Vec<(String, String)>,
    /// The variables the region declares in its blocks (C99 style), by
    /// the name the statements use: declared at the start of the
    /// regenerated region, their initialisers being statements.
    pub locals: Vec<(String, VarDecl)>,
    /// Found by `--autodetect` (no pragmas: `region` is the statements'
    /// own lines, `pragma` the first line of the first one).
    pub detected: bool,
    /// Inside a statement an OpenMP pragma applies to: its loops get no
    /// threads of their own.
    pub inside_openmp: bool,
}

/// The paper's non-linear mapping (seed 001, section 5), in two
/// dimensions: loop `ranked` of a multifor (grain `rank`) runs its K-th
/// iteration at the K-th iteration of the other loop's nest (the host),
/// by inverting its ranking polynomial; what is left of either runs
/// after. The host runs as written; the ranked nest is described by rows.
#[derive(Clone, Debug)]
pub struct RankMapping {
    pub ranked: usize,
    /// The host's outer and inner loops.
    pub host: [LoopText; 2],
    pub rows: Rows,
}

/// A loop header as written.
#[derive(Clone, Debug)]
pub struct LoopText {
    pub index: String,
    pub init: String,
    pub cond: String,
    pub update: String,
}

/// A 2-deep nest as rows: `count` rows, the outer index from `first`;
/// in row `outer`, the inner index runs from `start` for `length`
/// iterations (C expressions in the outer index and the parameters),
/// `length` affine in the outer index with a slope >= 0.
#[derive(Clone, Debug)]
pub struct Rows {
    pub outer: String,
    pub inner: String,
    pub first: String,
    pub count: String,
    pub start: String,
    pub length: String,
    pub slope: i64,
}

impl Stmt {
    /// `span` (an access's, on the file) relative to the statement's
    /// text, if it lies inside.
    pub fn relative_span(&self, span: &Range<usize>) -> Option<Range<usize>> {
        let start = span.start.checked_sub(self.span.start)?;
        let r = start..start + span.len();
        let inside =
            r.end <= self.text.len() && self.text.is_char_boundary(r.start) && self.text.is_char_boundary(r.end);
        inside.then_some(r)
    }

    /// Whether the statement's writes may not happen in an instance of
    /// its domain (a filter can be false): they hide no earlier write.
    pub fn may_skip_writes(&self) -> bool {
        self.sets.is_none() && !self.filters.is_empty()
    }

    /// The C statement for `body`, the statement's text as printed: the
    /// evaluation of a condition assigns it to its variable, a filtered
    /// statement runs under its filters.
    pub fn wrap(&self, body: &str) -> String {
        let filters: Vec<String> =
            self.filters.iter().map(|(v, holds)| if *holds { v.clone() } else { format!("!{v}") }).collect();
        match (&self.sets, filters.is_empty()) {
            (Some(v), true) => format!("{v} = ({body});"),
            (Some(v), false) => format!("{v} = {} && ({body});", filters.join(" && ")),
            (None, true) => body.to_string(),
            (None, false) => format!("if ({}) {body}", filters.join(" && ")),
        }
    }

    /// Replace the bytes `range` of the text (relative to its start) by
    /// `text`, with the iterator occurrences `uses` (relative to `text`)
    /// in place of those that were there; later occurrences and access
    /// spans move with the text, an access around the range stretches.
    pub fn replace_text(&mut self, range: Range<usize>, text: &str, uses: Vec<(Range<usize>, usize)>) {
        let shift = |at: usize| (at as isize + text.len() as isize - range.len() as isize) as usize;
        self.iter_uses.retain(|(r, _)| !(range.start <= r.start && r.end <= range.end));
        for (r, _) in self.iter_uses.iter_mut().filter(|(r, _)| r.start >= range.end) {
            *r = shift(r.start)..shift(r.end);
        }
        self.iter_uses.extend(uses.into_iter().map(|(r, d)| (r.start + range.start..r.end + range.start, d)));
        let end = self.span.start + range.end;
        for a in &mut self.accesses {
            let start = if a.span.start >= end {
                shift(a.span.start - self.span.start) + self.span.start
            } else {
                a.span.start
            };
            let stop =
                if a.span.end >= end { shift(a.span.end - self.span.start) + self.span.start } else { a.span.end };
            a.span = start..stop;
        }
        self.text.replace_range(range, text);
    }
}

impl ScopAst {
    pub fn max_depth(&self) -> usize {
        self.stmts.iter().map(|s| s.iterators.len()).max().unwrap_or(0)
    }

    /// Whether the region holds a `multifor`: its source text is not C,
    /// so its original schedule must always be regenerated.
    pub fn has_multifor(&self) -> bool {
        self.stmts.iter().any(|s| s.component.is_some())
    }

    /// The variables holding the values of data-dependent conditions
    /// ([`Stmt::sets`]), in statement order.
    pub fn filter_variables(&self) -> impl std::iter::Iterator<Item = &str> {
        self.stmts.iter().filter_map(|s| s.sets.as_deref())
    }

    /// Whether some statement runs under a data-dependent condition.
    pub fn has_filters(&self) -> bool {
        self.filter_variables().next().is_some()
    }
}
