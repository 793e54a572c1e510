//! Quasi-affine expressions as polyc holds them outside isl: integer
//! combinations of set dimensions, parameters and floor divisions.
//! The scanner reads them off isl constraints; the C printer prints them.
//!
//! Invariant: a [`LinExpr`] has no zero coefficient and no repeated term
//! ([`LinExpr::add_term`] keeps it so).

use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A set dimension, by position.
    Dim(usize),
    /// A parameter, by position.
    Param(usize),
    /// `floor(numerator / denominator)`, denominator > 0.
    Floor(Box<LinExpr>, i64),
}

/// `sum(coef * term) + constant`, with no zero coefficients and no
/// repeated terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LinExpr {
    pub terms: Vec<(Term, i64)>,
    pub constant: i64,
}

impl LinExpr {
    pub fn constant(c: i64) -> LinExpr {
        LinExpr { terms: Vec::new(), constant: c }
    }

    pub fn dim(d: usize) -> LinExpr {
        let mut e = LinExpr::default();
        e.add_term(Term::Dim(d), 1);
        e
    }

    pub fn add_term(&mut self, term: Term, coef: i64) {
        if coef == 0 {
            return;
        }
        match self.terms.iter().position(|(t, _)| *t == term) {
            Some(k) => {
                self.terms[k].1 += coef;
                if self.terms[k].1 == 0 {
                    self.terms.remove(k);
                }
            }
            None => self.terms.push((term, coef)),
        }
    }

    pub fn add(&self, other: &LinExpr) -> LinExpr {
        let mut r = self.clone();
        for (t, c) in &other.terms {
            r.add_term(t.clone(), *c);
        }
        r.constant += other.constant;
        r
    }

    pub fn scale(&self, k: i64) -> LinExpr {
        if k == 0 {
            return LinExpr::default();
        }
        LinExpr { terms: self.terms.iter().map(|(t, c)| (t.clone(), c * k)).collect(), constant: self.constant * k }
    }

    pub fn sub(&self, other: &LinExpr) -> LinExpr {
        self.add(&other.scale(-1))
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// The coefficient of dimension `d` outside any floor.
    pub fn coeff_of_dim(&self, d: usize) -> i64 {
        self.terms.iter().find(|(t, _)| *t == Term::Dim(d)).map_or(0, |(_, c)| *c)
    }

    /// Whether dimension `d` occurs anywhere, floors included.
    pub fn involves_dim(&self, d: usize) -> bool {
        self.terms.iter().any(|(t, _)| t.involves_dim(d))
    }

    pub fn has_floor(&self) -> bool {
        self.terms.iter().any(|(t, _)| matches!(t, Term::Floor(..)))
    }

    /// Whether dimension `d` occurs inside a floor.
    pub fn has_floor_involving(&self, d: usize) -> bool {
        self.terms.iter().any(|(t, _)| matches!(t, Term::Floor(..)) && t.involves_dim(d))
    }

    /// The expression without its `Dim(d)` term.
    pub fn without_dim(&self, d: usize) -> LinExpr {
        let mut r = self.clone();
        r.terms.retain(|(t, _)| *t != Term::Dim(d));
        r
    }

    /// Replace every dimension by `f(d)`, floors included.
    pub fn substitute(&self, f: &dyn Fn(usize) -> LinExpr) -> LinExpr {
        let mut r = LinExpr::constant(self.constant);
        for (t, c) in &self.terms {
            match t {
                Term::Dim(d) => r = r.add(&f(*d).scale(*c)),
                Term::Param(_) => r.add_term(t.clone(), *c),
                Term::Floor(num, den) => r.add_term(Term::Floor(Box::new(num.substitute(f)), *den), *c),
            }
        }
        r
    }

    /// `self`, over the parameters only, in C with their names
    /// (`2 * N - 1`); `None` if it has anything else.
    pub fn param_text(&self, params: &[String]) -> Option<String> {
        let mut terms = Vec::new();
        for (t, c) in &self.terms {
            let Term::Param(k) = t else { return None };
            terms.push((*c, params.get(*k)?.as_str()));
        }
        let text = signed_sum(terms, " * ");
        Some(match (text.is_empty(), self.constant) {
            (true, c) => c.to_string(),
            (false, 0) => text,
            (false, c) if c < 0 => format!("{text} - {}", -c),
            (false, c) => format!("{text} + {c}"),
        })
    }

    /// `self` with parameter `k` replaced by `values[k]` where known.
    pub fn with_params(&self, values: &[Option<i64>]) -> LinExpr {
        let mut out = LinExpr::constant(self.constant);
        for (t, c) in &self.terms {
            let value = match t {
                Term::Param(k) => values.get(*k).copied().flatten(),
                _ => None,
            };
            match value {
                Some(v) => out.constant += c * v,
                None => out.add_term(t.clone(), *c),
            }
        }
        out
    }

    /// isl syntax, dimensions named `c<k>` and parameters `p<k>`.
    pub fn to_isl_text(&self) -> String {
        let mut s = String::new();
        for (t, c) in &self.terms {
            let _ = write!(s, "{c}*{} + ", t.to_isl_text());
        }
        let _ = write!(s, "{}", self.constant);
        s
    }
}

impl Term {
    pub fn involves_dim(&self, d: usize) -> bool {
        match self {
            Term::Dim(k) => *k == d,
            Term::Param(_) => false,
            Term::Floor(num, _) => num.involves_dim(d),
        }
    }

