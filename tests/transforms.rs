//! What the default mode (`polyc in.c -o out.c`) does to the kernels users
//! expect a polyhedral compiler to tile and parallelise: each gets an
//! OpenMP parallel loop and tiles, and gemm's innermost loop is the
//! stride-1 one, marked SIMD; loops that carry dependences only through
//! scalars or row buffers each iteration writes first run in parallel
//! with private copies; a vector loop outside a column walk runs in
//! strips, innermost; a SCoP nothing gains from keeps its text, and one
//! isl reorders for no more than the source's order gives keeps that order.

use polyc::driver::{self, Outcome};
use polyc::options::{Options, PlanRequest, ScheduleKind};
use std::path::Path;

use crate::common;
use common::{parallel_regions, ungated_regions};

const TILED_AND_PARALLEL: &[&str] = &[
    "gemm",
    "2mm",
    "3mm",
    "syrk",
    "syr2k",
    "covariance",
    "correlation",
    "jacobi-2d",
    "heat-3d",
    "fdtd-2d",
    "lu",
    "doitgen",
];

/// The default mode without its wall-clock budget: these tests check what
/// the planner does, whatever the machine's load (`tests/budget.rs` tests
/// the budget).
pub(super) fn optimising() -> Options {
    Options { plan: PlanRequest { time_budget: None, ..PlanRequest::optimising() }, ..Options::default() }
}

/// [`optimising`] with the tile sizes given, as `--tile-sizes` gives them.
pub(super) fn optimising_with_tile_sizes(sizes: &[i64]) -> Options {
    let mut options = optimising();
    if let Some(tile) = options.plan.tile.as_mut() {
        tile.sizes = sizes.to_vec();
    }
    options
}

pub(super) fn compile_default(name: &str) -> Outcome {
    driver::compile(corpus_text(name), &optimising()).unwrap_or_else(|d| panic!("{name}: {}", d.message))
}

