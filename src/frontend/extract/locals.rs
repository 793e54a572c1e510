//! Variables a region declares, C99 style: `double s = a[i-1] + a[i+1];`
//! in a loop body.
//!
//! Each is hoisted: the regenerated region opens a block that declares it
//! (`ScopAst::locals`, its type without qualifiers), and its initialiser
//! becomes a statement of its own, `s = a[i-1] + a[i+1];`, an ordinary
//! write of a scalar in every instance. Its scope ends with the region, so
//! its values are dead after it (`ScopAst::dead_after`): a loop that
//! gives each thread a copy never copies it out. The name is the source's
//! unless the function declares it elsewhere too (another block, a
//! global), where hoisting would shadow or merge two variables: then it
//! is a fresh name, and the statements' text says that name.
//!
//! Refused, with what would make them acceptable: declarations at the
//! region's top level of a variable its block uses after it, `static`,
//! `extern` and `volatile` variables, initialisers of arrays, and (for
//! now) pointers.

use super::casts::IntType;
use super::poly::{linear, renumbered, Poly};
use super::state::{reject, Binding, Extractor, Known, Local, Res, RowPointer, StmtParts};
use crate::diagnostics::Code;
use crate::frontend::ast::{Access, AccessKind, Stmt};
use crate::frontend::decls::VarDecl;
use crate::frontend::qexpr::{QExpr, Var};
use tree_sitter::Node;

impl<'a> Extractor<'a> {
    /// The declaration statement `n`: each declarator hoisted, each
    /// initialiser a statement.
    pub(super) fn declaration(&mut self, n: Node) -> Res<()> {
        let mut cursor = n.walk();
        let children: Vec<Node> = n.children(&mut cursor).collect();
        if let Some(c) = children.iter().find(|c| self.unsupported_specifier(**c)) {
            return Err(reject(
                Code::P0020,
                *c,
                format!("a `{}` variable declared in a SCoP", self.t(*c)),
                "declare it before `#pragma scop`",
            ));
        }
        let ty = n.child_by_field_name("type").map_or("int", |t| self.t(t)).to_string();
        let declarators: Vec<Node> = n.children_by_field_name("declarator", &mut cursor).collect();
        declarators.into_iter().try_for_each(|d| self.declare(&ty, d))
    }

    fn unsupported_specifier(&self, c: Node) -> bool {
        match c.kind() {
            "storage_class_specifier" => self.t(c) != "register",
            "type_qualifier" => self.t(c) == "volatile",
            _ => false,
        }
    }

    /// Declarator `d` of type `ty`: the variable joins the current scope,
    /// its initialiser (if any) is a statement.
    fn declare(&mut self, ty: &str, d: Node) -> Res<()> {
        let Some((name, decl)) = self.names.local(ty, d, self.src) else {
            return Err(reject(
                Code::P0020,
                d,
                "this declarator is not supported in a SCoP",
                "declare it before `#pragma scop`",
            ));
        };
        if self.scopes.is_empty() && self.named_after.contains(&name) {
            return Err(reject(
                Code::P0020,
                d,
                format!("`{name}` is declared at the top level of the region and used after it"),
                "declare it before `#pragma scop`",
            ));
        }
        if decl.is_pointer {
            if decl.pointer_levels != [true] {
                let why = format!("`{name}` is a pointer to pointers or an array of pointers");
                return Err(reject(Code::P0020, d, why, "declare it before `#pragma scop`"));
            }
            let row = self.row_pointer(&name, d, d.child_by_field_name("value"))?;
            self.locals.push(Local { name, binding: Binding::Row(row) });
            return Ok(());
        }
        if !decl.extents.is_empty() && !decl.constant_extents {
            return Err(reject(
                Code::P0020,
                d,
                format!("`{name}` has a variable length"),
                "declare it before `#pragma scop`",
            ));
        }
        let value = d.child_by_field_name("value");
        if value.is_some() && !decl.extents.is_empty() {
            return Err(reject(
                Code::P0020,
                d,
                format!("array `{name}` initialised in a SCoP"),
                "assign its elements in statements instead",
            ));
        }
        let hoisted = match self.names.declared_again(&name) {
            true => {
                let fresh = self.fresh.mint(&name);
                self.renamed.push((name.clone(), fresh.clone()));
                fresh
            }
            false => name.clone(),
        };
        self.hoisted.push((hoisted, decl));
        let binding = Binding::Hoisted { index: self.hoisted.len() - 1, known: None, used: false };
        self.locals.push(Local { name, binding });
        match value {
            Some(v) => self.initialisation(d, v),
            None => Ok(()),
        }
    }

