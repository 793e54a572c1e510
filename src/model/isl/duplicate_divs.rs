//! A guard in front of isl's parametric integer programming against a
//! context with two equal integer divisions, which crashes isl 0.27.
//!
//! isl's dataflow (`compute_flow`) computes one lexicographic maximum per
//! source and level over the sink instances left unmatched by the ones
//! before: the `empty` part of the previous maximum. That part can hold
//! two integer divisions with the same expression once an equality has
//! been substituted into them (`floor((1 + a)/2)` and `floor((1 + b)/2)`
//! after `a = b`). `align_context_divs` (isl_tab_pip.c) then counts one
//! division of the map as the match of both, swaps a division with
//! position -1, writes outside the array and crashes. A strided read
//! (`A[2k]`) under loops with a halved bound (`j < N/2`) is enough.
//!
//! isl's own `isl_tab_basic_map_partial_lexopt` (and its piecewise twin)
//! is where every such maximum enters the solver, called from another
//! object file of the library. The linker (`--wrap`, set by `build.rs`)
//! sends those calls here: a context with equal divisions is simplified
//! first (isl's own simplification merges them), then handed on. Any
//! other context goes on untouched, so the results do not change where
//! isl did not crash. The symbols are isl's internal ones: a version of
//! isl without them fails to link, loudly.

use std::ffi::{c_int, c_uint, c_void};

/// `isl_dim_div` of isl's `enum isl_dim_type`.
const ISL_DIM_DIV: c_int = 4;

extern "C" {
    fn __real_isl_tab_basic_map_partial_lexopt(
        bmap: *mut c_void,
        dom: *mut c_void,
        empty: *mut *mut c_void,
        flags: c_uint,
    ) -> *mut c_void;
    fn __real_isl_tab_basic_map_partial_lexopt_pw_multi_aff(
        bmap: *mut c_void,
        dom: *mut c_void,
        empty: *mut *mut c_void,
        flags: c_uint,
    ) -> *mut c_void;
    fn isl_basic_set_get_local_space(bset: *mut c_void) -> *mut c_void;
    fn isl_local_space_dim(ls: *mut c_void, kind: c_int) -> c_int;
    fn isl_local_space_div_is_known(ls: *mut c_void, pos: c_int) -> c_int;
    fn isl_local_space_get_div(ls: *mut c_void, pos: c_int) -> *mut c_void;
    fn isl_local_space_free(ls: *mut c_void) -> *mut c_void;
    fn isl_aff_plain_is_equal(a: *mut c_void, b: *mut c_void) -> c_int;
    fn isl_aff_free(aff: *mut c_void) -> *mut c_void;
    fn isl_basic_set_simplify(bset: *mut c_void) -> *mut c_void;
}

/// isl's lexicographic optimum of `bmap` over `dom`, as a map.
///
/// # Safety
/// Called by isl only, with isl's ownership rules: `bmap` and `dom` are
/// taken, `empty` is written.
#[no_mangle]
pub unsafe extern "C" fn __wrap_isl_tab_basic_map_partial_lexopt(
    bmap: *mut c_void,
    dom: *mut c_void,
    empty: *mut *mut c_void,
    flags: c_uint,
) -> *mut c_void {
    __real_isl_tab_basic_map_partial_lexopt(bmap, without_equal_divs(dom), empty, flags)
}

/// isl's lexicographic optimum of `bmap` over `dom`, piecewise.
///
/// # Safety
/// As [`__wrap_isl_tab_basic_map_partial_lexopt`].
#[no_mangle]
pub unsafe extern "C" fn __wrap_isl_tab_basic_map_partial_lexopt_pw_multi_aff(
    bmap: *mut c_void,
    dom: *mut c_void,
    empty: *mut *mut c_void,
    flags: c_uint,
) -> *mut c_void {
    __real_isl_tab_basic_map_partial_lexopt_pw_multi_aff(bmap, without_equal_divs(dom), empty, flags)
}

