//! Quasi-affine C expressions and conditions as written in a SCoP, with
//! C's semantics (truncating `/` and `%`), and their exact translation to
//! isl's syntax by case analysis on signs.
//!
//! `/` and `%` by a constant split on the sign of the dividend (C truncates
//! towards zero, isl's `floor` and `mod` do not); `min`, `max` and `?:`
//! become guarded pieces, each value under the condition where it is the
//! one taken. An expression of more than [`MAX_PIECES`] pieces is too
//! complex: the SCoP is kept as written. Invariant: the isl set of a
//! condition is exactly the set of integer points where the C condition
//! is true.

/// A variable of an affine expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// The iterator of the enclosing loop at this depth (0 = outermost).
    Iter(usize),
    /// A parameter, by index in the SCoP's parameter list.
    Param(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub enum QExpr {
    Const(i64),
    Var(Var),
    Add(Box<QExpr>, Box<QExpr>),
    Neg(Box<QExpr>),
    Mul(i64, Box<QExpr>),
    /// `floord(e, k)`: floor division by a positive constant.
    FloorDiv(Box<QExpr>, i64),
    /// `ceild(e, k)`.
    CeilDiv(Box<QExpr>, i64),
    /// C's `e / k`, rounding toward zero.
    TruncDiv(Box<QExpr>, i64),
    /// C's `e % k`, with the sign of `e`.
    TruncMod(Box<QExpr>, i64),
    Min(Box<QExpr>, Box<QExpr>),
    Max(Box<QExpr>, Box<QExpr>),
    Select(Box<Cond>, Box<QExpr>, Box<QExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    True,
    Cmp(QExpr, CmpOp, QExpr),
    /// The expression is a multiple of the constant (> 1).
    Divisible(QExpr, i64),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
}

/// More pieces than this in one expression is rejected as too complex.
pub const MAX_PIECES: usize = 64;

impl QExpr {
    pub fn plus(a: QExpr, b: QExpr) -> QExpr {
        QExpr::Add(Box::new(a), Box::new(b))
    }

    pub fn minus(a: QExpr, b: QExpr) -> QExpr {
        QExpr::plus(a, QExpr::Neg(Box::new(b)))
    }

    /// The value, if the expression is a constant.
    pub fn const_value(&self) -> Option<i64> {
        match self {
            QExpr::Const(c) => Some(*c),
            QExpr::Var(_) => None,
            QExpr::Add(a, b) => a.const_value()?.checked_add(b.const_value()?),
            QExpr::Neg(a) => a.const_value()?.checked_neg(),
            QExpr::Mul(k, a) => a.const_value()?.checked_mul(*k),
            QExpr::FloorDiv(a, k) => Some(a.const_value()?.div_euclid(*k)),
            QExpr::CeilDiv(a, k) => Some(-(-a.const_value()?).div_euclid(*k)),
            QExpr::TruncDiv(a, k) => Some(a.const_value()? / k),
            QExpr::TruncMod(a, k) => Some(a.const_value()? % k),
            QExpr::Min(a, b) => Some(a.const_value()?.min(b.const_value()?)),
            QExpr::Max(a, b) => Some(a.const_value()?.max(b.const_value()?)),
            QExpr::Select(..) => None,
        }
    }

    /// The coefficient of `v` if the expression is linear in `v` (it does
    /// not occur under a division, modulo, min, max or select); `None`
    /// otherwise.
    pub fn linear_coeff(&self, v: Var) -> Option<i64> {
        match self {
            QExpr::Const(_) => Some(0),
            QExpr::Var(w) => Some(i64::from(*w == v)),
            QExpr::Add(a, b) => Some(a.linear_coeff(v)? + b.linear_coeff(v)?),
            QExpr::Neg(a) => Some(-a.linear_coeff(v)?),
            QExpr::Mul(k, a) => Some(k * a.linear_coeff(v)?),
            other => (!other.mentions(v)).then_some(0),
        }
    }

    /// The expression with each parameter `k` renumbered `to(k)`.
    pub fn renumbered(&self, to: &impl Fn(usize) -> usize) -> QExpr {
        let r = |e: &QExpr| Box::new(e.renumbered(to));
        match self {
            QExpr::Const(c) => QExpr::Const(*c),
            QExpr::Var(Var::Param(k)) => QExpr::Var(Var::Param(to(*k))),
            QExpr::Var(v) => QExpr::Var(*v),
            QExpr::Add(a, b) => QExpr::Add(r(a), r(b)),
            QExpr::Neg(a) => QExpr::Neg(r(a)),
            QExpr::Mul(k, a) => QExpr::Mul(*k, r(a)),
            QExpr::FloorDiv(a, k) => QExpr::FloorDiv(r(a), *k),
            QExpr::CeilDiv(a, k) => QExpr::CeilDiv(r(a), *k),
            QExpr::TruncDiv(a, k) => QExpr::TruncDiv(r(a), *k),
            QExpr::TruncMod(a, k) => QExpr::TruncMod(r(a), *k),
            QExpr::Min(a, b) => QExpr::Min(r(a), r(b)),
            QExpr::Max(a, b) => QExpr::Max(r(a), r(b)),
            QExpr::Select(c, a, b) => QExpr::Select(Box::new(c.renumbered(to)), r(a), r(b)),
        }
    }

    pub fn mentions(&self, v: Var) -> bool {
        match self {
            QExpr::Const(_) => false,
            QExpr::Var(w) => *w == v,
            QExpr::Add(a, b) | QExpr::Min(a, b) | QExpr::Max(a, b) => a.mentions(v) || b.mentions(v),
            QExpr::Neg(a)
            | QExpr::Mul(_, a)
            | QExpr::FloorDiv(a, _)
            | QExpr::CeilDiv(a, _)
            | QExpr::TruncDiv(a, _)
            | QExpr::TruncMod(a, _) => a.mentions(v),
            QExpr::Select(c, a, b) => c.mentions(v) || a.mentions(v) || b.mentions(v),
        }
    }

    /// `(true, x, y)` for `min(x, y)`, `(false, x, y)` for `max(x, y)`,
    /// whether written as a call or as a conditional such as `x < y ? x : y`.
    pub fn as_extremum(&self) -> Option<(bool, &QExpr, &QExpr)> {
        match self {
            QExpr::Min(x, y) => Some((true, x, y)),
            QExpr::Max(x, y) => Some((false, x, y)),
            QExpr::Select(c, yes, no) => {
                let Cond::Cmp(l, op, r) = &**c else { return None };
                let picks_smaller = match op {
                    CmpOp::Lt | CmpOp::Le => true,
                    CmpOp::Gt | CmpOp::Ge => false,
                    CmpOp::Eq | CmpOp::Ne => return None,
                };
                if (l, r) == (&**yes, &**no) {
                    Some((picks_smaller, yes, no))
                } else if (l, r) == (&**no, &**yes) {
                    Some((!picks_smaller, yes, no))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The expression as guarded isl pieces: `(guard, value)` pairs whose
    /// guards partition the space. `None` guard means "always".
    pub fn pieces(&self) -> Result<Vec<Piece>, TooComplex> {
        let pieces = match self {
            QExpr::Const(c) => vec![Piece::always(format!("({c})"))],
            QExpr::Var(Var::Iter(d)) => vec![Piece::always(format!("i{d}"))],
            QExpr::Var(Var::Param(k)) => vec![Piece::always(format!("p{k}"))],
            QExpr::Add(a, b) => combine(&a.pieces()?, &b.pieces()?, |x, y| format!("({x} + {y})"))?,
            QExpr::Neg(a) => map(a.pieces()?, |x| format!("(-{x})")),
            QExpr::Mul(k, a) => map(a.pieces()?, |x| format!("({k}*{x})")),
            QExpr::FloorDiv(a, k) => map(a.pieces()?, |x| format!("floor({x}/{k})")),
            QExpr::CeilDiv(a, k) => map(a.pieces()?, |x| format!("ceil({x}/{k})")),
            QExpr::TruncDiv(a, k) => {
                split_on_sign(a.pieces()?, |x| format!("floor({x}/{k})"), |x| format!("ceil({x}/{k})"))
            }
            QExpr::TruncMod(a, k) => {
                split_on_sign(a.pieces()?, |x| format!("({x} mod {k})"), |x| format!("(-((-{x}) mod {k}))"))
            }
            QExpr::Min(a, b) => select_by_order(&a.pieces()?, &b.pieces()?, "<=")?,
            QExpr::Max(a, b) => select_by_order(&a.pieces()?, &b.pieces()?, ">=")?,
            QExpr::Select(c, a, b) => {
                let yes = c.to_isl()?;
                let no = c.negated().to_isl()?;
                let mut out = restrict(a.pieces()?, &yes);
                out.extend(restrict(b.pieces()?, &no));
                out
            }
        };
        if pieces.len() > MAX_PIECES {
            return Err(TooComplex);
        }
        Ok(pieces)
    }
}

/// An expression whose case analysis exceeds [`MAX_PIECES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooComplex;

#[derive(Clone, Debug)]
pub struct Piece {
    pub guard: Option<String>,
    pub value: String,
}

impl Piece {
    fn always(value: String) -> Piece {
        Piece { guard: None, value }
    }

    fn guarded(&self, extra: &str) -> Option<String> {
        Some(match &self.guard {
            Some(g) => format!("({g} and {extra})"),
            None => extra.to_string(),
        })
    }
}

fn and_guards(a: &Option<String>, b: &Option<String>) -> Option<String> {
    match (a, b) {
        (None, g) | (g, None) => g.clone(),
        (Some(x), Some(y)) => Some(format!("({x} and {y})")),
    }
}

fn map(pieces: Vec<Piece>, f: impl Fn(&str) -> String) -> Vec<Piece> {
    pieces.into_iter().map(|p| Piece { value: f(&p.value), guard: p.guard }).collect()
}

fn combine(a: &[Piece], b: &[Piece], f: impl Fn(&str, &str) -> String) -> Result<Vec<Piece>, TooComplex> {
    if a.len() * b.len() > MAX_PIECES {
        return Err(TooComplex);
    }
    Ok(a.iter()
        .flat_map(|x| b.iter().map(move |y| (x, y)))
        .map(|(x, y)| Piece { guard: and_guards(&x.guard, &y.guard), value: f(&x.value, &y.value) })
        .collect())
}

fn split_on_sign(pieces: Vec<Piece>, nonneg: impl Fn(&str) -> String, neg: impl Fn(&str) -> String) -> Vec<Piece> {
    pieces
        .iter()
        .flat_map(|p| {
            [
                Piece { guard: p.guarded(&format!("{} >= 0", p.value)), value: nonneg(&p.value) },
                Piece { guard: p.guarded(&format!("{} < 0", p.value)), value: neg(&p.value) },
            ]
        })
        .collect()
}

/// `a` where `a op b` holds, `b` elsewhere: min (`<=`) and max (`>=`).
fn select_by_order(a: &[Piece], b: &[Piece], op: &str) -> Result<Vec<Piece>, TooComplex> {
    if 2 * a.len() * b.len() > MAX_PIECES {
        return Err(TooComplex);
    }
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let both = and_guards(&x.guard, &y.guard);
            let holds = format!("{} {op} {}", x.value, y.value);
            let with = |extra: String| match &both {
                Some(g) => Some(format!("({g} and {extra})")),
                None => Some(extra),
            };
            out.push(Piece { guard: with(holds.clone()), value: x.value.clone() });
            out.push(Piece { guard: with(format!("not ({holds})")), value: y.value.clone() });
        }
    }
    Ok(out)
}

fn restrict(pieces: Vec<Piece>, cond: &str) -> Vec<Piece> {
    pieces.into_iter().map(|p| Piece { guard: p.guarded(cond), value: p.value }).collect()
}

impl Cond {
    pub fn and(a: Cond, b: Cond) -> Cond {
        match (a, b) {
            (Cond::True, c) | (c, Cond::True) => c,
            (a, b) => Cond::And(Box::new(a), Box::new(b)),
        }
    }

    pub fn mentions(&self, v: Var) -> bool {
        match self {
            Cond::True => false,
            Cond::Cmp(a, _, b) => a.mentions(v) || b.mentions(v),
            Cond::Divisible(a, _) => a.mentions(v),
            Cond::And(a, b) | Cond::Or(a, b) => a.mentions(v) || b.mentions(v),
            Cond::Not(a) => a.mentions(v),
        }
    }

    /// The condition with each parameter `k` renumbered `to(k)`.
    pub fn renumbered(&self, to: &impl Fn(usize) -> usize) -> Cond {
        let r = |c: &Cond| Box::new(c.renumbered(to));
        match self {
            Cond::True => Cond::True,
            Cond::Cmp(a, op, b) => Cond::Cmp(a.renumbered(to), *op, b.renumbered(to)),
            Cond::Divisible(a, k) => Cond::Divisible(a.renumbered(to), *k),
            Cond::And(a, b) => Cond::And(r(a), r(b)),
            Cond::Or(a, b) => Cond::Or(r(a), r(b)),
            Cond::Not(a) => Cond::Not(r(a)),
        }
    }

    /// The negation, pushed down to the atoms.
    pub fn negated(&self) -> Cond {
        match self {
            Cond::True => Cond::Not(Box::new(Cond::True)),
            Cond::Cmp(a, op, b) => Cond::Cmp(a.clone(), op.negated(), b.clone()),
            Cond::Divisible(..) => Cond::Not(Box::new(self.clone())),
            Cond::And(a, b) => Cond::Or(Box::new(a.negated()), Box::new(b.negated())),
            Cond::Or(a, b) => Cond::And(Box::new(a.negated()), Box::new(b.negated())),
            Cond::Not(a) => (**a).clone(),
        }
    }

    /// The condition in isl syntax.
    pub fn to_isl(&self) -> Result<String, TooComplex> {
        Ok(match self {
            Cond::True => "true".to_string(),
            Cond::Not(inner) => format!("not ({})", inner.to_isl()?),
            Cond::And(a, b) => format!("({} and {})", a.to_isl()?, b.to_isl()?),
            Cond::Or(a, b) => format!("({} or {})", a.to_isl()?, b.to_isl()?),
            Cond::Divisible(e, k) => disjunction(e.pieces()?, |v| format!("{v} mod {k} = 0")),
            Cond::Cmp(a, op, b) => {
                if let Some(split) = split_extremum(a, *op, b) {
                    return split.to_isl();
                }
                let diff = QExpr::minus(a.clone(), b.clone()).pieces()?;
                let atom = match op {
                    CmpOp::Lt => "< 0",
                    CmpOp::Le => "<= 0",
                    CmpOp::Gt => "> 0",
                    CmpOp::Ge => ">= 0",
                    CmpOp::Eq => "= 0",
                    CmpOp::Ne => "!= 0",
                };
                disjunction(diff, |v| match op {
                    CmpOp::Ne => format!("({v} < 0 or {v} > 0)"),
                    _ => format!("{v} {atom}"),
                })
            }
        })
    }
}

/// `lo < min(x, y)` as `lo < x and lo < y` (and the other three
/// min/max cases, for `<`, `<=`, `>`, `>=`): a bound written with `MIN` or
/// `MAX` stays one convex constraint set instead of a case split, which
/// isl cannot always merge back once strides are involved.
fn split_extremum(a: &QExpr, op: CmpOp, b: &QExpr) -> Option<Cond> {
    let (lo, op, hi) = match op {
        CmpOp::Lt | CmpOp::Le => (a, op, b),
        CmpOp::Gt => (b, CmpOp::Lt, a),
        CmpOp::Ge => (b, CmpOp::Le, a),
        CmpOp::Eq | CmpOp::Ne => return None,
    };
    let cmp = |l: &QExpr, h: &QExpr| Box::new(Cond::Cmp(l.clone(), op, h.clone()));
    if let Some((is_min, x, y)) = hi.as_extremum() {
        let (p, q) = (cmp(lo, x), cmp(lo, y));
        return Some(if is_min { Cond::And(p, q) } else { Cond::Or(p, q) });
    }
    let (is_min, x, y) = lo.as_extremum()?;
    let (p, q) = (cmp(x, hi), cmp(y, hi));
    Some(if is_min { Cond::Or(p, q) } else { Cond::And(p, q) })
}

fn disjunction(pieces: Vec<Piece>, atom: impl Fn(&str) -> String) -> String {
    let alts: Vec<String> = pieces
        .iter()
        .map(|p| match &p.guard {
            Some(g) => format!("({g} and {})", atom(&p.value)),
            None => atom(&p.value),
        })
        .collect();
    format!("({})", alts.join(" or "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::isl::Set;

    fn set(cond: &Cond) -> Set {
        Set::parse(&format!("{{ [i0] : -20 <= i0 <= 20 and {} }}", cond.to_isl().unwrap())).unwrap()
    }

    fn count(cond: &Cond) -> Vec<i64> {
        (-20..=20)
            .filter(|x| {
                let point = Set::parse(&format!("{{ [i0] : i0 = {x} }}")).unwrap();
                !point.intersect(&set(cond)).unwrap().is_empty().unwrap()
            })
            .collect()
    }

    fn i() -> QExpr {
        QExpr::Var(Var::Iter(0))
    }

    #[test]
    fn c_modulo_keeps_the_sign_of_the_dividend() {
        let cond = Cond::Cmp(QExpr::TruncMod(Box::new(i()), 3), CmpOp::Eq, QExpr::Const(-1));
        let expected: Vec<i64> = (-20..=20).filter(|x| x % 3 == -1).collect();
        assert_eq!(count(&cond), expected);
    }

    #[test]
    fn c_division_truncates_toward_zero() {
        let cond = Cond::Cmp(QExpr::TruncDiv(Box::new(i()), 4), CmpOp::Eq, QExpr::Const(-2));
        let expected: Vec<i64> = (-20..=20).filter(|x| x / 4 == -2).collect();
        assert_eq!(count(&cond), expected);
    }

    #[test]
    fn bounds_by_min_and_max_stay_convex() {
        let two_i = || QExpr::Mul(2, Box::new(i()));
        let min = QExpr::Select(
            Box::new(Cond::Cmp(two_i(), CmpOp::Lt, QExpr::Const(9))),
            Box::new(two_i()),
            Box::new(QExpr::Const(9)),
        );
        let below_min = Cond::Cmp(QExpr::Const(-4), CmpOp::Le, min);
        let above_max = Cond::Cmp(QExpr::Max(Box::new(i()), Box::new(QExpr::Const(-3))), CmpOp::Lt, QExpr::Const(5));
        for cond in [below_min, above_max] {
            assert_eq!(set(&cond).disjuncts().unwrap().len(), 1, "{cond:?}");
        }
        let below_max =
            Cond::Cmp(i(), CmpOp::Gt, QExpr::Max(Box::new(QExpr::Const(3)), Box::new(QExpr::Neg(Box::new(i())))));
        let expected: Vec<i64> = (-20..=20).filter(|&x| x > 3.max(-x)).collect();
        assert_eq!(count(&below_max), expected);
    }

    #[test]
    fn min_max_and_select_follow_c() {
        let e = QExpr::Min(Box::new(QExpr::Const(3)), Box::new(QExpr::Mul(2, Box::new(i()))));
        let cond = Cond::Cmp(e, CmpOp::Ge, QExpr::Const(0));
        let expected: Vec<i64> = (-20..=20).filter(|x| 3.min(2 * x) >= 0).collect();
        assert_eq!(count(&cond), expected);
        let sel = QExpr::Select(
            Box::new(Cond::Cmp(i(), CmpOp::Lt, QExpr::Const(0))),
            Box::new(QExpr::Neg(Box::new(i()))),
            Box::new(i()),
        );
        let cond = Cond::Cmp(sel, CmpOp::Le, QExpr::Const(5));
        let expected: Vec<i64> = (-20..=20).filter(|x: &i64| x.abs() <= 5).collect();
        assert_eq!(count(&cond), expected);
    }

    #[test]
    fn negation_is_exact_for_ne_and_divisibility() {
        let c = Cond::And(Box::new(Cond::Cmp(i(), CmpOp::Ne, QExpr::Const(4))), Box::new(Cond::Divisible(i(), 2)));
        let expected: Vec<i64> = (-20..=20).filter(|x| !(x != &4 && x % 2 == 0)).collect();
        assert_eq!(count(&c.negated()), expected);
    }

    #[test]
    fn linear_coefficient_ignores_nonlinear_uses() {
        let e = QExpr::plus(QExpr::Mul(3, Box::new(i())), QExpr::Const(2));
        assert_eq!(e.linear_coeff(Var::Iter(0)), Some(3));
        assert_eq!(QExpr::TruncMod(Box::new(i()), 2).linear_coeff(Var::Iter(0)), None);
    }
}
