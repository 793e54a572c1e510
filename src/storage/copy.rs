//! Statements polyc adds to a SCoP that copy cells from one array to
//! another over a convex set of them: expansion's copy back of a web's
//! last values (`expand`), and the transposed copies of operands
//! (`transpose`).

use crate::frontend::qexpr::{CmpOp, Cond, QExpr, Var};
use crate::frontend::{Access, AccessKind, Iterator, ScopAst, Stmt};
use crate::model::affine::{Constraint, LinExpr, Term};
use crate::names::FreshNames;

/// One side of a copy: `array[leading..][it_order[0]][it_order[1]]..`,
/// the copy's iterators after the leading subscripts in `order`.
pub(super) struct Side<'a> {
    pub array: &'a str,
    pub leading: &'a [LinExpr],
    pub order: &'a [usize],
}

/// The statement `write = read;` over new iterators (named after
/// `prefix`), one per dimension of `cells`, ranging over the cells:
/// constraints on their indices (`Dim`) and the parameters. Its
/// schedule puts it after every statement of `ast`; its span is the
/// region's end. `None` if an expression has a floor.
pub(super) fn copy_statement(
    ast: &ScopAst,
    cells: &[Constraint],
    [write, read]: [Side; 2],
    prefix: &str,
    names: &mut FreshNames,
) -> Option<Stmt> {
    let rank = write.order.len();
    let mut domain = Cond::True;
    for c in cells {
        let op = if c.is_eq { CmpOp::Eq } else { CmpOp::Ge };
        domain = Cond::and(domain, Cond::Cmp(quasi_affine(&c.expr)?, op, QExpr::Const(0)));
    }
    let iterators: Vec<Iterator> = (0..rank)
        .map(|j| Iterator { name: names.mint(&format!("{prefix}_i{j}")), ty: "long".to_string(), descending: false })
        .collect();
    let start = ast.region.end;
    let (mut text, mut iter_uses, mut accesses) = (String::new(), Vec::new(), Vec::new());
    for (side, kind) in [(write, AccessKind::Write), (read, AccessKind::Read)] {
        let from = text.len();
        text.push_str(side.array);
        let mut subscripts = Vec::new();
        for e in side.leading {
            text.push_str(&format!("[{}]", e.param_text(&ast.params)?));
            subscripts.push(quasi_affine(e)?);
        }
        for &j in side.order {
            let it = &iterators[j].name;
            text.push('[');
            iter_uses.push((text.len()..text.len() + it.len(), j));
            text.push_str(it);
            text.push(']');
            subscripts.push(QExpr::Var(Var::Iter(j)));
        }
        let span = start + from..start + text.len();
        accesses.push(Access { array: side.array.to_string(), kind, subscripts, span, conditional: false });
        text.push_str(if kind == AccessKind::Write { " = " } else { ";" });
    }
    let top = ast.stmts.iter().filter_map(|s| s.beta.first()).max().map_or(0, |b| b + 1);
    let mut beta = vec![0; rank + 1];
    beta[0] = top;
    let referential = vec![None; iterators.len()];
    let span = start..start + text.len();
    let (component, filters, sets) = (None, Vec::new(), None);
    Some(Stmt { span, text, iterators, domain, beta, accesses, iter_uses, referential, component, filters, sets })
}

/// `e` (dimensions as iterators, and parameters) as a quasi-affine
/// expression; `None` if it has a floor.
fn quasi_affine(e: &LinExpr) -> Option<QExpr> {
    let mut q = QExpr::Const(e.constant);
    for (t, c) in &e.terms {
        let var = match t {
            Term::Dim(d) => Var::Iter(*d),
            Term::Param(k) => Var::Param(*k),
            Term::Floor(..) => return None,
        };
        q = QExpr::plus(q, QExpr::Mul(*c, Box::new(QExpr::Var(var))));
    }
    Some(q)
}
