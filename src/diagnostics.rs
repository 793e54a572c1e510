//! Diagnostics with stable codes, exact byte spans and a note on what to do,
//! rendered through codespan-reporting.
//!
//! Codes are stable: `P0001`.. say why a region or a step was kept as
//! written (warnings), `M0001`.. are about `multifor`, `E0001`.. are the
//! file's own errors (nothing is written). `polyc --explain CODE` prints a
//! code's long form; docs/diagnostics.md lists them. [`Cause::from_code`]
//! is the one map from codes to SPolly's rejection causes (non-affine
//! subscript, non-affine bound or condition, impure call, pointer
//! arithmetic or unknown base, irregular control, I/O or side effect, too
//! little work, possible alias, other), which `--emit=scops` and the batch
//! report's table of rejected candidate nests use.

use codespan_reporting::diagnostic::{Diagnostic as Rendered, Label, Severity as RenderedSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::Buffer};
use serde::{Deserialize, Serialize};
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Code {
    /// Irregular control flow in a SCoP (`while`, `do`, `break`, `return`, `goto`, ...).
    P0001,
    /// Array subscript that is not quasi-affine.
    P0002,
    /// Loop bound or condition that is not quasi-affine or depends on data.
    P0003,
    /// Call to a function not known to be pure.
    P0004,
    /// Write to a loop iterator or a parameter.
    P0005,
    /// Pointer, address, field or comma expression.
    P0006,
    /// Loop header not in a supported form.
    P0007,
    /// Unmatched, nested or misplaced SCoP pragmas.
    P0008,
    /// Iterator whose value is observed outside its loop.
    P0009,
    /// Preprocessor directive inside a SCoP.
    P0010,
    /// Polyhedral computation failed.
    P0011,
    /// SCoP with no statement.
    P0012,
    /// Non-integer value used where an integer parameter is needed.
    P0013,
    /// A transformation was refused by the legality verifier (or failed) and not applied.
    P0014,
    /// The SCoP ran out of its compile-time budget.
    P0015,
    /// Part of the file does not parse as C.
    P0016,
    /// The preprocessor failed, or a macro could not be expanded.
    P0017,
    /// Variables that may share memory, with no run-time check to decide.
    P0018,
    /// A call with observable effects (I/O, allocation, exit) in a SCoP.
    P0019,
    /// A declaration, or an expression statement that is no assignment or call, in a SCoP.
    P0020,
    /// The isl operation budget ran out: the SCoP, or one step, kept as written.
    P0022,
    /// Code nested deeper than polyc follows (`frontend::depth::MAX_DEPTH`).
    P0023,
    /// Malformed `multifor` header.
    M0001,
    /// `multifor` body: prefix out of range, another loop's index, index lists.
    M0002,
    /// A `multifor` that cannot be lowered to C.
    M0003,
    /// `multifor` loops kept sequential under `--parallel`.
    M0004,
    /// The parser could not run.
    E0001,
    /// The input could not be read.
    E0002,
    /// The output could not be written.
    E0003,
}

