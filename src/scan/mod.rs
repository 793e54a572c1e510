//! A CLooG-style scanner (Quilleré, Rajopadhye and Wilde, with Bastoul's
//! improvements): statement sets in one common space are scanned dimension
//! by dimension. At each level the projections are separated into disjoint
//! convex pieces, ordered along the dimension, and each piece becomes a
//! loop (or a single-value binding) whose bounds are read off its
//! constraints. Pieces that cannot be ordered are merged and scanned over
//! their hull; whatever a loop does not enforce is enforced by a guard, so
//! the code is exact by construction: every point of every set is visited
//! once, in lexicographic order, and nothing else.
//!
//! In more detail: each statement is a set in one common space (schedule
//! dimensions, then its iterators, padded with zeros). At dimension `d`,
//! each active statement's loop range is its own constraints on `..=d`
//! (what the source wrote, so that an inner loop empty for some values
//! stays an empty loop rather than a peeled iteration) within the hull of
//! what all active statements need (which bounds tile loops, whose own
//! constraints do not). A piece whose hull leaves `d` unbounded is hulled
//! again under the parameters its statements run for: a gist drops
//! conditions on the parameters alone, and a diamond wavefront's lower
//! bound needs `TSTEPS > 0`. More than `MAX_PIECES` pieces at one level
//! are scanned as one: the union of the statements' bounds, which cuts
//! nothing off their sets.
//!
//! A piece's loop has its bounds read off its constraints and its stride
//! from isl's stride information, of the hull or, as a hull drops
//! existentials, of the piece itself (each statement's range keeps the
//! lattice its exact projection puts on `d`: a multifor loop of grain 4
//! runs every fourth point); lower bounds are aligned on the stride's
//! lattice. A dimension that takes one value is a [`ast::Node::Let`] when
//! an equality with coefficient 1 gives it; a scaled one, `a.c_d + e = 0`,
//! stays a loop from `ceil(-e/a)` to `floor(-e/a)` (bound as a `Let` under
//! a guard, it moved fdtd-2d's parallel regions from its one-tile
//! wavefront steps to the loops inside them: 0.33 s -> 0.43 s).
//! Constraints on outer dimensions become a guard around the loop, those
//! the bounds and stride do not express a guard inside it, and at the
//! leaves whatever the path did not enforce guards the statement:
//! exactness does not depend on any heuristic being right.
//!
//! A separated piece that looks like a special case of a general loop
//! (time tiles' `if (N == 3)` with one statement instance) holds points
//! outside that loop's hull: in no corpus or PolyBench output does a
//! loop's hull hold an adjacent piece. Merging such a piece into the
//! loop anyway widens it and moves guards into its body (jacobi-1d's
//! `B` update under a guard inside the time loop; lbm's rows lost their
//! vector loops), so pieces stay apart.

pub mod ast;

use crate::model::affine::{Constraint, LinExpr, Term};
use crate::model::isl::{set_text, IslError, IslResult, Set};
use ast::Node;

/// More convex pieces than this at one level are scanned as one hull.
const MAX_PIECES: usize = 48;

/// A statement to scan: its instances as points of the common space.
#[derive(Clone)]
pub struct ScanStmt {
    pub id: usize,
    pub set: Set,
    /// Scanned as one down to a dimension, and there as statements of its
    /// own (see [`Split`]).
    pub split: Option<Split>,
}

/// Parts of a statement's instances, each a statement of its own from
/// dimension `at` on: the loops outside are the statement's, whole.
#[derive(Clone)]
pub struct Split {
    pub at: usize,
    /// Their sets cover the statement's, each in the part of it the loops
    /// outside leave.
    pub parts: Vec<ScanStmt>,
}

impl ScanStmt {
    pub fn new(id: usize, set: Set) -> ScanStmt {
        ScanStmt { id, set, split: None }
    }

    /// The statement on `set`, itself a part of the statement's.
    fn within(&self, set: Set) -> ScanStmt {
        ScanStmt { id: self.id, set, split: self.split.clone() }
    }

    /// The statement, or its parts where it splits at `d`.
    fn parts_at(self, d: usize) -> IslResult<Vec<ScanStmt>> {
        match self.split {
            Some(split) if split.at == d => {
                let mut parts = Vec::new();
                for part in split.parts {
                    let set = part.set.intersect(&self.set)?;
                    if !set.is_empty()? {
                        parts.push(part.within(set));
                    }
                }
                Ok(parts)
            }
            _ => Ok(vec![self]),
        }
    }
}

