//! Subscripts and bounds that are polynomials in the parameters.
//!
//! Parameter specialisation: a product or quotient of parameters alone
//! (`n * m`, `n / m`) becomes a fresh parameter, defined at the region's
//! entry ([`crate::frontend::ScopAst::definitions`]); the SCoP never writes
//! a parameter, so the value is the same wherever the source computes it.
//!
//! Delinearisation: a linear subscript of a one-dimensional array or a
//! pointer that is a polynomial in iterators and parameters,
//! `A[(i*n + j)*m + k]`, is split by the parameter monomials its terms
//! are multiplied by (its strides, here `n*m`, `m`, `1`) into the
//! multi-dimensional access `A[i][j][k]` of the view `[*][n][m]`. The
//! split is exact (one element, one cell) where every inner subscript
//! stays within its extent, which `Scop::in_bounds` makes a condition of
//! the new code at run time.

use super::{parse_int, Extractor, Res};
use crate::diagnostics::Code;
use crate::frontend::syntax::walk;
use crate::frontend::qexpr::{QExpr, Var};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// A product of iterators and parameters (their depths and indices,
/// each sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Monomial {
    iters: Vec<usize>,
    params: Vec<usize>,
}

/// A polynomial: monomials with their non-zero coefficients.
pub(super) type Poly = BTreeMap<Monomial, i64>;

/// A polynomial with more terms than this is not delinearised.
const MAX_TERMS: usize = 64;

/// The degree of a parameter expression whose quotient is not affine.
const OPAQUE: u32 = u32::MAX;

/// A subscript split into the dimensions of a view: the subscripts, and
/// the view's strides (parameter monomials, outermost first, the last
/// `1`).
pub(super) type Split = (Vec<QExpr>, Vec<Vec<usize>>);

