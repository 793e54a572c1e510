//! Checking isl's results: the error isl reported through the context,
//! a NULL object (isl-rs wraps NULL without complaint, and any later call
//! on it would crash), and what a failure means (out of time, out of
//! operations, or a text isl does not read).

use super::clock::time_is_up;
use super::context::with_ctx;
use super::error::{IslError, IslResult};
use isl_rs::{
    Aff, BasicSet, Constraint as IslConstraint, LibISLError, Map as IslMap, Schedule, ScheduleConstraints,
    Set as IslSet, UnionAccessInfo, UnionFlow, UnionMap as IslUnionMap, UnionSet as IslUnionSet, Val,
};

/// Whether this thread's context ran out of its operation budget (the
/// error that ends a computation rather than one step of it). Once out,
/// every operation fails, so a trivial one tells.
pub fn out_of_budget() -> bool {
    with_ctx(|ctx| IslSet::read_from_str(ctx, "{ [0] }").checked()).and_then(|s| s.is_empty().checked()).is_err()
}

/// What a failed parse of `text` means. isl's parser reports any failure
/// as a syntax error, running out of operations (or time) included: that
/// is reported as what it is; otherwise polyc built a text isl does not
/// read, a bug, reported with the text.
pub(super) fn parse_error(e: IslError, text: &str) -> IslError {
    if time_is_up() {
        IslError("out of time".into())
    } else if out_of_budget() {
        IslError("maximal number of operations exceeded".into())
    } else {
        IslError(format!("isl does not read the text polyc built ({e}): {text}"))
    }
}

/// Results of isl-rs calls that can be NULL objects.
trait Nullable {
    fn is_null(&self) -> bool;
}

macro_rules! nullable_objects {
    ($($t:ty),*) => { $(impl Nullable for $t { fn is_null(&self) -> bool { self.ptr == 0 } })* };
}
nullable_objects!(
    IslSet,
    BasicSet,
    IslMap,
    IslConstraint,
    isl_rs::ConstraintList,
    isl_rs::BasicSetList,
    isl_rs::BasicMapList,
    isl_rs::StrideInfo,
    Val,
    Aff,
    IslUnionMap,
    IslUnionSet,
    isl_rs::MapList,
    isl_rs::BasicMap,
    UnionAccessInfo,
    UnionFlow,
    ScheduleConstraints,
    Schedule,
    isl_rs::MultiUnionPwAff
);

macro_rules! plain_values {
    ($($t:ty),*) => { $(impl Nullable for $t { fn is_null(&self) -> bool { false } })* };
}
plain_values!(bool, i32, i64, isl_rs::Stat);

pub(super) trait Checked<T> {
    fn checked(self) -> IslResult<T>;
}

impl<T: Nullable> Checked<T> for Result<T, LibISLError> {
    fn checked(self) -> IslResult<T> {
        let failure = match self {
            // Out of time, every result is an error: the computation stops
            // at its next isl call, polyc's loops included.
            _ if time_is_up() => "out of time".to_string(),
            Ok(v) if !v.is_null() => return Ok(v),
            Ok(_) => "isl returned no object".to_string(),
            Err(e) => e.to_string(),
        };
        // A failed isl_bool call leaves the error set on the context.
        with_ctx(|ctx| ctx.reset_error());
        Err(IslError(failure))
    }
}

pub(super) trait CheckedText {
    fn checked_text(self) -> IslResult<String>;
}

impl CheckedText for Result<&str, LibISLError> {
    fn checked_text(self) -> IslResult<String> {
        self.map(str::to_string).map_err(|e| IslError(e.to_string()))
    }
}
