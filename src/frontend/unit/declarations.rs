//! The unit's file scope: its typedefs (each resolved to the scalar type
//! it stands for), global variables, enumeration constants, and the
//! functions it defines or only declares; and the shape a declarator
//! gives a parameter or a local.

use super::effects::ParamEffect;
use lang_c::ast::{
    Declaration, DeclarationSpecifier as DS, Declarator, DeclaratorKind, DerivedDeclarator as D, Extension,
    FunctionDeclarator, FunctionDefinition, ParameterDeclaration, PointerQualifier, StorageClassSpecifier,
    TypeQualifier, TypeSpecifier as T,
};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// A function declared without a body.
pub(super) struct Declared {
    pub(super) params: Vec<ParamEffect>,
    pub(super) returns_void: bool,
    pub(super) pure_attribute: bool,
}

/// What the file scope declares.
#[derive(Default)]
pub(super) struct Scan<'a> {
    /// Every typedef name, with its scalar type when it has one.
    pub(super) typedefs: HashMap<String, Option<String>>,
    /// Global variables, and whether they are constant (`const` scalars or
    /// arrays of them).
    pub(super) globals: HashMap<String, bool>,
    /// Enumeration constants.
    pub(super) constants: HashSet<String>,
    pub(super) definitions: HashMap<String, &'a FunctionDefinition>,
    pub(super) declared: HashMap<String, Declared>,
}

impl<'a> Scan<'a> {
    pub(super) fn external(&mut self, item: &'a lang_c::ast::ExternalDeclaration) {
        use lang_c::ast::ExternalDeclaration as X;
        match item {
            X::Declaration(d) => self.declaration(&d.node),
            X::FunctionDefinition(f) => {
                collect_enumerators(&f.node.specifiers, &mut self.constants);
                if let Some(name) = declarator_name(&f.node.declarator.node) {
                    self.definitions.insert(name.to_string(), &f.node);
                }
            }
            X::StaticAssert(_) => {}
        }
    }

    fn declaration(&mut self, d: &Declaration) {
        collect_enumerators(&d.specifiers, &mut self.constants);
        let typedef = d
            .specifiers
            .iter()
            .any(|s| matches!(&s.node, DS::StorageClass(c) if c.node == StorageClassSpecifier::Typedef));
        for init in &d.declarators {
            let declarator = &init.node.declarator.node;
            let Some(name) = declarator_name(declarator) else { continue };
            if typedef {
                let scalar = if declarator.derived.is_empty() { self.scalar(&d.specifiers) } else { None };
                self.typedefs.insert(name.to_string(), scalar);
            } else if let Some(params) = function_parameters(declarator) {
                self.declare_function(name, &d.specifiers, declarator, params);
            } else {
                let constant = has_const(&d.specifiers)
                    && declarator.derived.iter().all(|x| matches!(x.node, D::Array(_)))
                    && self.scalar(&d.specifiers).is_some()
                    && !has_volatile(&d.specifiers, Some(declarator));
                self.globals.insert(name.to_string(), constant);
            }
        }
    }

    fn declare_function(
        &mut self,
        name: &str,
        specs: &[Node<DS>],
        declarator: &Declarator,
        params: Vec<&ParameterDeclaration>,
    ) {
        let attribute = has_pure_attribute(specs) || extensions_pure(&declarator.extensions);
        let params = params.into_iter().map(|p| ParamEffect { pointer: shape(p).is_pointer(), ..Default::default() });
        let entry = self.declared.entry(name.to_string()).or_insert(Declared {
            params: params.collect(),
            returns_void: returns_void(specs, declarator),
            pure_attribute: false,
        });
        entry.pure_attribute |= attribute;
    }

    /// The canonical spelling of the scalar arithmetic type `specs` name.
    fn scalar(&self, specs: &[Node<DS>]) -> Option<String> {
        let types: Vec<&T> = type_specifiers(specs).collect();
        if let [T::TypedefName(n)] = types.as_slice() {
            return self.typedefs.get(&n.node.name).cloned().flatten();
        }
        canonical(&types)
    }
}

/// The type specifiers among declaration specifiers.
fn type_specifiers(specs: &[Node<DS>]) -> impl Iterator<Item = &T> {
    specs.iter().filter_map(|s| match &s.node {
        DS::TypeSpecifier(t) => Some(&t.node),
        _ => None,
    })
}

/// The canonical spelling of a list of arithmetic type keywords.
fn canonical(types: &[&T]) -> Option<String> {
    let count = |k: fn(&T) -> bool| types.iter().filter(|t| k(t)).count();
    let longs = count(|t| matches!(t, T::Long));
    let unsigned = count(|t| matches!(t, T::Unsigned)) > 0;
    let signed = count(|t| matches!(t, T::Signed)) > 0;
    let known = |t: &&T| {
        matches!(t, T::Char | T::Short | T::Int | T::Long | T::Float | T::Double | T::Signed | T::Unsigned | T::Bool)
    };
    if types.is_empty() || !types.iter().all(known) {
        return None;
    }
    let has = |k: fn(&T) -> bool| count(k) > 0;
    let u = if unsigned { "unsigned " } else { "" };
    let name = if has(|t| matches!(t, T::Bool)) {
        "_Bool".to_string()
    } else if has(|t| matches!(t, T::Float)) {
        "float".to_string()
    } else if has(|t| matches!(t, T::Double)) {
        if longs > 0 { "long double" } else { "double" }.to_string()
    } else if has(|t| matches!(t, T::Char)) {
        if signed {
            "signed char".to_string()
        } else {
            format!("{u}char")
        }
    } else if has(|t| matches!(t, T::Short)) {
        format!("{u}short")
    } else {
        format!("{u}{}", ["int", "long", "long long"][longs.min(2)])
    };
    Some(name)
}

