//! SMO's storage partitioning hyperplanes (Bhaskaracharya, Bondhugula and
//! Cohen) on the kernels of its Table I: the sizes it reports, against
//! the successive modulo's, and the contracted code computing the same.

use crate::common;
use common::{gcc, root, run, scratch};
use polyc::driver;
use polyc::options::{Emit, Options};
use polyc::storage::{Method, StorageOptions};
use serde_json::Value;
use std::time::Duration;

/// Table I: each kernel's temporary, its size under the successive
/// modulo (the baseline) and under SMO.
const TABLE_I: &[(&str, &str, &str, &str)] = &[
    ("produce_consume", "A", "N * N", "(2 * N - 1)"),
    ("blur_interleaved", "blurx", "3 * N", "(2 * N + 1)"),
    ("blur_tiled", "blurx", "B * B", "(3 * B - 2)"),
    ("lbm_d2q9", "A", "2 * N * N", "(N + 2) * N"),
    ("diamond_tile", "AB", "B * (2 * B - 1)", "(6 * B - 5)"),
    ("pllgm_tile", "AB", "B * B", "(3 * B - 2)"),
    ("hex_tile", "AB", "B * (3 * B - 2)", "(9 * B - 8)"),
];

fn oracle(name: &str) -> String {
    std::fs::read_to_string(root().join("corpus/storage").join(format!("{name}.c"))).expect("oracle")
}

fn storage(method: Method) -> Options {
    Options { storage: StorageOptions { method, ..StorageOptions::default() }, ..Options::default() }
}

/// `array`'s entry of `--emit=storage-json` for the oracle `name`.
fn entry(name: &str, array: &str, method: Method) -> Value {
    let options = Options { emit: Emit::StorageJson, ..storage(method) };
    let output = driver::compile(oracle(name), &options).expect("compiles").output;
    let report: Value = serde_json::from_str(&output).expect("JSON");
    let arrays = report[0]["arrays"].as_array().expect("arrays").clone();
    arrays.into_iter().find(|a| a["array"] == array).unwrap_or_else(|| panic!("{name}: no {array}"))
}

#[test]
fn smo_reaches_table_i_where_the_successive_modulo_does_not() {
    for &(name, array, baseline, smo) in TABLE_I {
        assert_eq!(entry(name, array, Method::Modulo)["new_size"], baseline, "{name}: the baseline");
        let found = entry(name, array, Method::Smo);
        assert_eq!(found["new_size"], smo, "{name}: {found}");
    }
}

#[test]
fn one_hyperplane_satisfies_every_conflict_where_smo_finds_one() {
    // Fig. 2: (1, -1) alone separates every pair of conflicting cells.
    let a = entry("produce_consume", "A", Method::Smo);
    assert_eq!(a["mapping"], "A[i0, i1] -> A[i0 - i1 + N - 1]", "{a}");
    // Fig. 6: no hyperplane does for LBM; (2, -1, 0) satisfies the most
    // conflict polyhedra, then j separates the rest.
    let lbm = entry("lbm_d2q9", "A", Method::Smo);
    assert_eq!(lbm["mapping"], "A[i0, i1, i2] -> A[(2i0 - i1) mod (N + 2), i2]", "{lbm}");
}

#[test]
fn best_is_never_larger_than_smo() {
    for &(name, array, _, _) in TABLE_I {
        let cells = |method| {
            let options = Options {
                emit: Emit::StorageJson,
                params: vec![("N".to_string(), 30), ("B".to_string(), 8)],
                ..storage(method)
            };
            let output = driver::compile(oracle(name), &options).expect("compiles").output;
            let report: Value = serde_json::from_str(&output).expect("JSON");
            let arrays = report[0]["arrays"].as_array().expect("arrays").clone();
            let a = arrays.into_iter().find(|a| a["array"] == array).expect("array");
            a["new_cells"].as_i64().unwrap_or_else(|| panic!("{name} {method:?}: {a}"))
        };
        assert!(cells(Method::Best) <= cells(Method::Smo), "{name}");
    }
}

#[test]
fn smo_s_contracted_kernels_print_the_same_as_their_source() {
    let dir = scratch("storage-smo");
    for &(name, array, _, _) in TABLE_I {
        let original = dir.join(format!("{name}.c"));
        std::fs::write(&original, oracle(name)).unwrap();
        gcc(&original, &dir.join(name), &[]).unwrap();
        let expected = run(&dir.join(name), Duration::from_secs(20)).unwrap();
        let outcome = driver::compile(oracle(name), &storage(Method::Smo)).expect("compiles");
        assert!(outcome.output.contains(&format!("polyc_{array}")), "{name}: not contracted");
        let (source, binary) = (dir.join(format!("{name}.smo.c")), dir.join(format!("{name}.smo")));
        std::fs::write(&source, &outcome.output).unwrap();
        gcc(&source, &binary, &[]).unwrap();
        assert!(run(&binary, Duration::from_secs(20)).unwrap() == expected, "{name}: output differs");
    }
}

#[test]
fn a_parallel_loop_keeps_every_value_its_iterations_may_still_read() {
    // Under the optimising mode the loop over i runs in parallel: SMO's
    // (2t - i) would let iteration i overwrite a value of step t - 1 that
    // iteration i - 1 has yet to read. Each step must keep the last one
    // whole: 2 N^2 cells, whatever the method.
    for method in [Method::Smo, Method::Best] {
        let options = Options {
            emit: Emit::StorageJson,
            storage: StorageOptions { method, ..StorageOptions::default() },
            params: vec![("N".to_string(), 24)],
            ..Options::optimising()
        };
        let output = driver::compile(oracle("lbm_d2q9"), &options).expect("compiles").output;
        let report: Value = serde_json::from_str(&output).expect("JSON");
        let a = &report[0]["arrays"][0];
        assert_eq!(a["new_cells"], 2 * 24 * 24, "{method:?}: {a}");
    }
}
