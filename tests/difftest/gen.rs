//! Random static-control C programs, one per seed.
//!
//! A program is an AST ([`Program`]) printed to C by [`Program::to_c`]:
//! global arrays of doubles (1-D and 2-D), local temporary arrays (named
//! only in their declaration and in the SCoP, so `--storage` contracts
//! them), global scalars and one local one (`u`, named only in its
//! declaration and in the SCoP, never printed: nothing reads it after the
//! SCoP, so a loop may keep a private copy without copying it out, and a
//! sum in it may live in the cell it is stored to), and one `#pragma
//! scop` region of loop nests.
//! The parameters `N` and `M` are read from argv and clamped to
//! `[0, MAXP]`. Every iterator stays non-negative (lower bounds are
//! wrapped in `max(0, ..)` where they could go below 0), so `%` and `/`
//! by constants only ever see non-negative operands. Array extents and
//! the offset added to each subscript are computed when printing, by
//! interval arithmetic over the parameters' range and the loop bounds, so
//! every access stays in bounds whatever the program has been shrunk to.
//! Values stay finite and exactly reproducible: assignments are
//! `x = E * 0.5 + 1.0`, reductions `x += 0.5 * E`, and `E` combines its
//! operands only by averaging (`(a + b) * 0.5`, `(a - b) * 0.5`, and
//! the mean of a long sum) or the file's pure function `g1`
//! (`(x + 1.0) * 0.5`), which some scalar assignments call, sometimes
//! followed by a guarded reassignment of the same scalar: a value some
//! iterations leave and others do not. Some right-hand sides are deep or
//! long (drawn from a second stream, so that the rest of a seed's program
//! is as before): wrapped in 100 to 190 parentheses (clang stops at 256),
//! or the mean of 100 to 300 terms.

use std::collections::BTreeMap;
use std::fmt::Write;

/// The largest parameter value: the programs clamp `N` and `M` to it.
pub const MAXP: i64 = 40;
pub const PARAM_NAMES: [&str; 2] = ["N", "M"];
const ITER_NAMES: [&str; 4] = ["i", "j", "k", "l"];
const SCALAR_NAMES: [&str; 3] = ["s", "t", "u"];
/// The scalar declared in `main`, before the SCoP, and never printed.
const LOCAL_SCALAR: usize = 2;

/// splitmix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// In `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
}

/// A variable of an affine expression: a loop iterator (by the loop's
/// unique id) or a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Var {
    Iter(u32),
    Param(usize),
}

/// `sum(coef * var) + c`.
#[derive(Clone, Debug, PartialEq)]
pub struct Aff {
    pub terms: Vec<(i64, Var)>,
    pub c: i64,
}

impl Aff {
    pub fn konst(c: i64) -> Self {
        Aff { terms: Vec::new(), c }
    }
    pub fn var(v: Var, c: i64) -> Self {
        Aff { terms: vec![(1, v)], c }
    }
}

