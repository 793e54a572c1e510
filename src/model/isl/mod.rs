//! The one place polyc talks to isl (through `isl-rs`).
//!
//! Every wrapper method borrows its inputs and returns a fresh object, so
//! ownership never leaks out of this module: callers hold plain values and
//! isl's reference counting does the copying. Every result is checked twice:
//! the error isl reported through the context, and a NULL object (isl-rs
//! wraps NULL without complaint, and any later call on it would crash).
//!
//! One isl context per thread (`thread_local!`), never shared. Each SCoP
//! starts with [`set_operation_budget`], so a pathological input fails with
//! an error instead of hanging.

use super::affine::{Constraint, LinExpr, Term};
use isl_rs::{
    Aff, BasicSet, Constraint as IslConstraint, Context, DimType, LibISLError, Map as IslMap, Options, Schedule,
    ScheduleConstraints, Set as IslSet, UnionAccessInfo, UnionFlow, UnionMap as IslUnionMap, UnionSet as IslUnionSet,
    Val,
};
use std::fmt;

mod clock;
mod flow;
mod solve;

pub use clock::{expired_in, phase, time_is_up, within_time, PhaseGuard, TimeLimit, DEFAULT_TIME_BUDGET};
pub use flow::{compute_flow, FlowResult};

/// isl's default on-error behaviour prints to stderr; polyc reports errors itself.
const ISL_ON_ERROR_CONTINUE: i32 = 1;

/// Operations allowed per SCoP unless the caller says otherwise.
pub const DEFAULT_OPERATION_BUDGET: u64 = 20_000_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IslError(pub String);

impl fmt::Display for IslError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IslError {}

pub type IslResult<T> = Result<T, IslError>;

thread_local! {
    static CTX: Context = new_context();
}

fn new_context() -> Context {
    let ctx = Context::alloc();
    // An error here only means isl keeps printing its warnings.
    let _ = Options::set_on_error(&ctx, ISL_ON_ERROR_CONTINUE);
    ctx.set_max_operations(DEFAULT_OPERATION_BUDGET);
    ctx
}

fn with_ctx<R>(f: impl FnOnce(&Context) -> R) -> R {
    CTX.with(f)
}

thread_local! {
    /// The operation bound this thread asked for (its context's, unless a
    /// time limit ran out and stopped it).
    static BOUND: std::cell::Cell<u64> = const { std::cell::Cell::new(DEFAULT_OPERATION_BUDGET) };
}

/// Restart this thread's operation counter with a new bound.
pub fn set_operation_budget(max_operations: u64) {
    BOUND.with(|b| b.set(max_operations));
    with_ctx(|ctx| {
        ctx.reset_operations();
        ctx.set_max_operations(max_operations);
        // The watchdog may have stopped the context before this call.
        if time_is_up() {
            ctx.set_max_operations(clock::STOPPED);
        }
    })
}

/// The bound asked for, back on the context after a time limit that
/// stopped it is gone.
fn restore_operation_bound() {
    with_ctx(|ctx| {
        ctx.set_max_operations(BOUND.with(|b| b.get()));
        ctx.reset_error();
    })
}

/// This thread's current bound on isl operations.
pub fn operation_budget() -> u64 {
    BOUND.with(|b| b.get())
}

/// Run `f` under a budget of its own, then restart the thread's previous
/// bound with a fresh count; `Ok(None)` if `f` ran out of its budget.
pub fn within_budget<R>(max_operations: u64, f: impl FnOnce() -> IslResult<R>) -> IslResult<Option<R>> {
    let previous = operation_budget();
    set_operation_budget(max_operations);
    let result = f();
    let out = result.is_err() && out_of_budget();
    set_operation_budget(previous);
    match result {
        Ok(r) => Ok(Some(r)),
        Err(_) if out => Ok(None),
        Err(e) => Err(e),
    }
}

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
fn parse_error(e: IslError, text: &str) -> IslError {
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
    Schedule
);

