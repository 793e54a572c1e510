//! Members of struct objects as arrays of their own: `g.u[i][j]` (a
//! struct variable's array member), `p->x[i]` (through a pointer to a
//! struct; the member an array or a pointer `double *x`), `bodies[j].x`
//! (an array of structs, or a pointer to them: each member is an array
//! indexed like the objects, then like the member).
//!
//! Each such member gets a fresh name (`g_u`) that is a valid identifier
//! for isl; its `VarDecl` holds the member's extents after the object's,
//! and in `field` how the C text reaches it, which the output's run-time
//! checks print (`Member::spell`). The statements keep their text.
//!
//! What the model then assumes, and why it holds: distinct members of one
//! object never overlap (a struct's members are laid out apart, unions
//! and nested aggregates are not read, and the in-bounds check keeps
//! every subscript within its member); and the object is reached one way
//! only: a region that also uses the object whole (`g`, `p = q`,
//! `bodies[i] = ..`), or reaches one member two ways (`p->x`, `p[0].x`),
//! is refused. What a pointer reaches may overlap other memory:
//! `model::alias` checks it at run time.

use super::state::{reject, Extractor, Res};
use crate::diagnostics::Code;
use crate::frontend::decls::{is_arithmetic_spelling, FieldOf, VarDecl};
use crate::frontend::structs::{type_key, Member};
use tree_sitter::Node;

/// What a member access's object is.
#[derive(Clone, Copy, PartialEq)]
enum Object {
    /// A struct variable: `g.u`.
    Variable,
    /// A pointer to one struct: `p->x`.
    Pointer,
    /// An array of structs: `bodies[j].x` (`outer` subscripts).
    Array,
    /// A pointer to structs subscripted: `bodies[j].x`.
    PointerSubscripted,
}

const WHAT_IS_MODELLED: &str = "polyc models the members of a struct variable (`g.u[i]`), of a pointer to a \
    struct (`p->x[i]`) and of an element of an array of structs (`a[i].x`), of arithmetic type";