/// The text of `corpus/{name}.c`.
pub(super) fn corpus_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(format!("{name}.c"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The transformations applied to `outcome`'s SCoPs.
pub(super) fn applied(outcome: &Outcome) -> Vec<&str> {
    outcome.scops.iter().flat_map(|s| &s.transforms).map(String::as_str).collect()
}

/// The loops `output`'s SCoP runs with less work than `POLYC_MIN_WORK`:
/// the last `else` branch after the work check.
fn little_work_loops(output: &str) -> &str {
    let scop = scop_text(output);
    let work = scop.find(">= POLYC_MIN_WORK").unwrap_or_else(|| panic!("no work check:\n{scop}"));
    let line_start = scop[..work].rfind('\n').map_or(0, |k| k + 1);
    let indent = &scop[line_start..line_start + scop[line_start..].len() - scop[line_start..].trim_start().len()];
    let branch = format!("\n{indent}}} else {{\n");
    &scop[work + scop[work..].find(&branch).expect("the loops for little work") + 1..]
}

/// The SCoP part of `output`, where tile loops and pragmas must be.
pub(super) fn scop_text(output: &str) -> &str {
    let start = output.find("#pragma scop").expect("the SCoP is kept");
    let end = output.find("#pragma endscop").expect("the SCoP is kept");
    &output[start..end]
}

/// The lines of [`scop_text`], trimmed.
pub(super) fn scop_lines(output: &str) -> Vec<&str> {
    scop_text(output).lines().map(str::trim).collect()
}

#[test]
fn default_mode_tiles_and_parallelises_the_dense_kernels() {
    for name in TILED_AND_PARALLEL {
        let outcome = compile_default(name);
        let transforms = applied(&outcome);
        assert!(transforms.iter().any(|t| t.starts_with("tile=")), "{name} is not tiled: {transforms:?}");
        let code = scop_text(&outcome.output);
        assert!(code.contains("#pragma omp parallel for"), "{name} has no parallel loop:\n{code}");
        // A tile loop steps over tile indices; its point loop starts at a
        // multiple of the size (before its header where it is jammed).
        assert!(
            code.lines().any(|l| {
                let l = l.trim_start();
                (l.starts_with("for (int") || l.starts_with("int ")) && l.contains("32 * c")
            }),
            "{name} has no tile loops:\n{code}"
        );
    }
}

#[test]
fn gemm_innermost_loop_is_stride_one_and_simd() {
    let outcome = compile_default("gemm");
    let lines = scop_lines(&outcome.output);
    // The general instance (a tile may peel k = 0 off): j is the last subscript of C and B.
    // Its reduction over k is jammed: four updates of C[i][j] per vector,
    // on a local (`emit::promote`), A[i][k + u] read before the loop.
    // A row alone (past the register blocks' rows), its updates one after the other.
    let update = (0..lines.len() - 1)
        .find(|&p| {
            lines[p..p + 2] == ["polyc_C += alpha * polyc_A * B[k][j];", "polyc_C += alpha * polyc_A_1 * B[k + 1][j];"]
        })
        .expect("gemm's update statement, on locals");
    assert_eq!(lines[update + 3], "polyc_C += alpha * polyc_A_3 * B[k + 3][j];", "not jammed by 4");
    assert_eq!(lines[update + 4], "C[i][j] = polyc_C;", "C[i][j] not stored once");
    let header = lines[..update].iter().rposition(|l| l.starts_with("for (")).expect("a loop around the update");
    assert!(lines[header].starts_with("for (int j = "), "gemm's innermost loop is not j: {}", lines[header]);
    assert_eq!(lines[header - 1], "#pragma omp simd", "gemm's innermost loop is not marked SIMD");
    let transforms = applied(&outcome);
    assert!(transforms.contains(&"unroll-jam"), "{transforms:?}");
}

/// Every parallel region of the loops for little work starts threads only
/// where its own work pays them: behind `if (... && POLYC_THREADS > 1)`.
fn threads_only_where_work_pays(small: &str) {
    for (line, gated) in parallel_regions(small) {
        assert!(gated, "an ungated region: {line}\n{small}");
    }
}

/// Whether `line` shares a loop out among threads: `#pragma omp
/// parallel for`, or `#pragma omp for` in a region around a wavefront.
fn shares_out(line: &str) -> bool {
    line.starts_with("#pragma omp parallel for") || line.starts_with("#pragma omp for")
}

/// The `#pragma omp parallel for` and `#pragma omp for` lines of `code`.
fn parallel_pragmas(code: &str) -> Vec<&str> {
    code.lines().map(str::trim).filter(|l| shares_out(l)).collect()
}

#[test]
fn scalars_and_row_buffers_written_first_are_privatised() {
    let code = compile_default("shape_private").output;
    let scop = scop_text(&code);
    let pragmas = parallel_pragmas(scop);
    assert!(
        pragmas.iter().any(|p| p.ends_with("lastprivate(row)")),
        "no parallel loop with lastprivate(row): {pragmas:?}"
    );
    for scalar in ["t", "w"] {
        assert!(scop.contains(&format!("{scalar} = polyc_{scalar}_value;")), "{scalar} not copied out:\n{scop}");
    }
    // Carried to the next row, written on some rows only, or left partly
    // unwritten by the last row: no private copy would be exact.
    for shared in ["u", "v", "part"] {
        let names = |p: &&str| p.split(['(', ')', ',', ':']).map(str::trim).any(|w| w == shared);
        assert!(!pragmas.iter().any(names), "{shared} privatised: {pragmas:?}");
    }
    assert!(code.contains("if (sizeof(row) <= "), "the private array's size is not checked:\n{code}");
}

#[test]
fn loops_of_unequal_iterations_are_scheduled_dynamically() {
    let code = compile_default("syrk").output;
    let pragmas = parallel_pragmas(scop_text(&code));
    assert!(pragmas.iter().any(|p| p.contains("schedule(dynamic)")), "{pragmas:?}");
}

#[test]
fn tiles_of_a_triangle_bounded_by_a_parameter_too_are_scheduled_dynamically() {
    // symm's sum over `k < i`, tiled: `c2 <= min(floord(m - 2, 32), c1)`.
    // The distance from 0 to the parameter's bound does not move with
    // `c1`, but the other one does: a static split gave one thread three
    // quarters of the tiles.
    let code = compile_default("symm").output;
    let lines = scop_lines(&code);
    let triangle =
        lines.iter().position(|l| l.contains("c2 <= polyc_min(polyc_floord(M - 2, 32), c1)")).expect("{code}");
    assert!(lines[triangle - 2].contains("schedule(dynamic)"), "{:#?}", &lines[triangle - 2..=triangle]);
}

#[test]
fn tiles_writing_neighbouring_parts_of_rows_are_split_statically() {
    // gramschmidt's wavefront of column tiles: each tile writes its 32
    // columns of every row of A, so two threads on neighbouring tiles
    // would share a cache line in every row.
    let code = compile_default("gramschmidt").output;
    let pragmas = parallel_pragmas(scop_text(&code));
    assert!(!pragmas.is_empty(), "{code}");
    assert!(pragmas.iter().all(|p| p.contains("schedule(static)")), "{pragmas:?}");
}

#[test]
fn loops_of_equal_iterations_are_scheduled_statically() {
    // gemm's full rectangular tiles.
    let code = compile_default("gemm").output;
    let pragmas = parallel_pragmas(scop_text(&code));
    assert!(!pragmas.is_empty(), "{code}");
    assert!(pragmas.iter().all(|p| p.contains("schedule(static)")), "{pragmas:?}");
}

#[test]
fn a_scop_that_gains_nothing_keeps_its_source_text() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/shape_scalars.c");
    let source = std::fs::read_to_string(path).unwrap();
    let outcome = compile_default("shape_scalars");
    assert_eq!(outcome.output, source);
    assert!(outcome.scops.iter().all(|s| s.transforms.is_empty()), "{:?}", outcome.scops[0].transforms);
}

#[test]
fn a_nest_isl_reorders_for_no_more_than_the_source_gives_keeps_the_source_order() {
    // isl runs the diagonal recurrence's inner loop over `i - j`, for a
    // distance of zero there: a reversed column walk (0.7x in TSVC's s119)
    // where the source's `j` loop is just as parallel and walks forwards.
    let text = "float aa[256][256], bb[256][256];\nvoid f(void) {\n#pragma scop\n  for (int i = 1; i < 256; i++)\n    \
                for (int j = 1; j < 256; j++)\n      aa[i][j] = aa[i-1][j-1] + bb[i][j];\n#pragma endscop\n}\n";
    let (transforms, output) = transforms_of(text.to_string());
    let inner = output.lines().map(str::trim).skip_while(|l| !l.starts_with("for (int i = 1;")).nth(1);
    assert_eq!(inner, Some("#pragma omp simd"), "{transforms:?}\n{output}");
    assert!(output.contains("for (int j = 1; j <= 255; j++)\n      aa[i][j] = aa[i-1][j-1] + bb[i][j];"), "{output}");
}

#[test]
fn a_loop_unrolled_by_hand_stays_one_parallel_loop() {
    // Five statements without a dependence among them are five components
    // to isl, which puts them one after the other: five loops of stride
    // five over the same arrays, each its own parallel region (TSVC's s351).
    let body: String = (0..5).map(|k| format!("    a[i + {k}] += alpha * b[i + {k}];\n")).collect();
    let text = format!(
        "double a[1000000], b[1000000];\nvoid f(double alpha) {{\n#pragma scop\n  \
         for (int i = 0; i < 1000000; i += 5) {{\n{body}  }}\n#pragma endscop\n}}\n"
    );
    let (transforms, output) = transforms_of(text);
    let scop = scop_text(&output);
    // One parallel loop for enough work; for little, the source's loop,
    // whose statements each run one iteration's work: no threads.
    assert_eq!(parallel_pragmas(scop).len(), 1, "{transforms:?}\n{output}");
    assert_eq!(scop.matches("i += 5)").count(), 2, "{output}");
    assert!(transforms.iter().any(|t| t == "source-order"), "{transforms:?}");
}

#[test]
fn light_work_beside_a_recurrence_stays_in_its_loop_and_heavy_work_is_split_off() {
    // `e` carries a value from one iteration to the next: its loop runs at
    // the multiply's latency, and the statements beside it run in that
    // shadow (TSVC's s222: 0.79x split). Four statements of as many cells
    // each outweigh it: split off, they run as a vector loop (1.26x).
    let program = |free: &[&str]| {
        let body: String = free.iter().map(|s| format!("    {s}\n")).collect();
        format!(
            "float a[32000], b[32000], c[32000], d[32000], e[32000], f[32000], g[32000], h[32000];\n\
             void k(void) {{\n#pragma scop\n  for (int i = 1; i < 32000; i++) {{\n{body}    \
             e[i] = e[i - 1] * e[i - 1];\n  }}\n#pragma endscop\n}}\n"
        )
    };
    let light = program(&["a[i] += b[i] * c[i];", "a[i] -= b[i] * c[i];"]);
    let (transforms, output) = transforms_of(light.clone());
    assert_eq!(output, light, "{transforms:?}");
    let heavy = ["a[i] = b[i] * c[i] + d[i];", "f[i] = b[i] * d[i] + c[i];", "g[i] = c[i] * d[i] + b[i];"];
    let heavy = program(&[heavy.as_slice(), &["h[i] = d[i] * d[i] + a[i];"]].concat());
    let (transforms, output) = transforms_of(heavy.clone());
    let alone =
        scop_lines(&output).windows(2).any(|w| w[0].starts_with("for (int i = 1;") && w[1].starts_with("e[i] ="));
    assert!(alone && !transforms.iter().any(|t| t == "source-order"), "{transforms:?}\n{output}");
}

#[test]
fn a_regenerated_region_starts_with_one_line_saying_what_was_done() {
    let code = compile_default("gemm").output;
    let after: Vec<&str> = code[code.find("#pragma scop").unwrap()..].lines().skip(1).collect();
    assert_eq!(
        after[0].trim(),
        "/* polyc: tiled 32x32x256, C[i][j] summed on packed panels, parallel (OpenMP), SIMD, unroll-and-jam by 4; \
         with too little work, loops without tiles, on threads where a region's work pays; \
         undo: polyc --schedule=identity */"
    );
    assert_eq!(code.matches("/* polyc:").count(), 1, "{code}");
}

#[test]
fn a_loop_holding_some_statement_worth_a_region_runs_in_parallel() {
    // adi's sweeps: inside the time loop, each strip of rows' boundary
    // statements alone are too little work for a region, its loops over
    // j are not.
    let code = compile_default("adi").output;
    let lines = scop_lines(&code);
    let strips: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("for (int c4 = 0; c4 <= polyc_floord(N - 2, 4); c4++)"))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(strips.len(), 2, "{lines:#?}");
    assert!(strips.iter().all(|&k| shares_out(lines[k - 1])), "{lines:#?}");
}