macro_rules! plain_values {
    ($($t:ty),*) => { $(impl Nullable for $t { fn is_null(&self) -> bool { false } })* };
}
plain_values!(bool, i32, i64, isl_rs::Stat);

trait Checked<T> {
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

/// A (possibly non-convex) integer set, in polyc's naming convention:
/// parameters `p0..`, set dimensions positional.
pub struct Set(IslSet);

/// A relation between two integer tuples.
pub struct Map(IslMap);

/// A union of relations between named tuples (statement instances,
/// array elements, schedule points).
pub struct UnionMap(IslUnionMap);

/// A union of sets in named spaces.
pub struct UnionSet(IslUnionSet);

impl Clone for Set {
    fn clone(&self) -> Self {
        Set(self.0.copy().expect("isl_set_copy only increments a reference count"))
    }
}

impl Clone for Map {
    fn clone(&self) -> Self {
        Map(self.0.copy().expect("isl_map_copy only increments a reference count"))
    }
}

impl Clone for UnionMap {
    fn clone(&self) -> Self {
        UnionMap(self.0.copy().expect("isl_union_map_copy only increments a reference count"))
    }
}

impl Clone for UnionSet {
    fn clone(&self) -> Self {
        UnionSet(self.0.copy().expect("isl_union_set_copy only increments a reference count"))
    }
}

fn params_prefix(n_params: usize) -> String {
    let names: Vec<String> = (0..n_params).map(|k| format!("p{k}")).collect();
    format!("[{}]", names.join(", "))
}

/// isl's text for a set in `n_dims` positional dimensions `c0..` whose
/// constraints are `body` (isl syntax, may be empty).
pub fn set_text(n_params: usize, n_dims: usize, body: &str) -> String {
    let dims: Vec<String> = (0..n_dims).map(|k| format!("c{k}")).collect();
    let cond = if body.is_empty() { String::new() } else { format!(" : {body}") };
    format!("{} -> {{ [{}]{} }}", params_prefix(n_params), dims.join(", "), cond)
}

impl Set {
    pub fn parse(text: &str) -> IslResult<Set> {
        with_ctx(|ctx| IslSet::read_from_str(ctx, text).checked()).map(Set).map_err(|e| parse_error(e, text))
    }

    /// The set of `n_dims`-tuples satisfying every constraint in `cons`.
    pub fn from_constraints(n_params: usize, n_dims: usize, cons: &[Constraint]) -> IslResult<Set> {
        let body: Vec<String> = cons.iter().map(|c| c.to_isl_text()).collect();
        Set::parse(&set_text(n_params, n_dims, &body.join(" and ")))
    }

    fn copy(&self) -> IslResult<IslSet> {
        self.0.copy().checked()
    }

