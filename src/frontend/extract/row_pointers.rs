//! Pointers a region declares into an array: `double *row = a[i];`,
//! `const double *r = &m[i * n];`, `double *p = m + i * n;`.
//!
//! Such a pointer is substituted into its uses: `row[j]` is `a[i][j]`,
//! `r[j]` is `m[i * n + j]` (with `m`'s delinearised view, if it has
//! one), in the model and in the statement's text (`row` becomes `a[i]`,
//! `r` becomes `(&m[i * n])`), so the regenerated code declares no
//! pointer and the accesses meet the alias and bounds checks of the
//! array they reach. The pointer must point into a named array, by
//! affine subscripts (or a polynomial offset into a one-dimensional
//! array), and be used only subscripted, never moved.

use super::poly::{add, Poly};
use super::state::{reject, Extractor, Offset, Res, RowPointer};
use crate::diagnostics::Code;
use crate::frontend::qexpr::QExpr;
use crate::frontend::syntax::walk;
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    /// The pointer `name` initialised to `value` (declarator `d`).
    pub(super) fn row_pointer(&mut self, name: &str, d: Node, value: Option<Node>) -> Res<RowPointer> {
        let refuse = |n: Node, why: String| {
            reject(Code::P0020, n, why, "point into a named array: `a[i]`, `&a[i * n]` or `a + i * n`")
        };
        let Some(value) = value else {
            return Err(refuse(d, format!("pointer `{name}` declared without a value in a SCoP")));
        };
        let init = unparenthesised(value);
        let (base, mut subs, offset) = match init.kind() {
            "subscript_expression" => (subscript_base(init, &mut Vec::new()), subscripts(init), None),
            "pointer_expression" if self.operator(init) == "&" => {
                let element = init.child_by_field_name("argument").map(unparenthesised);
                let Some(element) = element.filter(|e| e.kind() == "subscript_expression") else {
                    return Err(refuse(init, format!("`{name}` points to no array element")));
                };
                let mut subs = subscripts(element);
                let last = subs.pop();
                (subscript_base(element, &mut Vec::new()), subs, last)
            }
            "binary_expression" if self.operator(init) == "+" => {
                (init.child_by_field_name("left"), Vec::new(), init.child_by_field_name("right"))
            }
            "identifier" => (Some(init), Vec::new(), None),
            _ => return Err(refuse(init, format!("`{name}` points to something polyc cannot follow"))),
        };
        let Some(base) = base.filter(|b| b.kind() == "identifier") else {
            return Err(refuse(init, format!("`{name}` must point into a named array")));
        };
        let written = self.t(base).to_string();
        let rank = match self.var(&written) {
            Some(decl) if decl.is_array() && self.in_scope_iterator(&written).is_none() => decl.pointer_levels.len(),
            _ => return Err(refuse(base, format!("`{written}` is not an array"))),
        };
        if subs.len() + 1 > rank.max(1) {
            return Err(refuse(init, format!("`{name}` points to an element of `{written}`, not into a row")));
        }
        let prefix = subs.drain(..).map(|s| self.affine(s, Code::P0002)).collect::<Res<Vec<QExpr>>>()?;
        let offset = match offset {
            Some(o) => Some(self.offset(o, &written)?),
            None => None,
        };
        let whole = init.kind() == "subscript_expression" || init.kind() == "identifier";
        let (text, shift) = match whole {
            true => (self.t(init).to_string(), 0),
            false => (format!("({})", self.t(init)), 1),
        };
        let mut uses = Vec::new();
        walk(init, &mut |m| {
            if let Some(depth) = (m.kind() == "identifier").then(|| self.in_scope_iterator(self.t(m))).flatten() {
                let at = m.start_byte() - init.start_byte() + shift;
                uses.push((at..at + m.byte_range().len(), depth));
            }
        });
        let array = self.model_name(&written);
        Ok(RowPointer { written, array, prefix, offset, text, uses })
    }

    /// The offset `o` into `array`'s last dimension.
    fn offset(&mut self, o: Node, array: &str) -> Res<Offset> {
        let value = self.affine(o, Code::P0002).ok();
        let poly = match self.may_delinearise(array) {
            true => self.polynomial(o, Code::P0002).ok().flatten(),
            false => None,
        };
        if value.is_none() && poly.is_none() {
            return Err(reject(Code::P0002, o, "this offset is not quasi-affine", "not affine"));
        }
        Ok(Offset { value, poly })
    }

    /// Subscript `s` of an access, `offset` added.
    pub(super) fn offset_subscript(&mut self, s: Node, offset: Option<&Offset>) -> Res<QExpr> {
        let q = self.affine(s, Code::P0002)?;
        match offset {
            None => Ok(q),
            Some(o) => o.value.clone().map(|v| QExpr::plus(v, q)).ok_or_else(|| {
                reject(Code::P0002, s, "this subscript and its pointer's offset are not quasi-affine", "not affine")
            }),
        }
    }

    /// The polynomial of subscript `s`, `offset` added.
    pub(super) fn offset_polynomial(&mut self, s: Node, offset: Option<&Offset>) -> Res<Option<Poly>> {
        let p = self.polynomial(s, Code::P0002)?;
        Ok(match offset {
            None => p,
            Some(o) => p.zip(o.poly.as_ref()).and_then(|(a, b)| add(&a, b)),
        })
    }
}

fn unparenthesised(mut n: Node) -> Node {
    while n.kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}

/// The subscripts of `a[e1][e2]..`, outermost first.
fn subscripts(n: Node) -> Vec<Node> {
    let mut subs = Vec::new();
    subscript_base(n, &mut subs);
    subs
}

/// The base of `a[e1][e2]..`, its subscripts pushed to `subs` outermost first.
fn subscript_base<'t>(mut n: Node<'t>, subs: &mut Vec<Node<'t>>) -> Option<Node<'t>> {
    let mut reversed = Vec::new();
    while n.kind() == "subscript_expression" {
        reversed.push(n.child_by_field_name("index")?);
        n = n.child_by_field_name("argument")?;
    }
    subs.extend(reversed.into_iter().rev());
    Some(n)
}