#[test]
fn a_vector_loop_outside_a_column_walk_runs_in_strips_innermost() {
    // isl puts utsolve's columns j outermost, its reduction over k (down
    // columns of B) inside: strips of j, parallel, each running j innermost.
    let outcome = compile_default("utsolve");
    let transforms = applied(&outcome);
    assert!(transforms.contains(&"tile=strips"), "{transforms:?}");
    let lines = scop_lines(&outcome.output);
    let pragma = lines.iter().position(|l| l.starts_with("#pragma omp parallel for")).expect("a parallel loop");
    assert!(lines[pragma + 1].starts_with("for (int c0 = 0; c0 <= polyc_floord(M - 1, 256)"), "{}", lines[pragma + 1]);
    let update = lines.iter().position(|l| *l == "B[i][j] -= polyc_U * B[k][j];").expect("the update, U[i][k] hoisted");
    assert!(lines[update - 1].starts_with("for (int j = 256 * c0;"), "j is not innermost: {}", lines[update - 1]);
    assert_eq!(lines[update - 2], "#pragma omp simd");
}

#[test]
fn a_matrix_vector_product_walks_rows_in_parallel() {
    // isl runs gemver's `w = A x` down the columns of A, in tiles; the
    // source's rows, in parallel, read A once, contiguously: four at a
    // time, their sums in locals.
    let code = compile_default("gemver").output;
    let lines = scop_lines(&code);
    let fourth = "polyc_w_3 = polyc_w_3 + alpha * A[4 * c2 + 3][j] * x[j];";
    let chain = lines.iter().position(|l| *l == fourth).expect("w's fourth chain in a local");
    assert_eq!(lines[chain - 4], "for (int j = 0; j < N; j++) {");
    let strips = lines[..chain].iter().rposition(|l| *l == "for (int c2 = 0; c2 <= polyc_floord(N - 1, 4); c2++)");
    let strips = strips.expect("strips of four rows");
    assert_eq!(lines[strips - 1], "#pragma omp parallel for schedule(static)");
}