impl Code {
    pub const ALL: [Code; 29] = [
        Code::P0001,
        Code::P0002,
        Code::P0003,
        Code::P0004,
        Code::P0005,
        Code::P0006,
        Code::P0007,
        Code::P0008,
        Code::P0009,
        Code::P0010,
        Code::P0011,
        Code::P0012,
        Code::P0013,
        Code::P0014,
        Code::P0015,
        Code::P0016,
        Code::P0017,
        Code::P0018,
        Code::P0019,
        Code::P0020,
        Code::P0022,
        Code::P0023,
        Code::M0001,
        Code::M0002,
        Code::M0003,
        Code::M0004,
        Code::E0001,
        Code::E0002,
        Code::E0003,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::P0001 => "P0001",
            Code::P0002 => "P0002",
            Code::P0003 => "P0003",
            Code::P0004 => "P0004",
            Code::P0005 => "P0005",
            Code::P0006 => "P0006",
            Code::P0007 => "P0007",
            Code::P0008 => "P0008",
            Code::P0009 => "P0009",
            Code::P0010 => "P0010",
            Code::P0011 => "P0011",
            Code::P0012 => "P0012",
            Code::P0013 => "P0013",
            Code::P0014 => "P0014",
            Code::P0015 => "P0015",
            Code::P0016 => "P0016",
            Code::P0017 => "P0017",
            Code::P0018 => "P0018",
            Code::P0019 => "P0019",
            Code::P0020 => "P0020",
            Code::P0022 => "P0022",
            Code::P0023 => "P0023",
            Code::M0001 => "M0001",
            Code::M0002 => "M0002",
            Code::M0003 => "M0003",
            Code::M0004 => "M0004",
            Code::E0001 => "E0001",
            Code::E0002 => "E0002",
            Code::E0003 => "E0003",
        }
    }

    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str().eq_ignore_ascii_case(s))
    }

    /// The long form printed by `polyc --explain CODE`.
    pub fn explanation(self) -> &'static str {
        match self {
            Code::P0001 => {
                "A SCoP may contain only `for` loops, `if`/`else`, blocks and expression \
                statements. `while`, `do`, `break`, `continue`, `goto`, `return`, `switch` and labels \
                make control flow dynamic. Move the construct out of the `#pragma scop` region or \
                rewrite it as a counted loop."
            }
            Code::P0002 => {
                "Array subscripts must be quasi-affine in the loop iterators and parameters: \
                sums of integer multiples, division or `%` by a positive constant, `min`/`max`. \
                Products of iterators, reads of arrays or of variables written in the SCoP are not. \
                A linear subscript of a pointer or a one-dimensional array, a polynomial such as \
                `i*n + j` or `(i*n + j)*m + k`, is split into a multi-dimensional view (`[*][n][m]`, \
                checked at run time) when its strides are each the next times parameters and every \
                access of the array splits into the same view; `A[k]` beside `A[i*n + j]` does not. \
                Use a multi-dimensional array, or move the access out of the SCoP."
            }
            Code::P0003 => {
                "Loop bounds must be quasi-affine in the enclosing iterators and parameters \
                (a product or quotient of parameters alone, `n*m`, becomes a parameter of its own), \
                and a parameter must not be written inside the SCoP. Otherwise the iteration domain \
                depends on data and is not a polyhedron. An `if` condition that reads data is \
                modelled (evaluated into a variable the branches run under), unless it writes a \
                variable or sits in a `multifor`."
            }
            Code::P0004 => {
                "Only calls to pure math functions (see `polyc --help`) are allowed: any other \
                call may read or write memory polyc cannot see. Inline the function or move the call out."
            }
            Code::P0005 => {
                "Loop iterators are defined by their loop headers; writing them in a loop body \
                (or writing a value used as a bound) breaks the model. Use another variable."
            }
            Code::P0006 => {
                "Pointer dereference, address-of, the comma operator and bare array names may \
                alias or escape memory polyc tracks. Use arrays with subscripts. Struct members are \
                modelled as arrays when each access is a cell: `g.u[i][j]`, `p->x[i]` (an array or \
                `double *x` member) or `a[i].x`, of arithmetic type, the object never used whole \
                in the region (docs/pointers.md)."
            }
            Code::P0007 => {
                "A loop header must be `i = lb` (or `int i = lb`), a conjunction of bounds on `i` \
                in the direction of the step (`<`, `<=`, `>`, `>=`, `min`/`max` forms), and `i++`, `i--`, \
                `i += c` or `i -= c` with a constant c."
            }
            Code::P0008 => {
                "`#pragma scop` and `#pragma endscop` must come in pairs, in the same block, \
                without nesting."
            }
            Code::P0009 => {
                "polyc regenerates loops with fresh loop variables, so an iterator's final value \
                is not preserved. An iterator read after its loop (or after the SCoP) keeps the SCoP \
                unchanged. Read a copy instead."
            }
            Code::P0010 => {
                "Preprocessor directives inside a SCoP cannot be kept in regenerated code. Move \
                them outside the region."
            }
            Code::P0011 => {
                "The polyhedral computation for this SCoP failed; the SCoP is emitted unchanged. \
                Simplify the region."
            }
            Code::P0012 => "The SCoP region holds no statement; it is emitted unchanged.",
            Code::P0013 => {
                "A value used as a parameter in a bound, condition or subscript must be an \
                integer; this one is declared with a floating-point type or defined as a non-integer."
            }
            Code::P0014 => {
                "A transformation (computed schedule, tiling, wavefront, loop permutation) would \
                violate a dependence or failed to compute, so polyc did not apply it; the SCoP is \
                emitted with the transformations that passed the legality check (at worst, its \
                original schedule). Please report it with the input."
            }
            Code::P0015 => {
                "Compiling this SCoP took longer than its wall-clock budget (`--time-budget`, \
                10 seconds by default), whatever isl was computing; the SCoP is emitted unchanged. \
                The message names the phase that ran out (modelling, dependence analysis, \
                scheduling and planning, storage, scanning, printing). Raise `--time-budget` \
                (0: no limit) or split the region."
            }
            Code::P0016 => {
                "Part of the file does not parse as C (as the preprocessor leaves it, with the \
                branches of `#if` and `#ifdef` the flags select). Everything outside the SCoPs is \
                copied unchanged, so an error there only gets this warning; a SCoP in a function \
                that does not parse is kept as written, as polyc cannot see all that function does \
                with the SCoP's variables."
            }
            Code::P0017 => {
                "polyc reads macros, and the branches of `#if`, through the C compiler's \
                preprocessor (`$CC`, else `cc`, with the `-I`, `-D` and `-U` given to polyc). When \
                it fails (most often a header it cannot find: pass its directory with `-I`), polyc \
                goes on with the macros the file defines itself. A macro whose expansion polyc \
                cannot follow (one that takes its arguments from text after it, or does not end) \
                keeps the SCoP that uses it as written."
            }
            Code::P0018 => {
                "The dependences polyc computes treat each variable as memory of its own, which C \
                does not promise for pointers and array parameters: `f(n, a, a)` passes one buffer \
                twice. For each pair that may overlap (not two variables with storage of their own, \
                not a `restrict` parameter or local beside another or beside a variable of its own, \
                one of them written), the output checks at run time that \
                the address ranges the SCoP touches do not meet, and runs the source text if they \
                do. This SCoP reaches a variable whose range polyc cannot bound by an affine \
                expression of the parameters, so it is kept as written. Declare both pointers of \
                each pair `restrict` if they never overlap, or pass `--assume-no-alias`."
            }
            Code::P0019 => {
                "A call with effects polyc cannot model or reorder (input and output, allocation, \
                process control: `printf`, `fflush`, `malloc`, `exit`, ...) keeps the region as \
                written: regenerated loops could run it in another order, or more than once. Move \
                the call out of the region."
            }
            Code::P0020 => {
                "A SCoP's statements are assignments and calls under `for` loops and `if`s: a \
                declaration (other than a `for` initialiser) makes storage dynamic, and an \
                expression statement that assigns nothing is not modelled. Declare the variable \
                before the region."
            }
            Code::P0022 => {
                "isl counts the operations it spends on each SCoP and stops at `--isl-budget` (20 \
                million by default, about five seconds). A SCoP whose model runs out of it is \
                emitted as written. Where the exact (value-based) dependences through some \
                variables run out, they are taken memory-based (every earlier access of an \
                element counts), and the SCoP is planned in its source's order: fewer \
                transformations are proved legal, none wrongly. Planning, and generating the loops of a transformed \
                schedule, get a tenth of it each: out of it in planning, no transformation is \
                applied (the SCoP keeps its source text); in generating the loops, the SCoP keeps \
                its original schedule (diamond and hexagonal tiles are planned again as \
                rectangles). The output computes what the source computes either way. Raise \
                `--isl-budget` to get the transformation, or split the region."
            }
            Code::P0023 => {
                "polyc follows expressions and statements nested at most 1000 levels deep (each \
                parenthesis, operand of a chain like `a + b + c`, block or loop is a level). The \
                function holding this SCoP nests deeper, so the SCoP is kept as written (it \
                compiles and runs as the source does), and `--autodetect` does not search the \
                function. To have the SCoP transformed, split the deep expression: sum a long \
                series into a local in several statements, or drop redundant parentheses."
            }
            Code::M0001 => {
                "A `multifor` header has five groups separated by `;`: index initialisations \
                `i = lb`, conditions bounding each index from above in the same order, increments \
                (`i++` or `i += c`, c > 0), grains (integer constants >= 1) and offsets (integer \
                constants >= 0), one entry per loop in each group; nested multifors have as many \
                loops as the one around them. Nothing is written until the header is fixed."
            }
            Code::M0002 => {
                "Each statement of a `multifor` body carries a prefix `k :` naming the loop it \
                belongs to (0 for the first), or a list `[k1, k2] :` with bracketed lists `[a, b]` \
                in the statement giving each listed loop its own expression. A statement may use \
                only the indices of its own loop (and of enclosing loops of the same component)."
            }
            Code::M0003 => {
                "polyc lowers a `multifor` through its polyhedral model, so its bodies must be \
                static control parts: assignments with affine subscripts, affine bounds, and calls \
                to pure functions only. A `multifor` that cannot be lowered leaves no valid C, so \
                nothing is written."
            }
            Code::M0004 => {
                "Under `--parallel`, the loops of a `multifor` run in parallel (OpenMP sections) \
                only when no dependence links two of them; otherwise they run interleaved, in \
                prefix order at each referential iteration, as without `--parallel`, and only \
                loops free of dependences are parallel."
            }
            Code::E0001 => {
                "The parser could not run at all (polyc's grammar failed to load, or tree-sitter gave up), \
                so polyc cannot know where statements begin and end. Nothing is written. Text that merely \
                does not parse is not this error but warning P0016."
            }
            Code::E0002 => "The input file could not be read.",
            Code::E0003 => "The output file could not be written; nothing was changed.",
        }
    }
}