    pub fn n_dims(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Set).checked()? as usize)
    }

    pub fn n_params(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Param).checked()? as usize)
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// True when the set has no constraints at all (cheap, syntactic).
    pub fn is_universe(&self) -> IslResult<bool> {
        self.0.plain_is_universe().checked()
    }

    pub fn is_equal(&self, other: &Set) -> IslResult<bool> {
        self.0.is_equal(&other.0).checked()
    }

    pub fn is_subset_of(&self, other: &Set) -> IslResult<bool> {
        self.0.is_subset(&other.0).checked()
    }

    pub fn intersect(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.intersect(other.copy()?).checked().map(Set)
    }

    /// `{ [x, y] : x in self and y in other }`.
    pub fn flat_product(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.flat_product(other.copy()?).checked().map(Set)
    }

    pub fn subtract(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.subtract(other.copy()?).checked().map(Set)
    }

    pub fn union(&self, other: &Set) -> IslResult<Set> {
        self.copy()?.union(other.copy()?).checked().map(Set)
    }

    /// Simplify `self` assuming `context` holds.
    pub fn gist(&self, context: &Set) -> IslResult<Set> {
        self.copy()?.gist(context.copy()?).checked().map(Set)
    }

    pub fn coalesce(&self) -> IslResult<Set> {
        self.copy()?.coalesce().checked().map(Set)
    }

    pub fn detect_equalities(&self) -> IslResult<Set> {
        self.copy()?.detect_equalities().checked().map(Set)
    }

    /// Existentially eliminate every dimension from `keep` on.
    pub fn keep_leading_dims(&self, keep: usize) -> IslResult<Set> {
        let n = self.n_dims()?;
        if keep >= n {
            return Ok(self.clone());
        }
        self.copy()?.project_out(DimType::Set, keep as u32, (n - keep) as u32).checked().map(Set)
    }

    /// Append `n` unconstrained dimensions.
    pub fn add_dims(&self, n: usize) -> IslResult<Set> {
        self.copy()?.add_dims(DimType::Set, n as u32).checked().map(Set)
    }

    /// Keep only the constraints on dimensions before `first` (and parameters).
    pub fn constraints_before_dim(&self, first: usize) -> IslResult<Set> {
        let n = self.n_dims()?;
        if first >= n {
            return Ok(self.clone());
        }
        self.copy()?.drop_constraints_involving_dims(DimType::Set, first as u32, (n - first) as u32).checked().map(Set)
    }

    /// Whether every convex piece has both a lower and an upper bound
    /// constraint on dimension `dim`.
    /// (A stride `c = 8e` would count as both: existentials are removed first.)
    pub fn dim_is_bounded(&self, dim: usize) -> IslResult<bool> {
        let plain = self.copy()?.remove_divs().checked()?;
        let lower = plain.dim_has_lower_bound(DimType::Set, dim as u32).checked()?;
        Ok(lower && plain.dim_has_upper_bound(DimType::Set, dim as u32).checked()?)
    }

    /// The convex pieces of a disjoint decomposition of the set.
    pub fn disjoint_convex_pieces(&self) -> IslResult<Vec<Set>> {
        Set(self.copy()?.make_disjoint().checked()?).convex_pieces()
    }

    /// The convex pieces of the set, as few as isl's coalescing leaves.
    pub fn convex_pieces(&self) -> IslResult<Vec<Set>> {
        let coalesced = Set(self.copy()?.coalesce().checked()?);
        coalesced.basic_sets()?.into_iter().map(|b| b.to_set().checked().map(Set)).collect()
    }

    fn basic_sets(&self) -> IslResult<Vec<BasicSet>> {
        let list = self.0.get_basic_set_list().checked()?;
        let n = list.size().checked()?;
        (0..n).map(|k| list.get_at(k).checked()).collect()
    }

    /// The dimension of the set's affine hull: its dimensions less the
    /// independent equalities among them.
    pub fn dimension(&self) -> IslResult<usize> {
        let hull = Set(self.copy()?.affine_hull().checked()?.to_set().checked()?);
        let n = self.n_dims()?;
        // An equality with a floor (`i mod 8 = 0`) is a lattice, not a lost dimension.
        let equalities = hull
            .constraints()?
            .iter()
            .filter(|c| c.is_eq && !c.expr.has_floor() && (0..n).any(|d| c.expr.involves_dim(d)))
            .count();
        Ok(n.saturating_sub(equalities))
    }

    /// The parameter values for which the set has points.
    pub fn params(&self) -> IslResult<Set> {
        self.copy()?.params().checked().map(Set)
    }

    /// The set where the parameters satisfy `params` (a parameter set).
    pub fn intersect_params(&self, params: &Set) -> IslResult<Set> {
        self.copy()?.intersect_params(params.copy()?).checked().map(Set)
    }

    /// The set without its existentially quantified (div) constraints:
    /// a superset whose constraints involve no divisions.
    pub fn remove_divs(&self) -> IslResult<Set> {
        self.copy()?.remove_divs().checked().map(Set)
    }

    /// The convex hull, its parameters projected out (fix them first):
    /// isl eliminates existentials rationally, so the hull of a set
    /// with strides may be larger than that of its integer points.
    pub fn convex_hull_without_params(&self) -> IslResult<Set> {
        let plain = self.copy()?.project_out_all_params().checked()?;
        plain.convex_hull().checked()?.to_set().checked().map(Set)
    }

    /// The smallest polyhedron around the set, its existentials
    /// eliminated rationally (a superset whose constraints have no divs).
    pub fn polyhedral_hull(&self) -> IslResult<Set> {
        let hull = self.copy()?.polyhedral_hull().checked()?;
        hull.to_set().checked().map(Set)
    }

    /// A convex superset, cheap to compute.
    pub fn simple_hull(&self) -> IslResult<Set> {
        let hull = self.copy()?.simple_hull().checked()?;
        hull.to_set().checked().map(Set)
    }

    /// The constraints of each convex piece: a disjunction of conjunctions.
    pub fn disjuncts(&self) -> IslResult<Vec<Vec<Constraint>>> {
        self.basic_sets()?.iter().map(basic_set_constraints).collect()
    }

    /// Constraints of a convex set; an error if the set is not convex.
    pub fn constraints(&self) -> IslResult<Vec<Constraint>> {
        let mut pieces = self.disjuncts()?;
        match pieces.len() {
            1 => Ok(pieces.remove(0)),
            0 => Ok(vec![Constraint::ge(LinExpr::constant(-1))]),
            n => Err(IslError(format!("expected a convex set, found {n} pieces"))),
        }
    }

    /// Lattice of dimension `dim`: `(stride, offset)` with `c_dim = offset
    /// (mod stride)` for every point, when the stride exceeds 1.
    pub fn stride(&self, dim: usize) -> IslResult<Option<(i64, LinExpr)>> {
        let info = self.0.get_stride_info(dim as i32).checked()?;
        let stride = val_to_i64(&info.get_stride().checked()?)?;
        if stride <= 1 {
            return Ok(None);
        }
        let offset = aff_to_expr(&info.get_offset().checked()?)?;
        Ok(offset.map(|o| (stride, o)))
    }

    /// True when, for equal values of the dimensions before `dim`, every
    /// point of `self` has a smaller `dim` coordinate than every point of
    /// `other`.
    pub fn precedes_along(&self, other: &Set, dim: usize) -> IslResult<bool> {
        let mut pairs = IslMap::from_domain_and_range(self.copy()?, other.copy()?).checked()?;
        for k in 0..dim {
            pairs = pairs.equate(DimType::In, k as i32, DimType::Out, k as i32).checked()?;
        }
        pairs = pairs.order_ge(DimType::In, dim as i32, DimType::Out, dim as i32).checked()?;
        pairs.is_empty().checked()
    }

    /// isl's text for the set (leaks a C string in isl-rs: reporting only).
    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }
}

