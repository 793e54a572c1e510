//! Greedy reduction of a failing program, on the generator's AST: every
//! candidate is one small edit of the current program (drop a statement,
//! hoist a loop's body, drop a guard, simplify a bound, a condition, an
//! expression or an affine term), kept only if it keeps the generator's
//! invariants ([`valid`]) and the failure persists. Array extents and
//! offsets are recomputed when printing, so every candidate stays in
//! bounds. Stops when no edit is kept in a full round, or at the deadline.

use super::gen::{valid, Aff, Bound, Cond, Env, Expr, Lhs, Loop, Program, Stmt, Var};
use std::time::Instant;

/// Visit every statement list (the body and every nested one), outermost
/// first; stop when `f` returns true.
fn lists_mut(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Vec<Stmt>) -> bool) -> bool {
    if f(stmts) {
        return true;
    }
    for s in stmts.iter_mut() {
        let done = match s {
            Stmt::For(l) => lists_mut(&mut l.body, f),
            Stmt::If(_, t, e) => lists_mut(t, f) || lists_mut(e, f),
            _ => false,
        };
        if done {
            return true;
        }
    }
    false
}

fn stmts_mut(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Stmt) -> bool) -> bool {
    lists_mut(stmts, &mut |list| list.iter_mut().any(&mut *f))
}

fn exprs_in(e: &mut Expr, f: &mut dyn FnMut(&mut Expr) -> bool) -> bool {
    if f(e) {
        return true;
    }
    match e {
        Expr::Avg(x, y) | Expr::Diff(x, y) => exprs_in(x, f) || exprs_in(y, f),
        Expr::Sqrt(x) | Expr::Call(x) | Expr::Parens(_, x) => exprs_in(x, f),
        Expr::Mean(terms) => terms.iter_mut().any(|t| exprs_in(t, f)),
        _ => false,
    }
}

fn conds_in(c: &mut Cond, f: &mut dyn FnMut(&mut Cond) -> bool) -> bool {
    if f(c) {
        return true;
    }
    match c {
        Cond::And(x, y) | Cond::Or(x, y) => conds_in(x, f) || conds_in(y, f),
        Cond::Not(x) => conds_in(x, f),
        _ => false,
    }
}

fn bounds_in(b: &mut Bound, f: &mut dyn FnMut(&mut Bound) -> bool) -> bool {
    if f(b) {
        return true;
    }
    match b {
        Bound::Min(x, y) | Bound::Max(x, y) => bounds_in(x, f) || bounds_in(y, f),
        _ => false,
    }
}

/// Every affine expression: bounds, guards, subscripts, index values.
fn affs_mut(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Aff) -> bool) -> bool {
    fn in_bound(b: &mut Bound, f: &mut dyn FnMut(&mut Aff) -> bool) -> bool {
        bounds_in(b, &mut |b| match b {
            Bound::Aff(a) | Bound::Div(a, _) => f(a),
            _ => false,
        })
    }
    fn in_cond(c: &mut Cond, f: &mut dyn FnMut(&mut Aff) -> bool) -> bool {
        conds_in(c, &mut |c| match c {
            Cond::Cmp(x, _, y) | Cond::DivCmp(x, _, _, y) => f(x) || f(y),
            Cond::Mod(x, _, _) => f(x),
            _ => false,
        })
    }
    fn in_expr(e: &mut Expr, f: &mut dyn FnMut(&mut Aff) -> bool) -> bool {
        exprs_in(e, &mut |e| match e {
            Expr::Elem(_, subs) => subs.iter_mut().any(&mut *f),
            Expr::Index(a) => f(a),
            _ => false,
        })
    }
    stmts_mut(stmts, &mut |s| match s {
        Stmt::For(l) => in_bound(&mut l.lo, f) || in_bound(&mut l.hi, f),
        Stmt::If(c, _, _) => in_cond(c, f),
        Stmt::Assign { lhs, rhs, .. } => {
            (match lhs {
                Lhs::Elem(_, subs) => subs.iter_mut().any(&mut *f),
                Lhs::Scalar(_) => false,
            }) || in_expr(rhs, f)
        }
        Stmt::Fill(_) => false,
    })
}

