//! What the whole translation unit knows about types and functions: the
//! file is run through the C compiler's preprocessor (`$CC`, else `cc`,
//! with the user's `-I`/`-D`/`-U`) and the result parsed with `lang-c`.
//!
//! **Typedefs.** [`Unit::resolve_typedef`] follows chains of typedefs down
//! to a scalar arithmetic type and spells it canonically (`size_t` ->
//! `unsigned long`, `long int` -> `long`, `int32_t` -> `int`). Qualifiers
//! and attributes are dropped. Anything else (arrays, pointers, structs,
//! enums, `_Complex`, unknown builtins) does not resolve.
//!
//! **Functions.** [`Unit::function`] says what calling a function does.
//! A function the unit *defines* is judged from its body, syntactically
//! and conservatively: a wrong "pure" makes polyc write wrong code, a
//! wrong "impure" only keeps a SCoP unchanged. Its body may
//!
//! - read and write its parameters, its locals (scalars, structs, arrays)
//!   and enumeration constants;
//! - read global variables only when they are `const` scalars or arrays
//!   of scalars (reading any other global, `const` structs and pointers
//!   included, is impure: another statement of the SCoP may write it);
//! - read and write the memory a pointer or array parameter points to, by
//!   `*p`, `p[i]`, `p[i][j]` (array parameters), `p->x`, `*(p + i)`, or
//!   by passing `p`, `p + i`, `p[i]` (a row) or `&p[i]` to a function of
//!   the unit whose effects are known (the effects carry over);
//! - call pure functions: those of the unit (judged first; recursion is
//!   impure), those declared `__attribute__((pure))` or `((const))`, and
//!   the known libm ones.
//!
//! Everything else makes the function impure, with the reason: writing or
//! reading a global, calling an unknown function or through a pointer,
//! changing a pointer parameter or using it as a value in any other way
//! (copying it, comparing it, returning it), local pointers, taking an
//! address other than as an argument, casts to pointer types, `static`
//! locals, `volatile`, `goto`, `asm`, statement expressions, compound
//! literals, `va_arg`, `_Generic`, old-style definitions and parameters
//! of types other than scalars, single pointers and arrays (`double **`,
//! `double *a[]`, `double (*a)[n]`, function pointers).
//!
//! Conservative corners, impure for now: arrays inside structs
//! (`p->v[k]`, `s.v[k]`), locals and parameters of a typedef'd array or
//! pointer type indexed (`vec v; v[0]`), comparisons of pointers. A
//! pointer argument to a parameter its callee never touches counts as
//! read. The libm functions count as pure although they may set `errno`.
//!
//! A function only *declared* is pure when declared with `pure`/`const`
//! (`__pure__`/`__const__`) attributes (then it reads, and never writes,
//! through its pointer parameters) or when it is a known libm function;
//! otherwise it is impure ("`f` is not defined in the unit"). When the
//! unit defines a function, its body decides, whatever its attributes.
//! `Function::impure_because` (or [`Unit::visibly_impure`]) is the reason
//! to give a user who named an impure function pure.

use super::cpp::Flags;
use lang_c::ast::{
    BinaryOperator as B, BlockItem, CallExpression, Declaration, DeclarationSpecifier as DS, Declarator,
    DeclaratorKind, DerivedDeclarator as D, Expression as E, Extension, ForInitializer, FunctionDeclarator,
    FunctionDefinition, Initializer, Label, MemberOperator, ParameterDeclaration, PointerQualifier, Statement as S,
    StorageClassSpecifier, TypeQualifier, TypeSpecifier as T, UnaryOperator as U,
};
use lang_c::driver::{parse_preprocessed, Config, Flavor};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Functions of the C library that read only their arguments.
const LIBM: &[&str] = &[
    "sqrt", "exp", "fabs", "pow", "sin", "cos", "tan", "log", "log2", "log10", "exp2", "floor", "ceil", "fmin", "fmax",
    "fmod", "trunc", "round", "cbrt", "hypot", "atan", "atan2", "asin", "acos", "sinh", "cosh", "tanh",
];

/// Whether `name` is a known pure function of libm (with `f`/`l` variants).
fn is_libm(name: &str) -> bool {
    let base = |n: &str| LIBM.contains(&n);
    base(name) || name.strip_suffix(['f', 'l']).is_some_and(base) || ["abs", "labs", "llabs"].contains(&name)
}

/// What the unit knows about types and functions.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// Typedef names that stand for a scalar arithmetic type, and that type.
    typedefs: HashMap<String, String>,
    functions: HashMap<String, Function>,
    /// The functions the unit defines (has a body for).
    defined: HashSet<String>,
}

/// What calling a function does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Reads only its parameters (and the memory pointer parameters point
    /// to), its locals and constants; writes only its locals and through
    /// pointer parameters; calls only pure functions.
    pub pure: bool,
    /// Why not, naming the construct, for diagnostics.
    pub impure_because: Option<String>,
    /// Per parameter, in order.
    pub params: Vec<ParamEffect>,
    pub returns_void: bool,
}

/// What a function does with one parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamEffect {
    /// A pointer or array parameter.
    pub pointer: bool,
    /// The body reads the memory it points to.
    pub reads_target: bool,
    /// The body writes the memory it points to.
    pub writes_target: bool,
    /// The body touches only the object it points to (`*p`, `p[0]`,
    /// `p->x`, or `p` passed on for the same), never past it: an argument
    /// `&A[..]` then stands for that one element.
    pub only_pointee: bool,
}