/// Why a candidate loop nest is not a SCoP, in the terms of SPolly's
/// table of rejection causes (seed 001, Figure 1), for `--emit=scops` and
/// the batch report. [`Cause::from_code`] is the one mapping from codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// A subscript that is not quasi-affine (`P0002`).
    NonAffineSubscript,
    /// A loop bound, loop header or condition that is not quasi-affine (`P0003`, `P0007`).
    NonAffineBound,
    /// A call to a function not known to be pure (`P0004`).
    ImpureCall,
    /// Pointer arithmetic, dereference, fields, or an array with no known base (`P0006`).
    PointerArithmetic,
    /// `while`, `do`, `break`, `continue`, `return`, `goto`, `switch` (`P0001`).
    IrregularControl,
    /// Input/output or another observable effect (`P0019`).
    IoOrSideEffect,
    /// Constant trip counts whose product is too small to be worth it
    /// (decided by the driver, not a code).
    TooLittleWork,
    /// Variables that may share memory where no run-time check can decide (`P0018`).
    PossibleAlias,
    /// Anything else: declarations, iterators live after the region,
    /// directives, budgets, parse errors.
    Other,
}

impl Cause {
    pub const ALL: [Cause; 9] = [
        Cause::NonAffineSubscript,
        Cause::NonAffineBound,
        Cause::ImpureCall,
        Cause::PointerArithmetic,
        Cause::IrregularControl,
        Cause::IoOrSideEffect,
        Cause::TooLittleWork,
        Cause::PossibleAlias,
        Cause::Other,
    ];

