//! What the raw source says about names: declared variables (type, array
//! extents), macros, and every identifier in use. The file is walked once
//! ([`FileNames`]); each SCoP's [`Names`] walk only its function, so that
//! a file of many SCoPs costs time in proportion to its size. New names
//! come from [`crate::names::FreshNames`], seeded with the file's
//! identifiers.
//!
//! The walks themselves are iterative (`syntax::walk`, `syntax::Preorder`:
//! a cursor counting its own depth): no walk over the file recurses, as a
//! file may nest deeper than any stack (see `depth`).

use super::structs::{self, Member};
use super::syntax::{text, walk};
use super::unit;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use tree_sitter::Node;

#[derive(Clone, Debug, Default)]
pub struct VarDecl {
    /// The type as written, e.g. `double`, `unsigned long` or `real`.
    pub ty: String,
    /// The arithmetic type `ty` stands for through typedefs (`real` ->
    /// `float`); empty when it is `ty` itself.
    pub base: String,
    /// Array extents as written, outermost first.
    pub extents: Vec<String>,
    pub is_pointer: bool,
    /// A function parameter (an array parameter is a pointer).
    pub is_parameter: bool,
    /// Every extent is a constant: integer literals and macros only (not
    /// a variable-length array).
    pub constant_extents: bool,
    /// Declared in the body of the function that holds the SCoP.
    pub is_local: bool,
    /// Declared `static`: one object for the whole run, even in a function.
    pub is_static: bool,
    /// A `restrict` pointer (or array parameter): what it points to is
    /// reached through nothing else while it is in scope. Only the
    /// variable's own level counts (`double *restrict *a` qualifies the
    /// rows, not `a`).
    pub is_restrict: bool,
    /// A parameter its function assigns, steps or takes the address of:
    /// it may point to the function's own locals (`if (!p) p = buf;`).
    pub is_reassigned: bool,
    /// Memory the output allocates for the SCoP (an expanded variable, a
    /// transposed copy): nothing else reaches it.
    pub is_fresh: bool,
    /// The multi-dimensional view the SCoP's linear subscripts were
    /// split into (`A[i*n + j]` as `A[i][j]`): the extents as C text over
    /// the SCoP's parameters, outermost first, the outermost empty
    /// (unknown). The element `[o0][o1]..` is `A[(o0) * (e1) + (o1)]`,
    /// and so on; the split is exact where `0 <= o_d < e_d` for every
    /// inner dimension, which the output checks at run time.
    pub delinearised: Option<Vec<String>>,
    /// The declarator's levels from the name outwards, each `true` for a
    /// pointer: `double *a[n]` is `[false, true]` (an array of pointers),
    /// `double (*a)[n]` is `[true, false]`.
    pub pointer_levels: Vec<bool>,
    /// A member of a struct object modelled as an array of its own
    /// (`g.u`, `p->x`, `bodies[j].x`; `extract::fields`): its name in the
    /// SCoP is a fresh one, its C spelling this.
    pub field: Option<FieldOf>,
}

impl VarDecl {
    pub fn is_floating(&self) -> bool {
        let ty = self.arithmetic_type();
        ty.contains("double") || ty.contains("float")
    }

    /// The type with typedef names resolved.
    pub fn arithmetic_type(&self) -> &str {
        if self.base.is_empty() {
            &self.ty
        } else {
            &self.base
        }
    }

    /// Whether the variable itself is a pointer (`double *a`, `double
    /// **a`, `double (*a)[n]`), not an array object, maybe of pointers
    /// (`double *a[n]`).
    pub fn is_pointer_variable(&self) -> bool {
        self.is_pointer && self.pointer_levels.first() != Some(&false)
    }

    pub fn is_array(&self) -> bool {
        !self.extents.is_empty() || self.is_pointer
    }

    /// The subscripts of an access `rank` deep that read a row pointer
    /// from memory (a subscript past the first applied to a pointer):
    /// `[1]` for `a[i][j]` of `double **a` or of `double *a[n]`.
    pub fn row_loads(&self, rank: usize) -> Vec<usize> {
        (1..rank.min(self.pointer_levels.len())).filter(|&d| self.pointer_levels[d]).collect()
    }

    /// Whether the declarator shows every level an access `rank` deep
    /// goes through (`row_t *a[i][j]` hides one in the typedef `row_t`),
    /// so that [`VarDecl::row_loads`] finds every pointer. A declaration
    /// with no levels at all (polyc's own arrays, `matrix_t m`) passes:
    /// it is taken as an array.
    pub fn shows_levels(&self, rank: usize) -> bool {
        self.pointer_levels.is_empty() || rank <= self.pointer_levels.len()
    }

