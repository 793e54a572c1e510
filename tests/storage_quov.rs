//! Storage along the shortest quasi-universal occupancy vector (Yuki and
//! Rajopadhye): the vector and the cells `--emit=storage-json` reports
//! for each QUOV oracle, and the same output under tiles of several sizes.

use crate::common;
use common::{gcc, on_workers, root, run, scratch};
use polyc::driver;
use polyc::options::{Emit, Options, PlanRequest, ScheduleKind, TileOptions};
use polyc::storage::{Method, StorageOptions};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

fn oracle(name: &str) -> String {
    std::fs::read_to_string(root().join("corpus/storage").join(format!("{name}.c"))).expect("oracle")
}

/// The source order (what the QUOV is computed on), tiled when `tile`
/// gives a size.
fn options(method: Method, tile: Option<i64>) -> Options {
    let plan = PlanRequest {
        schedule: ScheduleKind::Identity,
        tile: tile.map(|size| TileOptions { sizes: vec![size], ..TileOptions::default() }),
        // What is checked is the mapping and its tiles, not the clock
        // (tiled quov_fig1 under `best` takes 8 s of the 10).
        time_budget: None,
        ..PlanRequest::default()
    };
    Options { plan, storage: StorageOptions { method, ..StorageOptions::default() }, ..Options::default() }
}

/// The first array's entry of `--emit=storage-json`, with `params` fixed.
fn entry(name: &str, method: Method, params: &[(&str, i64)]) -> Value {
    let mut options = options(method, None);
    options.emit = Emit::StorageJson;
    options.params = params.iter().map(|(p, v)| (p.to_string(), *v)).collect();
    let output = driver::compile(oracle(name), &options).expect("compiles").output;
    let report: Value = serde_json::from_str(&output).expect("JSON");
    report[0]["arrays"][0].clone()
}

#[test]
fn figure_1_projects_along_the_element_wise_maximum() {
    let a = entry("quov_fig1", Method::Quov, &[("N", 40)]);
    assert_eq!(a["quov"], serde_json::json!([2, 2]), "{a}");
    assert_eq!(a["mapping"], "A[i0, i1] -> A[i0 mod 2, -i0 + i1 + 39]", "{a}");
    assert_eq!(a["new_cells"], 2 * (2 * 40 - 1), "{a}");
}

#[test]
fn smith_waterman_folds_onto_n_plus_m_minus_one_diagonals() {
    let h = entry("smith_waterman", Method::Quov, &[]);
    assert_eq!(h["quov"], serde_json::json!([1, 1]), "{h}");
    assert_eq!(h["new_size"], "(M + N - 1)", "{h}");
    let h = entry("smith_waterman", Method::Quov, &[("N", 50), ("M", 70)]);
    assert_eq!(h["new_cells"], 119, "{h}");
}

#[test]
fn a_value_read_in_its_own_iteration_after_its_writer_needs_a_scalar() {
    let b = entry("quov_fig3b", Method::Quov, &[("N", 100)]);
    assert_eq!(b["quov"], serde_json::json!([1]), "{b}");
    assert_eq!(b["new_cells"], 1, "{b}");
}

#[test]
fn values_the_consumer_reads_after_the_nest_defeat_the_projection() {
    // The consumer loop reads the last row and column of A after the
    // recurrence: the QUOV of the flows within the nest is a candidate,
    // but those values outlive it, and the proof rejects the projection.
    let text = std::fs::read_to_string(root().join("corpus/storage/produce_consume.c")).unwrap();
    let mut options = options(Method::Quov, None);
    options.emit = Emit::StorageJson;
    let output = driver::compile(text, &options).expect("compiles").output;
    let report: Value = serde_json::from_str(&output).expect("JSON");
    let a = &report[0]["arrays"][0];
    assert!(a["mapping"].is_null(), "{a}");
}

#[test]
fn splitting_off_the_boundary_stores_figure_4_s_values_in_two_scalars() {
    // X[t][0] is read again at t + 1; every other X[t][i] only in its own
    // iteration. One mapping for all of X needs N + 1 cells; the boundary
    // piece i = 0 and the rest need one each.
    for method in [Method::Modulo, Method::Lattice, Method::Smo, Method::Best] {
        let x = entry("quov_split", method, &[("N", 40), ("T", 30)]);
        assert_eq!(x["new_cells"], 2, "{method:?}: {x}");
        assert!(x["mapping"].as_str().is_some_and(|m| m.contains("{ X[i0, i1 = 0] }")), "{method:?}: {x}");
    }
    let code = driver::compile(oracle("quov_split"), &options(Method::Best, None)).expect("compiles").output;
    for scalar in ["double polyc_X_0;", "double polyc_X_1;"] {
        assert!(code.contains(scalar), "{scalar}:\n{code}");
    }
}

/// The QUOV kernels compute the same under tiles of every size (the
/// mapping does not depend on it), with `quov` and with `best`; and the
/// QUOV mapping is the one applied, whatever the size. (The lifetime
/// analysis of tiled quov_fig1 used to run out of the isl budget.)
#[test]
fn the_quov_kernels_are_identical_under_several_tile_sizes() {
    let dir = scratch("storage-quov");
    let mut jobs = Vec::new();
    for name in ["smith_waterman", "quov_fig3b", "quov_fig1", "quov_split"] {
        let original = dir.join(format!("{name}.c"));
        std::fs::write(&original, oracle(name)).unwrap();
        gcc(&original, &dir.join(name), &[]).unwrap();
        let expected = run(&dir.join(name), Duration::from_secs(20)).unwrap();
        assert!(!expected.is_empty());
        jobs.extend([Method::Quov, Method::Best].map(|method| (name, method, expected.clone())));
    }
    let failures = on_workers(&jobs, |(name, method, expected)| same_under_tiles(&dir, name, *method, expected));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `name` with `method`'s storage under tiles of each size: the mapping
/// applied (QUOV's tiled too, where the kernel has tiles), and the output
/// printing `expected`.
fn same_under_tiles(dir: &Path, name: &str, method: Method, expected: &[u8]) -> Result<(), String> {
    for size in [2, 3, 5, 16, 32] {
        let outcome = driver::compile(oracle(name), &options(method, Some(size))).map_err(|d| d.message)?;
        let applied = &outcome.scops[0].transforms;
        let context = format!("{name} {method:?} tiles of {size}");
        if !applied.iter().any(|t| t == &format!("storage={}", method.name())) {
            return Err(format!("{context}: {applied:?}"));
        }
        if method == Method::Quov && name != "quov_fig3b" && !applied.iter().any(|t| t.starts_with("tile")) {
            return Err(format!("{context}: not tiled: {applied:?}"));
        }
        if method == Method::Quov && name == "smith_waterman" && !outcome.output.contains("double polyc_H[M + N - 1];")
        {
            return Err(format!("{context}: not on the M + N - 1 diagonals"));
        }
        let tag = format!("{name}.{}.{size}", method.name());
        let (source, binary) = (dir.join(format!("{tag}.c")), dir.join(&tag));
        std::fs::write(&source, &outcome.output).map_err(|e| e.to_string())?;
        gcc(&source, &binary, &[])?;
        if run(&binary, Duration::from_secs(20))? != expected {
            return Err(format!("{context}: output differs"));
        }
    }
    Ok(())
}