impl<'a> Extractor<'a> {
    /// The array a member access `field` (`g.u`, `p->x`, `bodies[j].x`)
    /// stands for when `inner` subscripts follow it, and the subscripts
    /// of its object (`[j]`), outermost first.
    pub(super) fn field_array<'t>(&mut self, field: Node<'t>, inner: usize) -> Res<(String, Vec<Node<'t>>)> {
        let bad = || reject(Code::P0006, field, "bad member access", "here");
        let member = self.t(field.child_by_field_name("field").ok_or_else(bad)?);
        let (object, outer) = object_and_subscripts(field.child_by_field_name("argument").ok_or_else(bad)?)?;
        let name = self.t(object);
        let decl = self.names.vars.get(name).filter(|_| self.in_scope_iterator(name).is_none());
        let decl = decl.ok_or_else(|| reject(Code::P0006, object, WHAT_IS_MODELLED, "not a variable polyc knows"))?;
        let arrow = self.operator(field) == "->";
        let Some(kind) = object_kind(decl, arrow, outer.len()) else {
            return Err(reject(Code::P0006, object, WHAT_IS_MODELLED, "unsupported struct object"));
        };
        let members = self.names.structs.get(&type_key(&decl.ty)).ok_or_else(|| {
            let note = "define the struct (or a typedef of it) at file scope; unions, whose members overlap, are \
                        not modelled";
            reject(Code::P0006, object, format!("polyc knows no struct type `{}`", decl.ty), "unknown struct type")
                .with_note(note)
        })?;
        let Some((_, declared)) = members.iter().find(|(m, _)| m == member) else {
            let why = format!("`{}` has no plain member `{member}`", decl.ty);
            let note = "bit fields and the members of nested structs and unions are not modelled";
            return Err(reject(Code::P0006, field, why, "unknown member").with_note(note));
        };
        let member = Member { object: name.to_string(), outer: outer.len(), arrow, name: member.to_string() };
        let array = self.member_decl(field, member, kind, decl, declared, inner)?;
        Ok((self.field_name(field, array)?, outer))
    }

    /// The member as an array of its own (see `VarDecl::field`), if the
    /// model can take it for one with `inner` subscripts.
    fn member_decl(
        &self,
        field: Node,
        member: Member,
        kind: Object,
        object: &VarDecl,
        declared: &VarDecl,
        inner: usize,
    ) -> Res<VarDecl> {
        let text = self.t(field);
        if !is_arithmetic_spelling(&declared.ty) {
            let why = format!("member `{text}` is of type `{}`", declared.ty);
            return Err(reject(Code::P0006, field, why, "unsupported member type").with_note(WHAT_IS_MODELLED));
        }
        let pointer_member = declared.is_pointer;
        let (member_extents, embedded) = match (pointer_member, kind) {
            (true, Object::Variable | Object::Pointer) if declared.pointer_levels == [true] => {
                (vec![String::new()], false)
            }
            (false, _) if declared.extents.iter().all(|e| self.names.is_constant(e)) => {
                (declared.extents.clone(), true)
            }
            _ => {
                let why = format!("member `{text}` is a pointer table, an array of pointers or of variable size");
                let note =
                    "polyc models arrays of fixed extents in structs, and pointer members `double *x` of one struct";
                return Err(reject(Code::P0006, field, why, "unsupported member").with_note(note));
            }
        };
        if member.outer == 0 && member_extents.is_empty() {
            let why = format!("`{text}` is a scalar member of one struct");
            let note = "read it into a local variable before the region (or write it from one after): polyc models \
                        array members, and the scalar members of an array of structs (`a[i].x`)";
            return Err(reject(Code::P0006, field, why, "scalar member").with_note(note));
        }
        if member_extents.len() != inner {
            let why =
                format!("`{text}` is reached with {inner} subscripts but has {} dimensions", member_extents.len());
            let note = "polyc models a member's cells, each subscript given; a whole member, or a write to a pointer \
                        member (`p->x = q`), stays outside the region";
            return Err(reject(Code::P0006, field, why, "not a cell of the member").with_note(note));
        }
        let mut extents = match kind {
            Object::Array => object.extents.clone(),
            Object::PointerSubscripted => vec![String::new()],
            Object::Variable | Object::Pointer => Vec::new(),
        };
        extents.extend(member_extents);
        let is_pointer = pointer_member || matches!(kind, Object::Pointer | Object::PointerSubscripted);
        Ok(VarDecl {
            ty: declared.ty.clone(),
            constant_extents: extents.iter().all(|e| self.names.is_constant(e)),
            pointer_levels: if is_pointer { Vec::new() } else { vec![false; extents.len()] },
            extents,
            is_pointer,
            is_local: object.is_local,
            is_static: object.is_static,
            field: Some(FieldOf { member, embedded, object: Box::new(object.clone()) }),
            ..VarDecl::default()
        })
    }

    /// The SCoP's name for the member `array` describes: the one it got
    /// at its first access, else a fresh one.
    fn field_name(&mut self, field: Node, array: VarDecl) -> Res<String> {
        let member = &array.field.as_ref().expect("a member").member;
        let same_cells = |d: &VarDecl| {
            d.field.as_ref().is_some_and(|f| f.member.object == member.object && f.member.name == member.name)
        };
        if let Some((name, known)) = self.fields.iter().find(|(_, d)| same_cells(d)) {
            if known.field.as_ref().is_some_and(|f| f.member == *member) {
                return Ok(name.clone());
            }
            let why = format!("`{}` is reached two ways in the region", self.t(field));
            let note = "write every access to a member alike (`p->x[i]` everywhere, not also `p[0].x[i]`)";
            return Err(reject(Code::P0006, field, why, "another way to the same member").with_note(note));
        }
        let name = self.fresh.mint(&format!("{}_{}", member.object, member.name));
        self.fields.push((name.clone(), array));
        Ok(name)
    }

    /// Refuse a region that uses a struct object whole besides its
    /// members: the model would take them for different memory.
    pub(super) fn check_objects_used_by_member_only(&self) -> Res<()> {
        let objects = self.fields.iter().filter_map(|(_, d)| Some(d.field.as_ref()?.member.object.as_str()));
        let objects: Vec<&str> = objects.collect();
        let whole = self.stmts.iter().flat_map(|s| &s.accesses).find(|a| objects.contains(&a.array.as_str()));
        match whole {
            None => Ok(()),
            Some(a) => Err(crate::diagnostics::Diagnostic::warning(
                Code::P0006,
                a.span.clone(),
                format!("`{}` is used here besides through its members", a.array),
            )
            .with_label("struct object used whole")
            .with_note("polyc models a struct's members as arrays; assign or pass the object outside the region")),
        }
    }

    /// The SCoP's member arrays by name ([`Self::field_array`]).
    pub(super) fn field_decl(&self, array: &str) -> Option<VarDecl> {
        self.fields.iter().find(|(name, _)| name == array).map(|(_, d)| d.clone())
    }
}

/// The variable holding a member access's object (`bodies` in
/// `bodies[j].x`), and the subscripts applied to it, outermost first.
fn object_and_subscripts(argument: Node) -> Res<(Node, Vec<Node>)> {
    let mut subscripts = Vec::new();
    let mut object = argument;
    while object.kind() == "subscript_expression" {
        let (Some(index), Some(inner)) = (object.child_by_field_name("index"), object.child_by_field_name("argument"))
        else {
            return Err(reject(Code::P0002, object, "missing subscript", "here"));
        };
        subscripts.push(index);
        object = inner;
    }
    if object.kind() != "identifier" {
        return Err(reject(Code::P0006, object, WHAT_IS_MODELLED, "unsupported struct object"));
    }
    subscripts.reverse();
    Ok((object, subscripts))
}

/// What `object` is, reached by `->` or `.` after `outer` subscripts;
/// `None` for what is not modelled (`a[i]->x`, a struct of structs).
fn object_kind(object: &VarDecl, arrow: bool, outer: usize) -> Option<Object> {
    let one_pointer = object.pointer_levels == [true] && object.extents.is_empty();
    let plain = !object.is_pointer && object.extents.len() == outer;
    match (arrow, outer) {
        (true, 0) if one_pointer => Some(Object::Pointer),
        (false, 0) if plain => Some(Object::Variable),
        (false, 1) if one_pointer => Some(Object::PointerSubscripted),
        (false, _) if plain => Some(Object::Array),
        _ => None,
    }
}