/// Scan `stmts` (all in one `dims`-dimensional space) under `context`, a
/// 0-dimensional set over the parameters.
pub fn scan(stmts: Vec<ScanStmt>, dims: usize, n_params: usize, context: &Set) -> IslResult<Vec<Node>> {
    let scanner = Scanner { dims, n_params };
    let active = stmts
        .into_iter()
        .map(|s| Ok(s.within(s.set.intersect(&context.add_dims(dims)?)?.remove_redundancies()?)))
        .collect::<IslResult<Vec<_>>>()?;
    scanner.level(0, active, context, false)
}

struct Scanner {
    dims: usize,
    n_params: usize,
}

/// A convex (or merged) region of one level and the statements active in it.
struct Piece {
    set: Set,
    active: Vec<usize>,
    /// The union of its statements' bounds: it cuts nothing off their sets.
    whole: bool,
}

impl Piece {
    fn new(set: Set, active: Vec<usize>) -> Piece {
        Piece { set, active, whole: false }
    }
}

impl Scanner {
    /// The code for dimensions `d..` of `active`, knowing `ctx` on the
    /// dimensions before `d` (`hoisted`: the common guard is already out).
    fn level(&self, d: usize, active: Vec<ScanStmt>, ctx: &Set, hoisted: bool) -> IslResult<Vec<Node>> {
        let mut parts = Vec::with_capacity(active.len());
        for s in active {
            parts.extend(s.parts_at(d)?);
        }
        let active = parts;
        if active.is_empty() {
            return Ok(Vec::new());
        }
        if d == self.dims {
            return self.leaves(active, ctx);
        }
        if let Some(value) = self.common_binding(d, &active)? {
            let bound = ctx.add_dims(1)?.intersect(&Set::from_constraints(
                self.n_params,
                d + 1,
                &[Constraint::eq(LinExpr::dim(d).sub(&value))],
            )?)?;
            let body = self.level(d + 1, active, &bound, false)?;
            return Ok(if body.is_empty() { body } else { vec![Node::Let { dim: d, value, body }] });
        }
        if !hoisted {
            if let Some(guard) = self.common_guard(d, &active, ctx)? {
                let inner_ctx = ctx.intersect(&guard)?;
                let body = self.level(d, active, &inner_ctx, true)?;
                return Ok(vec![Node::Guard { cond: guard.disjuncts()?, body }]);
            }
        }
        let ctx_ext = ctx.add_dims(1)?;
        let projections: Vec<Set> = active.iter().map(|s| s.set.keep_leading_dims(d + 1)).collect::<IslResult<_>>()?;
        let needed: Vec<Set> = projections.iter().map(|p| self.needed(d, p)).collect::<IslResult<_>>()?;
        let mut reach = needed[0].clone();
        for n in &needed[1..] {
            reach = reach.union(n)?;
        }
        let reach = reach.simple_hull()?;
        let mut bounds = Vec::with_capacity(active.len());
        for ((s, exact), projection) in active.iter().zip(needed).zip(&projections) {
            let mut own = s.set.constraints_before_dim(d + 1)?.keep_leading_dims(d + 1)?.intersect(&reach)?;
            // Its own constraints on `..=d` drop the lattice that an
            // inner dimension's equality puts on `d` (a multifor loop of
            // grain 4 runs at every fourth referential point).
            if let Some((stride, offset)) = projection.stride(d)? {
                let lattice = Constraint::divisible(LinExpr::dim(d).sub(&offset), stride);
                own = own.intersect(&Set::from_constraints(self.n_params, d + 1, &[lattice])?)?;
            }
            let chosen = if own.dim_is_bounded(d)? { own } else { exact };
            bounds.push(chosen.intersect(&ctx_ext)?);
        }
        let pieces = self.order(d, self.separate(&bounds)?, &bounds)?;
        let mut out = Vec::new();
        for piece in pieces {
            let inside = piece.set.add_dims(self.dims - d - 1)?;
            let mut children = Vec::new();
            for &k in &piece.active {
                // Cutting a statement by a union of pieces multiplies its
                // disjuncts, and every gist below pays for them. A cut
                // leaves redundant constraints, which each intersection
                // and gist below would look for again (isl's equality
                // test, its first step, copies and normalises both sets):
                // removed once here, heat-3d's scan runs 4% fewer
                // instructions.
                let set = if piece.whole {
                    active[k].set.clone()
                } else {
                    active[k].set.intersect(&inside)?.remove_redundancies()?
                };
                if !set.is_empty()? {
                    children.push(active[k].within(set));
                }
            }
            out.extend(self.piece(d, &piece.set, children, &ctx_ext)?);
        }
        Ok(out)
    }