    /// `s = <value>;` for declarator `d` with initialiser `value`: the
    /// statement the declaration's initialisation is.
    fn initialisation(&mut self, d: Node, value: Node) -> Res<()> {
        if value.kind() == "initializer_list" {
            return Err(reject(
                Code::P0020,
                value,
                "a braced initialiser in a SCoP",
                "assign the value in a statement",
            ));
        }
        let name = d.child_by_field_name("declarator").unwrap_or(d);
        let mut parts = StmtParts::default();
        self.value(value, &mut parts)?;
        let array = self.hoisted.last().expect("declared just now").0.clone();
        self.writes.push((array.clone(), name.byte_range()));
        let write =
            Access { array, kind: AccessKind::Write, subscripts: vec![], span: name.byte_range(), conditional: false };
        parts.accesses.push(write);
        let mut stmt = self.statement_at(d.byte_range(), parts, None);
        stmt.text.push(';');
        self.push(stmt);
        let target = IntType::of(self.hoisted.last().expect("declared just now").1.arithmetic_type());
        if let Some(known) = target.and_then(|t| self.known(value, t)) {
            if let Some(Binding::Hoisted { known: k, .. }) = self.locals.last_mut().map(|l| &mut l.binding) {
                *k = Some(known);
            }
        }
        Ok(())
    }

    /// The value of `value` converted to `target`, where known (see
    /// [`Known`]). Working it out leaves no trace: no parameter, no use.
    fn known(&mut self, value: Node, target: IntType) -> Option<Known> {
        let saved = (self.params.len(), self.definitions.len(), self.free_uses.len(), self.param_uses.clone());
        let affine = self.affine(value, Code::P0003).ok().filter(|q| self.keeps_value(target, q));
        let poly = match affine {
            Some(_) => None,
            None => self.polynomial(value, Code::P0003).ok().flatten().filter(|p| self.keeps_polynomial(target, p)),
        };
        let params = self.params.clone();
        let defined = self.definitions.len() > saved.1;
        self.params.truncate(saved.0);
        self.definitions.truncate(saved.1);
        self.free_uses.truncate(saved.2);
        self.param_uses = saved.3;
        self.local_reads.clear();
        let known = Known { value: affine, poly, params };
        (!defined && (known.value.is_some() || known.poly.is_some())).then_some(known)
    }

    /// The value of the variable the region declares that `n` names, as
    /// a bound or subscript.
    pub(super) fn local_value(&mut self, n: Node) -> Res<QExpr> {
        let known = self.known_value_of(n)?;
        let Some(value) = known.value.clone() else {
            return Err(self.unknown_value(n));
        };
        let map = self.parameters_of(&known, |k| value.mentions(Var::Param(k)), n);
        Ok(value.renumbered(&|k| map[k]))
    }

    /// The polynomial of the variable the region declares that `n` names,
    /// as a subscript.
    pub(super) fn local_polynomial(&mut self, n: Node) -> Res<Option<Poly>> {
        let known = self.known_value_of(n)?;
        let Some(poly) = known.poly.clone().or_else(|| known.value.as_ref().and_then(linear)) else {
            return Ok(None);
        };
        let map = self.parameters_of(&known, |k| poly.keys().any(|m| m.params.contains(&k)), n);
        Ok(Some(renumbered(&poly, |k| map[k])))
    }

    /// What is known of the variable `n` names, its use noted: the
    /// statement reads it there, and a later write is refused.
    fn known_value_of(&mut self, n: Node) -> Res<Known> {
        let name = self.t(n);
        let binding = self.locals.iter_mut().rev().find(|l| l.name == name).map(|l| &mut l.binding);
        let Some(Binding::Hoisted { index, known: Some(known), used }) = binding else {
            return Err(self.unknown_value(n));
        };
        *used = true;
        let (index, known) = (*index, known.clone());
        let array = self.hoisted[index].0.clone();
        self.local_reads.push(Access {
            array,
            kind: AccessKind::Read,
            subscripts: vec![],
            span: n.byte_range(),
            conditional: false,
        });
        Ok(known)
    }