impl Map {
    pub fn parse(text: &str) -> IslResult<Map> {
        with_ctx(|ctx| IslMap::read_from_str(ctx, text).checked()).map(Map).map_err(|e| parse_error(e, text))
    }

    fn copy(&self) -> IslResult<IslMap> {
        self.0.copy().checked()
    }

    pub fn intersect_domain(&self, domain: &Set) -> IslResult<Map> {
        self.copy()?.intersect_domain(domain.copy()?).checked().map(Map)
    }

    /// The pairs `[range, domain]` as one flat, anonymous tuple.
    pub fn range_then_domain(&self) -> IslResult<Set> {
        let wrapped = self.copy()?.reverse().checked()?.wrap().checked()?;
        wrapped.flatten().checked()?.reset_tuple_id().checked().map(Set)
    }

    /// The pairs `[domain, range]` as one flat, anonymous tuple.
    pub fn domain_then_range(&self) -> IslResult<Set> {
        let wrapped = self.copy()?.wrap().checked()?;
        wrapped.flatten().checked()?.reset_tuple_id().checked().map(Set)
    }

    pub fn intersect_params(&self, params: &Set) -> IslResult<Map> {
        self.copy()?.intersect_params(params.copy()?).checked().map(Map)
    }

    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }

    /// The name of the input tuple (`S3` for a statement's relations).
    pub fn domain_name(&self) -> IslResult<String> {
        self.0.get_tuple_name(DimType::In).checked_text()
    }

    /// The name of the output tuple (`A_x` for an access relation).
    pub fn range_name(&self) -> IslResult<String> {
        self.0.get_tuple_name(DimType::Out).checked_text()
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// The differences `y - x` of the pairs `x -> y` (same-sized tuples).
    pub fn deltas(&self) -> IslResult<Set> {
        self.copy()?.deltas().checked()?.reset_tuple_id().checked().map(Set)
    }

    pub fn is_single_valued(&self) -> IslResult<bool> {
        self.0.is_single_valued().checked()
    }

    pub fn n_out(&self) -> IslResult<usize> {
        Ok(self.0.dim(DimType::Out).checked()? as usize)
    }

    /// The number of convex pieces (basic maps) isl holds the map as.
    pub fn n_pieces(&self) -> IslResult<usize> {
        Ok(self.0.n_basic_map().checked()? as usize)
    }

    /// The (rational) convex hull of the pairs, existentials eliminated:
    /// one convex piece.
    pub fn convex_hull(&self) -> IslResult<Map> {
        let hull = self.copy()?.convex_hull().checked()?;
        IslMap::from_basic_map(hull).checked().map(Map)
    }

    /// A convex superset, cheap to compute (constraints of the pieces).
    pub fn simple_hull(&self) -> IslResult<Map> {
        let hull = self.copy()?.simple_hull().checked()?;
        IslMap::from_basic_map(hull).checked().map(Map)
    }

    /// `{ x -> f(y) : x -> y in self }`.
    pub fn apply_range(&self, f: &Map) -> IslResult<Map> {
        self.copy()?.apply_range(f.copy()?).checked().map(Map)
    }

    /// For each domain point, its lexicographically smallest image.
    pub fn lexmin(&self) -> IslResult<Map> {
        self.copy()?.lexmin().checked().map(Map)
    }

    /// For each domain point, its lexicographically largest image.
    pub fn lexmax(&self) -> IslResult<Map> {
        self.copy()?.lexmax().checked().map(Map)
    }

    /// The map with only its first `keep` output dimensions.
    pub fn keep_leading_out(&self, keep: usize) -> IslResult<Map> {
        let n = self.n_out()?;
        if keep >= n {
            return Ok(self.clone());
        }
        self.copy()?.project_out(DimType::Out, keep as u32, (n - keep) as u32).checked().map(Map)
    }

    pub fn is_subset_of(&self, other: &Map) -> IslResult<bool> {
        self.0.is_subset(&other.0).checked()
    }

    pub fn intersect(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.intersect(other.copy()?).checked().map(Map)
    }

    pub fn subtract(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.subtract(other.copy()?).checked().map(Map)
    }

    pub fn coalesce(&self) -> IslResult<Map> {
        self.copy()?.coalesce().checked().map(Map)
    }

    pub fn union(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.union(other.copy()?).checked().map(Map)
    }

    pub fn range(&self) -> IslResult<Set> {
        self.copy()?.range().checked().map(Set)
    }

    pub fn intersect_range(&self, range: &Set) -> IslResult<Map> {
        self.copy()?.intersect_range(range.copy()?).checked().map(Map)
    }

    /// `{ x -> [y, z] : x -> y in self and x -> z in other }`.
    pub fn flat_range_product(&self, other: &Map) -> IslResult<Map> {
        self.copy()?.flat_range_product(other.copy()?).checked().map(Map)
    }

    pub fn reverse(&self) -> IslResult<Map> {
        self.copy()?.reverse().checked().map(Map)
    }

    pub fn domain(&self) -> IslResult<Set> {
        self.copy()?.domain().checked().map(Set)
    }

    /// The same relation with `n` more output dimensions, all zero.
    pub fn pad_out(&self, n: usize) -> IslResult<Map> {
        let first = self.n_out()?;
        let mut m = self.copy()?.add_dims(DimType::Out, n as u32).checked()?;
        for k in first..first + n {
            m = m.fix_si(DimType::Out, k as u32, 0).checked()?;
        }
        Ok(Map(m))
    }

    /// Whether output dimension `pos` has one constant value (syntactically).
    pub fn out_is_constant(&self, pos: usize) -> IslResult<bool> {
        let v = self.0.plain_get_val_if_fixed(DimType::Out, pos as u32).checked()?;
        Ok(!v.is_nan().checked()?)
    }

    /// The value of output dimension `pos` when it is a fixed integer.
    pub fn out_constant(&self, pos: usize) -> IslResult<Option<i64>> {
        let v = self.0.plain_get_val_if_fixed(DimType::Out, pos as u32).checked()?;
        if v.is_nan().checked()? || !v.is_int().checked()? {
            return Ok(None);
        }
        Ok(Some(v.get_num_si().checked()?))
    }
}