    /// The values of dimensions `..=d` that `set` needs, without the
    /// facts it implies about the outer dimensions alone (where those fail,
    /// the loops inside are empty anyway). A loop over dimension `d` covers
    /// the statement's own constraints on `..=d` (what the source wrote, so
    /// an inner loop that is empty for some values stays an empty loop
    /// rather than a peeled iteration) within the hull of what every active
    /// statement needs (which bounds tile loops, whose own constraints
    /// do not).
    /// `projection` is the statement's set on `..=d`.
    fn needed(&self, d: usize, projection: &Set) -> IslResult<Set> {
        let outer = projection.keep_leading_dims(d)?.add_dims(1)?;
        projection.gist(&outer)
    }

    /// Statement instances, each under a guard for anything the loops
    /// above did not enforce.
    fn leaves(&self, mut active: Vec<ScanStmt>, ctx: &Set) -> IslResult<Vec<Node>> {
        active.sort_by_key(|s| s.id);
        let mut out = Vec::new();
        for s in active {
            let rest = s.set.gist(ctx)?;
            if rest.is_empty()? {
                continue;
            }
            let stmt = Node::Stmt { id: s.id };
            if rest.is_universe()? {
                out.push(stmt);
            } else {
                out.push(Node::Guard { cond: rest.disjuncts()?, body: vec![stmt] });
            }
        }
        Ok(out)
    }

    /// `c_d = value` (over outer dimensions) when every active statement
    /// says so: the dimension is a function of the loops above (an
    /// iterator under a unimodular schedule, a point loop under tiling),
    /// so it needs a binding and none of the work of a loop level.
    fn common_binding(&self, d: usize, active: &[ScanStmt]) -> IslResult<Option<LinExpr>> {
        let mut common: Option<LinExpr> = None;
        for s in active {
            let pieces = s.set.disjuncts()?;
            let [only] = &pieces[..] else { return Ok(None) };
            let value =
                only.iter().filter_map(|c| unit_equality(c, d)).find(|v| (d..self.dims).all(|k| !v.involves_dim(k)));
            match (value, &common) {
                (None, _) => return Ok(None),
                (Some(v), Some(c)) if v != *c => return Ok(None),
                (Some(v), _) => common = Some(v),
            }
        }
        Ok(common)
    }

    /// A convex condition on the outer dimensions that every active
    /// statement has and the context does not imply: hoisted here.
    fn common_guard(&self, d: usize, active: &[ScanStmt], ctx: &Set) -> IslResult<Option<Set>> {
        let mut common: Option<Set> = None;
        for s in active {
            let own = s.set.constraints_before_dim(d)?.keep_leading_dims(d)?.gist(ctx)?;
            if own.is_universe()? {
                return Ok(None);
            }
            match &common {
                None => common = Some(own),
                Some(c) if c.is_equal(&own)? => {}
                Some(_) => return Ok(None),
            }
        }
        match common {
            Some(g) if g.disjuncts()?.len() == 1 => Ok(Some(g)),
            _ => Ok(None),
        }
    }

    /// Disjoint convex pieces covering the union of `bounds`, each with the
    /// statements whose bound set contains it; one piece for their union
    /// once they come to more than `MAX_PIECES` (told as soon as they do:
    /// each further subtraction costs more than the last).
    fn separate(&self, bounds: &[Set]) -> IslResult<Vec<Piece>> {
        let mut pieces: Vec<Piece> = Vec::new();
        for (k, b) in bounds.iter().enumerate() {
            let mut next = Vec::new();
            let mut rest = b.clone();
            for p in pieces {
                let both = p.set.intersect(b)?;
                if !both.is_empty()? {
                    let mut active = p.active.clone();
                    active.push(k);
                    next.push(Piece::new(both, active));
                }
                let only = p.set.subtract(b)?;
                if !only.is_empty()? {
                    next.push(Piece::new(only, p.active));
                }
                rest = rest.subtract(&p.set)?;
            }
            if !rest.is_empty()? {
                next.push(Piece::new(rest, vec![k]));
            }
            pieces = next;
            if pieces.len() > MAX_PIECES {
                return Ok(vec![bounds_merged(bounds)?]);
            }
        }
        let mut convex = Vec::new();
        for p in &pieces {
            for set in p.set.disjoint_convex_pieces()? {
                convex.push(Piece::new(set, p.active.clone()));
            }
            if convex.len() > MAX_PIECES {
                return Ok(vec![bounds_merged(bounds)?]);
            }
        }
        Ok(convex)
    }