    /// Whether this names a one-dimensional array object (not a pointer
    /// or a parameter): `sizeof` gives its size, and OpenMP can give each
    /// thread a copy.
    pub fn is_vector_object(&self) -> bool {
        self.extents.len() == 1
            && !self.is_pointer
            && !self.is_parameter
            && self.constant_extents
            && self.delinearised.is_none()
            && self.field.is_none()
    }

    /// Whether this names a row reached through a pointer: a
    /// one-dimensional array parameter (`double sum[n]`) or a pointer
    /// variable (`double *sum`), with no object of its own to copy.
    pub fn is_vector_pointer(&self) -> bool {
        let parameter = self.extents.len() == 1 && self.is_parameter && !self.is_pointer;
        let pointer = self.extents.is_empty() && self.pointer_levels == [true];
        (parameter || pointer) && self.delinearised.is_none() && self.field.is_none()
    }
}

/// A member of a struct object, modelled as an array of its own (see
/// `VarDecl::field`).
#[derive(Clone, Debug)]
pub struct FieldOf {
    pub member: Member,
    /// The member is an array inside the struct (`double u[N][N]`; or a
    /// scalar of an array of structs), not a pointer (`double *x`), whose
    /// cells lie anywhere.
    pub embedded: bool,
    /// The object's variable as declared.
    pub object: Box<VarDecl>,
}

/// The members of a struct, by name, as declared.
pub type Members = Arc<Vec<(String, VarDecl)>>;

/// The words of a type that are not typedef names.
const BUILTIN_TYPE_WORDS: &[&str] = &[
    "double", "float", "int", "long", "short", "char", "signed", "unsigned", "const", "volatile", "static", "register",
    "restrict", "_Bool", "void",
];

/// Whether type `ty` is spelled with a word that is not C's own (a typedef name).
fn spelled_with_names(ty: &str) -> bool {
    ty.split_whitespace().any(|w| !BUILTIN_TYPE_WORDS.contains(&w))
}

/// Whether `ty` is an arithmetic type spelled with C's own words only
/// (`double`, `unsigned long`, `const float`).
pub fn is_arithmetic_spelling(ty: &str) -> bool {
    let mut words = ty.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| w != "void" && BUILTIN_TYPE_WORDS.contains(&w))
}

/// What the whole file names, read in one walk of its tree: every
/// identifier, the macros its text defines, its global variables. Each
/// SCoP's [`Names`] start from these, so that a file of many SCoPs is
/// walked once, not once per SCoP.
#[derive(Debug, Default)]
pub struct FileNames {
    identifiers: Arc<BTreeSet<String>>,
    /// Name and body of each `#define` of the text (the first one wins).
    macros: HashMap<String, String>,
    /// The variables declared at the top level (the last declaration
    /// wins), `constant_extents` not yet known.
    globals: HashMap<String, VarDecl>,
    /// The structs the file defines, by type name ([`structs::definitions`]).
    structs: HashMap<String, Members>,
}

impl FileNames {
    pub fn collect(root: Node, src: &str) -> FileNames {
        let mut identifiers = BTreeSet::new();
        let mut macros = HashMap::new();
        walk(root, &mut |n| match n.kind() {
            "identifier" | "field_identifier" | "type_identifier" => {
                identifiers.insert(text(n, src).to_string());
            }
            "preproc_def" | "preproc_function_def" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let value = n.child_by_field_name("value").map_or("", |v| text(v, src));
                    macros.entry(text(name, src).to_string()).or_insert_with(|| value.trim().to_string());
                }
            }
            _ => {}
        });
        let mut cursor = root.walk();
        let declarations = root.named_children(&mut cursor).filter(|c| c.kind() == "declaration");
        let globals = declarations.flat_map(|d| declared(d, src)).collect();
        FileNames { identifiers: Arc::new(identifiers), macros, globals, structs: struct_members(root, src) }
    }

    /// Every identifier of the file.
    pub fn identifiers(&self) -> &BTreeSet<String> {
        &self.identifiers
    }
}