/// Enumeration constants declared by the specifiers.
pub(super) fn collect_enumerators(specs: &[Node<DS>], into: &mut HashSet<String>) {
    for t in type_specifiers(specs) {
        if let T::Enum(e) = t {
            into.extend(e.node.enumerators.iter().map(|x| x.node.identifier.node.name.clone()));
        }
    }
}

fn has_const(specs: &[Node<DS>]) -> bool {
    specs.iter().any(|s| matches!(&s.node, DS::TypeQualifier(q) if q.node == TypeQualifier::Const))
}

pub(super) fn has_volatile(specs: &[Node<DS>], declarator: Option<&Declarator>) -> bool {
    let in_specs = specs.iter().any(|s| matches!(&s.node, DS::TypeQualifier(q) if q.node == TypeQualifier::Volatile));
    let in_pointer = |d: &Declarator| {
        d.derived.iter().any(|x| match &x.node {
            D::Pointer(qs) => qs
                .iter()
                .any(|q| matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Volatile)),
            D::Array(a) => a.node.qualifiers.iter().any(|q| q.node == TypeQualifier::Volatile),
            _ => false,
        })
    };
    in_specs || declarator.is_some_and(in_pointer)
}

/// Whether attributes mark a function `pure` or `const`.
fn extensions_pure(extensions: &[Node<Extension>]) -> bool {
    extensions.iter().any(|x| match &x.node {
        Extension::Attribute(a) => {
            let name = a.name.node.trim_matches('_');
            name == "pure" || name == "const"
        }
        _ => false,
    })
}

fn has_pure_attribute(specs: &[Node<DS>]) -> bool {
    specs.iter().any(|s| matches!(&s.node, DS::Extension(x) if extensions_pure(x)))
}

fn declarator_name(d: &Declarator) -> Option<&str> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(&id.node.name),
        _ => None,
    }
}

/// The name a declarator declares, however deeply nested (`(*b)[n]`).
pub(super) fn declared_name(d: &Declarator) -> &str {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => &id.node.name,
        DeclaratorKind::Declarator(inner) => declared_name(&inner.node),
        DeclaratorKind::Abstract => "",
    }
}

/// The parameters of a function's own declarator (`int f(int)`, not a
/// function pointer `int (*f)(int)`); none for `int f()` and old-style
/// identifier lists.
pub(super) fn function_parameters(d: &Declarator) -> Option<Vec<&ParameterDeclaration>> {
    declarator_name(d)?;
    d.derived.iter().find_map(|x| match &x.node {
        D::Function(f) => Some(parameters(&f.node)),
        D::KRFunction(_) => Some(Vec::new()),
        _ => None,
    })
}

/// The parameters, without the `void` of `f(void)`.
fn parameters(f: &FunctionDeclarator) -> Vec<&ParameterDeclaration> {
    let params: Vec<&ParameterDeclaration> = f.parameters.iter().map(|p| &p.node).collect();
    match params.as_slice() {
        [p] if p.declarator.is_none()
            && matches!(type_specifiers(&p.specifiers).collect::<Vec<_>>().as_slice(), [T::Void]) =>
        {
            Vec::new()
        }
        _ => params,
    }
}

pub(super) fn returns_void(specs: &[Node<DS>], declarator: &Declarator) -> bool {
    type_specifiers(specs).any(|t| matches!(t, T::Void))
        && !declarator.derived.iter().any(|x| matches!(x.node, D::Pointer(_)))
}

/// The shape of a declared object.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// Not declared as a pointer or array (possibly a typedef of one:
    /// then it cannot be dereferenced here).
    Value,
    /// A single pointer (`*p`: 1) or an array of `n` dimensions.
    Flat(usize),
    /// Anything else: pointers to pointers, arrays of pointers, nested
    /// declarators, functions.
    Other,
}

impl Shape {
    pub(super) fn of(declarator: Option<&Declarator>) -> Shape {
        let Some(d) = declarator else { return Shape::Value };
        if !matches!(d.kind.node, DeclaratorKind::Identifier(_) | DeclaratorKind::Abstract) {
            return Shape::Other;
        }
        let arrays = d.derived.iter().filter(|x| matches!(x.node, D::Array(_))).count();
        match (d.derived.len(), arrays) {
            (0, _) => Shape::Value,
            (n, a) if n == a => Shape::Flat(n),
            (1, 0) if matches!(d.derived[0].node, D::Pointer(_)) => Shape::Flat(1),
            _ => Shape::Other,
        }
    }

    pub(super) fn is_pointer(self) -> bool {
        self != Shape::Value
    }
}

pub(super) fn shape(p: &ParameterDeclaration) -> Shape {
    Shape::of(p.declarator.as_ref().map(|d| &d.node))
}
