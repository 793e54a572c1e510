//! The polyhedral model of a SCoP, held in isl: parameters, and for each
//! statement its iteration domain, schedule and access relations.
//!
//! Naming convention inside isl: parameters are `p<k>` (their C spelling is
//! kept in `ScopAst::params`), statement `k` is the tuple `S<k>` with
//! dimensions `i0..`, arrays keep their C names prefixed with `A_` (so no C
//! name can clash with an isl keyword).
//!
//! A name isl does not read (gcc's `$`, a UTF-8 letter) becomes `AX_` and
//! its bytes in hexadecimal ([`array_tuple`]). The original schedule is
//! 2d+1: the textual positions (`beta`) between the iterators, a descending
//! loop's iterator negated so that schedule order is execution order, a
//! `multifor` loop's iterations at their referential points.
//!
//! [`Scop::build`] is where a SCoP meets isl first; a construct it cannot
//! express is a [`ModelError`], and the SCoP is kept. Beside the model, the
//! questions the output's run-time checks ask: [`Scop::in_bounds`] (the
//! parameter values where every subscript stays within its declared
//! extents) and [`Scop::iterator_range`] (parametric bounds of an iterator
//! over some statements: the work estimate, expansion's extents); and, in
//! `alias`, which variables must be checked apart. `--emit=scop` prints the
//! model (`report::scop`).

pub mod affine;
pub mod alias;
mod footprint;
pub mod isl;
mod readable;
pub mod rows;

pub use readable::readable;

use crate::frontend::qexpr::{QExpr, TooComplex};
use crate::frontend::{AccessKind, ScopAst};
use affine::{Constraint, LinExpr, Term};
use isl::{IslError, IslResult, Map, Set};

#[derive(Debug)]
pub enum ModelError {
    Isl(IslError),
    TooComplex,
    /// The command line does not fit the SCoP (a parameter without a
    /// value, a statement it does not have).
    Input(String),
    /// The SCoP ran out of its wall-clock budget (in the phase named).
    OutOfTime(String),
    /// Two variables may share memory and no run-time check can say.
    Alias(String),
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Isl(e) => write!(f, "isl: {e}"),
            ModelError::TooComplex => f.write_str("an expression needs too many case splits"),
            ModelError::Input(why) | ModelError::OutOfTime(why) | ModelError::Alias(why) => f.write_str(why),
        }
    }
}

impl From<IslError> for ModelError {
    fn from(e: IslError) -> Self {
        ModelError::Isl(e)
    }
}

impl From<TooComplex> for ModelError {
    fn from(_: TooComplex) -> Self {
        ModelError::TooComplex
    }
}

pub struct Access {
    pub array: String,
    pub kind: AccessKind,
    /// `S<k>[i..] -> A_<array>[..]`, restricted to the domain.
    pub relation: Map,
    pub span: std::ops::Range<usize>,
    /// Evaluated only under a condition of its statement's expression.
    pub conditional: bool,
}

pub struct Statement {
    pub name: String,
    pub domain: Set,
    /// `S<k>[i..] -> [..]`, all statements of the SCoP into one space.
    pub schedule: Map,
    pub accesses: Vec<Access>,
}

pub struct Scop {
    pub ast: ScopAst,
    pub context: Set,
    pub statements: Vec<Statement>,
    /// Output dimensions of every schedule.
    pub schedule_dims: usize,
}

impl Scop {
    /// Build the model of `ast` with its original (2d+1) schedule.
    pub fn build(ast: ScopAst) -> Result<Scop, ModelError> {
        let np = ast.params.len();
        let context = Set::parse(&format!("{} -> {{ : }}", params_decl(np)))?;
        let schedule_dims = 2 * ast.max_depth() + 1;
        let mut statements = Vec::new();
        for (k, s) in ast.stmts.iter().enumerate() {
            let name = format!("S{k}");
            let tuple = tuple(&name, s.iterators.len());
            let domain = Set::parse(&format!("{} -> {{ {tuple} : {} }}", params_decl(np), s.domain.to_isl()?))?;
            let schedule =
                Map::parse(&format!("{} -> {{ {} }}", params_decl(np), original_schedule(s, &tuple, schedule_dims)?))?;
            let mut accesses = Vec::new();
            for a in &s.accesses {
                let relation = Map::parse(&format!(
                    "{} -> {{ {tuple} -> {}[{}] : {} }}",
                    params_decl(np),
                    array_tuple(&a.array),
                    (0..a.subscripts.len()).map(|d| format!("o{d}")).collect::<Vec<_>>().join(", "),
                    subscript_constraints(&a.subscripts)?
                ))?
                .intersect_domain(&domain)?;
                accesses.push(Access {
                    array: a.array.clone(),
                    kind: a.kind,
                    relation,
                    span: a.span.clone(),
                    conditional: a.conditional,
                });
            }
            statements.push(Statement { name, domain, schedule, accesses });
        }
        Ok(Scop { ast, context, statements, schedule_dims })
    }
}