#[test]
fn a_tile_loop_no_dependence_crosses_runs_outermost_in_one_region() {
    // trmm's strips of columns sat inside two sequential tile loops, a
    // region per tile pair; now one region runs them all, in strips of
    // 128 columns: the threads share nothing else. The sizes are those
    // polyc chooses; given, they keep the product off packed panels.
    let code = driver::compile(corpus_text("trmm"), &optimising_with_tile_sizes(&[32, 32, 128]))
        .expect("trmm compiles")
        .output;
    let lines: Vec<&str> = scop_text(&code)
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("#if") && !l.starts_with("#define") && !l.starts_with("#endif"))
        .collect();
    // The first statement of the loops run with enough work.
    let work = lines.iter().position(|l| l.contains(">= POLYC_MIN_WORK")).expect("a work check");
    assert!(lines[work + 1].starts_with("#pragma omp parallel for"), "{lines:#?}");
    assert!(lines[work + 2].starts_with("for (int c1 = 0; c1 <= polyc_floord(N - 1, 128); c1++)"), "{lines:#?}");
    assert_eq!(ungated_regions(scop_text(&code)).len(), 2, "{lines:#?}");
}

#[test]
fn a_loop_run_once_per_outer_iteration_gets_no_parallel_region() {
    // fdtd-2d's wavefront of time tiles starts with one tile per step
    // (`c1 = c0 / 2`); where only `ey[0][j] = fict[t]` runs there, a
    // region would hold one thread's work.
    let code = compile_default("fdtd-2d").output;
    let lines: Vec<&str> = scop_text(&code).lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let single = "for (int c1 = polyc_ceild(c0, 2); c1 <= polyc_floord(c0, 2); c1++)";
    let mut checked = 0;
    for (k, _) in lines.iter().enumerate().filter(|(_, l)| l.trim() == single) {
        let body = lines[k + 1..].iter().take_while(|l| indent(l) > indent(lines[k]));
        let statements: Vec<&str> =
            body.map(|l| l.trim()).filter(|l| l.ends_with(';') && !l.starts_with("const")).collect();
        if statements.iter().all(|st| *st == "ey[0][j] = fict[t];") {
            checked += 1;
            assert!(!lines[k - 1].trim().starts_with("#pragma omp parallel"), "line {k}:\n{}", lines.join("\n"));
        }
    }
    assert!(checked > 0, "{}", lines.join("\n"));
}

#[test]
fn a_variable_length_row_buffer_is_never_privatised() {
    // A copy of a VLA per thread has a size only known at run time.
    let text = "void f(int n, int m, double A[n][m], double out[n]) {\n  double tmp[m];\n  int i, j;\n#pragma scop\n  \
                for (i = 0; i < n; i++) {\n    for (j = 0; j < m; j++)\n      tmp[j] = A[i][j] * 2.0;\n    \
                for (j = 0; j < m; j++)\n      out[i] += tmp[j];\n  }\n#pragma endscop\n}\n";
    let outcome = driver::compile(text.to_string(), &optimising()).expect("it parses");
    assert!(!outcome.output.contains("lastprivate(tmp)"), "{}", outcome.output);
}

