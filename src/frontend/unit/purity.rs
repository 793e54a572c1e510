//! Whether each function of the unit is pure, and what it does through
//! its pointer parameters: each body judged by the rules the unit's
//! documentation ([`super`]) lists, a callee before its callers, a
//! recursive call impure.

use super::declarations::{
    collect_enumerators, declared_name, function_parameters, has_volatile, returns_void, shape, Declared, Scan, Shape,
};
use super::effects::{Function, ParamEffect};
use lang_c::ast::{
    BinaryOperator as B, BlockItem, CallExpression, Declaration, DeclarationSpecifier as DS, Declarator,
    DerivedDeclarator as D, Expression as E, ForInitializer, FunctionDefinition, Initializer, Label, MemberOperator,
    ParameterDeclaration, Statement as S, StorageClassSpecifier, UnaryOperator as U,
};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

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

/// What calling each function the file scope defines or declares does.
pub(super) fn judge(scan: &Scan) -> HashMap<String, Function> {
    let mut analysis = Analysis { scan, done: HashMap::new(), busy: HashSet::new() };
    let mut names: Vec<&String> = scan.definitions.keys().chain(scan.declared.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        analysis.callee(name);
    }
    analysis.done
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