/// Replace iterator `id` by the constant `value` everywhere.
fn substitute(stmts: &mut Vec<Stmt>, id: u32, value: i64) {
    affs_mut(stmts, &mut |a| {
        let before = a.terms.len();
        let mut add = 0;
        a.terms.retain(|&(k, v)| {
            if v == Var::Iter(id) {
                add += k * value;
                false
            } else {
                true
            }
        });
        if a.terms.len() != before {
            a.c += add;
        }
        false
    });
}

/// One kind of edit: applies its `n`-th site to a copy of `p`, or `None`
/// when there are fewer than `n + 1` sites.
type Edit = fn(&Program, usize) -> Option<Program>;

/// Count sites with `counter`, apply the `n`-th.
fn nth(n: usize) -> impl FnMut() -> bool {
    let mut k = 0;
    move || {
        let hit = k == n;
        k += 1;
        hit
    }
}

fn remove_stmt(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    lists_mut(&mut q.body, &mut |list| {
        for i in 0..list.len() {
            if !matches!(list[i], Stmt::Fill(_)) && hit() {
                list.remove(i);
                return true;
            }
        }
        false
    })
    .then_some(q)
}

fn hoist_loop(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    // The hoisted loop's iterator becomes a constant: its lower bound with
    // the outer iterators at 0.
    let done = lists_mut(&mut q.body, &mut |list| {
        for i in 0..list.len() {
            if let Stmt::For(l) = &list[i] {
                if hit() {
                    let Loop { id, lo, mut body, .. } = l.clone();
                    let value = Env::default().bound(&lo).0.max(0);
                    substitute(&mut body, id, value);
                    list.splice(i..=i, body);
                    return true;
                }
            }
        }
        false
    });
    done.then_some(q)
}

fn unguard(p: &Program, n: usize, keep_then: bool) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    lists_mut(&mut q.body, &mut |list| {
        for i in 0..list.len() {
            if let Stmt::If(_, t, e) = &list[i] {
                if hit() {
                    let kept = if keep_then { t.clone() } else { e.clone() };
                    list.splice(i..=i, kept);
                    return true;
                }
            }
        }
        false
    })
    .then_some(q)
}

fn drop_else(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    stmts_mut(&mut q.body, &mut |s| match s {
        Stmt::If(_, _, e) if !e.is_empty() && hit() => {
            e.clear();
            true
        }
        _ => false,
    })
    .then_some(q)
}

fn loop_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    stmts_mut(&mut q.body, &mut |s| {
        let Stmt::For(l) = s else { return false };
        if l.step != 1 && hit() {
            l.step = 1;
            return true;
        }
        if l.down && hit() {
            l.down = false;
            return true;
        }
        if l.lo != Bound::Aff(Aff::konst(0)) && hit() {
            l.lo = Bound::Aff(Aff::konst(0));
            return true;
        }
        false
    })
    .then_some(q)
}

/// `min(a, b)` and `max(a, b)` to one side, `a / k` to `a`.
fn bound_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    stmts_mut(&mut q.body, &mut |s| {
        let Stmt::For(l) = s else { return false };
        let mut f = |b: &mut Bound| match b {
            Bound::Min(x, y) | Bound::Max(x, y) => {
                if hit() {
                    *b = (**x).clone();
                    return true;
                }
                if hit() {
                    *b = (**y).clone();
                    return true;
                }
                false
            }
            Bound::Div(a, _) if hit() => {
                *b = Bound::Aff(a.clone());
                true
            }
            _ => false,
        };
        bounds_in(&mut l.lo, &mut f) || bounds_in(&mut l.hi, &mut f)
    })
    .then_some(q)
}

