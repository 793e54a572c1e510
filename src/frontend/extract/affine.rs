//! Quasi-affine expressions and conditions over the iterators and the
//! parameters: loop bounds, subscripts and affine `if` conditions, read
//! into [`QExpr`] and [`Cond`]; a name that is no iterator becomes a
//! parameter.

use super::state::{reject, Extractor, Res};
use crate::diagnostics::Code;
use crate::frontend::qexpr::{CmpOp, Cond, QExpr, Var};
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    /// A boolean condition over iterators and parameters.
    pub(super) fn condition(&mut self, n: Node) -> Res<Cond> {
        match n.kind() {
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| reject(Code::P0003, n, "empty condition", "here"))?;
                self.condition(inner)
            }
            "unary_expression" if self.operator(n) == "!" => {
                let arg =
                    n.child_by_field_name("argument").ok_or_else(|| reject(Code::P0003, n, "bad negation", "here"))?;
                Ok(self.condition(arg)?.negated())
            }
            "binary_expression" => {
                let op = self.operator(n);
                let (l, r) = self.operands(n, Code::P0003)?;
                let cmp = match op {
                    "&&" => return Ok(Cond::And(Box::new(self.condition(l)?), Box::new(self.condition(r)?))),
                    "||" => return Ok(Cond::Or(Box::new(self.condition(l)?), Box::new(self.condition(r)?))),
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    ">=" => CmpOp::Ge,
                    "==" => CmpOp::Eq,
                    "!=" => CmpOp::Ne,
                    _ => return self.truthiness(n),
                };
                Ok(Cond::Cmp(self.affine(l, Code::P0003)?, cmp, self.affine(r, Code::P0003)?))
            }
            _ => self.truthiness(n),
        }
    }

    /// C's truth of an integer expression: non-zero.
    fn truthiness(&mut self, n: Node) -> Res<Cond> {
        Ok(Cond::Cmp(self.affine(n, Code::P0003)?, CmpOp::Ne, QExpr::Const(0)))
    }

    fn operands(&self, n: Node<'a>, code: Code) -> Res<(Node<'a>, Node<'a>)> {
        match (n.child_by_field_name("left"), n.child_by_field_name("right")) {
            (Some(l), Some(r)) => Ok((l, r)),
            _ => Err(reject(code, n, "incomplete expression", "here")),
        }
    }

    pub(super) fn constant_operand(&mut self, n: Node, code: Code) -> Res<i64> {
        // An integer macro stays a parameter where the SCoP is analysed
        // with its macros expanded; as a divisor, its value counts.
        if let Some(k) = self.integer_macro(n) {
            return Ok(k);
        }
        let v = self.affine(n, code)?;
        match v.const_value() {
            Some(k) if k > 0 => Ok(k),
            _ => Err(reject(code, n, "divisor must be a positive integer constant", "divisor")),
        }
    }

    /// A quasi-affine integer expression; anything else is rejected with `code`.
    pub(super) fn affine(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let not_affine = |what: &str| reject(code, n, format!("{what} is not quasi-affine"), "not affine");
        match n.kind() {
            "number_literal" => parse_int(self.t(n)).map(QExpr::Const).ok_or_else(|| {
                reject(Code::P0013, n, "only integer constants may appear in affine expressions", "not an integer")
            }),
            "identifier" => self.affine_name(n, code),
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.affine(inner, code),
                None => Err(not_affine("this expression")),
            },
            "unary_expression" => {
                let arg = n.child_by_field_name("argument").ok_or_else(|| not_affine("this expression"))?;
                match self.operator(n) {
                    "-" => Ok(QExpr::Neg(Box::new(self.affine(arg, code)?))),
                    "+" => self.affine(arg, code),
                    _ => Err(not_affine("this operator")),
                }
            }
            "binary_expression" => {
                if matches!(self.operator(n), "*" | "/" | "%") {
                    if let Some(p) = self.specialised(n, code)? {
                        return Ok(p);
                    }
                }
                let (l, r) = self.operands(n, code)?;
                match self.operator(n) {
                    "+" => Ok(QExpr::plus(self.affine(l, code)?, self.affine(r, code)?)),
                    "-" => Ok(QExpr::minus(self.affine(l, code)?, self.affine(r, code)?)),
                    "*" => {
                        let (a, b) = (self.affine(l, code)?, self.affine(r, code)?);
                        match (a.const_value(), b.const_value()) {
                            (Some(k), _) => Ok(QExpr::Mul(k, Box::new(b))),
                            (_, Some(k)) => Ok(QExpr::Mul(k, Box::new(a))),
                            _ => Err(not_affine("a product of two variables")),
                        }
                    }
                    "/" => Ok(QExpr::TruncDiv(Box::new(self.affine(l, code)?), self.constant_operand(r, code)?)),
                    "%" => Ok(QExpr::TruncMod(Box::new(self.affine(l, code)?), self.constant_operand(r, code)?)),
                    _ => Err(not_affine("this operator")),
                }
            }
            "conditional_expression" => {
                let part = |f: &str| n.child_by_field_name(f).ok_or_else(|| not_affine("this expression"));
                let cond = self.condition(part("condition")?)?;
                let yes = self.affine(part("consequence")?, code)?;
                let no = self.affine(part("alternative")?, code)?;
                Ok(QExpr::Select(Box::new(cond), Box::new(yes), Box::new(no)))
            }
            "call_expression" => self.affine_call(n, code),
            "cast_expression" => self.integer_cast(n, code),
            "field_expression" => Err(not_affine("a struct member").with_note(
                "copy it into a local variable before the region: one the region does not write is a parameter",
            )),
            "multifor_index_list" => {
                let picked = self.picked(n)?;
                self.affine(picked, code)
            }
            _ => Err(not_affine("this expression")),
        }
    }

    /// `floord`, `ceild`, `min`, `max` (any case) as PLUTO and PolyBench define them.
    fn affine_call(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let fname = n.child_by_field_name("function").map_or("", |f| self.t(f)).to_ascii_lowercase();
        let args: Vec<Node> = match n.child_by_field_name("arguments") {
            Some(a) => {
                let mut cursor = a.walk();
                a.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect()
            }
            None => Vec::new(),
        };
        let [a, b] = args[..] else {
            return Err(reject(code, n, format!("call to `{fname}` is not quasi-affine"), "not affine"));
        };
        match fname.as_str() {
            "floord" => Ok(QExpr::FloorDiv(Box::new(self.affine(a, code)?), self.constant_operand(b, code)?)),
            "ceild" => Ok(QExpr::CeilDiv(Box::new(self.affine(a, code)?), self.constant_operand(b, code)?)),
            "min" => Ok(QExpr::Min(Box::new(self.affine(a, code)?), Box::new(self.affine(b, code)?))),
            "max" => Ok(QExpr::Max(Box::new(self.affine(a, code)?), Box::new(self.affine(b, code)?))),
            _ => Err(reject(code, n, format!("call to `{fname}` is not quasi-affine"), "not affine")),
        }
    }

    /// The positive value of `n` if it names a macro whose value is an
    /// integer literal (`#define BINS 8`), in parentheses or not.
    fn integer_macro(&self, n: Node) -> Option<i64> {
        let value = self.names.macros.get(self.t(n)).filter(|_| n.kind() == "identifier")?;
        let literal = value.trim().trim_start_matches('(').trim_end_matches(')').trim();
        let digits = literal.trim_end_matches(['u', 'U', 'l', 'L']);
        digits.parse::<i64>().ok().filter(|&k| k > 0)
    }

    pub(super) fn affine_name(&mut self, n: Node, code: Code) -> Res<QExpr> {
        let name = self.t(n);
        if let Some(depth) = self.in_scope_iterator(name) {
            return Ok(QExpr::Var(Var::Iter(depth)));
        }
        self.check_not_foreign_index(n, true)?;
        self.not_a_row_pointer(n)?;
        self.free_uses.push((name.to_string(), n.byte_range()));
        if self.local(name).is_some() {
            return self.local_value(n);
        }
        if let Some(v) = self.names.vars.get(name) {
            if v.is_array() {
                return Err(reject(code, n, format!("array `{name}` used as an integer"), "not affine"));
            }
            if v.is_floating() {
                return Err(reject(Code::P0013, n, format!("`{name}` has floating type `{}`", v.ty), "not an integer"));
            }
        } else if let Some(value) = self.names.macros.get(name) {
            if value.contains('.') || value.contains('"') {
                return Err(reject(
                    Code::P0013,
                    n,
                    format!("macro `{name}` is not an integer (`{value}`)"),
                    "not an integer",
                ));
            }
        }
        Ok(QExpr::Var(Var::Param(self.parameter(name, n.byte_range()))))
    }

    /// The index of parameter `name` (used at `span`), a new one if it is new.
    pub(super) fn parameter(&mut self, name: &str, span: std::ops::Range<usize>) -> usize {
        self.param_uses.entry(name.to_string()).or_insert(span);
        match self.params.iter().position(|p| p == name) {
            Some(k) => k,
            None => {
                self.params.push(name.to_string());
                self.params.len() - 1
            }
        }
    }
}

/// An integer literal in any C base, suffixes allowed.
/// The value of a macro whose body is an integer literal, in
/// parentheses or not (`#define N (1 << 0)` has none).
pub(super) fn integer_literal(body: &str) -> Option<i64> {
    parse_int(body.trim().trim_start_matches('(').trim_end_matches(')').trim())
}

pub(super) fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    let v = i64::from_str_radix(&digits.replace('\'', ""), radix).ok()?;
    // Keep every constant small enough that isl's machine integers and the
    // scanner's arithmetic cannot overflow.
    (v.abs() < 1 << 40).then_some(v)
}