    fn to_isl_text(&self) -> String {
        match self {
            Term::Dim(k) => format!("c{k}"),
            Term::Param(k) => format!("p{k}"),
            Term::Floor(num, den) => format!("floor(({})/{den})", num.to_isl_text()),
        }
    }
}

/// `2 * N - M` from `[(2, "N"), (-1, "M")]` (`times` between a
/// coefficient and its name); empty for no nonzero term.
pub fn signed_sum<'a>(terms: impl IntoIterator<Item = (i64, &'a str)>, times: &str) -> String {
    let mut text = String::new();
    for (c, name) in terms.into_iter().filter(|(c, _)| *c != 0) {
        let magnitude = if c.abs() == 1 { name.to_string() } else { format!("{}{times}{name}", c.abs()) };
        text = match (text.is_empty(), c < 0) {
            (true, false) => magnitude,
            (true, true) => format!("-{magnitude}"),
            (false, negative) => format!("{text} {} {magnitude}", if negative { '-' } else { '+' }),
        };
    }
    text
}

/// `expr >= 0`, or `expr == 0` when `is_eq`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub expr: LinExpr,
    pub is_eq: bool,
}

impl Constraint {
    pub fn ge(expr: LinExpr) -> Constraint {
        Constraint { expr, is_eq: false }
    }

    pub fn eq(expr: LinExpr) -> Constraint {
        Constraint { expr, is_eq: true }
    }

    /// `expr` is a multiple of `k` (k > 1), as `expr == k * floor(expr / k)`.
    pub fn divisible(expr: LinExpr, k: i64) -> Constraint {
        let mut e = expr.clone();
        e.add_term(Term::Floor(Box::new(expr), k), -k);
        Constraint::eq(e)
    }

    pub fn to_isl_text(&self) -> String {
        let op = if self.is_eq { "=" } else { ">=" };
        format!("{} {op} 0", self.expr.to_isl_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_combine_and_cancel() {
        let e = LinExpr::dim(0).add(&LinExpr::dim(1)).sub(&LinExpr::dim(0));
        assert_eq!(e, LinExpr::dim(1));
        assert!(!e.involves_dim(0));
    }

    #[test]
    fn substitution_reaches_into_floors() {
        let mut e = LinExpr::default();
        e.add_term(Term::Floor(Box::new(LinExpr::dim(0)), 2), 1);
        let s = e.substitute(&|_| LinExpr::dim(3));
        assert!(s.involves_dim(3) && !s.involves_dim(0));
        assert!(s.has_floor_involving(3));
    }
}
