//! Affine expressions and constraints as C, over the loop variables in
//! scope: the one place that knows how a bound or a guard is spelt.

use super::printer::Printer;
use crate::model::affine::{Constraint, LinExpr, Term};

impl Printer<'_> {
    /// `max(exprs)` (or min when `max` is false) as C.
    pub(super) fn extreme(&mut self, exprs: &[LinExpr], max: bool) -> String {
        let mut texts: Vec<String> = exprs.iter().map(|e| self.expr(e)).collect();
        texts.dedup();
        let mut acc = texts.pop().unwrap_or_default();
        while let Some(t) = texts.pop() {
            if max {
                self.helpers.max = true;
                acc = format!("polyc_max({t}, {acc})");
            } else {
                self.helpers.min = true;
                acc = format!("polyc_min({t}, {acc})");
            }
        }
        acc
    }

    /// `v <= min(bounds)` (or `v >= max(bounds)` when descending), written
    /// `v < e + 1` when that reads better.
    pub(super) fn bound_cmp(&mut self, v: &str, bounds: &[LinExpr], descending: bool) -> String {
        if let [b] = bounds {
            let shifted = b.add(&LinExpr::constant(if descending { -1 } else { 1 }));
            let strict_reads_better = !b.is_constant() && shifted.constant.abs() < b.constant.abs();
            if strict_reads_better {
                let op = if descending { ">" } else { "<" };
                return format!("{v} {op} {}", self.expr(&shifted));
            }
        }
        let e = self.extreme(bounds, descending);
        format!("{v} {} {e}", if descending { ">=" } else { "<=" })
    }

    pub(super) fn condition(&mut self, disjuncts: &[Vec<Constraint>]) -> String {
        let parts: Vec<String> = disjuncts
            .iter()
            .map(|conj| {
                let atoms: Vec<String> = conj.iter().map(|c| self.constraint(c)).collect();
                if atoms.is_empty() {
                    "1".to_string()
                } else {
                    atoms.join(" && ")
                }
            })
            .collect();
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            parts.iter().map(|p| format!("({p})")).collect::<Vec<_>>().join(" || ")
        }
    }

    /// A constraint over the current environment, as a comparison with
    /// positive terms on the left.
    pub(super) fn constraint(&mut self, c: &Constraint) -> String {
        let e = c.expr.substitute(&|k| self.env[k].clone());
        if let Some((num, k)) = divisibility(&e).or_else(|| divisibility(&e.scale(-1))).filter(|_| c.is_eq) {
            return format!("{} % {k} == 0", self.atom(&num));
        }
        // e = L - R + k with L, R having positive coefficients.
        let mut left = LinExpr::default();
        let mut right = LinExpr::default();
        for (t, coef) in &e.terms {
            if *coef > 0 {
                left.add_term(t.clone(), *coef);
            } else {
                right.add_term(t.clone(), -coef);
            }
        }
        let k = e.constant;
        let op = if c.is_eq { "==" } else { ">=" };
        if left.terms.is_empty() {
            let op = if c.is_eq { "==" } else { "<=" };
            return format!("{} {op} {k}", self.expr(&right));
        }
        format!("{} {op} {}", self.expr(&left), self.expr(&right.add(&LinExpr::constant(-k))))
    }

    /// An expression safe to drop into any C context.
    pub(super) fn atom(&mut self, e: &LinExpr) -> String {
        parenthesised(self.expr(e))
    }

    /// C text of an affine expression over loop variables and parameters.
    pub(super) fn expr(&mut self, e: &LinExpr) -> String {
        let mut s = String::new();
        for (t, coef) in &e.terms {
            let (coef, text) = match t {
                Term::Floor(num, k) if *coef < 0 => {
                    self.helpers.ceild = true;
                    (-coef, format!("polyc_ceild({}, {k})", self.expr(&num.scale(-1))))
                }
                Term::Floor(num, k) => {
                    self.helpers.floord = true;
                    (*coef, format!("polyc_floord({}, {k})", self.expr(num)))
                }
                Term::Dim(d) => (*coef, self.vars[*d].clone().unwrap_or_else(|| format!("c{d}"))),
                Term::Param(p) => (*coef, self.program.params[*p].clone()),
            };
            let magnitude = if coef.abs() == 1 { text } else { format!("{} * {text}", coef.abs()) };
            match (s.is_empty(), coef < 0) {
                (true, false) => s.push_str(&magnitude),
                (true, true) => s.push_str(&format!("-{magnitude}")),
                (false, false) => s.push_str(&format!(" + {magnitude}")),
                (false, true) => s.push_str(&format!(" - {magnitude}")),
            }
        }
        match (s.is_empty(), e.constant) {
            (true, c) => s = c.to_string(),
            (false, 0) => {}
            (false, c) if c > 0 => s.push_str(&format!(" + {c}")),
            (false, c) => s.push_str(&format!(" - {}", -c)),
        }
        s
    }
}

/// `num - k*floor(num/k)`: the expression is `num mod k`.
fn divisibility(e: &LinExpr) -> Option<(LinExpr, i64)> {
    let floors: Vec<&(Term, i64)> = e.terms.iter().filter(|(t, _)| matches!(t, Term::Floor(..))).collect();
    let [(Term::Floor(num, k), coef)] = floors[..] else {
        return None;
    };
    if *coef != -k {
        return None;
    }
    let mut rest = e.clone();
    rest.terms.retain(|(t, _)| !matches!(t, Term::Floor(..)));
    (rest == **num).then_some((rest, *k))
}

/// `text`, in parentheses unless it is a name or a number.
pub(super) fn parenthesised(text: String) -> String {
    if text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        text
    } else {
        format!("({text})")
    }
}

/// `checks` joined with `&&` (`1` for none); a sole check loses the
/// parentheses that kept its `||` apart from the others.
pub(super) fn conjunction(checks: &[String]) -> String {
    match checks {
        [] => "1".to_string(),
        [sole] => without_outer_parentheses(sole).to_string(),
        _ => checks.join(" && "),
    }
}

/// `text` without one pair of parentheses around all of it.
fn without_outer_parentheses(text: &str) -> &str {
    let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) else {
        return text;
    };
    let mut depth = 0i32;
    for c in inner.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        // `(a) || (b)`: the first parenthesis closes before the end.
        if depth < 0 {
            return text;
        }
    }
    inner
}

#[cfg(test)]
mod tests {
    use super::conjunction;

    fn texts(checks: &[&str]) -> Vec<String> {
        checks.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn a_sole_check_loses_its_parentheses_only_if_they_wrap_it() {
        assert_eq!(conjunction(&texts(&["(a || b)"])), "a || b");
        assert_eq!(conjunction(&texts(&["(a) || (b)"])), "(a) || (b)");
        assert_eq!(conjunction(&texts(&["((a) || b)"])), "(a) || b");
        assert_eq!(conjunction(&texts(&["(a || b)", "c"])), "(a || b) && c");
        assert_eq!(conjunction(&[]), "1");
    }
}