/// `dom` itself, or simplified where two of its divisions are equal.
/// NULL (no domain, or an error isl already recorded) passes through.
unsafe fn without_equal_divs(dom: *mut c_void) -> *mut c_void {
    if dom.is_null() || !has_equal_divs(dom) {
        return dom;
    }
    isl_basic_set_simplify(dom)
}

/// Whether two known integer divisions of `bset` have the same
/// expression; an error answers yes, so that the simplification meets it.
/// (Asking isl for an unknown division's expression is an error.)
unsafe fn has_equal_divs(bset: *mut c_void) -> bool {
    let ls = isl_basic_set_get_local_space(bset);
    if ls.is_null() {
        return true;
    }
    let n = isl_local_space_dim(ls, ISL_DIM_DIV);
    let known: Vec<c_int> = (0..n).filter(|&i| isl_local_space_div_is_known(ls, i) != 0).collect();
    let divs: Vec<*mut c_void> =
        if known.len() < 2 { Vec::new() } else { known.iter().map(|&i| isl_local_space_get_div(ls, i)).collect() };
    let equal = n < 0
        || divs.iter().any(|d| d.is_null())
        || divs.iter().enumerate().any(|(i, &a)| divs[i + 1..].iter().any(|&b| isl_aff_plain_is_equal(a, b) != 0));
    for div in divs {
        isl_aff_free(div);
    }
    isl_local_space_free(ls);
    equal
}

#[cfg(test)]
mod tests {
    use crate::model::isl::{compute_flow, FlowResult, Map, Set, UnionMap, UnionSet};

    fn same(a: &UnionMap, b: &UnionMap) -> bool {
        a.subtract(b).unwrap().is_empty().unwrap() && b.subtract(a).unwrap().is_empty().unwrap()
    }

    fn union(texts: &[&str]) -> UnionMap {
        let maps: Vec<Map> = texts.iter().map(|t| Map::parse(&format!("[M, N] -> {{ {t} }}")).unwrap()).collect();
        UnionMap::from_maps(&maps).unwrap()
    }

    /// `A[0] = ..; for i down from M: { ..A[i]; for j down from N/2 - 1
    /// to i: { ..A[j]; for k < j + 2: A[k] = A[2k - 1] } }`: each write's
    /// last write before it, and the reads between, crashed isl.
    #[test]
    fn the_writes_before_each_write_of_a_strided_nest_are_found() {
        let nest = "0 <= i < M and j >= i and 2j <= N - 2 and 0 <= k <= j + 2";
        let writes = union(&["S0[] -> A[0]", &format!("S3[i, j, k] -> A[k] : {nest}")]);
        let reads = union(&[
            "S1[i] -> A[i] : 0 <= i < M",
            "S2[i, j] -> A[j] : 0 <= i < M and j >= i and 2j <= N - 2",
            &format!("S3[i, j, k] -> A[2k - 1] : {nest}"),
        ]);
        let schedule = union(&[
            "S0[] -> [0, 0, 0, 0, 0, 0, 0]",
            "S1[i] -> [1, -i, 0, 0, 0, 0, 0]",
            "S2[i, j] -> [1, -i, 1, -j, 0, 0, 0]",
            "S3[i, j, k] -> [1, -i, 1, -j, 1, k, 0]",
        ]);
        let before = compute_flow(&writes, Some(&writes), Some(&reads), &schedule, FlowResult::May).unwrap();
        // S0's A[0] is overwritten first by the first instance of the
        // nest, in its outermost i whose j range is not empty.
        let first =
            union(&["S0[] -> S3[i, j, 0] : 2j <= N - 2 < 2j + 2 and (i = M - 1 <= j or i = j < M - 1) and i >= 0"]);
        let from_s0 = before
            .intersect_domain(&UnionSet::from_sets(&[Set::parse("[M, N] -> { S0[] }").unwrap()]).unwrap())
            .unwrap();
        assert!(same(&from_s0, &first), "{}", from_s0.to_text().unwrap());
    }
}