/// Names visible at a SCoP: the enclosing function's parameters and
/// locals shadow the file's globals (only those the function names).
#[derive(Debug, Default)]
pub struct Names {
    pub vars: HashMap<String, VarDecl>,
    pub macros: HashMap<String, String>,
    /// Every identifier of the function as analysed (its macros expanded).
    identifiers: BTreeSet<String>,
    /// The translation unit's typedefs and functions.
    pub unit: Option<Arc<unit::Lazy>>,
    /// Functions the user names pure (`#pragma polyc pure(f)`, `--pure=f`).
    pub named_pure: BTreeSet<String>,
    /// How many declarations of each name the function and the globals
    /// it names hold: a variable declared in a region is hoisted to the
    /// region's block under its own name only where it is the one.
    declarations: HashMap<String, usize>,
    /// The file's structs, by type name ([`structs::definitions`]).
    pub structs: HashMap<String, Members>,
}

impl Names {
    /// The names visible in `function` (a node of the tree `src`
    /// parses, which may be the file with that function's macros
    /// expanded) of the file `file` describes, with `macros` (every macro
    /// defined there, by name: an integer constant's expansion, another's
    /// body) besides those the text defines.
    pub fn collect(file: &FileNames, src: &str, function: Option<Node>, macros: &HashMap<String, String>) -> Names {
        let mut names = Names { macros: macros.clone(), structs: file.structs.clone(), ..Names::default() };
        for (name, value) in &file.macros {
            names.macros.entry(name.clone()).or_insert_with(|| value.clone());
        }
        let Some(f) = function else {
            names.add_vars(file.globals.iter().map(|(name, var)| (name.clone(), var.clone())));
            return names;
        };
        walk(f, &mut |n| {
            if matches!(n.kind(), "identifier" | "field_identifier" | "type_identifier") {
                names.identifiers.insert(text(n, src).to_string());
            }
        });
        let named = names.identifiers.iter().filter_map(|name| Some((name.clone(), file.globals.get(name)?.clone())));
        let globals: Vec<(String, VarDecl)> = named.collect();
        names.add_vars(globals);
        let mut locals = Vec::new();
        walk(f, &mut |n| {
            if matches!(n.kind(), "declaration" | "parameter_declaration") {
                locals.extend(declared(n, src));
            }
        });
        names.add_vars(locals);
        names
    }

    /// Whether `name` is declared more than once in the function (or
    /// also as a global it names).
    pub fn declared_again(&self, name: &str) -> bool {
        self.declarations.get(name).is_some_and(|&k| k > 1)
    }

    /// The variable that `declarator` of a declaration of type `ty` in a
    /// SCoP's function declares, typedef names resolved.
    pub fn local(&self, ty: &str, declarator: Node, src: &str) -> Option<(String, VarDecl)> {
        let mut var = VarDecl { ty: ty.to_string(), is_local: true, ..VarDecl::default() };
        let name = unwrap_declarator(declarator, src, &mut var)?;
        var.constant_extents = var.extents.iter().all(|e| self.is_constant(e));
        if let Some(u) = self.unit.as_ref().filter(|_| spelled_with_names(ty)).and_then(|u| u.get()) {
            var.base = ty.split_whitespace().map(|w| u.resolve_typedef(w).unwrap_or(w)).collect::<Vec<_>>().join(" ");
        }
        Some((name, var))
    }

    /// These names with the unit's knowledge: typedef names resolved in
    /// every declared type, its functions for calls.
    pub fn with_unit(mut self, unit: Option<Arc<unit::Lazy>>, named_pure: &BTreeSet<String>) -> Names {
        let needs_unit = self.vars.values().any(|v| spelled_with_names(&v.ty));
        if let Some(u) = unit.as_ref().filter(|_| needs_unit).and_then(|u| u.get()) {
            for v in self.vars.values_mut().filter(|v| spelled_with_names(&v.ty)) {
                let words: Vec<&str> = v.ty.split_whitespace().map(|w| u.resolve_typedef(w).unwrap_or(w)).collect();
                v.base = words.join(" ");
            }
        }
        self.unit = unit;
        self.named_pure = named_pure.clone();
        self
    }

    /// Declare `vars`, a later one shadowing an earlier of its name.
    fn add_vars(&mut self, vars: impl IntoIterator<Item = (String, VarDecl)>) {
        for (name, mut var) in vars {
            *self.declarations.entry(name.clone()).or_default() += 1;
            var.constant_extents = var.extents.iter().all(|e| self.is_constant(e));
            self.vars.insert(name, var);
        }
    }

    /// Whether `expr` (an array extent as written) holds only integer
    /// literals, operators and macro names.
    pub fn is_constant(&self, expr: &str) -> bool {
        let words = expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
        !expr.trim().is_empty()
            && words.into_iter().all(|w| w.starts_with(|c: char| c.is_ascii_digit()) || self.macros.contains_key(w))
    }
}