impl Scop {
    /// Bounds over the parameters of iterator `d` over the instances of
    /// statements `stmts` (each with more than `d` iterators); see
    /// [`Scop::value_range`].
    pub fn iterator_range(&self, stmts: &[usize], d: usize) -> IslResult<Option<(LinExpr, LinExpr)>> {
        let instances: Vec<(usize, &Set)> = stmts.iter().map(|&k| (k, &self.statements[k].domain)).collect();
        self.value_range(&instances, &format!("i{d}"))
    }

    /// Bounds over the parameters of `value`, an isl expression over the
    /// iterators `i0, ...`, across `instances` (each a statement's index
    /// and a set of its instances): a lower and an upper bound, from the
    /// hull of its values ([`bounds`]); `None` if either is not
    /// quasi-affine in the parameters, or there are no instances.
    pub fn value_range(&self, instances: &[(usize, &Set)], value: &str) -> IslResult<Option<(LinExpr, LinExpr)>> {
        match self.values(instances, value)? {
            Some(range) => bounds(&range),
            None => Ok(None),
        }
    }

    /// The values of `value` across `instances` (as for
    /// [`Scop::value_range`]), a set of one dimension; `None` without
    /// instances.
    pub fn values(&self, instances: &[(usize, &Set)], value: &str) -> IslResult<Option<Set>> {
        let np = self.ast.params.len();
        let mut range: Option<Set> = None;
        for &(k, set) in instances {
            let statement = tuple(&self.statements[k].name, self.ast.stmts[k].iterators.len());
            let project = Map::parse(&format!("{} -> {{ {statement} -> [{value}] }}", params_decl(np)))?;
            let values = project.intersect_domain(set)?.range()?;
            range = Some(match range {
                Some(r) => r.union(&values)?,
                None => values,
            });
        }
        Ok(range)
    }
}

impl Scop {
    /// The parameter values for which every subscript stays within its
    /// array's declared extent (`0 <= s < extent`, dimension by
    /// dimension: a row overrun aliases another row, which the
    /// dependences do not see; for a delinearised array, the extents of
    /// its view, without which the split is not exact). An extent that is neither an integer nor
    /// an affine expression of the SCoP's parameters (`A[]`, a macro the
    /// SCoP does not use) bounds nothing.
    pub fn in_bounds(&self) -> IslResult<Set> {
        let np = self.ast.params.len();
        let mut outside = self.context.subtract(&self.context)?;
        for access in self.statements.iter().flat_map(|s| &s.accesses) {
            let Some((_, decl)) = self.ast.arrays.iter().find(|(name, _)| *name == access.array) else { continue };
            let rank = access.relation.n_out()?;
            // A delinearised array's view: its inner extents make the split exact.
            let extents = decl.delinearised.as_ref().unwrap_or(&decl.extents);
            if extents.len() != rank {
                continue;
            }
            let cells: Vec<String> = (0..rank).map(|d| format!("o{d}")).collect();
            let overruns: Vec<String> = extents
                .iter()
                .enumerate()
                .filter_map(|(d, e)| extent_in_isl(e, &self.ast.params).map(|e| format!("o{d} < 0 or o{d} >= {e}")))
                .collect();
            if overruns.is_empty() {
                continue;
            }
            let out = Set::parse(&format!(
                "{} -> {{ {}[{}] : {} }}",
                params_decl(np),
                array_tuple(&access.array),
                cells.join(", "),
                overruns.join(" or ")
            ))?;
            outside = outside.union(&access.relation.intersect_range(&out)?.domain()?.params()?)?;
        }
        self.context.subtract(&outside)?.coalesce()
    }
}