impl Extractor<'_> {
    /// An integer expression over parameters and constants alone (no
    /// iterator, call or conditional): its degree as a polynomial in the
    /// parameters ([`OPAQUE`] for a quotient or remainder by anything
    /// but a positive literal) and its C text, whole in parentheses
    /// unless a name or a literal, with a division or remainder by a
    /// variable divisor guarded against zero (the definition is computed
    /// where the source might not divide).
    fn parameter_expression(&self, n: Node) -> Option<(u32, String)> {
        match n.kind() {
            "number_literal" => parse_int(self.t(n)).map(|_| (0, self.t(n).to_string())),
            "identifier" => {
                let name = self.t(n);
                if self.in_scope_iterator(name).is_some() {
                    return None;
                }
                if let Some(v) = self.names.vars.get(name) {
                    if v.is_array() || v.is_floating() {
                        return None;
                    }
                } else if self.names.macros.get(name).is_some_and(|m| m.contains('.') || m.contains('"')) {
                    return None;
                }
                Some((1, name.to_string()))
            }
            "parenthesized_expression" => self.parameter_expression(n.named_child(0)?),
            "unary_expression" => {
                let (d, text) = self.parameter_expression(n.child_by_field_name("argument")?)?;
                match self.operator(n) {
                    "-" => Some((d, format!("(-{text})"))),
                    "+" => Some((d, text)),
                    _ => None,
                }
            }
            "binary_expression" => {
                let (l, r) = (n.child_by_field_name("left")?, n.child_by_field_name("right")?);
                let ((dl, tl), (dr, tr)) = (self.parameter_expression(l)?, self.parameter_expression(r)?);
                let op = self.operator(n);
                match op {
                    "+" | "-" => Some((dl.max(dr), format!("({tl} {op} {tr})"))),
                    "*" => Some((dl.saturating_add(dr), format!("({tl} * {tr})"))),
                    "/" | "%" => {
                        let literal = r.kind() == "number_literal" && parse_int(self.t(r)).is_some_and(|k| k > 0);
                        if literal {
                            Some((dl, format!("({tl} {op} {tr})")))
                        } else {
                            Some((OPAQUE, format!("({tr} != 0 ? {tl} {op} {tr} : 0)")))
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A product, quotient or remainder of parameters that is not
    /// quasi-affine, as a fresh parameter; `None` for anything else.
    pub(super) fn specialised(&mut self, n: Node, code: Code) -> Res<Option<QExpr>> {
        let Some((degree, text)) = self.parameter_expression(n) else { return Ok(None) };
        if degree <= 1 {
            return Ok(None);
        }
        // The parameters it reads are parameters of the SCoP: never written.
        let mut names = Vec::new();
        walk(n, &mut |m| {
            if m.kind() == "identifier" {
                names.push(m);
            }
        });
        let mut words = Vec::new();
        for m in names {
            self.affine_name(m, code)?;
            words.push(self.t(m).to_string());
        }
        let text = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(&text).to_string();
        Ok(Some(self.defined_parameter(&format!("polyc_{}", words.join("_")), text)))
    }

    /// The parameter defined as `text` (a C expression over the
    /// parameters): the existing one, or a fresh one named from `base`.
    fn defined_parameter(&mut self, base: &str, text: String) -> QExpr {
        if let Some((name, _)) = self.definitions.iter().find(|(_, t)| *t == text) {
            let k = self.params.iter().position(|p| p == name).expect("a definition is a parameter");
            return QExpr::Var(Var::Param(k));
        }
        let name = self.fresh.mint(base);
        self.definitions.push((name.clone(), text));
        self.params.push(name);
        QExpr::Var(Var::Param(self.params.len() - 1))
    }

    /// Whether `array`'s linear subscripts may be split: a pointer or a
    /// one-dimensional array.
    pub(super) fn may_delinearise(&self, array: &str) -> bool {
        self.names.vars.get(array).is_some_and(|v| v.is_pointer && v.extents.is_empty() || v.extents.len() == 1)
    }

    /// The subscript `n` split by its strides (see the module's
    /// documentation); `None` if it is no polynomial whose strides form
    /// a chain.
    pub(super) fn delinearise(&mut self, n: Node, code: Code) -> Res<Option<Split>> {
        let Some(poly) = self.polynomial(n, code)? else { return Ok(None) };
        Ok(strides(&poly).and_then(|strides| Some((split(&poly, &strides)?, strides))))
    }

    /// The extents below the outermost of the view with `strides` (see
    /// [`Split`]): each stride over the next, a parameter or a product
    /// of parameters, which becomes a parameter of its own.
    pub(super) fn extents(&mut self, strides: &[Vec<usize>]) -> Vec<String> {
        let mut extents = Vec::new();
        for pair in strides.windows(2) {
            let ratio = difference(&pair[0], &pair[1]).expect("strides form a chain");
            let names: Vec<String> = ratio.iter().map(|&k| self.params[k].clone()).collect();
            extents.push(match &names[..] {
                [one] => one.clone(),
                _ => {
                    let QExpr::Var(Var::Param(k)) =
                        self.defined_parameter(&format!("polyc_{}", names.join("_")), names.join(" * "))
                    else {
                        unreachable!("a defined parameter is a parameter")
                    };
                    self.params[k].clone()
                }
            });
        }
        extents
    }

    /// `n` as a polynomial in the iterators and parameters; `None` if it
    /// holds anything but sums, differences, products, names, integer
    /// literals and quotients of parameters (see [`Self::specialised`]),
    /// or grows too large.
    pub(super) fn polynomial(&mut self, n: Node, code: Code) -> Res<Option<Poly>> {
        let constant = |k: i64| Poly::from([(Monomial::default(), k)]);
        Ok(match n.kind() {
            "number_literal" => parse_int(self.t(n)).map(constant),
            "identifier" => match self.affine_name(n, code)? {
                QExpr::Var(Var::Iter(d)) => Some(Poly::from([(Monomial { iters: vec![d], params: vec![] }, 1)])),
                QExpr::Var(Var::Param(k)) => Some(Poly::from([(Monomial { iters: vec![], params: vec![k] }, 1)])),
                _ => None,
            },
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.polynomial(inner, code)?,
                None => None,
            },
            "unary_expression" => {
                let Some(arg) = n.child_by_field_name("argument") else { return Ok(None) };
                match self.operator(n) {
                    "-" => self.polynomial(arg, code)?.and_then(|p| scale(&p, -1)),
                    "+" => self.polynomial(arg, code)?,
                    _ => None,
                }
            }
            "binary_expression" => {
                let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
                    return Ok(None);
                };
                let op = self.operator(n);
                if !matches!(op, "+" | "-" | "*") {
                    // A quotient of parameters is a parameter of its own.
                    return Ok(match self.specialised(n, code)? {
                        Some(QExpr::Var(Var::Param(k))) => {
                            Some(Poly::from([(Monomial { iters: vec![], params: vec![k] }, 1)]))
                        }
                        _ => None,
                    });
                }
                let (Some(a), Some(b)) = (self.polynomial(l, code)?, self.polynomial(r, code)?) else {
                    return Ok(None);
                };
                match op {
                    "+" => add(&a, &b),
                    "-" => scale(&b, -1).and_then(|b| add(&a, &b)),
                    _ => multiply(&a, &b),
                }
            }
            _ => None,
        })
    }
}

fn scale(p: &Poly, k: i64) -> Option<Poly> {
    p.iter().map(|(m, c)| Some((m.clone(), c.checked_mul(k)?))).collect()
}

fn add(a: &Poly, b: &Poly) -> Option<Poly> {
    let mut sum = a.clone();
    for (m, c) in b {
        let entry = sum.entry(m.clone()).or_insert(0);
        *entry = entry.checked_add(*c)?;
    }
    sum.retain(|_, c| *c != 0);
    (sum.len() <= MAX_TERMS).then_some(sum)
}

fn multiply(a: &Poly, b: &Poly) -> Option<Poly> {
    if a.len() * b.len() > MAX_TERMS * MAX_TERMS {
        return None;
    }
    let mut product = Poly::new();
    for (x, cx) in a {
        for (y, cy) in b {
            let merge = |u: &[usize], v: &[usize]| {
                let mut w: Vec<usize> = u.iter().chain(v).copied().collect();
                w.sort_unstable();
                w
            };
            let m = Monomial { iters: merge(&x.iters, &y.iters), params: merge(&x.params, &y.params) };
            let entry = product.entry(m).or_insert(0);
            *entry = entry.checked_add(cx.checked_mul(*cy)?)?;
        }
    }
    product.retain(|_, c| *c != 0);
    (product.len() <= MAX_TERMS).then_some(product)
}

/// `outer` without `inner` (multisets of parameters, sorted), if `inner`
/// is part of it.
fn difference(outer: &[usize], inner: &[usize]) -> Option<Vec<usize>> {
    let mut rest = outer.to_vec();
    for k in inner {
        let at = rest.iter().position(|x| x == k)?;
        rest.remove(at);
    }
    Some(rest)
}

/// The strides of `poly`, largest first: the parameter parts of its
/// terms with an iterator, and `1`, each the next times a product of
/// parameters; `None` if they are not such a chain, if a term holds two
/// iterators, or when no iterator is multiplied by a parameter.
fn strides(poly: &Poly) -> Option<Vec<Vec<usize>>> {
    let mut strides: Vec<Vec<usize>> = vec![Vec::new()];
    for m in poly.keys() {
        match m.iters.len() {
            0 => {}
            1 if !strides.contains(&m.params) => strides.push(m.params.clone()),
            1 => {}
            _ => return None,
        }
    }
    if strides.len() == 1 {
        return None;
    }
    strides.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for pair in strides.windows(2) {
        if pair[1].len() >= pair[0].len() || difference(&pair[0], &pair[1]).is_none() {
            return None;
        }
    }
    Some(strides)
}

/// The subscripts of `poly` in the view of `strides` (see [`Split`]):
/// each term with an iterator multiplied by one of the strides, each
/// term without one by a stride or a stride times a parameter (the
/// largest); `None` otherwise.
pub(super) fn split(poly: &Poly, strides: &[Vec<usize>]) -> Option<Vec<QExpr>> {
    let mut dims: Vec<Vec<QExpr>> = vec![Vec::new(); strides.len()];
    for (m, &c) in poly {
        let term = |v: Var| if c == 1 { QExpr::Var(v) } else { QExpr::Mul(c, Box::new(QExpr::Var(v))) };
        match m.iters[..] {
            [d] => {
                let at = strides.iter().position(|s| *s == m.params)?;
                dims[at].push(term(Var::Iter(d)));
            }
            [..] if m.iters.len() > 1 => return None,
            _ => match strides.iter().position(|s| *s == m.params) {
                Some(at) => dims[at].push(QExpr::Const(c)),
                None => {
                    let (at, factor) =
                        strides.iter().enumerate().find_map(|(at, s)| match difference(&m.params, s) {
                            Some(rest) if rest.len() == 1 => Some((at, rest[0])),
                            _ => None,
                        })?;
                    dims[at].push(term(Var::Param(factor)));
                }
            },
        }
    }
    let subscripts = dims.into_iter().map(|terms| terms.into_iter().reduce(QExpr::plus).unwrap_or(QExpr::Const(0)));
    Some(subscripts.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `c * i<iter> * p<params..>` as a one-term polynomial.
    fn term(c: i64, iter: Option<usize>, params: &[usize]) -> Poly {
        Poly::from([(Monomial { iters: iter.into_iter().collect(), params: params.to_vec() }, c)])
    }

    fn sum(terms: &[Poly]) -> Poly {
        terms.iter().fold(Poly::new(), |acc, t| add(&acc, t).unwrap())
    }

    #[test]
    fn strides_of_a_three_dimensional_subscript_form_a_chain() {
        // (i*n + j)*m + k, parameters n = 0 and m = 1.
        let ijk = sum(&[term(1, Some(0), &[0]), term(1, Some(1), &[])]);
        let poly = add(&multiply(&ijk, &term(1, None, &[1])).unwrap(), &term(1, Some(2), &[])).unwrap();
        let strides = strides(&poly).unwrap();
        assert_eq!(strides, vec![vec![0, 1], vec![1], vec![]]);
        let subscripts = split(&poly, &strides).unwrap();
        let [QExpr::Var(Var::Iter(0)), QExpr::Var(Var::Iter(1)), QExpr::Var(Var::Iter(2))] = &subscripts[..] else {
            panic!("{subscripts:?}")
        };
    }

    #[test]
    fn strides_that_are_no_chain_or_two_iterators_are_refused() {
        // i*n + j*m + k
        let poly = sum(&[term(1, Some(0), &[0]), term(1, Some(1), &[1]), term(1, Some(2), &[])]);
        assert_eq!(strides(&poly), None);
        // i*j
        let mut both = term(1, Some(0), &[]);
        both = multiply(&both, &term(1, Some(1), &[])).unwrap();
        assert_eq!(strides(&both), None);
        // i + 64 * j: no parameter stride
        assert_eq!(strides(&sum(&[term(1, Some(0), &[]), term(64, Some(1), &[])])), None);
    }

    #[test]
    fn constants_and_parameter_terms_join_their_stride() {
        // (i + 1)*n + j - 1 + m*n: [i + 1 + m][j - 1]
        let poly = sum(&[
            term(1, Some(0), &[0]),
            term(1, None, &[0]),
            term(1, Some(1), &[]),
            term(-1, None, &[]),
            term(1, None, &[0, 1]),
        ]);
        let strides = strides(&poly).unwrap();
        assert_eq!(strides, vec![vec![0], vec![]]);
        let subscripts = split(&poly, &strides).unwrap();
        assert_eq!(subscripts.len(), 2);
        assert!(subscripts[0].mentions(Var::Param(1)) && subscripts[0].linear_coeff(Var::Iter(0)) == Some(1));
        assert_eq!(subscripts[1], QExpr::plus(QExpr::Const(-1), QExpr::Var(Var::Iter(1))));
        // A plain `k` has no row in the view [*][n] but the first.
        let k = term(1, Some(2), &[]);
        assert_eq!(split(&k, &strides).unwrap()[0], QExpr::Const(0));
    }
}