fn cond_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    stmts_mut(&mut q.body, &mut |s| {
        let Stmt::If(c, _, _) = s else { return false };
        conds_in(c, &mut |c| match c {
            Cond::And(x, y) | Cond::Or(x, y) => {
                if hit() {
                    *c = (**x).clone();
                    return true;
                }
                if hit() {
                    *c = (**y).clone();
                    return true;
                }
                false
            }
            Cond::Not(x) if hit() => {
                *c = (**x).clone();
                true
            }
            Cond::Mod(a, _, r) if *r != 0 && hit() => {
                let _ = a;
                *r = 0;
                true
            }
            _ => false,
        })
    })
    .then_some(q)
}

fn expr_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    let done = stmts_mut(&mut q.body, &mut |s| match s {
        Stmt::Assign { acc, rhs, .. } => {
            if *acc && hit() {
                *acc = false;
                return true;
            }
            exprs_in(rhs, &mut |e| match e {
                Expr::Avg(x, y) | Expr::Diff(x, y) => {
                    if hit() {
                        *e = (**x).clone();
                        return true;
                    }
                    if hit() {
                        *e = (**y).clone();
                        return true;
                    }
                    false
                }
                Expr::Sqrt(x) | Expr::Call(x) | Expr::Parens(_, x) if hit() => {
                    *e = (**x).clone();
                    true
                }
                Expr::Mean(terms) if hit() => {
                    *e = terms[0].clone();
                    true
                }
                Expr::Elem(..) | Expr::Scalar(_) | Expr::Index(_) if hit() => {
                    *e = Expr::Num(1);
                    true
                }
                _ => false,
            })
        }
        _ => false,
    });
    done.then_some(q)
}

fn aff_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    affs_mut(&mut q.body, &mut |a| {
        for i in 0..a.terms.len() {
            if hit() {
                a.terms.remove(i);
                return true;
            }
            if a.terms[i].0 != 1 && hit() {
                a.terms[i].0 = 1;
                return true;
            }
        }
        if a.c != 0 && hit() {
            a.c = 0;
            return true;
        }
        false
    })
    .then_some(q)
}

/// A scalar assignment target instead of an array cell.
fn lhs_simpler(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut hit = nth(n);
    stmts_mut(&mut q.body, &mut |s| match s {
        Stmt::Assign { lhs: lhs @ Lhs::Elem(..), .. } if hit() => {
            *lhs = Lhs::Scalar(0);
            true
        }
        _ => false,
    })
    .then_some(q)
}

const EDITS: [Edit; 10] = [
    remove_stmt,
    hoist_loop,
    |p, n| unguard(p, n, true),
    |p, n| unguard(p, n, false),
    drop_else,
    loop_simpler,
    bound_simpler,
    cond_simpler,
    expr_simpler,
    aff_simpler,
];

/// Reduce `p` while `fails` holds, until no edit helps or `deadline`.
/// Returns the smallest failing program found and the number of
/// candidates tried.
pub fn shrink(p: &Program, deadline: Instant, fails: &mut dyn FnMut(&Program) -> bool) -> (Program, usize) {
    let mut cur = p.clone();
    let mut tried = 0;
    let edits: Vec<Edit> = EDITS.iter().copied().chain([lhs_simpler as Edit]).collect();
    loop {
        let mut progress = false;
        for edit in &edits {
            let mut n = 0;
            while let Some(cand) = edit(&cur, n) {
                if Instant::now() > deadline {
                    return (cur, tried);
                }
                if cand == cur || !valid(&cand) || cand.to_c() == cur.to_c() {
                    n += 1;
                    continue;
                }
                tried += 1;
                if fails(&cand) {
                    cur = cand;
                    progress = true;
                } else {
                    n += 1;
                }
            }
        }
        if !progress {
            return (cur, tried);
        }
    }
}