/// An array extent as written (`64`, `N`, `2 * N + 1`) over the isl
/// names of `params`, if it holds nothing else.
fn extent_in_isl(extent: &str, params: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut chars = extent.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_alphabetic() || c == '_' {
            let mut word = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric() || **c == '_') {
                word.push(c);
                chars.next();
            }
            out.push_str(&format!("p{}", params.iter().position(|p| *p == word)?));
        } else if c.is_ascii_digit() || " +-*()".contains(c) {
            out.push(c);
            chars.next();
        } else {
            return None;
        }
    }
    // isl takes a product of two parameters no more than C's bounds do.
    let words = out.matches('p').count();
    let product_of_params = out.contains('*') && words > 1;
    (!out.trim().is_empty() && !product_of_params).then_some(out)
}

/// Bounds over the parameters of the one dimension of `values`: a lower
/// and an upper bound, from its hull, else from its polyhedral hull
/// rounded inwards (`rounded_bounds`); `None` if either is not
/// quasi-affine in the parameters alone.
pub fn bounds(values: &Set) -> IslResult<Option<(LinExpr, LinExpr)>> {
    // Without its divs (a modulo guard's), the set is a superset: its
    // bounds still hold.
    let hull = values.remove_divs()?.simple_hull()?.constraints()?;
    let lower = hull.iter().find_map(|c| bound_of_dim0(c, 1));
    let upper = hull.iter().find_map(|c| bound_of_dim0(c, -1));
    match lower.zip(upper) {
        Some(exact) => Ok(Some(exact)),
        None => rounded_bounds(values),
    }
}

/// Each lower and each upper bound over the parameters of the one
/// dimension of `values` that its hull gives: each holds on its own, and
/// the tightest may differ between parameter values (`x <= 3` and `x <= n`).
pub fn hull_bounds(values: &Set) -> IslResult<(Vec<LinExpr>, Vec<LinExpr>)> {
    let hull = values.remove_divs()?.simple_hull()?.constraints()?;
    let lower = hull.iter().filter_map(|c| bound_of_dim0(c, 1)).collect();
    let upper = hull.iter().filter_map(|c| bound_of_dim0(c, -1)).collect();
    Ok((lower, upper))
}

/// Bounds of the one dimension of `values` from its polyhedral hull,
/// rounded inwards where a bound has a coefficient (`2x <= n - 1`:
/// `x <= floor((n - 1) / 2)`): for values that divide a subscript
/// (`p[i / 2]`), whose divisions `bounds` drops.
fn rounded_bounds(values: &Set) -> IslResult<Option<(LinExpr, LinExpr)>> {
    let hull = values.polyhedral_hull()?.constraints()?;
    let lower = hull.iter().find_map(|c| rounded_bound(c, 1));
    let upper = hull.iter().find_map(|c| rounded_bound(c, -1));
    Ok(lower.zip(upper))
}

/// The bound on dimension 0 that `c` gives, over the parameters: a
/// lower bound for `sign` 1, an upper for -1.
fn rounded_bound(c: &Constraint, sign: i64) -> Option<LinExpr> {
    let coef = c.expr.coeff_of_dim(0);
    let expr = match coef * sign {
        0 => return None,
        s if s < 0 && !c.is_eq => return None,
        s if s < 0 => c.expr.scale(-1),
        _ => c.expr.clone(),
    };
    if expr.has_floor() || expr.terms.iter().any(|(t, _)| matches!(t, Term::Dim(d) if *d != 0)) {
        return None;
    }
    // k.x + rest >= 0 (lower: x >= -floor(rest / k)) or -k.x + rest >= 0
    // (upper: x <= floor(rest / k)).
    let k = coef.abs();
    let rest = expr.without_dim(0);
    let rounded = if k == 1 {
        rest
    } else {
        let mut floor = LinExpr::default();
        floor.add_term(Term::Floor(Box::new(rest), k), 1);
        floor
    };
    Some(if sign == 1 { rounded.scale(-1) } else { rounded })
}