impl UnionMap {
    pub fn empty() -> IslResult<UnionMap> {
        with_ctx(|ctx| IslUnionMap::empty_ctx(ctx).checked()).map(UnionMap)
    }

    pub fn from_maps<'a>(maps: impl IntoIterator<Item = &'a Map>) -> IslResult<UnionMap> {
        let mut acc = UnionMap::empty()?;
        for m in maps {
            acc = UnionMap(acc.copy()?.add_map(m.copy()?).checked()?);
        }
        Ok(acc)
    }

    fn copy(&self) -> IslResult<IslUnionMap> {
        self.0.copy().checked()
    }

    pub fn union(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.union(other.copy()?).checked().map(UnionMap)
    }

    pub fn subtract(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.subtract(other.copy()?).checked().map(UnionMap)
    }

    pub fn reverse(&self) -> IslResult<UnionMap> {
        self.copy()?.reverse().checked().map(UnionMap)
    }

    pub fn intersect(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.intersect(other.copy()?).checked().map(UnionMap)
    }

    /// For each domain point, its lexicographically largest image.
    pub fn lexmax(&self) -> IslResult<UnionMap> {
        self.copy()?.lexmax().checked().map(UnionMap)
    }

    /// `{ x -> y : self(x) <<= other(y) }`.
    pub fn lex_le_pairs(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.lex_le_union_map(other.copy()?).checked().map(UnionMap)
    }

    /// `{ x -> y : self(x) >>= other(y) }`.
    pub fn lex_ge_pairs(&self, other: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.lex_ge_union_map(other.copy()?).checked().map(UnionMap)
    }

    /// `{ f(x) -> y : x -> y in self }`.
    pub fn apply_domain(&self, f: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.apply_domain(f.copy()?).checked().map(UnionMap)
    }

    /// `{ x -> f(y) : x -> y in self }`.
    pub fn apply_range(&self, f: &UnionMap) -> IslResult<UnionMap> {
        self.copy()?.apply_range(f.copy()?).checked().map(UnionMap)
    }

    pub fn intersect_domain(&self, domain: &UnionSet) -> IslResult<UnionMap> {
        self.copy()?.intersect_domain_union_set(domain.copy()?).checked().map(UnionMap)
    }

    pub fn intersect_range(&self, range: &UnionSet) -> IslResult<UnionMap> {
        self.copy()?.intersect_range(range.copy()?).checked().map(UnionMap)
    }

    pub fn coalesce(&self) -> IslResult<UnionMap> {
        self.copy()?.coalesce().checked().map(UnionMap)
    }

    pub fn is_empty(&self) -> IslResult<bool> {
        self.0.is_empty().checked()
    }

    /// The relations of each pair of spaces, as separate maps.
    pub fn maps(&self) -> IslResult<Vec<Map>> {
        let list = self.copy()?.get_map_list().checked()?;
        let n = list.size().checked()?;
        (0..n).map(|k| list.get_at(k).checked().map(Map)).collect()
    }

    /// All relations as one map, when they share one pair of spaces.
    pub fn as_single_map(&self) -> IslResult<Map> {
        IslMap::from_union_map(self.copy()?).checked().map(Map)
    }

    pub fn to_text(&self) -> IslResult<String> {
        self.0.to_str().checked_text()
    }
}

