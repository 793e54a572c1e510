//! Calls in a SCoP. A call used as a value must be to a pure function:
//! one of the math library's, one the translation unit defines or
//! declares pure ([`crate::frontend::unit`]), or one the user names pure
//! (`#pragma polyc pure(f)`, `--pure=f`), unless the unit shows it is
//! not. A call *statement* `f(a[i][j], &b[i][j])` is modelled with the
//! accesses its arguments stand for: a value argument is read; `&X[..]`
//! passed to a pointer parameter is read and/or written as the body does
//! with what the parameter points to, when it touches nothing else.

use super::state::{reject, Extractor, Res, StmtParts};
use crate::diagnostics::Code;
use crate::frontend::ast::AccessKind;
use crate::frontend::unit::Function;
use tree_sitter::Node;

impl Extractor<'_> {
    /// A call evaluated for its value: the function must be pure; its
    /// arguments are values.
    pub(super) fn value_call(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        let fname = self.callee_name(n)?;
        if !PURE_FUNCTIONS.contains(&fname) {
            let function = self.known_pure(n, fname)?;
            if function.is_some_and(|f| f.params.iter().any(|p| p.pointer && p.writes_target)) {
                return Err(reject(
                    Code::P0004,
                    n,
                    format!("`{fname}` writes through a pointer parameter: call it as a statement of its own"),
                    "call with side effects",
                ));
            }
        }
        match n.child_by_field_name("arguments") {
            Some(args) => self.value_children(args, parts),
            None => Ok(()),
        }
    }

    /// A call statement: its arguments' accesses, the pointed-to
    /// elements read and written as the function does.
    pub(super) fn call_statement(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        let fname = self.callee_name(n)?;
        let function = self.known_pure(n, fname)?.cloned();
        let args = arguments(n);
        for (k, arg) in args.into_iter().enumerate() {
            let param = function.as_ref().and_then(|f| f.params.get(k)).filter(|p| p.pointer);
            let Some(param) = param else {
                self.value(arg, parts)?;
                continue;
            };
            let Some(element) = address_of_element(arg) else {
                return Err(reject(
                    Code::P0006,
                    arg,
                    format!("`{fname}` takes a pointer here: polyc models `&A[..]`, one element, only"),
                    "unsupported argument",
                ));
            };
            if !param.only_pointee {
                return Err(reject(
                    Code::P0006,
                    arg,
                    format!("`{fname}` reaches past the element it is given here"),
                    "not one element",
                ));
            }
            if param.reads_target || !param.writes_target {
                self.access(element, AccessKind::Read, parts)?;
            }
            if param.writes_target {
                self.access(element, AccessKind::Write, parts)?;
            }
        }
        Ok(())
    }

    fn callee_name<'t>(&self, n: Node<'t>) -> Res<&'t str>
    where
        Self: 't,
    {
        match n.child_by_field_name("function").filter(|f| f.kind() == "identifier") {
            Some(f) => Ok(&self.src[f.byte_range()]),
            None => Err(reject(Code::P0004, n, "a call through an expression", "unknown call")),
        }
    }

    /// What is known of `fname` when it may be called in a SCoP, or why
    /// it may not.
    fn known_pure(&self, n: Node, fname: &str) -> Res<Option<&Function>> {
        let unit = self.names.unit.as_deref().and_then(|u| u.get());
        let function = unit.and_then(|u| u.function(fname));
        let named = self.names.named_pure.contains(fname);
        match (function, named) {
            (Some(f), _) if f.pure => Ok(Some(f)),
            (_, true) => match unit.and_then(|u| u.visibly_impure(fname)) {
                Some(why) => {
                    Err(reject(Code::P0004, n, format!("`{fname}` is named pure, but it is not: {why}"), "not pure"))
                }
                // Only declared: the user's word, for a function of values.
                None => Ok(None),
            },
            (Some(f), false) => Err(unknown_call(n, fname, f.impure_because.as_deref())),
            (None, false) if self.names.macros.contains_key(fname) => Err(reject(
                Code::P0004,
                n,
                format!("`{fname}` is a macro polyc could not expand here"),
                "unexpanded macro",
            )),
            (None, false) => Err(unknown_call(n, fname, None)),
        }
    }
}

/// Functions whose calls may appear in a SCoP: pure, reading only their
/// arguments.
const PURE_FUNCTIONS: &[&str] = &[
    "sqrt", "sqrtf", "cbrt", "exp", "expf", "exp2", "log", "logf", "log2", "log10", "fabs", "fabsf", "abs", "labs",
    "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "floor", "floorf", "ceil", "ceilf", "round", "trunc", "fmod", "fmin", "fmax", "fminf", "fmaxf", "hypot",
    "erf",
];

fn unknown_call(n: Node, fname: &str, why: Option<&str>) -> crate::diagnostics::Diagnostic {
    if EFFECTFUL_FUNCTIONS.contains(&fname) {
        return reject(
            Code::P0019,
            n,
            format!("call to `{fname}`, which has observable effects"),
            "I/O or side effect",
        )
        .with_note("input, output, allocation and process control stay where and as often as written");
    }
    let because = why.map_or(String::new(), |w| format!(" ({w})"));
    reject(Code::P0004, n, format!("call to `{fname}`, which is not known to be pure{because}"), "unknown call")
        .with_note(format!(
            "if it is (it reads only its arguments), say so: `#pragma polyc pure({fname})` or `--pure={fname}`; \
             if it is defined in a header, pass its directory with -I"
        ))
}

/// C library functions whose effects are observable outside the program's
/// memory, or on the heap: I/O, allocation, process control, clocks.
const EFFECTFUL_FUNCTIONS: &[&str] = &[
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "vprintf",
    "vfprintf",
    "puts",
    "fputs",
    "putchar",
    "fputc",
    "putc",
    "scanf",
    "fscanf",
    "sscanf",
    "getchar",
    "fgetc",
    "getc",
    "fgets",
    "gets",
    "fopen",
    "fclose",
    "fread",
    "fwrite",
    "fflush",
    "fseek",
    "perror",
    "remove",
    "rename",
    "malloc",
    "calloc",
    "realloc",
    "free",
    "exit",
    "abort",
    "_exit",
    "atexit",
    "system",
    "rand",
    "srand",
    "time",
    "clock",
    "gettimeofday",
    "clock_gettime",
    "__assert_fail",
    "assert",
    "write",
    "read",
    "open",
    "close",
];

fn arguments(n: Node) -> Vec<Node> {
    let Some(args) = n.child_by_field_name("arguments") else { return Vec::new() };
    let mut cursor = args.walk();
    args.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
}

/// `X[..]` in `&X[..]`.
fn address_of_element(arg: Node) -> Option<Node> {
    let mut n = arg;
    while n.kind() == "parenthesized_expression" {
        n = n.named_child(0)?;
    }
    let is_address =
        n.kind() == "pointer_expression" && n.child_by_field_name("operator").is_some_and(|o| o.kind() == "&");
    let element = n.child_by_field_name("argument").filter(|a| is_address && a.kind() == "subscript_expression")?;
    Some(element)
}
