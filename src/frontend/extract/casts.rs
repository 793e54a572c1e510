//! Casts to integer types in bounds and subscripts: `i < (long)n - 1`,
//! `a[(size_t)i * n + j]`.
//!
//! A cast is transparent (the affine value is its operand's) where C
//! gives the operand's value unchanged: the target type is an integer type
//! at least as wide as `int` and the operand provably fits in it. For a
//! signed target that is a matter of width: every variable of the operand
//! has a type no wider (an `int` target takes `int` variables and small
//! constants; a 64-bit one anything but unsigned 64-bit variables). For
//! an unsigned target the operand must also be provably non-negative:
//! non-negative constants and macros, unsigned variables, iterators of
//! ascending loops that start at a non-negative value, and sums, products
//! by positive constants, quotients, minima and maxima of those. Anything
//! else is refused, saying which cast to drop or widen.

use super::poly::Poly;
use super::state::{reject, Extractor, Res};
use crate::diagnostics::{Code, Diagnostic};
use crate::frontend::qexpr::{QExpr, Var};
use tree_sitter::Node;

/// An integer type of at least `int`'s width, as a cast names it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct IntType {
    unsigned: bool,
    /// 32 or 64.
    bits: u32,
}

impl IntType {
    /// The type `ty` (a type as written) names, if it is an integer type
    /// of at least 32 bits polyc knows.
    pub(super) fn of(ty: &str) -> Option<IntType> {
        let words: Vec<&str> = ty.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect();
        let named = |unsigned, bits| Some(IntType { unsigned, bits });
        match words[..] {
            ["size_t"] | ["uint64_t"] | ["uintptr_t"] | ["uintmax_t"] => named(true, 64),
            ["ptrdiff_t"] | ["ssize_t"] | ["int64_t"] | ["intptr_t"] | ["intmax_t"] => named(false, 64),
            ["uint32_t"] => named(true, 32),
            ["int32_t"] => named(false, 32),
            _ if words.iter().any(|w| matches!(*w, "char" | "short" | "float" | "double" | "_Bool" | "void")) => None,
            _ if words.is_empty() || !words.iter().all(|w| matches!(*w, "unsigned" | "signed" | "int" | "long")) => {
                None
            }
            _ => named(words.contains(&"unsigned"), if words.contains(&"long") { 64 } else { 32 }),
        }
    }

    /// Whether every value of type `other` is a value of this type, the
    /// negative ones aside (an unsigned target needs its operand proven
    /// non-negative besides).
    fn holds(self, other: IntType) -> bool {
        match (self.unsigned, other.unsigned) {
            (false, true) => self.bits > other.bits,
            _ => self.bits >= other.bits,
        }
    }
}

impl<'a> Extractor<'a> {
    /// The affine value of the cast `n`: its operand's, where the cast
    /// changes no value (see the module's documentation).
    pub(super) fn integer_cast(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let (Some(ty), Some(value)) = (n.child_by_field_name("type"), n.child_by_field_name("value")) else {
            return Err(reject(code, n, "this cast is not quasi-affine", "not affine"));
        };
        let Some(target) = IntType::of(self.t(ty)) else {
            return Err(reject(
                code,
                ty,
                format!("a cast to `{}` in a bound or subscript", self.t(ty)),
                "cast to `int`, `long` or `size_t`, or drop the cast",
            ));
        };
        let operand = self.affine(value, code)?;
        match self.keeps_value(target, &operand) {
            true => Ok(operand),
            false => Err(self.changed_by_cast(n, target, &self.vars_of(&operand), code)),
        }
    }

    /// Whether converting `e` to `target` keeps its value.
    pub(super) fn keeps_value(&self, target: IntType, e: &QExpr) -> bool {
        self.keeps(target, &self.vars_of(e), !target.unsigned || self.nonnegative(e))
    }

    /// Whether converting polynomial `p` to `target` keeps its value.
    pub(super) fn keeps_polynomial(&self, target: IntType, p: &Poly) -> bool {
        let iters = p.keys().flat_map(|m| m.iters.iter().map(|&d| Var::Iter(d)));
        let mut vars: Vec<Var> = iters.chain(p.keys().flat_map(|m| m.params.iter().map(|&k| Var::Param(k)))).collect();
        vars.dedup();
        let nonnegative = p.values().all(|&c| c >= 0) && vars.iter().all(|v| self.nonnegative_var(*v));
        self.keeps(target, &vars, nonnegative || !target.unsigned)
    }

