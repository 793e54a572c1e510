//! Bee+Cl@k's kernels (Figure 4) against its sizes (Figure 3): the
//! lattice heuristics, the exhaustive search for an optimal mapping
//! (`--storage-optimal`), and the contracted code they give.

use crate::common;
use common::{gcc, root, run, scratch};
use polyc::driver;
use polyc::model::isl::Set;
use polyc::options::{Emit, Options};
use polyc::storage::optimal::{Search, Shape};
use polyc::storage::{Method, StorageOptions};
use serde_json::Value;
use std::time::Duration;

fn oracle(name: &str) -> String {
    std::fs::read_to_string(root().join("corpus/storage").join(name)).unwrap()
}

/// The lattice heuristics with `params` fixed; `optimal`: and the search.
fn lattice(params: &[(&str, i64)], optimal: bool) -> Options {
    Options {
        storage: StorageOptions { method: Method::Lattice, optimal, ..StorageOptions::default() },
        params: params.iter().map(|&(p, v)| (p.to_string(), v)).collect(),
        ..Options::default()
    }
}

/// Each array's proven size in cells, as `--emit=storage-json` reports
/// it (the report holds only mappings that passed the proof).
fn sizes(text: &str, options: Options) -> Vec<(String, i64)> {
    let options = Options { emit: Emit::StorageJson, ..options };
    let output = driver::compile(text.to_string(), &options).expect("compiles").output;
    let report: Value = serde_json::from_str(&output).expect("JSON");
    let arrays = report[0]["arrays"].as_array().expect("arrays");
    arrays
        .iter()
        .map(|a| {
            assert!(a["mapping"].is_string(), "no proven mapping: {a:?}");
            let cells = a["new_cells"].as_i64().unwrap_or_else(|| panic!("no size: {a:?}"));
            (a["array"].as_str().unwrap().to_string(), cells)
        })
        .collect()
}

/// Asserts that each array of `at_most` takes at most that many cells.
fn assert_sizes(text: &str, options: Options, at_most: &[(&str, i64)]) {
    let (storage, params) = (options.storage.clone(), options.params.clone());
    let found = sizes(text, options);
    for &(array, limit) in at_most {
        let cells = found.iter().find(|(a, _)| a == array).map(|(_, c)| *c);
        assert!(
            cells.is_some_and(|c| c <= limit),
            "{array}: {cells:?} cells, at most {limit} ({storage:?}, {params:?}): {found:?}"
        );
    }
}

#[test]
fn durbin_s_y_reaches_the_optimal_197_cells() {
    // Figure 3: 200 cells by the heuristics, 197 by the exhaustive search.
    let text = oracle("durbin_bee.c");
    let at_100 = [("N", 100)];
    assert_sizes(&text, lattice(&at_100, false), &[("y", 200), ("alpha", 1), ("beta", 1), ("sum", 1)]);
    assert_sizes(&text, lattice(&at_100, true), &[("y", 197), ("alpha", 1), ("beta", 1), ("sum", 1)]);
}

#[test]
fn reg_detect_s_triangles_fold_onto_27_cells_at_best() {
    // Figure 3: sum_t and mean 36 cells by the heuristics, 27 optimal;
    // diff 2304, 1728 optimal; sum_d one cell.
    let text = oracle("reg_detect.c");
    let sizes_at = [("N", 6), ("P", 64)];
    let heuristic = [("sum_t", 36), ("mean", 36), ("diff", 2304), ("sum_d", 1)];
    assert_sizes(&text, lattice(&sizes_at, false), &heuristic);
    let optimal = [("sum_t", 27), ("mean", 27), ("diff", 1728), ("sum_d", 1)];
    assert_sizes(&text, lattice(&sizes_at, true), &optimal);
}

#[test]
fn gauss_s_accumulators_fold_onto_one_cell_and_g_tmp_keeps_2400() {
    let text = oracle("gauss.c");
    let expected = [("g_acc1", 1), ("g_acc2", 1), ("g_tmp", 2400)];
    for optimal in [false, true] {
        assert_sizes(&text, lattice(&[("N", 50), ("M", 50)], optimal), &expected);
    }
}

#[test]
fn mot_detect_s_accumulators_fold_onto_one_cell() {
    // Figure 3: Delta onto 10 cells (an over-approximated DS), ODelta 1.
    let text = oracle("mot_detect.c");
    for optimal in [false, true] {
        assert_sizes(&text, lattice(&[], optimal), &[("Delta", 10), ("ODelta", 1)]);
    }
}

