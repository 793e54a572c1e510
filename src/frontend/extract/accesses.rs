//! What a statement reads and writes: the expressions it evaluates for
//! their values and its assignment targets, each scalar or array element
//! an [`Access`] with quasi-affine subscripts. The array is a variable
//! or a struct's member (`fields.rs`).

use super::delinearise::split_by_strides;
use super::state::RowPointer;
use super::state::{reject, Extractor, Res, Shape, StmtParts};
use crate::diagnostics::Code;
use crate::frontend::ast::{Access, AccessKind};
use crate::frontend::qexpr::QExpr;
use crate::frontend::syntax::walk;
use tree_sitter::Node;

/// An array a subscripted name reaches: its name in the model, the name
/// its declaration goes by, the subscripts before the access's own and
/// the pointer the region declares that reaches it, if one does.
type NamedArray = (String, String, Vec<QExpr>, Option<RowPointer>);

impl<'a> Extractor<'a> {
    /// Walk an expression evaluated for its value, collecting accesses.
    pub(super) fn value(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        match n.kind() {
            "identifier" => self.value_name(n, parts),
            "subscript_expression" => self.access(n, AccessKind::Read, parts),
            "assignment_expression" => {
                let left =
                    n.child_by_field_name("left").ok_or_else(|| reject(Code::P0006, n, "bad assignment", "here"))?;
                if self.operator(n) != "=" {
                    self.target(left, AccessKind::Read, parts)?;
                }
                if let Some(r) = n.child_by_field_name("right") {
                    self.value(r, parts)?;
                }
                self.target(left, AccessKind::Write, parts)
            }
            "update_expression" => {
                let arg =
                    n.child_by_field_name("argument").ok_or_else(|| reject(Code::P0006, n, "bad update", "here"))?;
                self.target(arg, AccessKind::Read, parts)?;
                self.target(arg, AccessKind::Write, parts)
            }
            "call_expression" => self.value_call(n, parts),
            "field_expression" => self.access(n, AccessKind::Read, parts),
            "pointer_expression"
            | "comma_expression"
            | "initializer_list"
            | "compound_literal_expression"
            | "string_literal" => Err(reject(
                Code::P0006,
                n,
                format!("{} is not supported in a SCoP", n.kind().replace('_', " ")),
                "unsupported expression",
            )),
            "cast_expression" => {
                if let Some(name) = self.cast_of_a_value(n) {
                    self.value_name(name, parts)?;
                }
                match n.child_by_field_name("value") {
                    Some(v) => self.value(v, parts),
                    None => Ok(()),
                }
            }
            "sizeof_expression" | "number_literal" | "char_literal" | "true" | "false" | "null" | "comment" => Ok(()),
            "multifor_index_list" => {
                let picked = self.picked(n)?;
                self.value(picked, parts)
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "conditional_expression"
            | "argument_list" => self.value_children(n, parts),
            k => Err(reject(Code::P0006, n, format!("`{k}` is not supported in a SCoP"), "unsupported expression")),
        }
    }

    /// The name in a cast's parentheses when it is no type but a variable
    /// or an iterator: the parser reads `(i) + x` and `(s) - 1.0` as casts
    /// of `+x` and `-1.0` to a type named `i` or `s`, which the C compiler,
    /// knowing them for variables, reads as a sum and a difference.
    fn cast_of_a_value<'t>(&self, cast: Node<'t>) -> Option<Node<'t>> {
        let descriptor = cast.child_by_field_name("type")?;
        let name = descriptor.child_by_field_name("type").filter(|t| t.kind() == "type_identifier")?;
        let alone = descriptor.named_child_count() == 1;
        let text = self.t(name);
        (alone && (self.in_scope_iterator(text).is_some() || self.var(text).is_some())).then_some(name)
    }

    pub(super) fn value_children(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        parts.guarded.note(n);
        let mut cursor = n.walk();
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        children.into_iter().try_for_each(|c| self.value(c, parts))
    }

    fn value_name(&mut self, n: Node, parts: &mut StmtParts) -> Res<()> {
        let name = self.t(n);
        if let Some(depth) = self.in_scope_iterator(name) {
            parts.iter_uses.push((n.byte_range(), depth));
            return Ok(());
        }
        self.check_not_foreign_index(n, false)?;
        self.not_a_row_pointer(n)?;
        self.free_uses.push((name.to_string(), n.byte_range()));
        match self.var(name) {
            Some(v) if v.is_array() => {
                Err(reject(Code::P0006, n, format!("array `{name}` used without subscripts"), "bare array"))
            }
            Some(_) => {
                parts.accesses.push(Access {
                    array: self.model_name(name),
                    kind: AccessKind::Read,
                    subscripts: vec![],
                    span: n.byte_range(),
                    conditional: parts.guarded.covers(n),
                });
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// An lvalue: a scalar or an array element.
    fn target(&mut self, n: Node, kind: AccessKind, parts: &mut StmtParts) -> Res<()> {
        match n.kind() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => self.target(inner, kind, parts),
                None => Err(reject(Code::P0006, n, "bad assignment target", "here")),
            },
            "identifier" => {
                let name = self.t(n);
                if self.in_scope_iterator(name).is_some() {
                    return Err(reject(
                        Code::P0005,
                        n,
                        format!("write to loop iterator `{name}`"),
                        "iterator written here",
                    ));
                }
                self.not_a_row_pointer(n)?;
                let array = self.model_name(name);
                if kind == AccessKind::Write {
                    self.forget_value(n)?;
                    self.writes.push((array.clone(), n.byte_range()));
                }
                let conditional = parts.guarded.covers(n);
                parts.accesses.push(Access { array, kind, subscripts: vec![], span: n.byte_range(), conditional });
                Ok(())
            }
            "subscript_expression" | "field_expression" => self.access(n, kind, parts),
            _ => Err(reject(
                Code::P0006,
                n,
                "assignment target must be a variable or an array element",
                "unsupported target",
            )),
        }
    }

    /// `A[e1][e2]...`, subscripts quasi-affine; `A` a named array or a
    /// struct's member (`g.u[i]`, `bodies[j].x`: `fields.rs`).
    pub(super) fn access(&mut self, n: Node, kind: AccessKind, parts: &mut StmtParts) -> Res<()> {
        let mut subs = Vec::new();
        let mut base = n;
        while base.kind() == "subscript_expression" {
            let index = base
                .child_by_field_name("index")
                .ok_or_else(|| reject(Code::P0002, base, "missing subscript", "here"))?;
            subs.push(index);
            base = base
                .child_by_field_name("argument")
                .ok_or_else(|| reject(Code::P0002, base, "missing array", "here"))?;
        }
        subs.reverse();
        let (array, view, mut subscripts, row) = match base.kind() {
            "identifier" => self.named_array(base, parts)?,
            "field_expression" => {
                let (array, mut outer) = self.field_array(base, subs.len())?;
                outer.append(&mut subs);
                subs = outer;
                (array.clone(), array, Vec::new(), None)
            }
            _ => {
                return Err(reject(
                    Code::P0006,
                    base,
                    "only named arrays and struct members may be subscripted",
                    "unsupported array expression",
                ))
            }
        };
        let single = subs.len() == 1 && subscripts.is_empty();
        let mut shape = Shape::Several;
        let count = subs.len();
        for (k, s) in subs.into_iter().enumerate() {
            let offset = row.as_ref().and_then(|r| r.offset.as_ref()).filter(|_| k + 1 == count);
            let (params, definitions) = (self.params.len(), self.definitions.len());
            match self.offset_subscript(s, offset) {
                Ok(q) => {
                    subscripts.push(q);
                    if single {
                        let poly = match self.may_delinearise(&view) {
                            true => self.offset_polynomial(s, offset).ok().flatten(),
                            false => None,
                        };
                        shape = Shape::Affine(poly);
                    }
                }
                Err(e) if single && self.may_delinearise(&view) => {
                    // What the failed attempt introduced is unused.
                    self.params.truncate(params);
                    self.definitions.truncate(definitions);
                    let Ok(Some(poly)) = self.offset_polynomial(s, offset) else { return Err(e) };
                    let Some((split, strides)) = split_by_strides(&poly) else { return Err(e) };
                    subscripts.extend(split);
                    shape = Shape::Split(strides);
                }
                Err(e) => return Err(e),
            }
            self.record_iter_uses(s, parts);
        }
        self.shapes.push((array.clone(), shape, n.byte_range()));
        if kind == AccessKind::Write {
            self.writes.push((array.clone(), base.byte_range()));
        }
        let conditional = parts.guarded.covers(n);
        parts.accesses.push(Access { array, kind, subscripts, span: n.byte_range(), conditional });
        Ok(())
    }

    /// The array an identifier subscripted names.
    fn named_array(&self, base: Node, parts: &mut StmtParts) -> Res<NamedArray> {
        let written = self.t(base);
        let row = self.row_pointer_named(written).cloned();
        if row.is_none()
            && (self.in_scope_iterator(written).is_some() || self.var(written).is_some_and(|v| !v.is_array()))
        {
            return Err(reject(Code::P0006, base, format!("`{written}` is not an array"), "subscripted scalar"));
        }
        Ok(match row {
            Some(r) => {
                parts.substitutions.push((base.byte_range(), r.text.clone(), r.uses.clone()));
                (r.array.clone(), r.written.clone(), r.prefix.clone(), Some(r))
            }
            None => (self.model_name(written), written.to_string(), Vec::new(), None),
        })
    }

    /// Iterator occurrences inside a subscript, for substitution (once:
    /// a compound assignment's target is visited as a read and a write).
    fn record_iter_uses(&self, n: Node, parts: &mut StmtParts) {
        walk(n, &mut |m| {
            if m.kind() == "identifier" {
                if let Some(depth) = self.in_scope_iterator(self.t(m)) {
                    if !parts.iter_uses.iter().any(|(r, _)| *r == m.byte_range()) {
                        parts.iter_uses.push((m.byte_range(), depth));
                    }
                }
            }
        });
    }
}