/// A reduction into a scalar inside a 2-deep nest; `{after}` follows the nest.
fn scalar_reduction(init: &str, after: &str) -> String {
    format!(
        "double A[200][200], s;\nvoid f(void) {{\n  int i, j, k;\n#pragma scop\n  for (i = 0; i < 200; i++)\n    \
         for (j = 0; j < 200; j++) {{\n      {init}\n      for (k = 0; k < j; k++)\n        \
         s -= A[i][k] * A[k][j];\n      A[i][j] = s / A[j][j];\n    }}\n  {after}\n#pragma endscop\n}}\n"
    )
}

fn transforms_of(text: String) -> (Vec<String>, String) {
    let outcome = driver::compile(text, &optimising()).expect("compiles");
    (applied(&outcome).into_iter().map(str::to_string).collect(), outcome.output)
}

#[test]
fn a_scalar_reduced_per_iteration_is_expanded_so_the_nest_is_tiled() {
    let (transforms, output) = transforms_of(scalar_reduction("s = A[i][j];", "s = 0.0;"));
    assert!(transforms.iter().any(|t| t == "expand-storage"), "{transforms:?}\n{output}");
    assert!(transforms.iter().any(|t| t.starts_with("tile=")), "{transforms:?}");
    let code = scop_text(&output);
    assert!(
        code.contains(
            "polyc_s_memory = __builtin_malloc(sizeof(double) * (__SIZE_TYPE__)200 * (__SIZE_TYPE__)200 + 64);"
        ),
        "{code}"
    );
    assert!(code.contains("polyc_s[i][j] -= polyc_A * A[k][j];"), "{code}");
    // If the allocation fails, the source runs.
    assert!(code.contains("} else {\n  for (i = 0; i < 200; i++)"), "{code}");
    assert!(code.contains("__builtin_free(polyc_s_memory);"), "{code}");
    // `--emit=schedule` shows the plan the code comes from.
    let options = Options { emit: polyc::options::Emit::Schedule, ..optimising() };
    let report = driver::compile(scalar_reduction("s = A[i][j];", "s = 0.0;"), &options).expect("compiles").output;
    assert!(report.contains("applied: expand-storage, "), "{report}");
}

#[test]
fn an_expanded_scalar_s_last_value_is_copied_back_after_the_nest() {
    let (transforms, output) = transforms_of(scalar_reduction("s = A[i][j];", ""));
    assert!(transforms.iter().any(|t| t == "expand-storage"), "{transforms:?}\n{output}");
    assert!(scop_text(&output).contains("s = polyc_s[199][199];"), "{output}");
}

/// doitgen's shape: a row reset and reduced into for every `(i, j)`,
/// then stored; the row's last values are the program's.
fn row_reduction() -> String {
    "double A[64][64][64], C[64][64], sum[64];\nvoid f(void) {\n  int i, j, p, s;\n#pragma scop\n  \
     for (i = 0; i < 64; i++)\n    for (j = 0; j < 64; j++) {\n      for (p = 0; p < 64; p++) {\n        \
     sum[p] = 0.0;\n        for (s = 0; s < 64; s++)\n          sum[p] += A[i][j][s] * C[s][p];\n      }\n      \
     for (p = 0; p < 64; p++)\n        A[i][j][p] = sum[p];\n    }\n#pragma endscop\n}\n"
        .to_string()
}

#[test]
fn a_row_reduced_per_iteration_gets_a_copy_per_inner_iteration_and_its_last_values_back() {
    let (transforms, output) = transforms_of(row_reduction());
    assert!(transforms.iter().any(|t| t == "expand-storage"), "{transforms:?}\n{output}");
    assert!(transforms.iter().any(|t| t.starts_with("tile=")), "{transforms:?}");
    let code = scop_text(&output);
    // One copy per `j` only: `i` reuses them.
    assert!(code.contains("__builtin_malloc(sizeof(double) * (__SIZE_TYPE__)64 * (__SIZE_TYPE__)64 + 64)"), "{code}");
    assert!(code.contains("double (*restrict polyc_sum)[64] = (void *)"), "{code}");
    let copy_back = code.lines().map(str::trim).find(|l| l.starts_with("sum[")).expect("a copy back");
    assert!(copy_back.contains("= polyc_sum[63]["), "{code}");
}

#[test]
fn a_scalar_is_not_expanded_when_an_outer_value_is_used() {
    // Each reduction starts from the previous one's value.
    let (transforms, output) = transforms_of(scalar_reduction("A[i][i] = s;", "s = 0.0;"));
    assert!(!transforms.iter().any(|t| t == "expand-storage"), "{transforms:?}\n{output}");
    // Each (i, j) starts from the value set before the nest.
    let (transforms, output) = transforms_of(scalar_reduction("A[i][i] = 1.0;", "s = 0.0;"));
    assert!(!transforms.iter().any(|t| t == "expand-storage"), "{transforms:?}\n{output}");
}