    /// Sequence the pieces along dimension `d`, merging any two that
    /// interleave. A merged piece is the union of the two, so it precedes
    /// (follows) a third exactly where both did: the order is tested once
    /// per pair, not again after each merge.
    fn order(&self, d: usize, mut pieces: Vec<Piece>, bounds: &[Set]) -> IslResult<Vec<Piece>> {
        let mut before = vec![vec![false; pieces.len()]; pieces.len()];
        for (a, first) in pieces.iter().enumerate() {
            for (b, second) in pieces.iter().enumerate() {
                before[a][b] = a != b && first.set.precedes_along(&second.set, d)?;
            }
        }
        while let Some((a, b)) = interleaved(&before) {
            let second = pieces.remove(b);
            let first = pieces.remove(a);
            pieces.insert(a, merge(first, second)?);
            merge_orders(&mut before, a, b);
        }
        let Some(order) = topological(&pieces, &before) else {
            return Ok(vec![bounds_merged(bounds)?]);
        };
        let mut slots: Vec<Option<Piece>> = pieces.into_iter().map(Some).collect();
        Ok(order.into_iter().filter_map(|k| slots[k].take()).collect())
    }

    /// The code for one piece at level `d`: a loop or a binding, with a
    /// guard outside for conditions on outer dimensions and one inside for
    /// what the bounds and stride do not express.
    fn piece(&self, d: usize, region: &Set, children: Vec<ScanStmt>, ctx_ext: &Set) -> IslResult<Vec<Node>> {
        if children.is_empty() {
            return Ok(Vec::new());
        }
        let hull = self.hull_bounding(d, region, &children)?.gist(ctx_ext)?;
        let cons = hull.constraints()?;
        let (outer, on_dim): (Vec<Constraint>, Vec<Constraint>) =
            cons.into_iter().partition(|c| !c.expr.involves_dim(d));
        let binding = on_dim.iter().find_map(|c| unit_equality(c, d));
        let mut enforced = outer.clone();
        let head = match binding {
            Some(value) => {
                enforced.push(Constraint::eq(LinExpr::dim(d).sub(&value)));
                Head::Let(value)
            }
            None => {
                let (mut lower, mut upper) = bounds(&on_dim, d);
                if lower.is_empty() || upper.is_empty() {
                    let relaxed: Vec<Constraint> = on_dim.iter().flat_map(|c| relax_floors(c, d)).collect();
                    let (more_lower, more_upper) = bounds(&relaxed, d);
                    lower.extend(more_lower);
                    upper.extend(more_upper);
                    enforced.extend(relaxed);
                }
                if lower.is_empty() || upper.is_empty() {
                    return Err(IslError(format!("dimension {d} is unbounded")));
                }
                enforced.extend(on_dim.iter().filter(|c| !c.expr.has_floor_involving(d)).cloned());
                // A hull drops existential variables, and with them a
                // lattice the region itself has (a multifor loop of grain
                // 4 runs at every fourth referential point).
                let stride = match hull.stride(d)? {
                    Some(s) => Some(s),
                    None => region.stride(d)?,
                };
                let lower = match &stride {
                    Some((s, off)) => {
                        enforced.push(Constraint::divisible(LinExpr::dim(d).sub(off), *s));
                        let mut aligned = Vec::new();
                        for l in lower {
                            aligned.push(self.align(&l, off, *s, d, ctx_ext)?);
                        }
                        aligned
                    }
                    None => lower,
                };
                Head::For { lower, upper, stride: stride.map_or(1, |(s, _)| s) }
            }
        };
        let enforced_set = ctx_ext.intersect(&Set::from_constraints(self.n_params, d + 1, &enforced)?)?;
        let inner_rest = hull.gist(&enforced_set)?;
        let child_ctx = ctx_ext.intersect(&hull)?;
        let mut body = self.level(d + 1, children, &child_ctx, false)?;
        if body.is_empty() {
            return Ok(body);
        }
        if !inner_rest.is_universe()? {
            body = vec![Node::Guard { cond: inner_rest.disjuncts()?, body }];
        }
        let node = match head {
            Head::Let(value) => Node::Let { dim: d, value, body },
            Head::For { lower, upper, stride } => Node::For { dim: d, lower, upper, stride, body },
        };
        let outer = self.not_implied(outer, d + 1, ctx_ext)?;
        Ok(if outer.is_empty() { vec![node] } else { vec![Node::Guard { cond: vec![outer], body: vec![node] }] })
    }