/// The unit of a file, parsed the first time it is needed (a call, a
/// typedef name): most SCoPs need neither, and parsing runs the
/// preprocessor again.
#[derive(Debug)]
pub struct Lazy {
    text: String,
    dir: Option<std::path::PathBuf>,
    flags: Flags,
    unit: std::sync::OnceLock<Option<Unit>>,
}

impl Lazy {
    pub fn new(text: &str, dir: Option<&Path>, flags: &Flags) -> Lazy {
        Lazy { text: text.to_string(), dir: dir.map(Path::to_path_buf), flags: flags.clone(), unit: Default::default() }
    }

    /// The unit, or `None` when it cannot be parsed.
    pub fn get(&self) -> Option<&Unit> {
        self.unit.get_or_init(|| Unit::parse(&self.text, self.dir.as_deref(), &self.flags).ok()).as_ref()
    }
}

impl Unit {
    /// Preprocess `text` (the file in `dir`, for `#include "..."`) with
    /// `$CC -E` (else `cc`) and the flags, and parse the result.
    pub fn parse(text: &str, dir: Option<&Path>, flags: &Flags) -> Result<Unit, String> {
        let source = super::cpp::run(text, dir, flags, &[])?;
        super::depth::check_unit(&source)?;
        let config = Config { cpp_command: String::new(), cpp_options: Vec::new(), flavor: Flavor::GnuC11 };
        let parse = parse_preprocessed(&config, source).map_err(|e| format!("cannot parse the unit: {e}"))?;
        let mut scan = Scan::default();
        for item in &parse.unit.0 {
            scan.external(&item.node);
        }
        Ok(scan.finish())
    }

    /// The scalar arithmetic type a typedef name stands for, as C type
    /// specifier text (`typedef float real;` -> `float`), through chains.
    pub fn resolve_typedef(&self, name: &str) -> Option<&str> {
        self.typedefs.get(name).map(String::as_str)
    }

    /// What calling function `name` does, when the unit defines or
    /// declares it.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// Why a function the unit defines is not pure (for "you named `f`
    /// pure but it writes global `x`"); `None` when it is pure or the unit
    /// does not define it.
    pub fn visibly_impure(&self, name: &str) -> Option<&str> {
        if !self.defined.contains(name) {
            return None;
        }
        self.functions.get(name)?.impure_because.as_deref()
    }
}

// ---------------------------------------------------------------------
// Declarations

/// A function declared without a body.
struct Declared {
    params: Vec<ParamEffect>,
    returns_void: bool,
    pure_attribute: bool,
}

/// What the file scope declares.
#[derive(Default)]
struct Scan<'a> {
    /// Every typedef name, with its scalar type when it has one.
    typedefs: HashMap<String, Option<String>>,
    /// Global variables, and whether they are constant (`const` scalars or
    /// arrays of them).
    globals: HashMap<String, bool>,
    /// Enumeration constants.
    constants: HashSet<String>,
    definitions: HashMap<String, &'a FunctionDefinition>,
    declared: HashMap<String, Declared>,
}