#[test]
fn a_recurrence_innermost_runs_a_strip_of_independent_chains() {
    // adi's sweeps: `i` parallel, each `j` loop a recurrence along a row.
    let outcome = compile_default("adi");
    let transforms = applied(&outcome);
    assert!(transforms.contains(&"tile=strips"), "{transforms:?}");
    let lines = scop_lines(&outcome.output);
    let strip = "for (int i = polyc_max(4 * c4, 1); i <= polyc_min(4 * c4 + 3, N - 2); i++)";
    let sweep = lines.iter().position(|l| *l == "p[i][j] = -c / (a * p[i][j - 1] + b);").expect("adi's sweep");
    assert_eq!(lines[sweep - 1], strip, "{lines:#?}");
    assert!(lines[sweep - 2].starts_with("for (int j = 1; j < N - 1; j++)"), "{lines:#?}");
    assert!(lines[..sweep].iter().any(|l| shares_out(l)), "{lines:#?}");
}

#[test]
fn tiles_and_threads_run_only_with_enough_work_or_data_and_the_source_otherwise() {
    let code = compile_default("jacobi-1d").output;
    assert!(code.contains("#ifndef POLYC_MIN_WORK\n#define POLYC_MIN_WORK 1e7\n#endif"), "{code}");
    let scop = scop_text(&code);
    // Two arrays of N doubles; two statements, each over TSTEPS x (N - 2)
    // instances.
    let data = "(double)sizeof(A[0]) * (double)polyc_max(N, 0) + (double)sizeof(B[0]) * (double)polyc_max(N, 0)";
    let work = "2 * (double)polyc_max(TSTEPS, 0) * (double)polyc_max(N - 2, 0)";
    let guard = format!("if ({data} >= POLYC_MIN_DATA || {work} >= POLYC_MIN_WORK) {{");
    assert!(code.contains("#ifndef POLYC_MIN_DATA\n#define POLYC_MIN_DATA 4194304.0\n#endif"), "{code}");
    let guarded = &scop[scop.find(&guard).unwrap_or_else(|| panic!("no work check:\n{scop}"))..];
    let (tiled, rest) = guarded.split_at(guarded.find("} else {").expect("the source text"));
    assert!(tiled.contains("polyc_floord") && !parallel_pragmas(tiled).is_empty(), "{tiled}");
    // With little work, SIMD loops in the source's order would be all
    // that is left, which gcc finds in the source as well.
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/jacobi-1d.c")).unwrap();
    let loops = source.find("  for (t = 0;").expect("jacobi-1d's time loop");
    let end = source.find("#pragma endscop").unwrap();
    assert!(rest.starts_with(&format!("}} else {{\n{}", &source[loops..end])), "{scop}");
}

#[test]
fn a_column_walk_runs_along_rows_at_any_work() {
    // mvt's `x2[i] += A[j][i] * y_2[j]` walks columns of A over j: the
    // loops are interchanged (and jammed), printed once without tiles, on
    // threads only where a region's work pays them.
    let code = compile_default("mvt").output;
    let scop = scop_text(&code);
    assert!(!scop.contains("POLYC_MIN_WORK"), "a work check:\n{scop}");
    threads_only_where_work_pays(scop);
    let lines = scop_lines(&code);
    let column =
        lines.iter().position(|l| l.contains("A[j][i] * polyc_y_2;")).expect("the column walk, y_2[j] hoisted");
    assert_eq!(lines[column - 3..column - 1], ["#pragma omp simd", "for (int i = 0; i < N; i++) {"], "{scop}");
}

#[test]
fn loops_that_cost_nothing_at_run_time_run_without_a_work_check() {
    // Without tiles and threads, what is left (an interchange, SIMD loops,
    // unroll-and-jam) pays at every size.
    let base = optimising();
    let sequential = Options { plan: PlanRequest { tile: None, parallel: false, ..base.plan.clone() }, ..base };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/mvt.c");
    let outcome = driver::compile(std::fs::read_to_string(path).unwrap(), &sequential).unwrap();
    let scop = scop_text(&outcome.output);
    assert!(scop.contains("#pragma omp simd") || scop.contains("#pragma GCC ivdep"), "{scop}");
    assert!(!scop.contains("POLYC_MIN_WORK"), "{scop}");
}