    /// The simple hull of `region`, or where it leaves dimension `d`
    /// unbounded, that of `region` under the parameters some child runs
    /// for: the gist of what a statement needs drops conditions on the
    /// parameters alone, and a piece may be bounded only under them (a
    /// diamond wavefront's `c0 >= -1` needs `TSTEPS > 0`). Those
    /// parameters' hull without divisions comes first: their exact union
    /// can hold more disjuncts than the region, and its hull took
    /// shape_negstride's whole budget.
    fn hull_bounding(&self, d: usize, region: &Set, children: &[ScanStmt]) -> IslResult<Set> {
        let hull = region.simple_hull()?.detect_equalities()?;
        if hull.dim_is_bounded(d)? {
            return Ok(hull);
        }
        let params: Vec<Set> = children.iter().map(|c| c.set.params()).collect::<IslResult<_>>()?;
        let plain = union_all(params.iter().map(Set::remove_divs))?.simple_hull()?;
        let hull = region.intersect_params(&plain)?.simple_hull()?;
        if hull.dim_is_bounded(d)? {
            return hull.detect_equalities();
        }
        let exact = union_all(params.into_iter().map(Ok))?;
        region.intersect_params(&exact)?.simple_hull()?.detect_equalities()
    }

    /// The constraints of `cons` that `ctx` does not imply (gist is
    /// cheap but not always complete; this test is exact).
    fn not_implied(&self, cons: Vec<Constraint>, dims: usize, ctx: &Set) -> IslResult<Vec<Constraint>> {
        let mut kept = Vec::new();
        for c in cons {
            let holds = Set::from_constraints(self.n_params, dims, std::slice::from_ref(&c))?;
            if !ctx.subtract(&holds)?.is_empty()? {
                kept.push(c);
            }
        }
        Ok(kept)
    }

    /// The first value at or above `lower` on the lattice `off + s*Z`:
    /// `off - s*floor((off - lower)/s)`, or `lower` itself when the context
    /// proves it already on the lattice.
    fn align(&self, lower: &LinExpr, off: &LinExpr, s: i64, d: usize, ctx_ext: &Set) -> IslResult<LinExpr> {
        let gap = off.sub(lower);
        let misaligned = Set::parse(&set_text(self.n_params, d + 1, &format!("({}) mod {s} != 0", gap.to_isl_text())))?;
        if misaligned.intersect(ctx_ext)?.is_empty()? {
            return Ok(lower.clone());
        }
        let mut aligned = off.clone();
        aligned.add_term(Term::Floor(Box::new(gap), s), -s);
        Ok(aligned)
    }
}

enum Head {
    Let(LinExpr),
    For { lower: Vec<LinExpr>, upper: Vec<LinExpr>, stride: i64 },
}

/// The first two pieces `a < b` neither of which precedes the other.
fn interleaved(before: &[Vec<bool>]) -> Option<(usize, usize)> {
    let n = before.len();
    (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).find(|&(a, b)| !before[a][b] && !before[b][a])
}

/// The pieces in an order `before` allows (Kahn's algorithm; ties go to
/// the piece with the earliest statement); `None` on a cycle.
fn topological(pieces: &[Piece], before: &[Vec<bool>]) -> Option<Vec<usize>> {
    let n = pieces.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let b = (0..n)
            .filter(|&b| !placed[b])
            .filter(|&b| (0..n).all(|a| placed[a] || a == b || before[b][a] || !before[a][b]))
            .min_by_key(|&b| pieces[b].active.iter().min().copied())?;
        placed[b] = true;
        order.push(b);
    }
    Some(order)
}