impl<'a> Scan<'a> {
    fn external(&mut self, item: &'a lang_c::ast::ExternalDeclaration) {
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

    fn finish(self) -> Unit {
        let mut analysis = Analysis { scan: &self, done: HashMap::new(), busy: HashSet::new() };
        let mut names: Vec<&String> = self.definitions.keys().chain(self.declared.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            analysis.callee(name);
        }
        let functions = analysis.done;
        let typedefs = self.typedefs.into_iter().filter_map(|(n, t)| Some((n, t?))).collect();
        Unit { typedefs, functions, defined: self.definitions.into_keys().collect() }
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
fn collect_enumerators(specs: &[Node<DS>], into: &mut HashSet<String>) {
    for t in type_specifiers(specs) {
        if let T::Enum(e) = t {
            into.extend(e.node.enumerators.iter().map(|x| x.node.identifier.node.name.clone()));
        }
    }
}

fn has_const(specs: &[Node<DS>]) -> bool {
    specs.iter().any(|s| matches!(&s.node, DS::TypeQualifier(q) if q.node == TypeQualifier::Const))
}

fn has_volatile(specs: &[Node<DS>], declarator: Option<&Declarator>) -> bool {
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
fn declared_name(d: &Declarator) -> &str {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => &id.node.name,
        DeclaratorKind::Declarator(inner) => declared_name(&inner.node),
        DeclaratorKind::Abstract => "",
    }
}

/// The parameters of a function's own declarator (`int f(int)`, not a
/// function pointer `int (*f)(int)`); none for `int f()` and old-style
/// identifier lists.
fn function_parameters(d: &Declarator) -> Option<Vec<&ParameterDeclaration>> {
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

fn returns_void(specs: &[Node<DS>], declarator: &Declarator) -> bool {
    type_specifiers(specs).any(|t| matches!(t, T::Void))
        && !declarator.derived.iter().any(|x| matches!(x.node, D::Pointer(_)))
}

/// The shape of a declared object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
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
    fn of(declarator: Option<&Declarator>) -> Shape {
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

    fn is_pointer(self) -> bool {
        self != Shape::Value
    }
}

fn shape(p: &ParameterDeclaration) -> Shape {
    Shape::of(p.declarator.as_ref().map(|d| &d.node))
}

// ---------------------------------------------------------------------
// Function bodies

/// The functions judged so far.
struct Analysis<'s, 'a> {
    scan: &'s Scan<'a>,
    done: HashMap<String, Function>,
    /// The functions being judged (a call to one is recursion).
    busy: HashSet<String>,
}

/// What a call finds.
enum Callee {
    Known(Function),
    Recursive,
    Unknown,
}

impl Analysis<'_, '_> {
    fn callee(&mut self, name: &str) -> Callee {
        if let Some(f) = self.done.get(name) {
            return Callee::Known(f.clone());
        }
        let scan = self.scan;
        let function = if let Some(definition) = scan.definitions.get(name) {
            if !self.busy.insert(name.to_string()) {
                return Callee::Recursive;
            }
            let f = Body::judge(self, definition);
            self.busy.remove(name);
            f
        } else if let Some(d) = scan.declared.get(name) {
            declared(name, d)
        } else if is_libm(name) {
            return Callee::Known(Function {
                pure: true,
                impure_because: None,
                params: Vec::new(),
                returns_void: false,
            });
        } else {
            return Callee::Unknown;
        };
        self.done.insert(name.to_string(), function.clone());
        Callee::Known(function)
    }
}

/// Whether `e` is the integer literal 0.
fn is_zero(e: &E) -> bool {
    matches!(e, E::Constant(c) if matches!(&c.node, lang_c::ast::Constant::Integer(i) if &*i.number == "0"))
}

/// A function only declared: pure by attribute or as libm.
fn declared(name: &str, d: &Declared) -> Function {
    let pure = d.pure_attribute || is_libm(name);
    let reads = |p: &ParamEffect| ParamEffect { reads_target: p.pointer, ..*p };
    Function {
        pure,
        impure_because: (!pure).then(|| format!("`{name}` is not defined in the unit")),
        params: d.params.iter().map(reads).collect(),
        returns_void: d.returns_void,
    }
}

/// A name in a function body.
#[derive(Clone, Copy)]
enum Var {
    /// A scalar or struct local, or a value parameter.
    Value,
    /// A local array of that many dimensions.
    Array(usize),
    /// Pointer or array parameter `index`, dereferenced that many times.
    Param(usize, usize),
    Constant,
}

/// Where an lvalue is.
enum Place {
    /// Local memory, with that many dimensions left to index.
    Local(usize),
    /// Pointer parameter `index` itself (named), with dimensions left.
    Pointer(usize, usize, String),
    /// Memory parameter `index` points to, with dimensions left.
    Target(usize, usize),
    Global(String, bool),
    Constant,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Read,
    Write,
    ReadWrite,
}

impl Mode {
    fn of(e: ParamEffect) -> Mode {
        match (e.reads_target, e.writes_target) {
            (_, false) => Mode::Read,
            (false, true) => Mode::Write,
            (true, true) => Mode::ReadWrite,
        }
    }
    fn reads(self) -> bool {
        self != Mode::Write
    }
    fn writes(self) -> bool {
        self != Mode::Read
    }
}

/// The judgement of one function body.
struct Body<'x, 's, 'a> {
    analysis: &'x mut Analysis<'s, 'a>,
    scopes: Vec<HashMap<String, Var>>,
    params: Vec<ParamEffect>,
    why: Option<String>,
}

type Judged<T> = Result<T, String>;

impl<'x, 's, 'a> Body<'x, 's, 'a> {
    fn judge(analysis: &'x mut Analysis<'s, 'a>, def: &FunctionDefinition) -> Function {
        let mut body = Body { analysis, scopes: vec![HashMap::new()], params: Vec::new(), why: None };
        let declarator = &def.declarator.node;
        body.parameters(function_parameters(declarator).unwrap_or_default());
        let identifiers = declarator.derived.iter().any(|x| matches!(&x.node, D::KRFunction(ids) if !ids.is_empty()));
        if !def.declarations.is_empty() || identifiers {
            body.fail("has an old-style definition".to_string());
        }
        body.statement(&def.statement.node);
        Function {
            pure: body.why.is_none(),
            impure_because: body.why,
            params: body.params,
            returns_void: returns_void(&def.specifiers, declarator),
        }
    }

    fn fail(&mut self, why: String) {
        self.why.get_or_insert(why);
    }

    fn check<T>(&mut self, r: Judged<T>) -> Option<T> {
        r.map_err(|why| self.fail(why)).ok()
    }

    fn parameters(&mut self, params: Vec<&ParameterDeclaration>) {
        for (index, p) in params.into_iter().enumerate() {
            let declarator = p.declarator.as_ref().map(|d| &d.node);
            let name = declarator.map_or("", declared_name).to_string();
            let shape = shape(p);
            let pointer = shape.is_pointer();
            self.params.push(ParamEffect { pointer, only_pointee: pointer, ..Default::default() });
            if has_volatile(&p.specifiers, declarator) {
                self.fail(format!("has `volatile` parameter `{name}`"));
            }
            let var = match shape {
                Shape::Value => Var::Value,
                Shape::Flat(n) => Var::Param(index, n),
                Shape::Other => {
                    self.fail(format!("has parameter `{name}` of a type polyc cannot classify"));
                    Var::Value
                }
            };
            self.scopes[0].insert(name, var);
        }
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    // Statements

    fn statement(&mut self, s: &S) {
        match s {
            S::Labeled(l) => {
                match &l.node.label.node {
                    Label::Case(e) => self.expr(&e.node),
                    Label::CaseRange(r) => {
                        self.expr(&r.node.low.node);
                        self.expr(&r.node.high.node);
                    }
                    Label::Identifier(_) | Label::Default => {}
                }
                self.statement(&l.node.statement.node);
            }
            S::Compound(items) => self.block(items),
            S::Expression(e) => self.opt_expr(e.as_deref()),
            S::If(i) => {
                self.expr(&i.node.condition.node);
                self.statement(&i.node.then_statement.node);
                if let Some(e) = &i.node.else_statement {
                    self.statement(&e.node);
                }
            }
            S::Switch(w) => {
                self.expr(&w.node.expression.node);
                self.statement(&w.node.statement.node);
            }
            S::While(w) => {
                self.expr(&w.node.expression.node);
                self.statement(&w.node.statement.node);
            }
            S::DoWhile(w) => {
                self.statement(&w.node.statement.node);
                self.expr(&w.node.expression.node);
            }
            S::For(f) => self.for_statement(&f.node),
            S::Goto(_) => self.fail("uses `goto`".to_string()),
            S::Asm(_) => self.fail("uses `asm`".to_string()),
            S::Continue | S::Break => {}
            S::Return(e) => self.opt_expr(e.as_deref()),
        }
    }

    fn opt_expr(&mut self, e: Option<&Node<E>>) {
        if let Some(e) = e {
            self.expr(&e.node);
        }
    }

    fn block(&mut self, items: &[Node<BlockItem>]) {
        self.scopes.push(HashMap::new());
        for item in items {
            match &item.node {
                BlockItem::Declaration(d) => self.declaration(&d.node),
                BlockItem::StaticAssert(_) => {}
                BlockItem::Statement(s) => self.statement(&s.node),
            }
        }
        self.scopes.pop();
    }

    fn for_statement(&mut self, f: &lang_c::ast::ForStatement) {
        self.scopes.push(HashMap::new());
        match &f.initializer.node {
            ForInitializer::Expression(e) => self.expr(&e.node),
            ForInitializer::Declaration(d) => self.declaration(&d.node),
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
        }
        self.opt_expr(f.condition.as_deref());
        self.opt_expr(f.step.as_deref());
        self.statement(&f.statement.node);
        self.scopes.pop();
    }

    /// A local declaration: scalars, structs and arrays only.
    fn declaration(&mut self, d: &Declaration) {
        let mut constants = HashSet::new();
        collect_enumerators(&d.specifiers, &mut constants);
        let scope = self.scopes.last_mut().expect("a scope");
        scope.extend(constants.into_iter().map(|c| (c, Var::Constant)));
        for s in &d.specifiers {
            match &s.node {
                DS::StorageClass(c) if c.node == StorageClassSpecifier::Typedef => return,
                DS::StorageClass(c)
                    if c.node != StorageClassSpecifier::Auto && c.node != StorageClassSpecifier::Register =>
                {
                    self.fail("declares a `static` or `extern` local".to_string());
                }
                _ => {}
            }
        }
        for init in &d.declarators {
            if let Some(i) = &init.node.initializer {
                self.initializer(&i.node);
            }
            let declarator = &init.node.declarator.node;
            let name = declared_name(declarator).to_string();
            if has_volatile(&d.specifiers, Some(declarator)) {
                self.fail(format!("declares `volatile` local `{name}`"));
            }
            self.array_sizes(declarator);
            let var = match Shape::of(Some(declarator)) {
                Shape::Value => Var::Value,
                Shape::Flat(n) if declarator.derived.iter().all(|x| matches!(x.node, D::Array(_))) => Var::Array(n),
                _ => {
                    self.fail(format!("declares local pointer `{name}`"));
                    Var::Value
                }
            };
            self.scopes.last_mut().expect("a scope").insert(name, var);
        }
    }

    fn array_sizes(&mut self, declarator: &Declarator) {
        use lang_c::ast::ArraySize;
        for x in &declarator.derived {
            if let D::Array(a) = &x.node {
                if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) = &a.node.size {
                    self.expr(&e.node);
                }
            }
        }
    }

    fn initializer(&mut self, i: &Initializer) {
        match i {
            Initializer::Expression(e) => self.expr(&e.node),
            Initializer::List(items) => {
                for item in items {
                    self.initializer(&item.node.initializer.node);
                }
            }
        }
    }

    // Expressions

    /// `e` evaluated for its value.
    fn expr(&mut self, e: &E) {
        match e {
            E::Identifier(_) | E::Member(_) => self.access(e, Mode::Read),
            E::Constant(_)
            | E::StringLiteral(_)
            | E::SizeOfTy(_)
            | E::SizeOfVal(_)
            | E::AlignOf(_)
            | E::OffsetOf(_) => {}
            E::Call(c) => self.call(&c.node),
            E::UnaryOperator(u) => self.unary(&u.node.operator.node, &u.node.operand.node, e),
            E::Cast(c) => {
                let pointer = c.node.type_name.node.declarator.as_ref().is_some_and(|d| !d.node.derived.is_empty());
                if pointer {
                    self.fail("casts to a pointer type".to_string());
                }
                self.expr(&c.node.expression.node);
            }
            E::BinaryOperator(b) => self.binary(&b.node, e),
            E::Conditional(c) => {
                self.expr(&c.node.condition.node);
                self.expr(&c.node.then_expression.node);
                self.expr(&c.node.else_expression.node);
            }
            E::Comma(es) => es.iter().for_each(|x| self.expr(&x.node)),
            E::GenericSelection(_) => self.fail("uses `_Generic`".to_string()),
            E::CompoundLiteral(_) => self.fail("uses a compound literal".to_string()),
            E::VaArg(_) => self.fail("uses `va_arg`".to_string()),
            E::Statement(_) => self.fail("uses a statement expression".to_string()),
        }
    }

    fn unary(&mut self, op: &U, operand: &E, whole: &E) {
        match op {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                self.access(operand, Mode::ReadWrite)
            }
            U::Indirection => self.access(whole, Mode::Read),
            U::Address => self.fail(format!("takes the address of {}", describe(operand))),
            U::Plus | U::Minus | U::Complement | U::Negate => self.expr(operand),
        }
    }

    fn binary(&mut self, b: &lang_c::ast::BinaryOperatorExpression, whole: &E) {
        let (lhs, rhs) = (&b.lhs.node, &b.rhs.node);
        match b.operator.node {
            B::Index => self.access(whole, Mode::Read),
            B::Assign => {
                self.expr(rhs);
                self.access(lhs, Mode::Write);
            }
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                self.expr(rhs);
                self.access(lhs, Mode::ReadWrite);
            }
            _ => {
                self.expr(lhs);
                self.expr(rhs);
            }
        }
    }

    /// Read and/or write the lvalue `e` as a scalar.
    fn access(&mut self, e: &E, mode: Mode) {
        let Some(place) = self.place(e) else { return };
        match place {
            Place::Target(i, 0) => self.touch(i, mode),
            Place::Local(0) => {}
            Place::Constant if !mode.writes() => {}
            Place::Global(name, _) if mode.writes() => self.fail(format!("writes global `{name}`")),
            Place::Global(_, true) => {}
            Place::Global(name, false) => self.fail(format!("reads global `{name}`")),
            Place::Pointer(_, _, name) if mode.writes() => self.fail(format!("changes pointer parameter `{name}`")),
            _ => self.fail(format!("uses {} as a value", describe(e))),
        }
    }

    /// `place` (a pointer parameter or memory through it) is indexed or
    /// moved: the body reaches past the parameter's pointee.
    fn reaches_past(&mut self, place: &Place) {
        if let Place::Pointer(i, ..) | Place::Target(i, _) = *place {
            self.params[i].only_pointee = false;
        }
    }

    fn touch(&mut self, index: usize, mode: Mode) {
        let p = &mut self.params[index];
        p.reads_target |= mode.reads();
        p.writes_target |= mode.writes();
    }

    /// Where the lvalue `e` is; `None` (and the function impure) when that
    /// cannot be told.
    fn place(&mut self, e: &E) -> Option<Place> {
        let place = self.try_place(e);
        self.check(place)
    }

    fn try_place(&mut self, e: &E) -> Judged<Place> {
        match e {
            E::Identifier(id) => self.name(&id.node.name),
            E::Member(m) if m.node.operator.node == MemberOperator::Direct => match self
                .try_place(&m.node.expression.node)?
            {
                Place::Local(_) => Ok(Place::Local(0)),
                Place::Target(i, _) => Ok(Place::Target(i, 0)),
                g @ Place::Global(..) => Ok(g),
                _ => {
                    Err(format!("uses member `{}` of an expression polyc cannot classify", m.node.identifier.node.name))
                }
            },
            E::Member(m) => {
                let base = self.pointer(&m.node.expression.node)?;
                Ok(match deref(base, e)? {
                    Place::Target(i, _) => Place::Target(i, 0),
                    Place::Local(_) => Place::Local(0),
                    other => other,
                })
            }
            E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
                let base = self.pointer(&u.node.operand.node)?;
                deref(base, e)
            }
            E::BinaryOperator(b) if b.node.operator.node == B::Index => {
                self.expr(&b.node.rhs.node);
                let base = self.pointer(&b.node.lhs.node)?;
                if !is_zero(&b.node.rhs.node) {
                    self.reaches_past(&base);
                }
                deref(base, e)
            }
            _ => Err(format!("accesses memory through {}", describe(e))),
        }
    }