    /// The polynomial of the cast `n` (see [`Extractor::integer_cast`]).
    pub(super) fn cast_polynomial(&mut self, n: Node, code: Code) -> Res<Option<Poly>> {
        let (Some(ty), Some(value)) = (n.child_by_field_name("type"), n.child_by_field_name("value")) else {
            return Ok(None);
        };
        let Some(target) = IntType::of(self.t(ty)) else { return Ok(None) };
        let Some(operand) = self.polynomial(value, code)? else { return Ok(None) };
        Ok(self.keeps_polynomial(target, &operand).then_some(operand))
    }

    /// Whether a value of variables `vars` keeps its value in `target`:
    /// the variables' types fit in it and the value is `nonnegative`
    /// (or the target signed).
    fn keeps(&self, target: IntType, vars: &[Var], nonnegative: bool) -> bool {
        nonnegative && vars.iter().all(|v| self.var_type(*v).is_some_and(|t| target.holds(t)))
    }

    /// Why the cast `n` to `target` of a value of variables `vars` is refused.
    fn changed_by_cast(&self, n: Node, target: IntType, vars: &[Var], code: Code) -> Diagnostic {
        let fits = vars.iter().all(|v| self.var_type(*v).is_some_and(|t| target.holds(t)));
        let why = if fits { "may be negative" } else { "may not fit" };
        let ty = n.child_by_field_name("type").map_or("", |t| self.t(t));
        let message = format!("this cast changes a value that {why} in `{ty}`");
        reject(code, n, message, "cast to a signed type at least as wide, or drop the cast")
    }

    /// The type of variable `v` of an affine expression; a macro's is the
    /// narrowest signed type of its value.
    fn var_type(&self, v: Var) -> Option<IntType> {
        match v {
            Var::Iter(d) => IntType::of(&self.loops[d].iter.ty),
            Var::Param(k) => {
                let name = &self.params[k];
                if let Some(decl) = self.var(name) {
                    return IntType::of(decl.arithmetic_type());
                }
                let value = self.macro_value(name)?;
                Some(IntType { unsigned: false, bits: if i32::try_from(value).is_ok() { 32 } else { 64 } })
            }
        }
    }

    /// Whether `e` is non-negative wherever it is evaluated, by its form.
    pub(super) fn nonnegative(&self, e: &QExpr) -> bool {
        match e {
            QExpr::Const(c) => *c >= 0,
            QExpr::Var(v) => self.nonnegative_var(*v),
            QExpr::Add(a, b) | QExpr::Min(a, b) => self.nonnegative(a) && self.nonnegative(b),
            QExpr::Max(a, b) => self.nonnegative(a) || self.nonnegative(b),
            QExpr::Mul(k, a) => *k >= 0 && self.nonnegative(a),
            QExpr::FloorDiv(a, _) | QExpr::CeilDiv(a, _) | QExpr::TruncDiv(a, _) | QExpr::TruncMod(a, _) => {
                self.nonnegative(a)
            }
            QExpr::Select(_, a, b) => self.nonnegative(a) && self.nonnegative(b),
            QExpr::Neg(a) => a.const_value().is_some_and(|c| c <= 0),
        }
    }

    fn nonnegative_var(&self, v: Var) -> bool {
        match v {
            Var::Iter(d) => self.loops[d].counts_up_from_nonnegative,
            Var::Param(k) => {
                let name = &self.params[k];
                match self.var(name) {
                    Some(decl) => IntType::of(decl.arithmetic_type()).is_some_and(|t| t.unsigned),
                    None => self.macro_value(name).is_some_and(|value| value >= 0),
                }
            }
        }
    }

    /// The value of macro `name` if it is an integer literal.
    fn macro_value(&self, name: &str) -> Option<i64> {
        super::affine::integer_literal(self.names.macros.get(name)?)
    }

    /// The variables `e` mentions.
    fn vars_of(&self, e: &QExpr) -> Vec<Var> {
        let iters = (0..self.loops.len()).map(Var::Iter);
        let params = (0..self.params.len()).map(Var::Param);
        iters.chain(params).filter(|v| e.mentions(*v)).collect()
    }
}