#[test]
fn dynprog_s_c_needs_72_cells_even_at_best() {
    // Figure 3 reports 61 for its kernel, whose c is live-in; this one
    // clears c each time step, and the search finds no lattice below
    // the heuristics' 9 x 8.
    let text = oracle("dynprog.c");
    let at = [("LENGTH", 10), ("TSTEPS", 3)];
    for optimal in [false, true] {
        assert_sizes(&text, lattice(&at, optimal), &[("c", 72), ("sum_c", 1)]);
    }
}

#[test]
fn a_value_read_three_iterations_later_needs_four_cells() {
    // DS = {-3, ..., 3}: the optimal lattice is 4Z.
    let text = "#define N 100\ndouble x[N], y[N];\nvoid f(void) {\n  double tmp[N];\n  int i;\n#pragma scop\n  \
                for (i = 0; i < 3; i++)\n    tmp[i] = x[i];\n  for (i = 3; i < N; i++) {\n    \
                tmp[i] = x[i] * 2.0;\n    y[i] = tmp[i] + tmp[i - 3];\n  }\n#pragma endscop\n}\n";
    assert_eq!(sizes(text, lattice(&[("N", 100)], true)), vec![("tmp".to_string(), 4)]);
}

#[test]
fn the_search_finds_the_optimum_of_a_known_ds() {
    // The hexagon |i|, |j|, |i - j| <= 2 (a triangle of side 3): the
    // optimal lattice has determinant 3m^2 + 3m + 1 = 7 (N = 2m + 1).
    let ds = Set::parse("{ [c0, c1] : -2 <= c0 <= 2 and -2 <= c1 <= 2 and -2 <= c0 - c1 <= 2 }").unwrap();
    let points = ds.points(1000).unwrap().expect("bounded");
    assert_eq!(points.len(), 19);
    let shape = Shape::of(&points, &[0, 1]).unwrap();
    let lattice = Search { work_left: 10_000_000 }.smallest_lattice(&shape, 100).unwrap().expect("a lattice");
    assert_eq!(lattice.determinant, 7);
    assert_eq!(shape.meets(&lattice.rows, &mut 10_000_000), Ok(false));
}

#[test]
fn an_unbounded_set_has_no_points_to_search() {
    let ds = Set::parse("{ [c0] : c0 >= 0 }").unwrap();
    assert_eq!(ds.points(1000).unwrap(), None);
}

/// Asserts that `code`, compiled from the oracle `name`, prints what
/// the oracle prints.
fn assert_runs_the_same(name: &str, code: &str) {
    let dir = scratch("storage-lattice");
    let (original, contracted) = (dir.join(name), dir.join(format!("contracted_{name}")));
    std::fs::write(&original, oracle(name)).unwrap();
    std::fs::write(&contracted, code).unwrap();
    let (a, b) = (dir.join(format!("{name}.a")), dir.join(format!("{name}.b")));
    gcc(&original, &a, &[]).unwrap();
    gcc(&contracted, &b, &[]).unwrap();
    let expected = run(&a, Duration::from_secs(20)).unwrap();
    assert_eq!(run(&b, Duration::from_secs(20)).unwrap(), expected, "{name}");
}

#[test]
fn optimal_mappings_compute_the_same() {
    for (name, params) in [("durbin_bee.c", vec![("N", 100)]), ("reg_detect.c", vec![("N", 6), ("P", 64)])] {
        let options = lattice(&params, true);
        let code = driver::compile(oracle(name), &options).expect("compiles").output;
        assert!(code.contains("polyc_mod"), "{name}: nothing wraps\n{code}");
        assert_runs_the_same(name, &code);
    }
}

#[test]
fn a_scop_without_parameters_runs_its_contracted_storage_unguarded() {
    // Nothing to check at run time: the new loops in a plain block,
    // after the line saying what was done.
    let options = lattice(&[], false);
    let code = driver::compile(oracle("mot_detect.c"), &options).expect("compiles").output;
    let block =
        "#pragma scop\n  /* polyc: ODelta contracted, Delta contracted; undo: polyc without --storage */\n  {\n";
    assert!(code.contains(block) && code.contains("double polyc_Delta;"), "{code}");
    assert_runs_the_same("mot_detect.c", &code);
}
