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
//!
//! A specialised parameter gets a fresh name (`polyc_n_m`, minted by
//! `names::FreshNames`); a division or remainder by a variable divisor is
//! guarded against zero in its definition. `emit::print` declares the
//! definitions as `const long` in a block around the regenerated code, the
//! run-time checks included. Invariant: a definition is evaluated once,
//! before the region, which never writes a parameter.
//!
//! A delinearised array's view is recorded on its declaration
//! (`decls::VarDecl::delinearised`); inner extents that are products of
//! parameters become parameters too. Every access of the array must split
//! into the same strides, or be an affine subscript that splits into them
//! with some outer subscript not zero (`A[n + j]`, not `A[k]`: the rows are
//! the user's, not polyc's guess). A region with a `multifor` gets no
//! split: its code has no source text to fall back on where the split is
//! not exact. The statement's text keeps the user's spelling.

use super::affine::parse_int;
use super::poly::{add, difference, multiply, scale, split, strides, Monomial, Poly, Split};
use super::state::{Extractor, Res, Shape};
use crate::diagnostics::{Code, Diagnostic};
use crate::frontend::qexpr::{QExpr, Var};
use crate::frontend::syntax::walk;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// The degree of a parameter expression whose quotient is not affine.
const OPAQUE: u32 = u32::MAX;

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
                if self.in_scope_iterator(name).is_some() || self.local(name).is_some() {
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
        self.var(array).is_some_and(|v| v.is_pointer && v.extents.is_empty() || v.extents.len() == 1)
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

    /// The view of each array whose subscripts were split (extents,
    /// outermost first, the outermost empty): every access of such an
    /// array must have been split into the same view, or be an affine
    /// subscript that splits into it with some outer subscript not zero
    /// (`A[n + j]`, not `A[k]`: rows are the user's, not polyc's guess),
    /// in a region with no `multifor` (whose regenerated code has no
    /// source text to fall back on where the split is not exact).
    pub(super) fn views(&mut self) -> Res<BTreeMap<String, Vec<String>>> {
        let mut views: BTreeMap<String, Vec<Vec<usize>>> = BTreeMap::new();
        for (array, shape, span) in &self.shapes {
            if let Shape::Split(strides) = shape {
                if self.stmts.iter().any(|s| s.component.is_some()) {
                    return Err(Diagnostic::warning(
                        Code::P0002,
                        span.clone(),
                        "a linear subscript that is not affine is not split in a region with a `multifor`",
                    )
                    .with_label("not affine"));
                }
                views.entry(array.clone()).or_insert_with(|| strides.clone());
            }
        }
        let show = |strides: &[Vec<usize>]| {
            let extents = strides.windows(2).map(|pair| {
                let mut rest = pair[0].clone();
                for k in &pair[1] {
                    rest.remove(rest.iter().position(|x| x == k).expect("strides form a chain"));
                }
                rest.iter().map(|&k| self.params[k].as_str()).collect::<Vec<_>>().join("*")
            });
            format!("[*]{}", extents.map(|e| format!("[{e}]")).collect::<String>())
        };
        let mut patches = Vec::new();
        for (array, shape, span) in &self.shapes {
            let Some(view) = views.get(array) else { continue };
            let what = match shape {
                Shape::Split(strides) if strides == view => continue,
                Shape::Split(strides) => format!("this subscript splits into {} instead", show(strides)),
                Shape::Affine(poly) => match poly.as_ref().and_then(|p| split(p, view)) {
                    Some(subs) if subs[..subs.len() - 1].iter().any(|q| *q != QExpr::Const(0)) => {
                        patches.push((array.clone(), span.clone(), subs));
                        continue;
                    }
                    _ => "this affine subscript cannot be split exactly into it".to_string(),
                },
                Shape::Several => "this access has several subscripts".to_string(),
            };
            return Err(Diagnostic::warning(
                Code::P0002,
                span.clone(),
                format!("`{array}` is accessed as {} elsewhere in the SCoP; {what}", show(view)),
            )
            .with_label("a different shape")
            .with_note("every access of an array must delinearise to the same shape"));
        }
        for (array, span, subs) in patches {
            for a in self.stmts.iter_mut().flat_map(|s| &mut s.accesses) {
                if a.array == array && a.span == span {
                    a.subscripts = subs.clone();
                }
            }
        }
        let mut extents = BTreeMap::new();
        for (array, strides) in views {
            let inner = self.extents(&strides);
            extents.insert(array, std::iter::once(String::new()).chain(inner).collect());
        }
        Ok(extents)
    }

    /// `n` as a polynomial in the iterators and parameters; `None` if it
    /// holds anything but sums, differences, products, names, integer
    /// literals and quotients of parameters (see [`Self::specialised`]),
    /// or grows too large.
    pub(super) fn polynomial(&mut self, n: Node, code: Code) -> Res<Option<Poly>> {
        let constant = |k: i64| Poly::from([(Monomial::default(), k)]);
        Ok(match n.kind() {
            "number_literal" => parse_int(self.t(n)).map(constant),
            "identifier" if self.local(self.t(n)).is_some() => self.local_polynomial(n)?,
            "identifier" => match self.affine_name(n, code)? {
                QExpr::Var(Var::Iter(d)) => Some(Poly::from([(Monomial { iters: vec![d], params: vec![] }, 1)])),
                QExpr::Var(Var::Param(k)) => Some(Poly::from([(Monomial { iters: vec![], params: vec![k] }, 1)])),
                _ => None,
            },
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.polynomial(inner, code)?,
                None => None,
            },
            "cast_expression" => self.cast_polynomial(n, code)?,
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

/// `poly` split by its strides, if they form a chain (see [`Split`]).
pub(super) fn split_by_strides(poly: &Poly) -> Option<Split> {
    strides(poly).and_then(|strides| Some((split(poly, &strides)?, strides)))
}