/// The members of every struct the file defines, by type name.
fn struct_members(root: Node, src: &str) -> HashMap<String, Members> {
    let definitions = structs::definitions(root, src).into_iter();
    let members = |body| structs::plain_fields(body).into_iter().flat_map(|f| declared(f, src)).collect();
    definitions.map(|(name, body)| (name, Arc::new(members(body)))).collect()
}

/// The variables declaration `decl` declares (or the members a struct's
/// field declaration does), by name (functions left out),
/// `constant_extents` not yet known.
fn declared(decl: Node, src: &str) -> Vec<(String, VarDecl)> {
    let ty = decl.child_by_field_name("type").map_or("", |t| text(t, src)).to_string();
    let is_parameter = decl.kind() == "parameter_declaration";
    let is_local = !is_parameter && decl.parent().is_some_and(|p| p.kind() != "translation_unit");
    let is_static = has_child(decl, src, "storage_class_specifier", "static");
    let mut cursor = decl.walk();
    let declarators = decl.children_by_field_name("declarator", &mut cursor);
    let declared = declarators.filter_map(|declarator| {
        let mut var = VarDecl { ty: ty.clone(), is_parameter, is_local, is_static, ..VarDecl::default() };
        let name = unwrap_declarator(declarator, src, &mut var)?;
        var.is_reassigned = is_parameter && is_reassigned(decl, &name, src);
        Some((name, var))
    });
    declared.collect()
}

/// Whether the body of the function that parameter `decl` belongs to
/// assigns `name`, steps it (`++`, `--`) or takes its address.
fn is_reassigned(decl: Node, name: &str, src: &str) -> bool {
    let mut function = decl.parent();
    while let Some(f) = function.filter(|f| f.kind() != "function_definition") {
        function = f.parent();
    }
    let Some(body) = function.and_then(|f| f.child_by_field_name("body")) else {
        return false;
    };
    let mut found = false;
    walk(body, &mut |n| {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.child_by_field_name("argument"),
            "pointer_expression" if n.child_by_field_name("operator").is_some_and(|o| text(o, src) == "&") => {
                n.child_by_field_name("argument")
            }
            _ => None,
        };
        found |= target.is_some_and(|t| t.kind() == "identifier" && text(t, src) == name);
    });
    found
}

/// Follow a declarator down to its identifier, noting extents and pointers.
fn unwrap_declarator(mut n: Node, src: &str, var: &mut VarDecl) -> Option<String> {
    loop {
        match n.kind() {
            "identifier" | "field_identifier" => return Some(text(n, src).to_string()),
            "init_declarator" | "attributed_declarator" | "parenthesized_declarator" | "function_declarator" => {
                if n.kind() == "function_declarator" {
                    return None;
                }
                n = n.child_by_field_name("declarator").or_else(|| n.named_child(0))?;
            }
            "array_declarator" => {
                var.is_restrict = has_restrict_qualifier(n, src);
                let size = n.child_by_field_name("size").map_or("", |s| text(s, src));
                var.extents.insert(0, size.to_string());
                var.pointer_levels.insert(0, false);
                n = n.child_by_field_name("declarator")?;
            }
            "pointer_declarator" => {
                var.is_pointer = true;
                var.pointer_levels.insert(0, true);
                var.is_restrict = has_restrict_qualifier(n, src);
                n = n.child_by_field_name("declarator")?;
            }
            _ => return None,
        }
    }
}

/// Whether `n` has a child of kind `kind` spelled `word`.
fn has_child(n: Node, src: &str, kind: &str, word: &str) -> bool {
    let mut cursor = n.walk();
    let found = n.children(&mut cursor).any(|c| c.kind() == kind && text(c, src) == word);
    found
}

/// Whether a pointer or array declarator is qualified `restrict` (or
/// gcc's spellings of it).
fn has_restrict_qualifier(n: Node, src: &str) -> bool {
    ["restrict", "__restrict", "__restrict__"].iter().any(|w| has_child(n, src, "type_qualifier", w))
}

/// The names `polyc <what>(A, B)` lists, given the text after `#pragma`.
pub fn polyc_pragma_list(argument: &str, what: &str) -> Option<Vec<String>> {
    let list = argument.trim().strip_prefix("polyc")?.trim_start().strip_prefix(what)?;
    let list = list.trim().trim_start_matches('(').trim_end_matches(')');
    Some(list.split(',').map(str::trim).filter(|w| !w.is_empty()).map(str::to_string).collect())
}
