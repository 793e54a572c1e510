//! Integer points and integer programs over sets: Farkas' dual, the
//! lexicographic minimum one dimension at a time, the points of a
//! bounded set.

use super::check::Checked;
use super::context::with_ctx;
use super::convert::{basic_set_constraints, val_to_i64};
use super::error::{IslError, IslResult};
use super::set::Set;
use crate::model::affine::Constraint;
use isl_rs::{Aff, DimType, Set as IslSet, Val};

impl Set {
    /// The affine forms nonnegative over the whole (rational) set, by
    /// Farkas' lemma as isl's dual computes it: each constraint returned
    /// is over the coefficients `[constant, parameters.., dimensions..]`
    /// of such a form, and together they say which forms are valid.
    pub fn valid_form_coefficients(&self) -> IslResult<Vec<Constraint>> {
        let dual = self.copy()?.coefficients().checked()?.flatten().checked()?;
        basic_set_constraints(&dual)
    }

    /// The lexicographically smallest point of a set without parameters
    /// (`None`: the set is empty). One dimension at a time, each a plain
    /// integer program: isl's lexmin solves a parametric problem, which
    /// took 25 s on an 11-unknown system of SMO's that this solves at once.
    pub fn lexmin_point(&self) -> IslResult<Option<Vec<i64>>> {
        if self.n_params()? > 0 {
            return Err(IslError("lexmin_point: the set has parameters".into()));
        }
        if self.is_empty()? {
            return Ok(None);
        }
        let n = self.n_dims()?;
        let names: Vec<String> = (0..n).map(|k| format!("x{k}")).collect();
        let mut rest = self.copy()?;
        let mut point = Vec::with_capacity(n);
        for (k, name) in names.iter().enumerate() {
            let text = format!("{{ [{}] -> [({name})] }}", names.join(", "));
            let objective = with_ctx(|ctx| Aff::read_from_str(ctx, &text).checked())?;
            let least = val_to_i64(&rest.min_val(&objective).checked()?)?;
            let fixed = i32::try_from(least).map_err(|_| IslError(format!("lexmin_point: {least} out of range")))?;
            rest = rest.fix_si(DimType::Set, k as u32, fixed).checked()?;
            point.push(least);
        }
        Ok(Some(point))
    }

    /// The integer points of a bounded set, whatever its parameters'
    /// values (fix them by constraints first); `None` if the set is
    /// unbounded or holds more than `limit` points.
    pub fn points(&self, limit: usize) -> IslResult<Option<Vec<Vec<i64>>>> {
        let plain = self.copy()?.project_out_all_params().checked()?;
        if !plain.is_bounded().checked()? || integer(&plain.count_val().checked()?)?.is_none_or(|n| n > limit as i64) {
            return Ok(None);
        }
        let mut out = Vec::new();
        points_after(plain, &mut Vec::new(), &mut out)?;
        Ok(Some(out))
    }
}

/// Appends to `out` the points of the bounded `set`, each after `prefix`,
/// slicing along its first dimension.
fn points_after(set: IslSet, prefix: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) -> IslResult<()> {
    if set.dim(DimType::Set).checked()? == 0 {
        if !set.is_empty().checked()? {
            out.push(prefix.clone());
        }
        return Ok(());
    }
    if set.is_empty().checked()? {
        return Ok(());
    }
    let (Some(lo), Some(hi)) = (
        integer(&set.copy().checked()?.dim_min_val(0).checked()?)?,
        integer(&set.copy().checked()?.dim_max_val(0).checked()?)?,
    ) else {
        return Ok(());
    };
    // The last dimension is most often a whole interval: one count
    // instead of a slice per value.
    if set.dim(DimType::Set).checked()? == 1 && integer(&set.count_val().checked()?)? == Some(hi - lo + 1) {
        out.extend((lo..=hi).map(|v| [prefix.as_slice(), &[v]].concat()));
        return Ok(());
    }
    for v in lo..=hi {
        let Ok(at) = i32::try_from(v) else {
            return Err(IslError(format!("coordinate {v} out of range")));
        };
        let slice = set.copy().checked()?.fix_si(DimType::Set, 0, at).checked()?;
        prefix.push(v);
        points_after(slice.project_out(DimType::Set, 0, 1).checked()?, prefix, out)?;
        prefix.pop();
    }
    Ok(())
}

/// `v` as an integer, `None` for an infinity or a fraction.
fn integer(v: &Val) -> IslResult<Option<i64>> {
    if !v.is_int().checked()? {
        return Ok(None);
    }
    v.get_num_si().checked().map(Some)
}