    /// The cause a rejection with `code` stands for.
    pub fn from_code(code: Code) -> Cause {
        match code {
            Code::P0002 => Cause::NonAffineSubscript,
            Code::P0003 | Code::P0007 => Cause::NonAffineBound,
            Code::P0004 => Cause::ImpureCall,
            Code::P0006 => Cause::PointerArithmetic,
            Code::P0001 => Cause::IrregularControl,
            Code::P0019 => Cause::IoOrSideEffect,
            Code::P0018 => Cause::PossibleAlias,
            Code::P0005
            | Code::P0008
            | Code::P0009
            | Code::P0010
            | Code::P0011
            | Code::P0012
            | Code::P0013
            | Code::P0014
            | Code::P0015
            | Code::P0016
            | Code::P0017
            | Code::P0020
            | Code::P0022
            | Code::P0023
            | Code::M0001
            | Code::M0002
            | Code::M0003
            | Code::M0004
            | Code::E0001
            | Code::E0002
            | Code::E0003 => Cause::Other,
        }
    }

    /// The name the listing and the table print.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::NonAffineSubscript => "non-affine subscript",
            Cause::NonAffineBound => "non-affine bound/condition",
            Cause::ImpureCall => "impure call",
            Cause::PointerArithmetic => "pointer arithmetic/unknown base",
            Cause::IrregularControl => "irregular control",
            Cause::IoOrSideEffect => "I/O or side effect",
            Cause::TooLittleWork => "too little work",
            Cause::PossibleAlias => "possible alias",
            Cause::Other => "other",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// One finding about the input, tied to a byte range of it.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub span: Range<usize>,
    pub label: String,
    pub note: Option<String>,
}