/// A loop bound: affine, `aff / k` (aff non-negative), min or max.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Aff(Aff),
    Div(Aff, i64),
    Min(Box<Bound>, Box<Bound>),
    Max(Box<Bound>, Box<Bound>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    fn text(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

/// An affine guard. The operands of `%` and `/` are non-negative.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Cmp(Aff, CmpOp, Aff),
    /// `(aff) % k == r`
    Mod(Aff, i64, i64),
    /// `(aff) / k op rhs`
    DivCmp(Aff, i64, CmpOp, Aff),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
}

/// A double-valued expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `k * 0.25`
    Num(i64),
    Scalar(usize),
    Elem(usize, Vec<Aff>),
    /// `0.125 * (aff)`: an iterator-dependent value.
    Index(Aff),
    /// `(a + b) * 0.5`
    Avg(Box<Expr>, Box<Expr>),
    /// `(a - b) * 0.5`
    Diff(Box<Expr>, Box<Expr>),
    /// `sqrt(fabs(a))`
    Sqrt(Box<Expr>),
    /// `g1(a)`: a call of the file's pure function.
    Call(Box<Expr>),
    /// `a` inside this many parentheses.
    Parens(usize, Box<Expr>),
    /// `(a + b + ...) / n.0`
    Mean(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Lhs {
    Scalar(usize),
    Elem(usize, Vec<Aff>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    pub id: u32,
    /// First value (ascending) or last value (descending), inclusive.
    pub lo: Bound,
    /// Exclusive upper bound.
    pub hi: Bound,
    pub step: i64,
    /// Run from `hi - 1` down to `lo`.
    pub down: bool,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    For(Loop),
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `lhs = rhs * 0.5 + 1.0`, or `lhs += 0.5 * (rhs)` when accumulating.
    Assign {
        lhs: Lhs,
        acc: bool,
        rhs: Expr,
    },
    /// Writes every cell of a temporary array (its whole extent), so
    /// nothing in the SCoP reads one before it is written. Never shrunk away.
    Fill(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    pub name: String,
    pub dims: usize,
    /// A local array of `main` named only in its declaration and the SCoP.
    pub temp: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub seed: u64,
    /// Default value of each parameter (`N`, then `M`).
    pub defaults: Vec<i64>,
    pub arrays: Vec<ArrayDecl>,
    pub scalars: usize,
    pub body: Vec<Stmt>,
}

/// How big the programs of a seed set are.
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    pub max_nests: usize,
    pub max_depth: usize,
    pub max_items: usize,
}

impl Profile {
    /// Small enough for polyc to compile in about a second (the CI set).
    pub const SMALL: Profile = Profile { max_nests: 3, max_depth: 3, max_items: 2 };
    /// The external tester's size: up to four nests four deep.
    pub const LARGE: Profile = Profile { max_nests: 4, max_depth: 4, max_items: 3 };

    pub const TINY: Profile = Profile { max_nests: 2, max_depth: 2, max_items: 2 };
    pub const MEDIUM: Profile = Profile { max_nests: 3, max_depth: 3, max_items: 2 };

    pub fn named(name: &str) -> Option<Profile> {
        match name {
            "tiny" => Some(Profile::TINY),
            "deep" => Some(Profile { max_nests: 2, max_depth: 4, max_items: 1 }),
            "medium" => Some(Profile::MEDIUM),
            "small" => Some(Profile::SMALL),
            "large" => Some(Profile::LARGE),
            _ => None,
        }
    }
}

struct Gen {
    rng: Rng,
    profile: Profile,
    nparams: usize,
    arrays: Vec<ArrayDecl>,
    scalars: usize,
    next_id: u32,
    /// The ids of the enclosing loops while generating.
    loops: Vec<u32>,
    /// Decides which right-hand sides are deep or long.
    wide: Rng,
}

pub fn generate(seed: u64, profile: Profile) -> Program {
    let mut rng = Rng::new(seed);
    let nparams = 1 + rng.below(2);
    let defaults = (0..nparams).map(|_| rng.range(6, MAXP - 4)).collect();
    let mut arrays = Vec::new();
    let nglobal = 2 + rng.below(3);
    for (k, name) in ["A", "B", "C", "D"].iter().take(nglobal).enumerate() {
        let dims = if k == 0 { 1 } else { 1 + rng.below(2) };
        arrays.push(ArrayDecl { name: name.to_string(), dims, temp: false });
    }
    if rng.chance(50) {
        arrays.push(ArrayDecl { name: "T".into(), dims: 1 + rng.below(2), temp: true });
    }
    let scalars = 1 + rng.below(SCALAR_NAMES.len());
    let mut g = Gen { rng, profile, nparams, arrays, scalars, next_id: 0, loops: Vec::new(), wide: Rng::new(!seed) };
    let mut body = Vec::new();
    for (a, decl) in g.arrays.iter().enumerate() {
        if decl.temp {
            body.push(Stmt::Fill(a));
        }
    }
    let nests = 1 + g.rng.below(profile.max_nests);
    for _ in 0..nests {
        if g.rng.chance(8) {
            body.push(g.assign());
        }
        let depth = 1 + g.rng.below(profile.max_depth);
        body.push(g.nest(depth));
    }
    Program { seed, defaults, arrays: g.arrays, scalars: g.scalars, body }
}

impl Gen {
    fn param(&mut self) -> Var {
        Var::Param(self.rng.below(self.nparams))
    }

    /// An enclosing iterator, inner ones more likely.
    fn outer(&mut self) -> Option<Var> {
        if self.loops.is_empty() {
            return None;
        }
        let n = self.loops.len();
        let k = if self.rng.chance(60) { n - 1 } else { self.rng.below(n) };
        Some(Var::Iter(self.loops[k]))
    }

    fn lower(&mut self) -> Bound {
        let outer = self.outer();
        match (self.rng.below(6), outer) {
            (0, Some(v)) => Bound::Aff(Aff::var(v, self.rng.range(0, 1))),
            (1, Some(v)) => {
                let c = self.rng.range(1, 2);
                Bound::Max(Box::new(Bound::Aff(Aff::konst(0))), Box::new(Bound::Aff(Aff::var(v, -c))))
            }
            (2, _) if self.rng.chance(50) => Bound::Div(Aff::var(self.param(), 0), 2),
            (3, _) if self.rng.chance(40) => {
                let p = self.param();
                let c = self.rng.range(3, 8);
                Bound::Max(Box::new(Bound::Aff(Aff::konst(0))), Box::new(Bound::Aff(Aff::var(p, -c))))
            }
            _ => Bound::Aff(Aff::konst(self.rng.range(0, 2))),
        }
    }

    fn upper(&mut self) -> Bound {
        let outer = self.outer();
        let p = self.param();
        let c = self.rng.range(-2, 1);
        match (self.rng.below(8), outer) {
            (0, Some(v)) => Bound::Aff(Aff::var(v, self.rng.range(1, 4))),
            (1, Some(v)) => Bound::Min(
                Box::new(Bound::Aff(Aff::var(p, c))),
                Box::new(Bound::Aff(Aff::var(v, self.rng.range(2, 5)))),
            ),
            (2, Some(v)) => Bound::Aff(Aff { terms: vec![(1, p), (-1, v)], c: self.rng.range(0, 2) }),
            (3, _) => Bound::Aff(Aff::konst(self.rng.range(3, 12))),
            (4, _) if self.nparams == 2 => Bound::Min(
                Box::new(Bound::Aff(Aff::var(Var::Param(0), 0))),
                Box::new(Bound::Aff(Aff::var(Var::Param(1), c))),
            ),
            (5, _) => Bound::Div(Aff::var(p, self.rng.range(0, 3)), 2),
            _ => Bound::Aff(Aff::var(p, c)),
        }
    }

    fn nest(&mut self, depth: usize) -> Stmt {
        let id = self.next_id;
        self.next_id += 1;
        let lo = self.lower();
        let hi = self.upper();
        let step = if self.rng.chance(15) { self.rng.range(2, 3) } else { 1 };
        let down = self.rng.chance(20);
        self.loops.push(id);
        let body = self.items(depth - 1);
        self.loops.pop();
        let lp = Loop { id, lo, hi, step, down, body };
        if self.rng.chance(10) {
            Stmt::If(self.cond(), vec![Stmt::For(lp)], Vec::new())
        } else {
            Stmt::For(lp)
        }
    }

    /// A loop body: statements and at most one inner nest (`depth` more
    /// loops deep), imperfectly nested when statements come before or after it.
    fn items(&mut self, depth: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let n = 1 + self.rng.below(self.profile.max_items);
        let inner_at = if depth > 0 { Some(self.rng.below(n + 1)) } else { None };
        let mut inner_loops = 0;
        for k in 0..=n {
            if Some(k) == inner_at {
                out.push(self.nest(depth));
                inner_loops += 1;
                if depth > 0 && inner_loops == 1 && self.rng.chance(15) {
                    out.push(self.nest(1));
                }
            }
            if k < n && (inner_at.is_none() || self.rng.chance(60) || out.is_empty()) {
                let s = self.assign();
                let again = self.reassignment(&s);
                if self.rng.chance(25) {
                    let c = self.cond();
                    let els = if self.rng.chance(25) { vec![self.assign()] } else { Vec::new() };
                    out.push(Stmt::If(c, vec![s], els));
                } else {
                    out.push(s);
                }
                out.extend(again);
            }
        }
        out
    }

    /// A subscript for an array dimension.
    fn subscript(&mut self) -> Aff {
        let c = self.rng.range(-2, 2);
        let Some(v) = self.outer() else {
            return if self.rng.chance(50) { Aff::var(self.param(), c) } else { Aff::konst(self.rng.range(0, 5)) };
        };
        match self.rng.below(10) {
            0 => {
                let w = self.outer().unwrap_or(v);
                if w == v {
                    Aff::var(v, c)
                } else {
                    Aff { terms: vec![(1, v), (1, w)], c }
                }
            }
            1 => Aff { terms: vec![(2, v)], c },
            2 => Aff { terms: vec![(1, self.param()), (-1, v)], c },
            3 => Aff::konst(self.rng.range(0, 5)),
            _ => Aff::var(v, c),
        }
    }

    fn subscripts(&mut self, a: usize) -> Vec<Aff> {
        (0..self.arrays[a].dims).map(|_| self.subscript()).collect()
    }

    fn leaf(&mut self) -> Expr {
        match self.rng.below(10) {
            0 | 1 => Expr::Scalar(self.rng.below(self.scalars)),
            2 => Expr::Num(self.rng.range(0, 8)),
            3 if !self.loops.is_empty() => {
                let v = self.outer().expect("in a loop");
                Expr::Index(Aff::var(v, 0))
            }
            _ => {
                let a = self.rng.below(self.arrays.len());
                Expr::Elem(a, self.subscripts(a))
            }
        }
    }

    fn expr(&mut self, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(35) {
            return self.leaf();
        }
        match self.rng.below(10) {
            0..=4 => Expr::Avg(Box::new(self.expr(depth - 1)), Box::new(self.expr(depth - 1))),
            5..=8 => Expr::Diff(Box::new(self.expr(depth - 1)), Box::new(self.expr(depth - 1))),
            _ => Expr::Sqrt(Box::new(self.expr(depth - 1))),
        }
    }

    fn assign(&mut self) -> Stmt {
        let lhs = if self.rng.chance(20) {
            Lhs::Scalar(self.rng.below(self.scalars))
        } else {
            let a = self.rng.below(self.arrays.len());
            Lhs::Elem(a, self.subscripts(a))
        };
        if matches!(lhs, Lhs::Scalar(_)) && self.rng.chance(40) {
            let rhs = Expr::Call(Box::new(self.expr(2)));
            return Stmt::Assign { lhs, acc: false, rhs };
        }
        let acc = self.rng.chance(30);
        let rhs = self.expr(3);
        let rhs = self.widened(rhs);
        Stmt::Assign { lhs, acc, rhs }
    }

    /// After a scalar assigned from a call, sometimes the same scalar
    /// assigned again under a guard.
    fn reassignment(&mut self, first: &Stmt) -> Option<Stmt> {
        let Stmt::Assign { lhs: lhs @ Lhs::Scalar(_), rhs: Expr::Call(_), .. } = first else {
            return None;
        };
        if !self.rng.chance(50) {
            return None;
        }
        let again = Stmt::Assign { lhs: lhs.clone(), acc: false, rhs: self.expr(2) };
        Some(Stmt::If(self.cond(), vec![again], Vec::new()))
    }

    /// One right-hand side in twelve deep or long: `e` in parentheses, or
    /// the mean of constants with `e` every tenth term.
    fn widened(&mut self, e: Expr) -> Expr {
        match self.wide.below(24) {
            0 => Expr::Parens(self.wide.range(100, 190) as usize, Box::new(e)),
            1 => Expr::Mean(
                (0..self.wide.range(100, 300))
                    .map(|k| if k % 10 == 0 { e.clone() } else { Expr::Num(k % 8) })
                    .collect(),
            ),
            _ => e,
        }
    }

    /// A non-negative affine expression of the enclosing iterators.
    fn nonneg(&mut self) -> Aff {
        let mut terms = Vec::new();
        if let Some(v) = self.outer() {
            terms.push((self.rng.range(1, 2), v));
        }
        if let Some(w) = self.outer() {
            if self.rng.chance(30) && !terms.iter().any(|t| t.1 == w) {
                terms.push((1, w));
            }
        }
        if terms.is_empty() || self.rng.chance(15) {
            terms.push((1, self.param()));
        }
        Aff { terms, c: self.rng.range(0, 2) }
    }

    fn cond(&mut self) -> Cond {
        let op = self.rng.pick(&[CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne]);
        let c = match self.rng.below(8) {
            0 | 1 => {
                let k = self.rng.range(2, 3);
                let r = self.rng.range(0, k - 1);
                Cond::Mod(self.nonneg(), k, r)
            }
            2 => {
                let k = self.rng.range(2, 3);
                let p = self.param();
                let rhs = if self.rng.chance(50) {
                    Aff::var(p, -self.rng.range(0, 3))
                } else {
                    Aff::konst(self.rng.range(1, 6))
                };
                Cond::DivCmp(self.nonneg(), k, op, rhs)
            }
            3 => {
                let v = self.outer().unwrap_or(Var::Param(0));
                let p = self.param();
                Cond::Cmp(Aff::var(v, 0), op, Aff::var(p, -self.rng.range(0, 4)))
            }
            4 => {
                let lhs = self.nonneg();
                let v = self.outer().unwrap_or(Var::Param(0));
                Cond::Cmp(lhs, op, Aff::var(v, self.rng.range(-2, 5)))
            }
            _ => {
                let v = self.outer().unwrap_or(Var::Param(0));
                Cond::Cmp(Aff::var(v, 0), op, Aff::konst(self.rng.range(0, 6)))
            }
        };
        match self.rng.below(12) {
            0 => Cond::And(Box::new(c), Box::new(self.cond())),
            1 => Cond::Or(Box::new(c), Box::new(self.cond())),
            2 => Cond::Not(Box::new(c)),
            _ => c,
        }
    }
}

// ---------------------------------------------------------------------------
// Intervals

type Interval = (i64, i64);

/// The values each variable takes (or a superset): parameters in
/// `[0, MAXP]`, iterators between their bounds' extremes.
#[derive(Default, Clone)]
pub struct Env {
    iters: BTreeMap<u32, Interval>,
}

impl Env {
    fn var(&self, v: Var) -> Interval {
        match v {
            Var::Param(_) => (0, MAXP),
            Var::Iter(id) => self.iters.get(&id).copied().unwrap_or((0, 0)),
        }
    }

    pub fn aff(&self, a: &Aff) -> Interval {
        let (mut lo, mut hi) = (a.c, a.c);
        for &(k, v) in &a.terms {
            let (x, y) = self.var(v);
            let (p, q) = (k * x, k * y);
            lo += p.min(q);
            hi += p.max(q);
        }
        (lo, hi)
    }

    pub fn bound(&self, b: &Bound) -> Interval {
        match b {
            Bound::Aff(a) => self.aff(a),
            Bound::Div(a, k) => {
                let (lo, hi) = self.aff(a);
                (lo.div_euclid(*k), hi.div_euclid(*k))
            }
            Bound::Min(x, y) => {
                let (a, b) = (self.bound(x), self.bound(y));
                (a.0.min(b.0), a.1.min(b.1))
            }
            Bound::Max(x, y) => {
                let (a, b) = (self.bound(x), self.bound(y));
                (a.0.max(b.0), a.1.max(b.1))
            }
        }
    }

    /// The iterator interval of a loop.
    pub fn enter(&mut self, l: &Loop) {
        let lo = self.bound(&l.lo).0;
        let hi = self.bound(&l.hi).1 - 1;
        self.iters.insert(l.id, (lo, hi.max(lo)));
    }
}

/// Whether the program keeps the generator's invariants: iterators
/// non-negative, `%` and `/` operands non-negative.
pub fn valid(p: &Program) -> bool {
    fn cond_ok(env: &Env, c: &Cond) -> bool {
        match c {
            Cond::Cmp(..) => true,
            Cond::Mod(a, _, _) | Cond::DivCmp(a, _, _, _) => env.aff(a).0 >= 0,
            Cond::And(x, y) | Cond::Or(x, y) => cond_ok(env, x) && cond_ok(env, y),
            Cond::Not(x) => cond_ok(env, x),
        }
    }
    fn bound_ok(env: &Env, b: &Bound) -> bool {
        match b {
            Bound::Aff(_) => true,
            Bound::Div(a, _) => env.aff(a).0 >= 0,
            Bound::Min(x, y) | Bound::Max(x, y) => bound_ok(env, x) && bound_ok(env, y),
        }
    }
    fn body_ok(env: &mut Env, stmts: &[Stmt]) -> bool {
        stmts.iter().all(|s| match s {
            Stmt::For(l) => {
                if env.bound(&l.lo).0 < 0 || !bound_ok(env, &l.lo) || !bound_ok(env, &l.hi) {
                    return false;
                }
                env.enter(l);
                body_ok(env, &l.body)
            }
            Stmt::If(c, t, e) => cond_ok(env, c) && body_ok(env, t) && body_ok(env, e),
            _ => true,
        })
    }
    body_ok(&mut Env::default(), &p.body)
}

// ---------------------------------------------------------------------------
// Printing

/// Per array and dimension: the offset added to every subscript and the extent.
struct Layout {
    offset: Vec<Vec<i64>>,
    extent: Vec<Vec<i64>>,
    used_arrays: Vec<bool>,
    used_scalars: Vec<bool>,
}

fn layout(p: &Program) -> Layout {
    let n = p.arrays.len();
    let mut lo: Vec<Vec<i64>> = p.arrays.iter().map(|a| vec![0; a.dims]).collect();
    let mut hi: Vec<Vec<i64>> = lo.clone();
    let mut used_arrays = vec![false; n];
    let mut used_scalars = vec![false; p.scalars];
    fn access(env: &Env, a: usize, subs: &[Aff], lo: &mut [Vec<i64>], hi: &mut [Vec<i64>], used: &mut [bool]) {
        used[a] = true;
        for (d, s) in subs.iter().enumerate() {
            let (x, y) = env.aff(s);
            lo[a][d] = lo[a][d].min(x);
            hi[a][d] = hi[a][d].max(y);
        }
    }
    struct Acc<'a> {
        lo: &'a mut [Vec<i64>],
        hi: &'a mut [Vec<i64>],
        ua: &'a mut [bool],
        us: &'a mut [bool],
    }
    fn expr(env: &Env, e: &Expr, acc: &mut Acc) {
        match e {
            Expr::Num(_) | Expr::Index(_) => {}
            Expr::Scalar(s) => acc.us[*s] = true,
            Expr::Elem(a, subs) => access(env, *a, subs, acc.lo, acc.hi, acc.ua),
            Expr::Avg(x, y) | Expr::Diff(x, y) => {
                expr(env, x, acc);
                expr(env, y, acc);
            }
            Expr::Sqrt(x) | Expr::Call(x) | Expr::Parens(_, x) => expr(env, x, acc),
            Expr::Mean(terms) => terms.iter().for_each(|t| expr(env, t, acc)),
        }
    }
    fn body(env: &mut Env, stmts: &[Stmt], acc: &mut Acc) {
        for s in stmts {
            match s {
                Stmt::For(l) => {
                    env.enter(l);
                    body(env, &l.body, acc);
                }
                Stmt::If(_, t, e) => {
                    body(env, t, acc);
                    body(env, e, acc);
                }
                Stmt::Assign { lhs, rhs, .. } => {
                    match lhs {
                        Lhs::Scalar(s) => acc.us[*s] = true,
                        Lhs::Elem(a, subs) => access(env, *a, subs, acc.lo, acc.hi, acc.ua),
                    }
                    expr(env, rhs, acc);
                }
                Stmt::Fill(a) => acc.ua[*a] = true,
            }
        }
    }
    let mut acc = Acc { lo: &mut lo, hi: &mut hi, ua: &mut used_arrays, us: &mut used_scalars };
    body(&mut Env::default(), &p.body, &mut acc);
    // Something must be printed: the first scalar when nothing else is.
    let prints_array = p.arrays.iter().zip(&used_arrays).any(|(a, &u)| u && !a.temp);
    let prints_scalar = used_scalars.iter().enumerate().any(|(s, &u)| u && s != LOCAL_SCALAR);
    if !prints_array && !prints_scalar {
        used_scalars[0] = true;
    }
    let offset: Vec<Vec<i64>> = lo.iter().map(|d| d.iter().map(|&x| (-x).max(0)).collect()).collect();
    let extent =
        offset.iter().zip(&hi).map(|(o, h)| o.iter().zip(h).map(|(o, h)| o + h.max(&0) + 1).collect()).collect();
    Layout { offset, extent, used_arrays, used_scalars }
}

struct Printer<'a> {
    p: &'a Program,
    lay: Layout,
    names: BTreeMap<u32, &'static str>,
    out: String,
}

fn fmt_aff(a: &Aff, names: &BTreeMap<u32, &'static str>) -> String {
    let mut s = String::new();
    for &(k, v) in &a.terms {
        if k == 0 {
            continue;
        }
        let name = match v {
            Var::Param(p) => PARAM_NAMES[p],
            Var::Iter(id) => names.get(&id).copied().unwrap_or("0"),
        };
        let mag = k.abs();
        let term = if mag == 1 { name.to_string() } else { format!("{mag} * {name}") };
        if s.is_empty() {
            s = if k < 0 { format!("-{term}") } else { term };
        } else {
            let _ = write!(s, " {} {term}", if k < 0 { '-' } else { '+' });
        }
    }
    if s.is_empty() {
        return a.c.to_string();
    }
    if a.c != 0 {
        let _ = write!(s, " {} {}", if a.c < 0 { '-' } else { '+' }, a.c.abs());
    }
    s
}

impl Printer<'_> {
    fn aff(&self, a: &Aff) -> String {
        fmt_aff(a, &self.names)
    }

    fn bound(&self, b: &Bound) -> String {
        match b {
            Bound::Aff(a) => self.aff(a),
            Bound::Div(a, k) => format!("({}) / {k}", self.aff(a)),
            Bound::Min(x, y) => format!("min({}, {})", self.bound(x), self.bound(y)),
            Bound::Max(x, y) => format!("max({}, {})", self.bound(x), self.bound(y)),
        }
    }

    /// `b - 1`.
    fn bound_minus_one(&self, b: &Bound) -> String {
        match b {
            Bound::Aff(a) => self.aff(&Aff { terms: a.terms.clone(), c: a.c - 1 }),
            _ => format!("{} - 1", self.bound(b)),
        }
    }

    fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::Cmp(x, op, y) => format!("{} {} {}", self.aff(x), op.text(), self.aff(y)),
            Cond::Mod(a, k, r) => format!("({}) % {k} == {r}", self.aff(a)),
            Cond::DivCmp(a, k, op, y) => format!("({}) / {k} {} {}", self.aff(a), op.text(), self.aff(y)),
            Cond::And(x, y) => format!("({}) && ({})", self.cond(x), self.cond(y)),
            Cond::Or(x, y) => format!("({}) || ({})", self.cond(x), self.cond(y)),
            Cond::Not(x) => format!("!({})", self.cond(x)),
        }
    }

    fn elem(&self, a: usize, subs: &[Aff]) -> String {
        let mut s = self.p.arrays[a].name.clone();
        for (d, sub) in subs.iter().enumerate() {
            let off = self.lay.offset[a][d];
            if off == 0 {
                let _ = write!(s, "[{}]", self.aff(sub));
            } else {
                let t = self.aff(sub);
                if let Some(rest) = t.strip_prefix('-') {
                    let _ = write!(s, "[{off} - {rest}]");
                } else {
                    let _ = write!(s, "[{off} + {t}]");
                }
            }
        }
        s
    }

    fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Num(k) => format!("{:?}", *k as f64 * 0.25),
            Expr::Scalar(s) => SCALAR_NAMES[*s].to_string(),
            Expr::Elem(a, subs) => self.elem(*a, subs),
            Expr::Index(a) => format!("0.125 * ({})", self.aff(a)),
            Expr::Avg(x, y) => format!("({} + {}) * 0.5", self.expr(x), self.expr(y)),
            Expr::Diff(x, y) => format!("({} - {}) * 0.5", self.expr(x), self.expr(y)),
            Expr::Sqrt(x) => format!("sqrt(fabs({}))", self.expr(x)),
            Expr::Call(x) => format!("g1({})", self.expr(x)),
            Expr::Parens(n, x) => format!("{}{}{}", "(".repeat(*n), self.expr(x), ")".repeat(*n)),
            Expr::Mean(terms) => {
                let sum: Vec<String> = terms.iter().map(|t| self.expr(t)).collect();
                format!("({}) / {}.0", sum.join(" + "), terms.len())
            }
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn stmts(&mut self, stmts: &[Stmt], indent: usize, depth: usize) {
        for s in stmts {
            self.stmt(s, indent, depth);
        }
    }

    fn block(&mut self, stmts: &[Stmt], indent: usize, depth: usize) {
        if stmts.len() == 1 && !matches!(stmts[0], Stmt::If(..)) {
            self.stmt(&stmts[0], indent + 1, depth);
            return;
        }
        self.out.pop();
        self.out.push_str(" {\n");
        self.stmts(stmts, indent + 1, depth);
        self.line(indent, "}");
    }

    fn stmt(&mut self, s: &Stmt, indent: usize, depth: usize) {
        match s {
            Stmt::For(l) => {
                let v = ITER_NAMES[depth.min(ITER_NAMES.len() - 1)];
                let head = if l.down {
                    let update = if l.step == 1 { format!("{v}--") } else { format!("{v} -= {}", l.step) };
                    format!("for ({v} = {}; {v} >= {}; {update})", self.bound_minus_one(&l.hi), self.bound(&l.lo))
                } else {
                    let update = if l.step == 1 { format!("{v}++") } else { format!("{v} += {}", l.step) };
                    format!("for ({v} = {}; {v} < {}; {update})", self.bound(&l.lo), self.bound(&l.hi))
                };
                self.line(indent, &head);
                self.names.insert(l.id, v);
                self.block(&l.body, indent, depth + 1);
                self.names.remove(&l.id);
            }
            Stmt::If(c, t, e) => {
                let head = format!("if ({})", self.cond(c));
                self.line(indent, &head);
                self.block(t, indent, depth);
                if !e.is_empty() {
                    self.line(indent, "else");
                    self.block(e, indent, depth);
                }
            }
            Stmt::Assign { lhs, acc, rhs } => {
                let l = match lhs {
                    Lhs::Scalar(s) => SCALAR_NAMES[*s].to_string(),
                    Lhs::Elem(a, subs) => self.elem(*a, subs),
                };
                let r = self.expr(rhs);
                let text = if *acc { format!("{l} += 0.5 * ({r});") } else { format!("{l} = {r} * 0.5 + 1.0;") };
                self.line(indent, &text);
            }
            Stmt::Fill(a) => {
                let ext = self.lay.extent[*a].clone();
                let name = self.p.arrays[*a].name.clone();
                let mut idx = String::new();
                let mut val = String::new();
                for (d, e) in ext.iter().enumerate() {
                    let v = ITER_NAMES[depth + d];
                    self.line(indent + d, &format!("for ({v} = 0; {v} < {e}; {v}++)"));
                    let _ = write!(idx, "[{v}]");
                    let _ = write!(val, "{}{} * {v}", if d > 0 { " + " } else { "" }, d + 1);
                }
                self.line(indent + ext.len(), &format!("{name}{idx} = 0.125 * ({val});"));
            }
        }
    }
}