    /// The parameters `known` numbers that `mentioned` picks, numbered as
    /// the SCoP's (added where new, used at `n`).
    fn parameters_of(&mut self, known: &Known, mentioned: impl Fn(usize) -> bool, n: Node) -> Vec<usize> {
        let names = known.params.iter().enumerate();
        names.map(|(k, p)| if mentioned(k) { self.parameter(p, n.byte_range()) } else { usize::MAX }).collect()
    }

    fn unknown_value(&self, n: Node) -> crate::diagnostics::Diagnostic {
        reject(
            Code::P0003,
            n,
            format!("`{}` is used as a bound or subscript, but its value is not known there", self.t(n)),
            "initialise it to a quasi-affine expression of the loop counters and parameters, and do not assign it again",
        )
    }

    /// Note a write to the variable `n` names: its value is no longer
    /// known, and must not have been used as a bound or subscript yet.
    pub(super) fn forget_value(&mut self, n: Node) -> Res<()> {
        let name = self.t(n);
        let binding = self.locals.iter_mut().rev().find(|l| l.name == name).map(|l| &mut l.binding);
        let Some(Binding::Hoisted { known, used, .. }) = binding else { return Ok(()) };
        if *used {
            let message = format!("`{name}` is written after its value was used as a bound or subscript");
            return Err(reject(Code::P0003, n, message, "keep it constant in its block"));
        }
        *known = None;
        Ok(())
    }

    /// The variable the region declares by `name` where the walk is.
    pub(super) fn local(&self, name: &str) -> Option<&(String, VarDecl)> {
        match self.binding(name)? {
            Binding::Hoisted { index, .. } => Some(&self.hoisted[*index]),
            Binding::Row(_) => None,
        }
    }

    /// The pointer the region declares by `name` where the walk is.
    pub(super) fn row_pointer_named(&self, name: &str) -> Option<&RowPointer> {
        match self.binding(name)? {
            Binding::Row(row) => Some(row),
            Binding::Hoisted { .. } => None,
        }
    }

    /// Refuse a use of a pointer the region declares other than as the
    /// base of a subscript (`n` names it).
    pub(super) fn not_a_row_pointer(&self, n: Node) -> Res<()> {
        match self.row_pointer_named(self.t(n)) {
            Some(_) => Err(reject(
                Code::P0020,
                n,
                format!("pointer `{}` used other than subscripted", self.t(n)),
                "write `p[k]`, or declare the pointer before `#pragma scop`",
            )),
            None => Ok(()),
        }
    }

    fn binding(&self, name: &str) -> Option<&Binding> {
        self.locals.iter().rev().find(|l| l.name == name).map(|l| &l.binding)
    }

    /// The declaration `name` refers to where the walk is.
    pub(super) fn var(&self, name: &str) -> Option<&VarDecl> {
        match self.local(name) {
            Some((_, decl)) => Some(decl),
            None => self.names.vars.get(name),
        }
    }

    /// The name the model and the regenerated code give the variable
    /// `name` refers to where the walk is.
    pub(super) fn model_name(&self, name: &str) -> String {
        self.local(name).map_or(name, |(hoisted, _)| hoisted).to_string()
    }

    /// `f` in a block of its own: the variables it declares go out of
    /// scope after it.
    pub(super) fn in_block<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.scopes.push(self.locals.len());
        let r = f(self);
        let start = self.scopes.pop().expect("pushed above");
        self.locals.truncate(start);
        r
    }

    /// `stmt`'s text with the new names of the hoisted variables that
    /// have one, where it names them (at the start of their accesses).
    pub(super) fn rename_locals(&self, stmt: &mut Stmt) {
        let offset = stmt.span.start;
        let mut renames: Vec<(usize, &str, &str)> = Vec::new();
        for a in &stmt.accesses {
            let Some((source, hoisted)) = self.renamed.iter().find(|(_, h)| *h == a.array) else { continue };
            let at = a.span.start.wrapping_sub(offset);
            if stmt.text.get(at..at + source.len()) == Some(source.as_str()) && !renames.iter().any(|r| r.0 == at) {
                renames.push((at, source, hoisted));
            }
        }
        renames.sort_by_key(|r| std::cmp::Reverse(r.0));
        let renames: Vec<(usize, usize, String)> =
            renames.into_iter().map(|(at, source, hoisted)| (at, source.len(), hoisted.to_string())).collect();
        for (at, len, hoisted) in renames {
            stmt.replace_text(at..at + len, &hoisted, Vec::new());
        }
    }
}