    /// What an identifier names.
    fn name(&self, name: &str) -> Judged<Place> {
        let scan = self.analysis.scan;
        Ok(match self.lookup(name) {
            Some(Var::Value) => Place::Local(0),
            Some(Var::Array(n)) => Place::Local(n),
            Some(Var::Param(i, n)) => Place::Pointer(i, n, name.to_string()),
            Some(Var::Constant) => Place::Constant,
            None if scan.constants.contains(name) => Place::Constant,
            None if scan.globals.contains_key(name) => Place::Global(name.to_string(), scan.globals[name]),
            None if scan.definitions.contains_key(name) || scan.declared.contains_key(name) => {
                return Err(format!("uses function `{name}` as a value"))
            }
            None => return Err(format!("uses `{name}`, which the unit does not declare")),
        })
    }

    /// The pointer value `e` (a pointer parameter, an array, `p + k`).
    fn pointer(&mut self, e: &E) -> Judged<Place> {
        if let E::BinaryOperator(b) = e {
            let (lhs, rhs) = (&b.node.lhs.node, &b.node.rhs.node);
            match b.node.operator.node {
                B::Plus | B::Minus if self.levels(lhs) > 0 => {
                    self.expr(rhs);
                    let base = self.pointer(lhs)?;
                    self.reaches_past(&base);
                    return Ok(base);
                }
                B::Plus if self.levels(rhs) > 0 => {
                    self.expr(lhs);
                    let base = self.pointer(rhs)?;
                    self.reaches_past(&base);
                    return Ok(base);
                }
                _ => {}
            }
        }
        self.try_place(e)
    }