impl Program {
    /// The complete C program.
    pub fn to_c(&self) -> String {
        let lay = layout(self);
        let mut pr = Printer { p: self, lay, names: BTreeMap::new(), out: String::new() };
        pr.out.push_str(&format!("/* polyc difftest, seed {} */\n", self.seed));
        pr.out.push_str("#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
        pr.out.push_str("#define min(a, b) ((a) < (b) ? (a) : (b))\n#define max(a, b) ((a) > (b) ? (a) : (b))\n");
        pr.out.push_str("static double g1(double x) { return (x + 1.0) * 0.5; }\n");
        let dims = |pr: &Printer, a: usize| pr.lay.extent[a].iter().map(|e| format!("[{e}]")).collect::<String>();
        for (a, decl) in self.arrays.iter().enumerate() {
            if pr.lay.used_arrays[a] && !decl.temp {
                let line = format!("double {}{};", decl.name, dims(&pr, a));
                pr.line(0, &line);
            }
        }
        let declaration = |s: usize, name: &str| format!("double {name} = {:?};", 1.0 + s as f64);
        for (s, name) in SCALAR_NAMES.iter().enumerate().take(self.scalars) {
            if pr.lay.used_scalars[s] && s != LOCAL_SCALAR {
                pr.line(0, &declaration(s, name));
            }
        }
        pr.line(0, "int main(int argc, char **argv) {");
        for (k, d) in self.defaults.iter().enumerate() {
            let n = PARAM_NAMES[k];
            pr.line(1, &format!("int {n} = argc > {} ? atoi(argv[{}]) : {d};", k + 1, k + 1));
            pr.line(1, &format!("if ({n} < 0) {n} = 0;"));
            pr.line(1, &format!("if ({n} > {MAXP}) {n} = {MAXP};"));
        }
        pr.line(1, "int i, j, k, l;");
        if self.scalars > LOCAL_SCALAR && pr.lay.used_scalars[LOCAL_SCALAR] {
            pr.line(1, &declaration(LOCAL_SCALAR, SCALAR_NAMES[LOCAL_SCALAR]));
        }
        for (a, decl) in self.arrays.iter().enumerate() {
            if pr.lay.used_arrays[a] && decl.temp {
                let line = format!("double {}{};", decl.name, dims(&pr, a));
                pr.line(1, &line);
            }
        }
        let loops = |ext: &[i64]| {
            ext.iter().enumerate().map(|(d, e)| format!("for (int i{d} = 0; i{d} < {e}; i{d}++) ")).collect::<String>()
        };
        for (a, decl) in self.arrays.iter().enumerate() {
            if !pr.lay.used_arrays[a] || decl.temp {
                continue;
            }
            let ext = pr.lay.extent[a].clone();
            let idx: String = (0..ext.len()).map(|d| format!("[i{d}]")).collect();
            let sum: String = (0..ext.len()).map(|d| format!(" + {} * i{d}", 2 * d + 1 + a)).collect();
            let line = format!("{}{}{idx} = (({}{sum}) % 17) * 0.25;", loops(&ext), decl.name, a);
            pr.line(1, &line);
        }
        pr.line(0, "#pragma scop");
        pr.stmts(&self.body, 1, 0);
        pr.line(0, "#pragma endscop");
        for (a, decl) in self.arrays.iter().enumerate() {
            if !pr.lay.used_arrays[a] || decl.temp {
                continue;
            }
            let ext = pr.lay.extent[a].clone();
            let idx: String = (0..ext.len()).map(|d| format!("[i{d}]")).collect();
            let w: String = (0..ext.len()).map(|d| format!(" + {} * i{d}", d + 1)).collect();
            let line = format!(
                "{{ double c = 0; {}c += {}{idx} * (1 + (0{w}) % 7); printf(\"{} %.17g\\n\", c); }}",
                loops(&ext),
                decl.name,
                decl.name
            );
            pr.line(1, &line);
        }
        for (s, n) in SCALAR_NAMES.iter().enumerate().take(self.scalars) {
            if pr.lay.used_scalars[s] && s != LOCAL_SCALAR {
                pr.line(1, &format!("printf(\"{n} %.17g\\n\", {n});"));
            }
        }
        pr.line(1, "return 0;");
        pr.line(0, "}");
        pr.out
    }
}
