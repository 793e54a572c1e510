//! The structs a file defines, and how C reaches a member of a struct
//! object ([`Member`]), which the SCoP takes for an array of its own.
//!
//! A struct is known by the names a declaration may give its type:
//! `struct grid` for `struct grid {...}`, and a typedef's name for
//! `typedef struct {...} grid_t;` or `typedef struct grid grid_t;`. Its
//! members are read as declared (`double u[N][N]`, `double *x`); a bit
//! field, whose address C cannot take, is left out, and so are the
//! members of a nested or anonymous struct or union (which may overlap),
//! so that an access to one is refused. Unions are not read at all:
//! their members share memory. (`decls` reads the members' declarations,
//! and holds `FieldOf`, a member as the SCoP's array.)

use super::syntax::{text, walk};
use std::collections::HashMap;
use tree_sitter::Node;

/// The body of every struct the file defines, by each name its type goes
/// by.
pub fn definitions<'t>(root: Node<'t>, src: &str) -> HashMap<String, Node<'t>> {
    let mut bodies: HashMap<String, Node<'t>> = HashMap::new();
    let mut aliases: Vec<(String, String)> = Vec::new();
    // A name two scopes define apart is left out: which one a
    // declaration means needs scopes, which this walk does not follow.
    let mut ambiguous: Vec<String> = Vec::new();
    walk(root, &mut |n| {
        if n.kind() != "struct_specifier" {
            return;
        }
        let tag = n.child_by_field_name("name").map(|name| format!("struct {}", text(name, src)));
        let typedefs = typedef_names(n, src);
        match n.child_by_field_name("body") {
            Some(body) => {
                for name in tag.into_iter().chain(typedefs) {
                    if let Some(other) = bodies.insert(name.clone(), body) {
                        if text(other, src) != text(body, src) {
                            ambiguous.push(name);
                        }
                    }
                }
            }
            None => {
                if let Some(tag) = tag {
                    aliases.extend(typedefs.into_iter().map(|t| (t, tag.clone())));
                }
            }
        }
    });
    for name in &ambiguous {
        bodies.remove(name);
    }
    for (alias, tag) in aliases {
        if let Some(body) = bodies.get(&tag).copied() {
            bodies.entry(alias).or_insert(body);
        }
    }
    bodies
}

/// The struct type a declaration's type text (`struct  grid`, `grid_t`,
/// `struct grid { .. }`) names, as [`definitions`] keys it.
pub fn type_key(ty: &str) -> String {
    let name = ty.split('{').next().unwrap_or_default();
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The names `typedef <struct> a, b;` gives the struct specifier `n`.
fn typedef_names(n: Node, src: &str) -> Vec<String> {
    let Some(definition) = n.parent().filter(|p| p.kind() == "type_definition") else { return Vec::new() };
    let mut cursor = definition.walk();
    let declarators = definition.children_by_field_name("declarator", &mut cursor);
    declarators.filter(|d| d.kind() == "type_identifier").map(|d| text(d, src).to_string()).collect()
}

/// The plain member declarations of a struct's body: not bit fields, not
/// inside a nested struct or union.
pub fn plain_fields(body: Node) -> Vec<Node> {
    let mut cursor = body.walk();
    let fields = body.named_children(&mut cursor).filter(|f| f.kind() == "field_declaration");
    let plain = fields.filter(|f| {
        let mut cursor = f.walk();
        let bit_field = f.named_children(&mut cursor).any(|c| c.kind() == "bitfield_clause");
        !bit_field
    });
    plain.collect()
}

/// How the C text reaches a member: `g.u`, `p->x`, `bodies[j].x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The variable holding the struct object(s).
    pub object: String,
    /// Subscripts applied to the object before the member: 1 for
    /// `bodies[j].x`, 0 for `g.u` and `p->x`.
    pub outer: usize,
    /// `->`, not `.`.
    pub arrow: bool,
    pub name: String,
}

impl Member {
    /// The C lvalue of the cell at `subscripts` (the model's, outermost
    /// first: the object's, then the member's).
    pub fn spell(&self, subscripts: &[String]) -> String {
        let bracket = |s: &[String]| s.iter().map(|s| format!("[{s}]")).collect::<String>();
        let split = self.outer.min(subscripts.len());
        let access = if self.arrow { "->" } else { "." };
        format!(
            "{}{}{access}{}{}",
            self.object,
            bracket(&subscripts[..split]),
            self.name,
            bracket(&subscripts[split..])
        )
    }
}