    /// How many times `e` can be dereferenced, as far as its names tell
    /// (0 when they do not).
    fn levels(&self, e: &E) -> usize {
        match e {
            E::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Var::Param(_, n) | Var::Array(n)) => n,
                _ => 0,
            },
            E::BinaryOperator(b) if b.node.operator.node == B::Index => self.levels(&b.node.lhs.node).saturating_sub(1),
            E::BinaryOperator(b) if matches!(b.node.operator.node, B::Plus | B::Minus) => {
                self.levels(&b.node.lhs.node).max(self.levels(&b.node.rhs.node))
            }
            _ => 0,
        }
    }

    /// A call: only to functions whose effects are known and pure.
    fn call(&mut self, c: &CallExpression) {
        let name = match &c.callee.node {
            E::Identifier(id) if self.lookup(&id.node.name).is_none() => id.node.name.clone(),
            _ => {
                self.fail("calls through a function pointer".to_string());
                return c.arguments.iter().for_each(|a| self.expr(&a.node));
            }
        };
        let params = match self.analysis.callee(&name) {
            Callee::Known(f) if f.pure => f.params,
            Callee::Known(f) if self.analysis.scan.definitions.contains_key(&name) => {
                self.fail(format!("calls `{name}`, which {}", f.impure_because.unwrap_or_default()));
                f.params
            }
            Callee::Recursive => {
                self.fail(format!("calls `{name}` recursively"));
                Vec::new()
            }
            _ => {
                self.fail(format!("calls `{name}`"));
                Vec::new()
            }
        };
        for (k, a) in c.arguments.iter().enumerate() {
            match params.get(k) {
                Some(p) if p.pointer => self.pointer_argument(&a.node, *p, &name),
                _ => self.expr(&a.node),
            }
        }
    }

    /// An argument passed for a pointer parameter with effects `effect`.
    fn pointer_argument(&mut self, a: &E, effect: ParamEffect, callee: &str) {
        let mode = Mode::of(effect);
        if let E::StringLiteral(_) = a {
            if mode.writes() {
                self.fail(format!("passes a string literal to `{callee}`, which writes through it"));
            }
            return;
        }
        let place = match a {
            E::UnaryOperator(u) if u.node.operator.node == U::Address => self.addressed(&u.node.operand.node),
            _ => self.pointer(a).and_then(|p| match p {
                Place::Pointer(i, _, _) | Place::Target(i, 1..) => Ok(Place::Target(i, 0)),
                Place::Local(1..) => Ok(Place::Local(0)),
                Place::Global(..) => Ok(p),
                _ => Err(format!("passes {} to `{callee}`, which expects a pointer", describe(a))),
            }),
        };
        match self.check(place) {
            Some(Place::Target(i, _)) => {
                self.touch(i, mode);
                if !effect.only_pointee {
                    self.params[i].only_pointee = false;
                }
            }
            Some(Place::Global(name, _)) if mode.writes() => self.fail(format!("writes global `{name}`")),
            Some(Place::Global(name, false)) => self.fail(format!("reads global `{name}`")),
            _ => {}
        }
    }

    /// The object `&e` points to.
    fn addressed(&mut self, e: &E) -> Judged<Place> {
        match self.try_place(e)? {
            Place::Target(i, _) => Ok(Place::Target(i, 0)),
            Place::Local(_) => Ok(Place::Local(0)),
            g @ Place::Global(..) => Ok(g),
            _ => Err(format!("takes the address of {}", describe(e))),
        }
    }
}