impl UnionSet {
    pub fn from_sets<'a>(sets: impl IntoIterator<Item = &'a Set>) -> IslResult<UnionSet> {
        let mut acc = with_ctx(|ctx| IslUnionSet::empty_ctx(ctx).checked())?;
        for s in sets {
            acc = acc.add_set(s.copy()?).checked()?;
        }
        Ok(UnionSet(acc))
    }

    fn copy(&self) -> IslResult<IslUnionSet> {
        self.0.copy().checked()
    }
}

/// How isl's scheduler is configured (see its manual, "Scheduling").
#[derive(Clone, Copy, Debug)]
pub struct SchedulerOptions {
    /// Require the outermost band member to be coincident (parallel) when possible.
    pub outer_coincidence: bool,
    /// Give each strongly connected component its own nest (no fusion).
    pub serialize_sccs: bool,
    /// Schedule whole components at once (more fusion).
    pub whole_component: bool,
    /// Bound on schedule coefficients (-1: none), which keeps skews small.
    pub max_coefficient: i32,
}

/// isl's affine scheduler on the statements `domain`: `validity` must be
/// respected, `proximity` distances are minimised, `coincidence` pairs
/// are kept on the same iteration of parallel band members;
/// `conditional`, `(condition, validity)`: those validity constraints
/// may be broken only in bands where the adjacent condition pairs stay
/// within one iteration (isl's conditional validity). The result is
/// the flattened schedule, one map per statement.
pub fn compute_schedule(
    domain: &UnionSet,
    validity: &UnionMap,
    proximity: &UnionMap,
    coincidence: &UnionMap,
    conditional: Option<(&UnionMap, &UnionMap)>,
    options: SchedulerOptions,
) -> IslResult<UnionMap> {
    with_ctx(|ctx| -> IslResult<()> {
        Options::set_schedule_outer_coincidence(ctx, options.outer_coincidence as i32).checked()?;
        Options::set_schedule_serialize_sccs(ctx, options.serialize_sccs as i32).checked()?;
        Options::set_schedule_whole_component(ctx, options.whole_component as i32).checked()?;
        Options::set_schedule_max_coefficient(ctx, options.max_coefficient).checked()?;
        Options::set_schedule_treat_coalescing(ctx, 1).checked()?;
        Ok(())
    })?;
    let mut constraints = ScheduleConstraints::on_domain(domain.copy()?)
        .checked()?
        .set_validity(validity.copy()?)
        .checked()?
        .set_proximity(proximity.copy()?)
        .checked()?
        .set_coincidence(coincidence.copy()?)
        .checked()?;
    if let Some((condition, validity)) = conditional {
        constraints = constraints.set_conditional_validity(condition.copy()?, validity.copy()?).checked()?;
    }
    constraints.compute_schedule().checked()?.get_map().checked().map(UnionMap)
}