impl Diagnostic {
    pub fn warning(code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Warning,
            message: message.into(),
            span,
            label: String::new(),
            note: None,
        }
    }

    pub fn error(code: Code, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, ..Diagnostic::warning(code, span, message) }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// `file:line:col: severity[CODE]: message` followed by the source
    /// excerpt, as codespan-reporting draws it.
    pub fn render(&self, file_name: &str, source: &str, color: bool) -> String {
        let file = SimpleFile::new(file_name, source);
        let span = clamp(&self.span, source);
        let severity = match self.severity {
            Severity::Error => RenderedSeverity::Error,
            Severity::Warning => RenderedSeverity::Warning,
            Severity::Note => RenderedSeverity::Note,
        };
        let mut rendered = Rendered::new(severity)
            .with_code(self.code.as_str())
            .with_message(&self.message)
            .with_labels(vec![Label::primary((), span.clone()).with_message(&self.label)]);
        let mut notes = Vec::new();
        if let Some(note) = &self.note {
            notes.push(note.clone());
        }
        notes.push(format!("see `polyc --explain {}`", self.code.as_str()));
        rendered = rendered.with_notes(notes);
        let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
        let config = term::Config::default();
        let (line, col) = line_col(source, span.start);
        let mut out = format!("{file_name}:{line}:{col}: ");
        if term::emit(&mut buffer, &config, &file, &rendered).is_ok() {
            out.push_str(&String::from_utf8_lossy(buffer.as_slice()));
        } else {
            out.push_str(&format!("{:?}[{}]: {}\n", self.severity, self.code.as_str(), self.message));
        }
        out
    }
}

/// The span within the source, without a trailing line break (a label
/// over a whole line reads better on that line alone).
fn clamp(span: &Range<usize>, source: &str) -> Range<usize> {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    let trimmed = source[start..end].trim_end_matches(['\n', '\r']).len();
    start..start + trimmed.max(usize::from(end > start).min(end - start))
}

/// One-based line and column of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_names_code_and_position() {
        let src = "int x;\nint y = z[i*j];\n";
        let d = Diagnostic::warning(Code::P0002, 15..18, "non-affine subscript").with_label("here");
        let text = d.render("a.c", src, false);
        assert!(text.starts_with("a.c:2:9: "), "{text}");
        assert!(text.contains("warning[P0002]"), "{text}");
        assert!(text.contains("polyc --explain P0002"), "{text}");
    }

    #[test]
    fn every_rejection_code_has_a_cause() {
        assert_eq!(Cause::from_code(Code::P0002), Cause::NonAffineSubscript);
        assert_eq!(Cause::from_code(Code::P0019), Cause::IoOrSideEffect);
        assert_eq!(Cause::from_code(Code::P0018), Cause::PossibleAlias);
        assert_eq!(Cause::from_code(Code::P0001), Cause::IrregularControl);
        let named: std::collections::BTreeSet<&str> = Cause::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(named.len(), Cause::ALL.len());
    }

    #[test]
    fn codes_parse_back() {
        for c in Code::ALL {
            assert_eq!(Code::parse(c.as_str()), Some(c));
            assert!(!c.explanation().is_empty());
        }
    }
}