/// The memory one dereference of `base` reaches (`e`, for messages).
fn deref(base: Place, e: &E) -> Judged<Place> {
    match base {
        Place::Pointer(i, n, _) if n > 0 => Ok(Place::Target(i, n - 1)),
        Place::Target(i, n) if n > 0 => Ok(Place::Target(i, n - 1)),
        Place::Local(n) if n > 0 => Ok(Place::Local(n - 1)),
        g @ Place::Global(..) => Ok(g),
        _ => Err(format!("dereferences {} through a pointer polyc cannot follow", describe(e))),
    }
}

/// A short description of an expression, for messages.
fn describe(e: &E) -> String {
    match e {
        E::Identifier(id) => format!("`{}`", id.node.name),
        E::Member(m) => format!("member `{}`", m.node.identifier.node.name),
        E::Cast(_) => "a cast".to_string(),
        E::Call(_) => "a call's result".to_string(),
        E::BinaryOperator(b) if b.node.operator.node == B::Index => {
            format!("an element of {}", describe(&b.node.lhs.node))
        }
        E::UnaryOperator(u) if u.node.operator.node == U::Indirection => {
            format!("the target of {}", describe(&u.node.operand.node))
        }
        _ => "an expression".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn unit(text: &str) -> Unit {
        Unit::parse(text, None, &Flags::default()).expect("the unit parses")
    }

    fn effect(pointer: bool, reads_target: bool, writes_target: bool) -> ParamEffect {
        ParamEffect { pointer, reads_target, writes_target, only_pointee: pointer }
    }

    /// `e` for a parameter the body indexes or moves past its pointee.
    fn past(e: ParamEffect) -> ParamEffect {
        ParamEffect { only_pointee: false, ..e }
    }

    fn why<'u>(u: &'u Unit, name: &str) -> &'u str {
        let f = u.function(name).expect("the function is known");
        assert!(!f.pure, "`{name}` should be impure");
        f.impure_because.as_deref().expect("a reason")
    }

    #[test]
    fn typedef_chains() {
        let u = unit(
            "#include <stdint.h>\n#include <stddef.h>\ntypedef double real; typedef real value;\n\
             typedef long int li; typedef unsigned short us; typedef real vec[4]; typedef real *ptr;\n\
             typedef struct { int x; } pt; typedef const value cv;\n",
        );
        assert_eq!(u.resolve_typedef("real"), Some("double"));
        assert_eq!(u.resolve_typedef("value"), Some("double"));
        assert_eq!(u.resolve_typedef("cv"), Some("double"));
        assert_eq!(u.resolve_typedef("int32_t"), Some("int"));
        assert_eq!(u.resolve_typedef("uint64_t"), Some("unsigned long"));
        assert_eq!(u.resolve_typedef("size_t"), Some("unsigned long"));
        assert_eq!(u.resolve_typedef("li"), Some("long"));
        assert_eq!(u.resolve_typedef("us"), Some("unsigned short"));
        assert_eq!(u.resolve_typedef("vec"), None);
        assert_eq!(u.resolve_typedef("ptr"), None);
        assert_eq!(u.resolve_typedef("pt"), None);
        assert_eq!(u.resolve_typedef("nothing"), None);
    }

    #[test]
    fn pure_helper() {
        let u = unit("static double sq(double x) { double y = x * x; return y; }");
        let f = u.function("sq").unwrap();
        assert_eq!(
            f,
            &Function {
                pure: true,
                impure_because: None,
                params: vec![effect(false, false, false)],
                returns_void: false
            }
        );
        assert_eq!(u.visibly_impure("sq"), None);
    }

    #[test]
    fn globals() {
        let u = unit(
            "int count; const double scale = 2.0; const volatile int reg = 1; const double tab[2] = {1, 2}; enum { N = 4 };\n\
             void bump(void) { count++; }\n\
             double reads(double x) { return x * count; }\n\
             double scaled(double x) { return x * scale * tab[1] * N; }\n\
             double shadow(double count) { return count; }\n\
             int device(void) { return reg; }\n",
        );
        assert_eq!(why(&u, "bump"), "writes global `count`");
        assert_eq!(u.visibly_impure("bump"), Some("writes global `count`"));
        assert_eq!(why(&u, "reads"), "reads global `count`");
        assert!(u.function("scaled").unwrap().pure);
        assert!(u.function("shadow").unwrap().pure);
        assert_eq!(why(&u, "device"), "reads global `reg`");
    }

    #[test]
    fn calls() {
        let u = unit(
            "#include <stdio.h>\n#include <math.h>\nint count;\n\
             void say(double x) { printf(\"%f\", x); }\n\
             double norm(double x, double y) { return sqrt(x * x + y * y) + fabsf(y); }\n\
             void bump(void) { count = 1; }\n\
             void outer(void) { bump(); }\n\
             int fact(int n) { return n ? n * fact(n - 1) : 1; }\n",
        );
        assert_eq!(why(&u, "say"), "calls `printf`");
        assert!(u.function("norm").unwrap().pure);
        assert_eq!(why(&u, "outer"), "calls `bump`, which writes global `count`");
        assert_eq!(why(&u, "fact"), "calls `fact` recursively");
        assert_eq!(why(&u, "printf"), "`printf` is not defined in the unit");
        assert_eq!(u.visibly_impure("printf"), None);
        assert!(u.function("sqrt").unwrap().pure);
    }

    #[test]
    fn pointer_parameters() {
        let u = unit(
            "void kernel(double in, double *out) { *out = in * 2; }\n\
             void acc(double *x) { *x += 1; }\n\
             void row(int n, double a[n][n], const double *b) { for (int j = 0; j < n; j++) a[2][j] = b[j] + *(b + 1); }\n\
             void twice(double *p, double q) { kernel(q, p); kernel(q, &p[1]); acc(p + 2); }\n\
             struct pt { double x; };\n\
             double getx(const struct pt *p) { return p->x; }\n",
        );
        let kernel = u.function("kernel").unwrap();
        assert!(kernel.pure && kernel.returns_void);
        assert_eq!(kernel.params, vec![effect(false, false, false), effect(true, false, true)]);
        assert_eq!(u.function("acc").unwrap().params, vec![effect(true, true, true)]);
        let row = u.function("row").unwrap();
        assert!(row.pure);
        assert_eq!(
            row.params,
            vec![effect(false, false, false), past(effect(true, false, true)), past(effect(true, true, false))]
        );
        let twice = u.function("twice").unwrap();
        assert!(twice.pure);
        assert_eq!(twice.params, vec![past(effect(true, true, true)), effect(false, false, false)]);
        assert_eq!(u.function("getx").unwrap().params, vec![effect(true, true, false)]);
    }

    #[test]
    fn unclassifiable_pointers() {
        let u = unit(
            "double *g;\nvoid keep(double *p);\n\
             void alias(double *p) { double *q = p; *q = 1; }\n\
             void moves(double *p) { p++; *p = 1; }\n\
             void leaks(double *p) { keep(p); }\n\
             double *same(double *p) { return p; }\n\
             void deep(double **p) { p[0][0] = 1; }\n\
             void cast(long a) { *(double *)a = 1; }\n\
             void jump(double *p) { goto out; out: *p = 0; }\n\
             void vol(double *p) { volatile double t = *p; }\n\
             void stat(double x) { static double last; last = x; }\n\
             void addr(double x, double *p) { double *r = &x; }\n\
             void nested(double *p) { double (*rows)[4]; }\n\
             void through(double *p) { g[0] = *p; }\n",
        );
        assert_eq!(why(&u, "alias"), "uses `p` as a value");
        assert_eq!(why(&u, "moves"), "changes pointer parameter `p`");
        assert_eq!(why(&u, "leaks"), "calls `keep`");
        assert_eq!(why(&u, "same"), "uses `p` as a value");
        assert_eq!(why(&u, "deep"), "has parameter `p` of a type polyc cannot classify");
        assert_eq!(why(&u, "cast"), "accesses memory through a cast");
        assert_eq!(why(&u, "jump"), "uses `goto`");
        assert_eq!(why(&u, "vol"), "declares `volatile` local `t`");
        assert_eq!(why(&u, "stat"), "declares a `static` or `extern` local");
        assert_eq!(why(&u, "addr"), "takes the address of `x`");
        assert_eq!(why(&u, "nested"), "declares local pointer `rows`");
        assert_eq!(why(&u, "through"), "writes global `g`");
    }

    #[test]
    fn locals() {
        let u = unit(
            "struct pt { double x; double *p; };\nconst struct pt origin = {0, 0};\n\
             void acc(double *x) { *x += 1; }\n\
             double arr(double x) { double t[4]; struct pt s; t[0] = x; acc(t); acc(&s.x); s.x = t[0]; return s.x; }\n\
             double field(void) { return *origin.p; }\n\
             void inner(double *p) { struct pt s; s.p = 0; s.p[0] = *p; }\n",
        );
        assert!(u.function("arr").unwrap().pure);
        assert_eq!(why(&u, "field"), "reads global `origin`");
        assert_eq!(why(&u, "inner"), "dereferences an element of member `p` through a pointer polyc cannot follow");
    }

    #[test]
    fn signatures() {
        let u = unit(
            "double zero() { return 0; }\ndouble one();\nvoid *alloc(void);\ndouble *first(double *p);\n\
             void nothing(void) {}\nint old(a) int a; { return a; }\n",
        );
        assert!(u.function("zero").unwrap().pure);
        assert_eq!(why(&u, "one"), "`one` is not defined in the unit");
        assert!(!u.function("alloc").unwrap().returns_void);
        assert!(!u.function("first").unwrap().returns_void);
        assert_eq!(u.function("first").unwrap().params, vec![past(effect(true, true, false))]);
        assert!(u.function("nothing").unwrap().returns_void && u.function("nothing").unwrap().pure);
        assert_eq!(why(&u, "old"), "has an old-style definition");
    }

    #[test]
    fn attributes() {
        let u = unit(
            "double f(const double *p, double x) __attribute__((pure));\n\
             __attribute__((__const__)) double g(double x);\n\
             double h(double x) __attribute__((__pure__));\n\
             double k(double x);\n\
             double use(const double *p) { return f(p, 1.0) + g(2.0) + h(3.0); }\n",
        );
        let f = u.function("f").unwrap();
        assert!(f.pure);
        assert_eq!(f.params, vec![past(effect(true, true, false)), effect(false, false, false)]);
        assert!(u.function("g").unwrap().pure);
        assert!(u.function("h").unwrap().pure);
        assert_eq!(why(&u, "k"), "`k` is not defined in the unit");
        let user = u.function("use").unwrap();
        assert!(user.pure);
        assert_eq!(user.params, vec![past(effect(true, true, false))]);
    }

    #[test]
    fn errors() {
        assert!(Unit::parse("#include \"no-such-header.h\"\n", None, &Flags::default()).is_err());
        assert!(Unit::parse("int f( {\n", None, &Flags::default()).unwrap_err().contains("cannot parse"));
    }

    #[test]
    fn polybench_gemm() {
        let root = PathBuf::from("/work/shared/polybench-4.2.1");
        let path = root.join("linear-algebra/blas/gemm/gemm.c");
        let Ok(text) = std::fs::read_to_string(&path) else { return };
        let flags = Flags { include_dirs: vec![root.join("utilities")], ..Flags::default() };
        let start = std::time::Instant::now();
        let u = Unit::parse(&text, path.parent(), &flags).expect("gemm.c parses");
        let total = start.elapsed();
        let start = std::time::Instant::now();
        let source = super::super::cpp::run(&text, path.parent(), &flags, &[]).expect("gemm.c preprocesses");
        let cpp = start.elapsed();
        let config = Config { cpp_command: String::new(), cpp_options: Vec::new(), flavor: Flavor::GnuC11 };
        let start = std::time::Instant::now();
        parse_preprocessed(&config, source).expect("gemm.c parses");
        eprintln!("Unit::parse(gemm.c): {total:?}; again: preprocessor {cpp:?}, lang-c {:?}", start.elapsed());
        assert_eq!(u.resolve_typedef("size_t"), Some("unsigned long"));
        assert_eq!(why(&u, "print_array"), "calls `fprintf`");
        assert!(u.function("kernel_gemm").is_some());
    }
}
