//! `--emit=parallelism`: the tile graph of jacobi-1d's pipelined
//! (skewed rectangular) time tiles, simulated.

use crate::common;
use common::*;
use polyc::driver;
use polyc::options::{Emit, Options, Scaling, SimulateOptions, TileOptions};
use serde_json::Value;

fn jacobi_1d() -> String {
    std::fs::read_to_string(root().join("corpus/jacobi-1d.c")).expect("corpus/jacobi-1d.c")
}

/// `--emit=parallelism-json --tile=rect --tile-sizes=SIZE` with the
/// parameters at `params`, simulated as `simulate` asks.
fn report(params: &[(&str, i64)], size: i64, simulate: SimulateOptions) -> Value {
    let mut options = Options::optimising();
    options.emit = Emit::ParallelismJson;
    options.plan.tile = Some(TileOptions { sizes: vec![size], ..TileOptions::default() });
    options.params = params.iter().map(|(p, v)| (p.to_string(), *v)).collect();
    options.simulate = simulate;
    let outcome = driver::compile(jacobi_1d(), &options).expect("compiles");
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let reports: Value = serde_json::from_str(&outcome.output).expect("JSON");
    reports[0].clone()
}

fn single_run(params: &[(&str, i64)], size: i64, procs: usize) -> Value {
    let r = report(params, size, SimulateOptions { procs, scaling: None });
    r["runs"][0].clone()
}

fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("{v} is not a count"))
}

/// The plan skews jacobi-1d to (t, 2t + i) (S1 one later) and tiles it
/// s by s. With TSTEPS = 6, N = 20, s = 4: time tile 0 (t = 0..3) spans
/// 2t + i in 1..=25, tiles 0..=6 (7); time tile 1 (t = 4, 5) spans
/// 9..=29, tiles 2..=7 (6): 13. With TSTEPS = 32, N = 64, s = 8: time
/// tile a spans 16a + 1..=16a + 77, 10 tiles each, 4 rows: 40.
#[test]
fn tile_counts_are_those_counted_by_hand() {
    assert_eq!(count(&single_run(&[("TSTEPS", 6), ("N", 20)], 4, 1)["tiles"]), 13);
    assert_eq!(count(&single_run(&[("TSTEPS", 32), ("N", 64)], 8, 1)["tiles"]), 40);
}

#[test]
fn one_processor_takes_a_step_per_tile_and_unbounded_ones_the_critical_path() {
    for (params, size) in [([("TSTEPS", 6), ("N", 20)], 4), ([("TSTEPS", 32), ("N", 64)], 8)] {
        let one = single_run(&params, size, 1);
        assert_eq!(one["time"], one["tiles"], "{one}");
        assert_eq!(one["speedup"], 1.0);
        let many = single_run(&params, size, usize::MAX);
        assert_eq!(many["time"], many["critical_path"], "{many}");
        assert!(count(&many["critical_path"]) < count(&many["tiles"]), "{many}");
    }
}

/// Pipelined tiles: one tile starts, whatever N; the tiles and the
/// critical path grow with it.
#[test]
fn pipelined_start_up_parallelism_stays_constant_as_n_grows() {
    let scaling = Scaling { param: "N".to_string(), steps: vec![1, 2, 4, 8] };
    let r = report(&[("TSTEPS", 16), ("N", 32)], 8, SimulateOptions { procs: 1, scaling: Some(scaling) });
    let runs = r["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 4);
    let mut previous_tiles = 0;
    for (run, k) in runs.iter().zip([1, 2, 4, 8]) {
        assert_eq!(run["k"], k);
        assert_eq!(run["params"]["N"], 32 * k);
        assert_eq!(run["params"]["TSTEPS"], 16);
        assert_eq!(run["procs"], k);
        assert_eq!(run["startup_parallelism"], 1, "{run}");
        assert!(count(&run["tiles"]) > previous_tiles, "{run}");
        previous_tiles = count(&run["tiles"]);
    }
}

#[test]
fn the_command_line_prints_a_scaling_table() {
    let (status, out, err) = polyc_on_jacobi(&[
        "--emit=parallelism",
        "--tile=rect",
        "--tile-sizes=8,8",
        "--param",
        "N=64,TSTEPS=32",
        "--scaling",
        "--scaling-steps=1,2,4",
    ]);
    assert_eq!(status, Some(0), "{err}");
    let rows: Vec<Vec<&str>> =
        out.lines().map(|l| l.split_whitespace().collect::<Vec<_>>()).filter(|w| w.len() == 11).collect();
    assert_eq!(rows[0][..3], ["k", "N", "procs"], "{out}");
    assert_eq!(rows.iter().skip(1).map(|r| r[1]).collect::<Vec<_>>(), ["64", "128", "256"], "{out}");
    assert!(rows.iter().skip(1).all(|r| r[6] == "1"), "start-up parallelism: {out}");
}

#[test]
fn a_parameter_without_a_value_is_named() {
    let (status, out, err) = polyc_on_jacobi(&["--emit=parallelism", "--tile=rect", "--param", "N=64"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no value for parameter TSTEPS: pass --param TSTEPS=VALUE"), "{err}");
}

/// Statement `k`'s map `u, i -> [a + b, a, u, i]` with `u = 2t + k` (S1
/// runs between S0's steps) and `a = floor((u + i) / 8)`,
/// `b = floor((u - i) / 8)`: jacobi-1d's distances in (u, i) lie in the
/// cone |di| <= du, so both diamond faces are forward, and tiles on one
/// wavefront `a + b` are independent: concurrent start, by hand (the
/// planner's own diamonds are not needed to check the simulator).
fn diamond(k: usize) -> polyc::model::isl::Map {
    let (u, a, b) =
        (format!("(2i0 + {k})"), format!("floor((2i0 + {k} + i1) / 8)"), format!("floor((2i0 + {k} - i1) / 8)"));
    let text = format!("[p0, p1] -> {{ S{k}[i0, i1] -> [{a} + {b}, {a}, {u}, i1] }}");
    polyc::model::isl::Map::parse(&text).expect("a map")
}

#[test]
fn concurrent_start_parallelism_grows_with_n() {
    use polyc::report::simulate::{self, TileGraph};
    let ast = polyc::frontend::Source::parse(jacobi_1d()).expect("parses").scops().scops.remove(0);
    let scop = polyc::model::Scop::build(ast).expect("a model");
    let scattering = polyc::schedule::Scattering { stmts: vec![0, 1], maps: vec![diamond(0), diamond(1)], dims: 4 };
    let dependences = polyc::deps::analyse(&scop).and_then(|d| d.generators()).expect("dependences");
    let start_up = |n: i64| {
        let params = simulate::fixed_params(&[32, n]).expect("parameters");
        let namings = simulate::tile_namings(&scop, &scattering, &[2, 2], &params).expect("namings");
        let graph = TileGraph::build(&scop, &scattering, &namings, &dependences, &params).expect("graph");
        simulate::parallelism(&graph.successors, 1).expect("acyclic").startup_parallelism
    };
    let widths: Vec<usize> = [64, 128, 256, 512].into_iter().map(start_up).collect();
    // The tiles that start at once lie along t = 0, one per 8 columns
    // (N / 8 of them): twice N, twice as many.
    assert!(widths.windows(2).all(|w| w[1] == 2 * w[0]), "{widths:?}");
    assert!(widths[0] > 1, "{widths:?}");
}