#[test]
fn inside_time_tiles_gramschmidt_s_updates_walk_rows() {
    // `R[k][j] += Q[i][k] * A[i][j]` ran over i innermost, down the
    // columns of A (1.04x); in its tiles j is now innermost (PLUTO's
    // intra-tile reordering), a SIMD loop.
    let outcome = compile_default("gramschmidt");
    assert!(applied(&outcome).contains(&"permute-for-locality"), "{:?}", applied(&outcome));
    let code = scop_text(&outcome.output);
    let tiled = &code[..code.find(">= POLYC_MIN_WORK").map_or(code.len(), |w| code[w..].find("} else {").unwrap() + w)];
    let lines: Vec<&str> = tiled.lines().map(str::trim).collect();
    for update in ["R[k][j] += ", "A[i][j] = A[i][j] - "] {
        let at = lines.iter().position(|l| l.starts_with(update)).unwrap_or_else(|| panic!("{update}:\n{tiled}"));
        let inner = lines[..at].iter().rposition(|l| l.starts_with("for (")).unwrap();
        assert!(lines[inner].starts_with("for (int j = "), "{update}: {}\n{tiled}", lines[inner]);
        assert!(lines[inner - 1] == "#pragma omp simd" || lines[inner - 2] == "#pragma omp simd", "{tiled}");
    }
}

#[test]
fn with_little_work_a_region_inside_time_steps_counts_one_step_s_work() {
    // jacobi-2d's rows run in parallel inside each time step: each region
    // starts threads only if one step's (N - 2)^2 points reach the bar,
    // whatever the number of steps.
    let code = compile_default("jacobi-2d").output;
    let small = little_work_loops(&code);
    threads_only_where_work_pays(small);
    let lines: Vec<&str> = small.lines().map(str::trim).collect();
    let gate = "if ((double)polyc_max(N - 2, 0) * (double)polyc_max(N - 2, 0) \
                >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {";
    assert_eq!(lines.iter().filter(|l| **l == gate).count(), 2, "{small}");
    assert!(lines[..lines.iter().position(|l| *l == gate).unwrap()].contains(&"for (int t = 0; t < TSTEPS; t++) {"));
    assert!(code.contains("#ifndef POLYC_MIN_REGION_WORK\n#define POLYC_MIN_REGION_WORK 1e6\n#endif"), "{code}");
}

#[test]
fn row_sums_run_as_independent_chains_at_any_work() {
    // gesummv's `tmp[i] = A[i][j] * x[j] + tmp[i]` waits on itself along
    // j; strips of four rows run four sums side by side (2.7x at 3.4
    // million instances), which costs nothing at run time: printed once,
    // on threads where a region's work pays them.
    let code = compile_default("gesummv").output;
    let scop = scop_text(&code);
    let lines = scop_lines(&code);
    let sum = lines.iter().position(|l| *l == "tmp[i] = A[i][j] * x[j] + tmp[i];").expect("the row sum");
    assert!(lines[sum - 1].starts_with("for (int i = 4 * c1; "), "{scop}");
    assert_eq!(lines[sum - 2], "for (int j = 0; j < N; j++) {", "{scop}");
    assert!(!scop.contains("POLYC_MIN_WORK"), "a work check:\n{scop}");
    threads_only_where_work_pays(scop);
    assert!(scop.contains("#pragma omp parallel for"), "the strips of rows not in parallel: {scop}");
}

#[test]
fn row_sums_beside_a_carried_update_run_as_independent_chains() {
    // bicg's rows add to `s[j]` (carried by i) while summing `q[i]` (a
    // recurrence along j): in the source's order, strips of four rows
    // still run four sums side by side, their `s[j]` updates one after
    // the other.
    let base = optimising();
    let in_source_order =
        Options { plan: PlanRequest { schedule: ScheduleKind::Identity, ..base.plan.clone() }, ..base };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/bicg.c");
    let code = driver::compile(std::fs::read_to_string(path).unwrap(), &in_source_order).unwrap().output;
    let lines = scop_lines(&code);
    let sum = lines.iter().position(|l| l.starts_with("q[i] = q[i] + A[i][j]")).unwrap_or_else(|| panic!("{code}"));
    assert!(
        lines[..sum].iter().rev().find(|l| l.starts_with("for (")).unwrap().starts_with("for (int i = 4 * c1;"),
        "{code}"
    );
}

#[test]
fn with_little_work_isl_s_order_serves_where_it_walks_fewer_strides() {
    // covariance's means walk columns of `data` in the source's order; its
    // tiled plan waits for enough work, and isl's order without tiles
    // walks rows (6x near `POLYC_MIN_WORK`).
    let code = compile_default("covariance").output;
    let small = little_work_loops(&code);
    threads_only_where_work_pays(small);
    let lines: Vec<&str> = small.lines().map(str::trim).collect();
    let mean = lines.iter().position(|l| *l == "mean[j] += data[i][j];").expect("the means");
    assert_eq!(
        lines[mean - 3..mean],
        ["for (int i = 0; i < N; i++)", "#pragma omp simd", "for (int j = 0; j < M; j++)"],
        "{small}"
    );
}