trait CheckedText {
    fn checked_text(self) -> IslResult<String>;
}

impl CheckedText for Result<&str, LibISLError> {
    fn checked_text(self) -> IslResult<String> {
        self.map(str::to_string).map_err(|e| IslError(e.to_string()))
    }
}

fn val_to_i64(v: &Val) -> IslResult<i64> {
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

fn basic_set_constraints(bset: &BasicSet) -> IslResult<Vec<Constraint>> {
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
fn aff_to_expr(aff: &Aff) -> IslResult<Option<LinExpr>> {
    let (expr, den) = aff_parts(aff)?;
    Ok((den == 1).then_some(expr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_round_trip_through_isl() {
        let s = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and c0 <= c1 <= 2c0 + 3 }").unwrap();
        let back = Set::from_constraints(1, 2, &s.constraints().unwrap()).unwrap();
        assert!(s.is_equal(&back).unwrap());
    }

    #[test]
    fn stride_and_offset_are_found() {
        let s = Set::parse("[p0] -> { [c0] : 0 <= c0 < p0 and (c0 - 1) mod 3 = 0 }").unwrap();
        let (stride, offset) = s.stride(0).unwrap().unwrap();
        assert_eq!(stride, 3);
        let back = Set::from_constraints(1, 1, &[Constraint::divisible(LinExpr::dim(0).sub(&offset), 3)]).unwrap();
        assert!(s.is_subset_for_test(&back));
    }

    #[test]
    fn divs_survive_the_round_trip() {
        let s = Set::parse("[p0] -> { [c0, c1] : 0 <= c1 < p0 and c1 = 2 * floor((c0 + c1) / 2) }").unwrap();
        let pieces = s.disjuncts().unwrap();
        let text: Vec<String> = pieces[0].iter().map(|c| c.to_isl_text()).collect();
        let back = Set::parse(&set_text(1, 2, &text.join(" and "))).unwrap();
        assert!(s.is_equal(&back).unwrap());
    }

    #[test]
    fn budget_exhaustion_is_an_error_not_a_hang() {
        set_operation_budget(10);
        let r = Set::parse("[p0] -> { [c0, c1, c2] : 0 <= c0 < p0 and c0 <= c1 < p0 and c1 <= c2 < 3p0 }")
            .and_then(|s| s.keep_leading_dims(1).and_then(|p| p.coalesce()))
            .and_then(|s| s.is_empty());
        set_operation_budget(DEFAULT_OPERATION_BUDGET);
        assert!(r.is_err());
        assert!(Set::parse("{ [c0] : 0 <= c0 < 4 }").unwrap().n_dims().unwrap() == 1);
    }

    #[test]
    fn a_parse_out_of_budget_is_reported_as_the_budget_not_a_syntax_error() {
        // adi's scan ran out of operations inside a parse: isl said "syntax error".
        set_operation_budget(10);
        let _ = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and c0 <= c1 < p0 }").and_then(|s| s.coalesce());
        let e = Map::parse("[p0, p1] -> { [c0, c1, c2, c3] -> [c1, c2, c3] }").err();
        set_operation_budget(DEFAULT_OPERATION_BUDGET);
        let e = e.expect("out of budget, the parse fails").0;
        assert!(e.contains("operations exceeded") && !e.contains("syntax"), "{e}");
        assert!(Map::parse("[p0, p1] -> { [c0, c1, c2, c3] -> [c1, c2, c3] }").is_ok());
    }

    #[test]
    fn a_text_isl_does_not_read_is_reported_with_the_text() {
        let e = Set::parse("[p0] -> { [c0] : c0 >= }").err().expect("not isl syntax").0;
        assert!(e.contains("does not read") && e.contains("c0 >= }"), "{e}");
        assert!(!out_of_budget());
    }

    #[test]
    fn a_time_limit_stops_isl_and_the_context_works_again() {
        let text = "[p0] -> { [c0, c1, c2] : 0 <= c0 < p0 and c0 <= c1 < p0 and c1 <= c2 < 3p0 }";
        let r = within_time(Some(std::time::Duration::from_millis(50)), || loop {
            Set::parse(text)?.keep_leading_dims(1)?.coalesce()?;
        });
        assert_eq!(r.map(|_: Option<()>| ()), Ok(()));
        assert!(!time_is_up() && !out_of_budget());
        assert!(Set::parse(text).unwrap().n_dims().unwrap() == 3);
        let outer = TimeLimit::start(Some(std::time::Duration::from_millis(20)));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(outer.expired() && time_is_up() && Set::parse(text).is_err());
        drop(outer);
        assert!(Set::parse(text).is_ok());
    }

    impl Set {
        fn is_subset_for_test(&self, other: &Set) -> bool {
            self.0.is_subset(&other.0).unwrap()
        }
    }

    #[test]
    fn precedence_along_a_dimension() {
        let a = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and 0 <= c1 < 5 }").unwrap();
        let b = Set::parse("[p0] -> { [c0, c1] : 0 <= c0 < p0 and 5 <= c1 < 9 }").unwrap();
        assert!(a.precedes_along(&b, 1).unwrap());
        assert!(!b.precedes_along(&a, 1).unwrap());
    }
}
