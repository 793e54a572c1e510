//! `for` loops: the iterator, its first value, its step and the bounds
//! of its condition, checked to describe the iterations exactly.

use super::poly::linear;
use super::state::{reject, Extractor, Header, LoopCtx, Res};
use crate::diagnostics::Code;
use crate::frontend::ast::Iterator;
use crate::frontend::qexpr::{CmpOp, Cond, QExpr, Var};
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    pub(super) fn for_loop(&mut self, n: Node) -> Res<()> {
        let header = Header {
            whole: n,
            init: n.child_by_field_name("initializer"),
            cond: n.child_by_field_name("condition"),
            update: n.child_by_field_name("update"),
        };
        self.open_loop(&header)?;
        self.referential.push(None);
        let r = n.child_by_field_name("body").map_or(Ok(()), |b| self.statement(b));
        self.close_loop();
        r
    }

    /// Enter the loop `h` describes: its iterator in scope, its domain
    /// among the conditions, a new depth of `beta`. Returns its first
    /// value and its step.
    pub(super) fn open_loop(&mut self, h: &Header) -> Res<(QExpr, i64)> {
        let depth = self.loops.len();
        let (name, ty, declared, init) = self.loop_init(h)?;
        if init.mentions(Var::Iter(depth)) {
            return Err(reject(Code::P0007, h.whole, "loop initialiser uses its own iterator", "loop header"));
        }
        self.iterator_names.insert(name.clone());
        if !declared {
            self.outer_iterators.insert(name.clone());
        }
        let iter = Iterator { name, ty, descending: false };
        self.loops.push(LoopCtx { iter, counts_up_from_nonnegative: false });
        let step = self.loop_step(h, depth)?;
        let cond = self.loop_condition(h, depth, step)?;
        self.loops[depth].iter.descending = step < 0;
        self.loops[depth].counts_up_from_nonnegative = step > 0 && self.nonnegative(&init);
        let i = QExpr::Var(Var::Iter(depth));
        let start = if step > 0 { CmpOp::Ge } else { CmpOp::Le };
        let mut domain = Cond::and(Cond::Cmp(i.clone(), start, init.clone()), cond);
        if step.abs() > 1 {
            domain = Cond::and(domain, Cond::Divisible(QExpr::minus(i, init.clone()), step.abs()));
        }
        self.conds.push(domain);
        self.beta.push(0);
        Ok((init, step))
    }

    /// Leave the innermost loop (see [`Extractor::open_loop`]); its
    /// successor comes next at the enclosing depth.
    pub(super) fn close_loop(&mut self) {
        self.beta.pop();
        self.conds.pop();
        self.loops.pop();
        self.referential.pop();
        *self.beta.last_mut().expect("beta always has the current depth") += 1;
    }

    /// `(iterator, type, declared here, initial value)`.
    fn loop_init(&mut self, h: &Header) -> Res<(String, String, bool, QExpr)> {
        let malformed = |msg: &str| reject(Code::P0007, h.whole, msg.to_string(), "loop header");
        let init = h.init.ok_or_else(|| malformed("loop without initialiser"))?;
        match init.kind() {
            "declaration" => {
                let ty = init.child_by_field_name("type").map_or("int", |t| self.t(t)).to_string();
                let mut cursor = init.walk();
                let decls: Vec<Node> = init.children_by_field_name("declarator", &mut cursor).collect();
                let [d] = decls[..] else {
                    return Err(malformed("the initialiser must declare exactly one iterator"));
                };
                let (Some(name), Some(value)) = (d.child_by_field_name("declarator"), d.child_by_field_name("value"))
                else {
                    return Err(malformed("the iterator must be initialised"));
                };
                if name.kind() != "identifier" {
                    return Err(malformed("the iterator must be a plain variable"));
                }
                let v = self.affine(value, Code::P0003)?;
                Ok((self.t(name).to_string(), ty, true, v))
            }
            "assignment_expression" => {
                let left = init.child_by_field_name("left").filter(|l| l.kind() == "identifier");
                let op = init.child_by_field_name("operator").map(|o| self.t(o));
                let (Some(left), Some("="), Some(right)) = (left, op, init.child_by_field_name("right")) else {
                    return Err(malformed("the initialiser must be `i = <affine expression>`"));
                };
                let name = self.t(left).to_string();
                let ty = self.var(&name).map_or("int".to_string(), |v| v.ty.clone());
                if self.var(&name).is_some_and(|v| v.is_floating() || v.is_array()) {
                    return Err(malformed("the iterator must be an integer variable"));
                }
                let v = self.affine(right, Code::P0003)?;
                Ok((name, ty, false, v))
            }
            _ => Err(malformed("the initialiser must be `i = lb` or `int i = lb`")),
        }
    }

    fn loop_step(&mut self, h: &Header, depth: usize) -> Res<i64> {
        let at = h.update.unwrap_or(h.whole);
        let malformed =
            || reject(Code::P0007, at, "the increment must be `i++`, `i--`, `i += c` or `i -= c`", "loop header");
        let upd = h.update.ok_or_else(malformed)?;
        let name = self.loops[depth].iter.name.clone();
        let is_iter = |x: Option<Node>| x.is_some_and(|a| a.kind() == "identifier" && self.t(a) == name);
        let step = match upd.kind() {
            "update_expression" if is_iter(upd.child_by_field_name("argument")) => {
                if self.t(upd).contains("++") {
                    1
                } else {
                    -1
                }
            }
            "assignment_expression" if is_iter(upd.child_by_field_name("left")) => {
                let op = upd.child_by_field_name("operator").map(|o| self.t(o)).unwrap_or("");
                let right = upd.child_by_field_name("right").ok_or_else(malformed)?;
                // A step may be a macro (`i += TILE`): a constant, not a parameter.
                if matches!(op, "+=" | "-=") {
                    let step = self.constant_operand(right, Code::P0007).map_err(|_| malformed())?;
                    return Ok(if op == "+=" { step } else { -step });
                }
                let rhs = self.affine(right, Code::P0007)?;
                let step = match op {
                    "=" => increment(&rhs, depth),
                    _ => None,
                };
                step.ok_or_else(malformed)?
            }
            _ => return Err(malformed()),
        };
        if step == 0 {
            return Err(malformed());
        }
        Ok(step)
    }

    /// The loop condition, checked to be a conjunction of bounds in the
    /// direction of the step (so "while it holds" equals "where it holds").
    fn loop_condition(&mut self, h: &Header, depth: usize, step: i64) -> Res<Cond> {
        let c = h.cond.ok_or_else(|| reject(Code::P0007, h.whole, "loop without condition", "loop header"))?;
        let cond = self.condition(c)?;
        let mut atoms = Vec::new();
        conjuncts(&cond, &mut atoms);
        for atom in atoms {
            let Cond::Cmp(a, op, b) = atom else {
                return Err(reject(
                    Code::P0007,
                    c,
                    "the loop condition must be a conjunction of comparisons",
                    "condition",
                ));
            };
            let coef = QExpr::minus(a.clone(), b.clone()).linear_coeff(Var::Iter(depth));
            let bounds_from_above = match (op, coef) {
                (CmpOp::Lt | CmpOp::Le, Some(k)) if k != 0 => k > 0,
                (CmpOp::Gt | CmpOp::Ge, Some(k)) if k != 0 => k < 0,
                _ => {
                    return Err(reject(
                        Code::P0007,
                        c,
                        "each comparison of the loop condition must bound the iterator linearly",
                        "condition",
                    ))
                }
            };
            if bounds_from_above != (step > 0) {
                return Err(reject(
                    Code::P0007,
                    c,
                    "the loop condition does not bound the iterator in the direction of the step",
                    "condition",
                ));
            }
        }
        Ok(cond)
    }
}

fn conjuncts<'c>(c: &'c Cond, out: &mut Vec<&'c Cond>) {
    match c {
        Cond::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        other => out.push(other),
    }
}

/// `k` where `rhs` is the iterator at `depth` plus the constant `k`
/// (`i = i + 2`).
fn increment(rhs: &QExpr, depth: usize) -> Option<i64> {
    let poly = linear(rhs)?;
    let (mut step, mut counts) = (0, false);
    for (monomial, c) in poly {
        match (&monomial.iters[..], monomial.params.is_empty()) {
            ([d], true) if *d == depth && c == 1 => counts = true,
            ([], true) => step = c,
            _ => return None,
        }
    }
    counts.then_some(step)
}