/// The bound on dimension 0 that `c` gives: a lower bound for `sign`
/// 1, an upper for -1, over parameters and constants only.
fn bound_of_dim0(c: &Constraint, sign: i64) -> Option<LinExpr> {
    let coef = c.expr.coeff_of_dim(0);
    let usable = coef == sign || c.is_eq && coef == -sign;
    if !usable || c.expr.has_floor() || c.expr.terms.iter().any(|(t, _)| matches!(t, Term::Dim(d) if *d != 0)) {
        return None;
    }
    // coef * x + rest >= 0 (or = 0): x >= -rest for coef 1, x <= rest for -1.
    let rest = c.expr.without_dim(0);
    Some(if coef == 1 { rest.scale(-1) } else { rest })
}

/// The index of statement `S<k>` from its isl name (`usize::MAX` for
/// any other name).
pub fn statement_index(name: &str) -> usize {
    name.strip_prefix('S').and_then(|k| k.parse().ok()).unwrap_or(usize::MAX)
}

pub fn params_decl(n: usize) -> String {
    let names: Vec<String> = (0..n).map(|k| format!("p{k}")).collect();
    format!("[{}]", names.join(", "))
}

fn tuple(name: &str, n_iters: usize) -> String {
    let dims: Vec<String> = (0..n_iters).map(|d| format!("i{d}")).collect();
    format!("{name}[{}]", dims.join(", "))
}

/// An array's tuple name in isl (see the module's naming convention):
/// `A_x`, or, for a C name isl cannot read (gcc's `$`, a UTF-8 letter),
/// `AX_` and its bytes in hexadecimal (no `A_` name starts so).
pub fn array_tuple(array: &str) -> String {
    if array.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        format!("A_{array}")
    } else {
        let hex: String = array.bytes().map(|b| format!("{b:02x}")).collect();
        format!("AX_{hex}")
    }
}

/// `S<k>[i0, ...] -> [b0, ±i0, b1, ±i1, ..., bm, 0, ...]`: descending
/// loops contribute `-i` so that the schedule order is the execution
/// order, and a `multifor` loop the point of its referential domain
/// where the iteration runs.
fn original_schedule(s: &crate::frontend::Stmt, tuple: &str, dims: usize) -> Result<String, TooComplex> {
    let mut out = Vec::with_capacity(dims);
    let mut placed = Vec::new();
    for (d, b) in s.beta.iter().enumerate() {
        out.push(b.to_string());
        let Some(it) = s.iterators.get(d) else { continue };
        match &s.referential[d] {
            Some(r) => {
                placed.push(referential_point(r, d, out.len())?);
                out.push(format!("c{}", out.len()));
            }
            None if it.descending => out.push(format!("-i{d}")),
            None => out.push(format!("i{d}")),
        }
    }
    out.resize(dims, "0".to_string());
    if placed.is_empty() {
        return Ok(format!("{tuple} -> [{}]", out.join(", ")));
    }
    let names: Vec<String> = (0..dims).map(|c| format!("c{c}")).collect();
    let fixed = out.iter().enumerate().filter(|(c, e)| **e != format!("c{c}")).map(|(c, e)| format!("c{c} = {e}"));
    let constraints: Vec<String> = fixed.chain(placed).collect();
    Ok(format!("{tuple} -> [{}] : {}", names.join(", "), constraints.join(" and ")))
}

/// Iterator `i<d>`'s iteration `q` (counted from its lower bound, in
/// steps) is at point `offset + grain * q` of dimension `c<c>`.
fn referential_point(r: &crate::frontend::Referential, d: usize, c: usize) -> Result<String, TooComplex> {
    let lower: Vec<String> = r
        .lower
        .pieces()?
        .into_iter()
        .map(|p| {
            let at = format!("i{d} = {} + {}*q", p.value, r.step);
            match p.guard {
                Some(g) => format!("({g} and {at})"),
                None => format!("({at})"),
            }
        })
        .collect();
    Ok(format!("(exists q : c{c} = {} + {}*q and ({}))", r.offset, r.grain, lower.join(" or ")))
}

fn subscript_constraints(subs: &[QExpr]) -> Result<String, TooComplex> {
    let mut conj = vec!["true".to_string()];
    for (d, e) in subs.iter().enumerate() {
        let alts: Vec<String> = e
            .pieces()?
            .into_iter()
            .map(|p| match p.guard {
                Some(g) => format!("({g} and o{d} = {})", p.value),
                None => format!("o{d} = {}", p.value),
            })
            .collect();
        conj.push(format!("({})", alts.join(" or ")));
    }
    Ok(conj.join(" and "))
}
