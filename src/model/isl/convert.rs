//! isl's constraints and affine expressions as polyc's [`Constraint`]
//! and [`LinExpr`].

use super::check::Checked;
use super::error::{IslError, IslResult};
use crate::model::affine::{Constraint, LinExpr, Term};
use isl_rs::{Aff, BasicSet, Constraint as IslConstraint, DimType, Val};

pub(super) fn val_to_i64(v: &Val) -> IslResult<i64> {
    let den = v.get_den_si().checked()?;
    if den != 1 {
        return Err(IslError("non-integer value".into()));
    }
    v.get_num_si().checked()
}

/// `v * scale` as an integer (`v` rational, `scale` a common denominator).
fn scaled_to_i64(v: &Val, scale: i64) -> IslResult<i64> {
    let num = v.get_num_si().checked()?;
    let den = v.get_den_si().checked()?;
    if den == 0 || (num * scale) % den != 0 {
        return Err(IslError("coefficient is not a multiple of the denominator".into()));
    }
    Ok(num * scale / den)
}

pub(super) fn basic_set_constraints(bset: &BasicSet) -> IslResult<Vec<Constraint>> {
    let list = bset.get_constraint_list().checked()?;
    let n = list.size().checked()?;
    (0..n).map(|k| constraint_from_isl(&list.get_at(k).checked()?)).collect()
}

fn constraint_from_isl(c: &IslConstraint) -> IslResult<Constraint> {
    let mut expr = LinExpr::constant(val_to_i64(&c.get_constant_val().checked()?)?);
    for (ty, make) in [(DimType::Set, Term::Dim as fn(usize) -> Term), (DimType::Param, Term::Param)] {
        for k in 0..c.dim(ty).checked()? {
            let coef = val_to_i64(&c.get_coefficient_val(ty, k).checked()?)?;
            expr.add_term(make(k as usize), coef);
        }
    }
    for k in 0..c.dim(DimType::Div).checked()? {
        let coef = val_to_i64(&c.get_coefficient_val(DimType::Div, k).checked()?)?;
        if coef != 0 {
            expr.add_term(div_term(&c.get_div(k).checked()?)?, coef);
        }
    }
    let is_eq = c.is_equality().checked()?;
    Ok(Constraint { expr, is_eq })
}

/// The integer numerator and denominator of an affine expression.
fn aff_parts(aff: &Aff) -> IslResult<(LinExpr, i64)> {
    let den = val_to_i64(&aff.get_denominator_val().checked()?)?;
    let mut expr = LinExpr::constant(scaled_to_i64(&aff.get_constant_val().checked()?, den)?);
    for (ty, make) in [(DimType::In, Term::Dim as fn(usize) -> Term), (DimType::Param, Term::Param)] {
        for k in 0..aff.dim(ty).checked()? {
            let coef = scaled_to_i64(&aff.get_coefficient_val(ty, k).checked()?, den)?;
            expr.add_term(make(k as usize), coef);
        }
    }
    for k in 0..aff.dim(DimType::Div).checked()? {
        let coef = scaled_to_i64(&aff.get_coefficient_val(DimType::Div, k).checked()?, den)?;
        if coef != 0 {
            expr.add_term(div_term(&aff.get_div(k).checked()?)?, coef);
        }
    }
    Ok((expr, den))
}

/// An isl div is `floor(aff)`.
fn div_term(aff: &Aff) -> IslResult<Term> {
    let (num, den) = aff_parts(aff)?;
    Ok(Term::Floor(Box::new(num), den))
}

/// An integral affine expression, or `None` if it is rational.
pub(super) fn aff_to_expr(aff: &Aff) -> IslResult<Option<LinExpr>> {
    let (expr, den) = aff_parts(aff)?;
    Ok((den == 1).then_some(expr))
}