/// `before` (whether piece `x` precedes piece `y`) once piece `b` is
/// merged into piece `a < b`: the union precedes what both preceded and
/// follows what both followed.
fn merge_orders(before: &mut Vec<Vec<bool>>, a: usize, b: usize) {
    let row = before.remove(b);
    for (x, precedes) in row.into_iter().enumerate() {
        before[a][x] &= precedes;
    }
    for r in before.iter_mut() {
        let follows = r.remove(b);
        r[a] &= follows;
    }
}

/// One piece of the points of both, with the statements of both.
fn merge(mut first: Piece, second: Piece) -> IslResult<Piece> {
    first.set = first.set.union(&second.set)?;
    for a in second.active {
        if !first.active.contains(&a) {
            first.active.push(a);
        }
    }
    first.active.sort_unstable();
    Ok(first)
}

/// One piece for the union of `bounds`, with every statement whose bound
/// is not empty: the same points as all their separated pieces, in far
/// fewer disjuncts (shape_negstride's two bounds separate into 75 pieces,
/// whose hull took 3 s).
fn bounds_merged(bounds: &[Set]) -> IslResult<Piece> {
    let mut active = Vec::new();
    for (k, b) in bounds.iter().enumerate() {
        if !b.is_empty()? {
            active.push(k);
        }
    }
    let set = union_all(active.iter().map(|&k| Ok(bounds[k].clone())))?;
    Ok(Piece { set: set.coalesce()?, active, whole: true })
}

/// The union of `sets`, of which there is at least one.
fn union_all(sets: impl IntoIterator<Item = IslResult<Set>>) -> IslResult<Set> {
    let mut union: Option<Set> = None;
    for set in sets {
        let set = set?;
        union = Some(match union {
            None => set,
            Some(u) => u.union(&set)?,
        });
    }
    union.ok_or_else(|| IslError("a union of no sets".into()))
}

/// `c_d = value` when the constraint is an equality with a unit
/// coefficient on `c_d` and no division involving it.
fn unit_equality(c: &Constraint, d: usize) -> Option<LinExpr> {
    let a = c.expr.coeff_of_dim(d);
    if !c.is_eq || a.abs() != 1 || c.expr.has_floor_involving(d) {
        return None;
    }
    Some(c.expr.without_dim(d).scale(-a))
}

/// Lower and upper bounds on `c_d` from the constraints without divisions
/// involving it: `a*c + e >= 0` gives `c >= ceil(-e/a)` for `a > 0` and
/// `c <= floor(e/-a)` for `a < 0`; an equality gives both.
fn bounds(cons: &[Constraint], d: usize) -> (Vec<LinExpr>, Vec<LinExpr>) {
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for c in cons.iter().filter(|c| !c.expr.has_floor_involving(d)) {
        let a = c.expr.coeff_of_dim(d);
        let rest = c.expr.without_dim(d);
        if a > 0 || c.is_eq {
            let (a, rest) = if a > 0 { (a, rest.clone()) } else { (-a, rest.scale(-1)) };
            lower.push(ceil_div(&rest.scale(-1), a));
            if c.is_eq {
                upper.push(floor_div(&rest.scale(-1), a));
            }
        } else if a < 0 {
            upper.push(floor_div(&rest, -a));
        }
    }
    (lower, upper)
}

/// Weaker constraints without the floors involving `c_d`, from
/// `(e - k + 1)/k <= floor(e/k) <= e/k`: each is implied by `c`.
fn relax_floors(c: &Constraint, d: usize) -> Vec<Constraint> {
    let sides = if c.is_eq { vec![c.expr.clone(), c.expr.scale(-1)] } else { vec![c.expr.clone()] };
    sides
        .into_iter()
        .filter_map(|mut e| {
            while let Some(k) = e.terms.iter().position(|(t, _)| matches!(t, Term::Floor(..)) && t.involves_dim(d)) {
                if let (Term::Floor(num, den), coef) = e.terms.remove(k) {
                    let num = if coef > 0 { *num } else { num.add(&LinExpr::constant(1 - den)) };
                    e = e.scale(den).add(&num.scale(coef));
                }
            }
            (e.coeff_of_dim(d) != 0 && !e.has_floor_involving(d)).then(|| Constraint::ge(e))
        })
        .collect()
}