#[test]
fn a_column_walk_fused_with_a_vector_statement_is_split_and_walks_rows() {
    // TSVC's s2275: a column walk of `aa` fused with a vector statement
    // over the same `i`. Split and interchanged, both walk rows: 5.7x at
    // 256 x 256, far below the work threads need, so on one thread at run time.
    let text = "#define N 256\ndouble aa[N][N], bb[N][N], cc[N][N], a[N], b[N], c[N], d[N];\nvoid f(void) {\n\
                #pragma scop\n  for (int i = 0; i < N; i++) {\n    for (int j = 0; j < N; j++)\n      \
                aa[j][i] = aa[j][i] + bb[j][i] * cc[j][i];\n    a[i] = b[i] + c[i] * d[i];\n  }\n#pragma endscop\n}\n";
    let (_, output) = transforms_of(text.to_string());
    let scop = scop_text(&output);
    threads_only_where_work_pays(scop);
    let lines = scop_lines(&output);
    for (statement, along) in [
        ("aa[j][i] = aa[j][i] + bb[j][i] * cc[j][i];", Some("for (int j = 0; j < N; j++)")),
        ("a[i] = b[i] + c[i] * d[i];", None),
    ] {
        let at = lines.iter().position(|l| *l == statement).expect(statement);
        assert_eq!(lines[at - 2..at], ["#pragma omp simd", "for (int i = 256 * c1; i <= i_end; i++)"], "{scop}");
        if let Some(rows) = along {
            assert_eq!(lines[at - 5], rows, "{scop}");
        }
    }
    assert!(output.contains("parallel (OpenMP) where a region's work pays"), "{scop}");
}

#[test]
fn the_source_s_independent_chains_beat_isl_s_reductions() {
    // isl runs mvt's `x1[i] += A[i][j] * y_1[j]` with the reduction over
    // j innermost, one chain gcc keeps sequential; the source's order in
    // strips of four rows runs four chains side by side (1.5x).
    let code = compile_default("mvt").output;
    let lines = scop_lines(&code);
    let sum = lines.iter().position(|l| *l == "x1[i] = x1[i] + A[i][j] * y_1[j];").expect("the row sum");
    assert!(lines[sum - 1].starts_with("for (int i = 4 * c2; "), "{code}");
    assert!(lines.contains(&"polyc_x1_3 = polyc_x1_3 + A[4 * c2 + 3][j] * y_1[j];"), "{code}");
}

#[test]
fn threads_over_a_loop_bounded_by_a_division_wait_for_enough_work() {
    // TSVC's s1421 (`i < LEN_1D/2`, 16000 iterations): without an estimate
    // of its work, the parallel loop ran unguarded, 40000 times a team
    // for a few microseconds each (0.15x on two threads).
    let source = "#define LEN 32000\ndouble a[LEN], b[LEN];\nvoid f(void) {\n#pragma scop\n  \
                  for (int i = 0; i < LEN / 2; i++)\n    b[i] = b[i + LEN / 2] + a[i];\n#pragma endscop\n}\n";
    let out = driver::compile(source.to_string(), &Options::optimising()).unwrap().output;
    assert!(out.contains("#pragma omp parallel for"), "{out}");
    let gate = "(double)polyc_max(polyc_floord(LEN - 2, 2) + 1, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1";
    assert!(out.contains(gate), "{out}");
}

#[test]
fn with_fopenmp_the_file_is_still_read_through_its_headers() {
    // gcc 12 stops on `#pragma omp` under `-E -fdirectives-only -fopenmp`
    // (an internal error): NPB's files, built with -fopenmp, were read
    // without their headers' macros (BT's BLOCK_SIZE, whose 5x5 loops
    // were then strip-mined: 0.84x).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-scratch/transforms-openmp-cpp");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("h.h"), "#define B 5\n").unwrap();
    let source = "#include \"h.h\"\ndouble a[B];\nvoid f(void) {\n#pragma omp parallel\n  { }\n#pragma scop\n  \
                  for (int i = 0; i < B; i++)\n    a[i] = i;\n#pragma endscop\n}\n";
    let path = dir.join("x.c");
    std::fs::write(&path, source).unwrap();
    let mut options = Options::optimising();
    options.preprocessor.other.push("-fopenmp".into());
    let outcome = driver::compile_file(source.to_string(), Some(&path), &options).unwrap();
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.is_empty(), "{messages:?}");
}

#[test]
fn loops_without_tiles_wait_for_enough_work_only_where_they_cost_more_with_little() {
    // atax's strips of rows and columns, their regions outermost: printed
    // once, each region starting threads where its own work pays them.
    let atax = compile_default("atax").output;
    assert!(!scop_text(&atax).contains("POLYC_MIN_WORK"), "{atax}");
    threads_only_where_work_pays(scop_text(&atax));
    assert!(atax.contains("parallel (OpenMP) where a region's work pays"), "{atax}");
    // gemver's column strips fuse away the jam its loops for little work
    // keep (0.75x at 1,000 x 1,000): those stay, behind the work check.
    let gemver = compile_default("gemver").output;
    assert!(little_work_loops(&gemver).contains("j += 4)"), "{gemver}");
    // seidel-2d's wavefront starts a region per step: the work check stays.
    let seidel = compile_default("seidel-2d").output;
    assert!(scop_text(&seidel).contains(">= POLYC_MIN_WORK"), "{seidel}");
}
