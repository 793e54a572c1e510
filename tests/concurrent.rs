//! Concurrent-start tilings (`--tile=diamond`, `--tile=hex`, and the
//! default mode's `auto` for stencils): the tiles
//! are checked against the exact dependence distances, not only the bound
//! the planner verifies them with, and a stencil whose dependences forbid
//! concurrent start falls back with a diagnostic that says why.

use polyc::deps;
use polyc::diagnostics::Code;
use polyc::driver;
use polyc::frontend::Source;
use polyc::model::isl::Set;
use polyc::model::Scop;
use polyc::options::{Options, PlanRequest, TileOptions, TileShape};
use polyc::schedule::Scattering;
use polyc::tile::concurrent::{self, Stencil};
use std::path::Path;

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(format!("{name}.c"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first SCoP of a corpus kernel (the time loop of each stencil).
fn scop(name: &str) -> Scop {
    let source = Source::parse(corpus(name)).unwrap();
    Scop::build(source.scops().scops.remove(0)).unwrap()
}

type Tiling = fn(
    &Stencil,
    &concurrent::Cone,
    &[i64],
    &Scattering,
) -> polyc::model::isl::IslResult<Result<(Scattering, Set), String>>;

/// Tile `name` with `tiling` at `sizes` and check it exactly: every
/// instance once, every dependence forward, and every exact distance
/// inside the bound the planner trusts (tile part x point order).
fn check_exactly(name: &str, tiling: Tiling, sizes: &[i64]) {
    let scop = scop(name);
    let legality = deps::analyse(&scop).unwrap().generators().unwrap();
    let n_params = scop.ast.params.len();
    let stmts: Vec<usize> = (0..scop.statements.len()).collect();
    let stencil = Stencil::of(&scop, &stmts, &legality).unwrap().unwrap_or_else(|why| panic!("{name}: {why}"));
    let cone = stencil.cone().unwrap();
    let inner = Scattering::original(&scop);
    let (tiled, tile_bound) = tiling(&stencil, &cone, sizes, &inner).unwrap().unwrap();
    let exact = tiled.verify(&scop, &legality).unwrap_or_else(|v| panic!("{name} {sizes:?}: {v}"));
    let inner_distances = polyc::schedule::analysis::distances(&inner, &legality, n_params).unwrap();
    let bound = tile_bound.flat_product(&inner_distances).unwrap();
    assert!(exact.is_subset_of(&bound).unwrap(), "{name} {sizes:?}: a distance outside the bound");
}

#[test]
fn diamond_tiles_respect_every_dependence_exactly() {
    for sizes in [[2, 2], [4, 3], [8, 8]] {
        check_exactly("jacobi-1d", concurrent::diamond, &sizes);
        check_exactly("jacobi-2d", concurrent::diamond, &sizes);
        check_exactly("fdtd-2d", concurrent::diamond, &sizes);
    }
}

#[test]
fn hexagonal_tiles_respect_every_dependence_exactly() {
    // Exact distances through hexagons cost isl much more than diamonds':
    // jacobi-1d at every shape, jacobi-2d at one.
    for sizes in [[1, 1, 2], [2, 2, 2], [3, 1, 4], [4, 6, 3], [8, 8, 8]] {
        check_exactly("jacobi-1d", concurrent::hexagonal, &sizes);
    }
    check_exactly("jacobi-2d", concurrent::hexagonal, &[2, 3, 2]);
}

#[test]
fn jacobi_cone_is_one_point_per_sub_step() {
    let scop = scop("jacobi-1d");
    let legality = deps::analyse(&scop).unwrap().generators().unwrap();
    let stencil = Stencil::of(&scop, &[0, 1], &legality).unwrap().unwrap();
    assert_eq!(stencil.space, vec!["i".to_string()]);
    let cone = stencil.cone().unwrap();
    // τ = 2t + statement: each sub-step reads its neighbours, one to each side.
    assert_eq!((cone.lower[0], cone.upper[0]), (Some(1), Some(1)));
}

/// The tiles asked for whatever the machine's load: no wall-clock budget.
fn compile(name: &str, shape: TileShape) -> driver::Outcome {
    compile_within(name, shape, None)
}

fn compile_within(name: &str, shape: TileShape, time_budget: Option<std::time::Duration>) -> driver::Outcome {
    let plan = PlanRequest {
        schedule: polyc::options::ScheduleKind::Auto,
        tile: Some(TileOptions { shape, ..TileOptions::default() }),
        parallel: true,
        simd: true,
        time_budget,
        ..PlanRequest::default()
    };
    let options = Options { plan, ..Options::default() };
    driver::compile(corpus(name), &options).unwrap()
}

#[test]
fn stencils_get_the_tiles_asked_for_with_a_parallel_tile_loop() {
    for (shape, name) in [(TileShape::Diamond, "tile=diamond"), (TileShape::Hex, "tile=hex")] {
        for kernel in ["jacobi-1d", "jacobi-2d", "heat-3d"] {
            let outcome = compile(kernel, shape);
            assert!(outcome.diagnostics.is_empty(), "{kernel}: {:?}", outcome.diagnostics[0].message);
            assert!(outcome.scops.iter().any(|s| s.transforms.iter().any(|t| t == name)), "{kernel}: {name}");
            let shared =
                outcome.output.contains("#pragma omp parallel for") || outcome.output.contains("#pragma omp for");
            assert!(shared, "{kernel}: no parallel tile loop");
        }
    }
}

/// Whether hexagons keep the source's order only words the comment, and
/// finding out may take only a share of the budget: it once took
/// jacobi-1d past the whole default budget (10 s, for 0.3 s of work), and
/// the SCoP kept its source text.
#[test]
fn hexagons_fit_in_the_default_time_budget() {
    for kernel in ["jacobi-1d", "jacobi-2d"] {
        let outcome = compile_within(kernel, TileShape::Hex, Some(polyc::model::isl::DEFAULT_TIME_BUDGET));
        assert!(outcome.diagnostics.is_empty(), "{kernel}: {:?}", outcome.diagnostics[0].message);
        assert!(outcome.output.contains("polyc: hexagon-tiled"), "{kernel}: not hexagon-tiled");
    }
}

/// The default mode's shape (`auto`): diamonds where a loop only counts
/// time steps and they apply, else what `rect` gives, without a word:
/// fdtd-2d's step names its `_fict_[t]`, seidel-2d's dependences forbid
/// concurrent start, symm's rows are no time steps.
#[test]
fn polyc_s_own_choice_is_diamonds_for_stencils_and_rectangles_quietly_elsewhere() {
    for kernel in ["jacobi-1d", "jacobi-2d", "heat-3d"] {
        let outcome = compile(kernel, TileShape::Auto);
        assert!(outcome.diagnostics.is_empty(), "{kernel}: {:?}", outcome.diagnostics[0].message);
        assert!(outcome.scops.iter().any(|s| s.transforms.iter().any(|t| t == "tile=diamond")), "{kernel}");
    }
    for kernel in ["fdtd-2d", "seidel-2d", "symm"] {
        let outcome = compile(kernel, TileShape::Auto);
        assert!(outcome.diagnostics.is_empty(), "{kernel}: {:?}", outcome.diagnostics[0].message);
        let rect = compile(kernel, TileShape::Rect);
        assert_eq!(outcome.output, rect.output, "{kernel}: not what --tile=rect gives");
    }
}

#[test]
fn tiles_the_scanner_gives_up_on_fall_back_to_rect_with_a_warning() {
    // fdtd-2d's four statements in diamonds cost the scanner more than
    // its budget; in hexagons, they leave a loop it cannot bound.
    for (shape, code, why) in [
        (TileShape::Diamond, Code::P0022, "(out of isl budget: "),
        (TileShape::Hex, Code::P0014, "(scanner limitation: "),
    ] {
        let outcome = compile("fdtd-2d", shape);
        let warning = outcome.diagnostics.iter().find(|d| d.code == code).expect("a warning");
        assert!(
            warning.message.starts_with(&format!("concurrent-start tiles: loops not generated {why}"))
                && warning.message.ends_with("; tiled with rectangles instead"),
            "{}",
            warning.message
        );
        assert!(
            outcome.scops[0].transforms.iter().any(|t| t.starts_with("tile=time")),
            "{:?}",
            outcome.scops[0].transforms
        );
    }
}

#[test]
fn a_dependence_within_a_time_step_forbids_concurrent_start() {
    for shape in [TileShape::Diamond, TileShape::Hex] {
        let outcome = compile("seidel-2d", shape);
        let warning = outcome.diagnostics.iter().find(|d| d.code == Code::P0014).expect("a warning");
        assert!(warning.message.contains("forbids concurrent start"), "{}", warning.message);
    }
}