pub fn floor_div(e: &LinExpr, k: i64) -> LinExpr {
    if k == 1 {
        return e.clone();
    }
    let mut r = LinExpr::default();
    r.add_term(Term::Floor(Box::new(e.clone()), k), 1);
    r
}

pub fn ceil_div(e: &LinExpr, k: i64) -> LinExpr {
    floor_div(&e.scale(-1), k).scale(-1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stmt(id: usize, text: &str) -> ScanStmt {
        ScanStmt::new(id, Set::parse(text).unwrap())
    }

    fn ctx(np: usize) -> Set {
        Set::parse(&format!("{} -> {{ [] }}", crate::model::params_decl(np))).unwrap()
    }

    #[test]
    fn rectangle_gives_two_loops_and_no_guard() {
        let s = stmt(0, "[p0] -> { [c0, c1] : 0 <= c0 < p0 and 0 <= c1 < p0 }");
        let ast = scan(vec![s], 2, 1, &ctx(1)).unwrap();
        assert!(!Node::has_guard(&ast), "{ast:?}");
        let Node::For { body, .. } = &ast[0] else { panic!("{ast:?}") };
        assert!(matches!(body[0], Node::For { .. }));
    }

    #[test]
    fn constant_dimensions_become_bindings_in_order() {
        let a = stmt(0, "[p0] -> { [c0, c1] : c0 = 1 and 0 <= c1 < p0 }");
        let b = stmt(1, "[p0] -> { [c0, c1] : c0 = 0 and 0 <= c1 < p0 }");
        let ast = scan(vec![a, b], 2, 1, &ctx(1)).unwrap();
        let mut order = Vec::new();
        Node::statements(&ast, &mut order);
        assert_eq!(order, vec![1, 0]);
        assert!(ast.iter().all(|n| matches!(n, Node::Let { .. })));
    }

    #[test]
    fn strides_become_loop_steps() {
        let s = stmt(0, "[p0] -> { [c0] : 0 <= c0 < p0 and c0 mod 3 = 1 }");
        let ast = scan(vec![s], 1, 1, &ctx(1)).unwrap();
        let Node::For { stride, .. } = &ast[0] else { panic!("{ast:?}") };
        assert_eq!(*stride, 3);
        assert!(!Node::has_guard(&ast), "{ast:?}");
    }

    #[test]
    fn partial_overlap_is_separated() {
        let a = stmt(0, "[p0] -> { [c0] : 0 <= c0 < 10 }");
        let b = stmt(1, "[p0] -> { [c0] : 5 <= c0 < 20 }");
        let ast = scan(vec![a, b], 1, 1, &ctx(1)).unwrap();
        assert_eq!(ast.len(), 3, "{ast:?}");
        assert!(!Node::has_guard(&ast));
    }

    #[test]
    fn a_split_statement_keeps_its_outer_loops_whole() {
        // Rows from 0, columns below them in blocks of 4: the blocks under
        // the diagonal apart from those on it, within one loop of rows.
        let whole = "[p0] -> { [r, c] : 0 <= r < p0 and 0 <= c <= r }";
        let below = "[p0] -> { [r, c] : 0 <= r < p0 and 0 <= c and 4c < 4*floor(r/4) }";
        let on = "[p0] -> { [r, c] : 0 <= r < p0 and 4*floor(r/4) <= c <= r }";
        let mut s = stmt(0, whole);
        s.split = Some(Split { at: 1, parts: vec![stmt(1, below), stmt(0, on)] });
        let ast = scan(vec![s], 2, 1, &ctx(1)).unwrap();
        let [Node::For { dim: 0, body, .. }] = &ast[..] else { panic!("not one loop of rows: {ast:?}") };
        assert_eq!(body.len(), 2, "{body:?}");
        let mut order = Vec::new();
        Node::statements(body, &mut order);
        assert_eq!(order, vec![1, 0]);
    }

    #[test]
    fn a_merged_piece_precedes_and_follows_what_both_did() {
        // 0 and 2 interleave; 0 precedes 1 (2 does not); 3 precedes 0, 1 and 2.
        let mut before = vec![
            vec![false, true, false, false],
            vec![false, false, false, false],
            vec![false, false, false, false],
            vec![true, true, true, false],
        ];
        assert_eq!(interleaved(&before), Some((0, 2)));
        merge_orders(&mut before, 0, 2);
        assert_eq!(before, vec![vec![false, false, false], vec![false, false, false], vec![true, true, false]]);
    }
}
