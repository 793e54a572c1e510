//! Polynomials in the iterators and parameters, and their strides: the
//! arithmetic of delinearisation ([`super::delinearise`]), which splits
//! a linear subscript by the parameter monomials its terms are
//! multiplied by.

use crate::frontend::qexpr::{QExpr, Var};
use std::collections::BTreeMap;

/// A product of iterators and parameters (their depths and indices,
/// each sorted).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Monomial {
    pub(super) iters: Vec<usize>,
    pub(super) params: Vec<usize>,
}

/// A polynomial: monomials with their non-zero coefficients.
pub(super) type Poly = BTreeMap<Monomial, i64>;

/// A polynomial with more terms than this is not delinearised.
const MAX_TERMS: usize = 64;

/// A subscript split into the dimensions of a view: the subscripts, and
/// the view's strides (parameter monomials, outermost first, the last
/// `1`).
pub(super) type Split = (Vec<QExpr>, Vec<Vec<usize>>);

/// The polynomial of `q`, if it is linear (no division, extremum or
/// selection).
pub(super) fn linear(q: &QExpr) -> Option<Poly> {
    let monomial = |iters, params| Some(Poly::from([(Monomial { iters, params }, 1)]));
    match q {
        QExpr::Const(c) => Some(Poly::from([(Monomial::default(), *c)]).into_iter().filter(|(_, c)| *c != 0).collect()),
        QExpr::Var(Var::Iter(d)) => monomial(vec![*d], vec![]),
        QExpr::Var(Var::Param(k)) => monomial(vec![], vec![*k]),
        QExpr::Add(a, b) => add(&linear(a)?, &linear(b)?),
        QExpr::Neg(a) => scale(&linear(a)?, -1),
        QExpr::Mul(k, a) => scale(&linear(a)?, *k),
        _ => None,
    }
}

/// `p` with each parameter `k` renumbered `to(k)`.
pub(super) fn renumbered(p: &Poly, to: impl Fn(usize) -> usize) -> Poly {
    let mut out = Poly::new();
    for (m, c) in p {
        let mut params: Vec<usize> = m.params.iter().map(|&k| to(k)).collect();
        params.sort_unstable();
        *out.entry(Monomial { iters: m.iters.clone(), params }).or_default() += c;
    }
    out.retain(|_, c| *c != 0);
    out
}

pub(super) fn scale(p: &Poly, k: i64) -> Option<Poly> {
    p.iter().map(|(m, c)| Some((m.clone(), c.checked_mul(k)?))).collect()
}

pub(super) fn add(a: &Poly, b: &Poly) -> Option<Poly> {
    let mut sum = a.clone();
    for (m, c) in b {
        let entry = sum.entry(m.clone()).or_insert(0);
        *entry = entry.checked_add(*c)?;
    }
    sum.retain(|_, c| *c != 0);
    (sum.len() <= MAX_TERMS).then_some(sum)
}

pub(super) fn multiply(a: &Poly, b: &Poly) -> Option<Poly> {
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
pub(super) fn difference(outer: &[usize], inner: &[usize]) -> Option<Vec<usize>> {
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
pub(super) fn strides(poly: &Poly) -> Option<Vec<Vec<usize>>> {
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
