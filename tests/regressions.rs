//! Programs polyc once compiled wrong, or kept as written for a
//! limitation of its own, each cut down to the construct that failed
//! (found by the differential tester, `tests/difftest`): each must print
//! what its source prints, on one and two threads.

use crate::common;
use common::*;
use polyc::options::{Options, PlanRequest, TileOptions, TileShape};

/// A complete program around `kernel`: sizes `N` and `M` from the
/// command line (at most 40), arrays `A` (1-d) and `X` (2-d) of doubles,
/// a scalar `s`, iterators `i`, `j` and `k`; it prints a checksum of each.
fn program(kernel: &str) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
double A[48], X[48][96];
double s = 0.5;
int main(int argc, char **argv) {{
  int N = argc > 1 ? atoi(argv[1]) : 20, M = argc > 2 ? atoi(argv[2]) : 16;
  if (N > 40) N = 40;
  if (M > 40) M = 40;
  int i, j, k;
  for (i = 0; i < 48; i++) {{
    A[i] = (i % 7) * 0.25;
    for (j = 0; j < 96; j++) X[i][j] = ((i + 3 * j) % 11) * 0.125;
  }}
#pragma scop
{kernel}
#pragma endscop
  double c = 0;
  for (i = 0; i < 48; i++) {{
    c += A[i] * (1 + i % 5);
    for (j = 0; j < 96; j++) c += X[i][j] * (1 + (i + j) % 7);
  }}
  printf("%.17g %.17g\n", c, s);
  return 0;
}}
"#
    )
}

const RUNS: [&[&str]; 4] = [&["20", "16"], &["4", "3"], &["39", "38"], &["40", "1"]];

#[test]
fn an_iterator_in_parentheses_is_renamed_like_any_other() {
    // `(i) + x` parses as a cast of `+x` to a type named `i`: the
    // iterator inside must still be renamed or replaced, and a scalar
    // read that way, `(s) - 1.0`, is still a read.
    let kernel = "  for (i = 0; i < N; i++) {\n    X[i][39 + i] = 1.5;\n    X[1][39 + N - i] = (0.125 * (i) + (0.5 - 0.25) * 0.5) * 0.5;\n  \
                  }\n  for (i = 0; i < N; i++) {\n    s = A[i] * 0.5 + 1.0;\n    A[i + 1] = (s) - 1.0;\n  }";
    let outputs = prints_what_the_source_prints(
        "regression-cast",
        &program(kernel),
        &[("default", Options::optimising())],
        &RUNS,
    );
    // Once in the source text kept beside the new loops, not in them.
    assert_eq!(outputs[0].matches("(0.125 * (i) +").count(), 1, "the iterator was kept:\n{}", outputs[0]);
}

#[test]
fn a_descending_loop_inside_tiles_keeps_its_lower_bound() {
    // The SIMD loop `j` runs down; its bound, a maximum hoisted into a
    // constant, was negated twice (j ran below the tile and below 0).
    let kernel =
        "  for (i = 0; i < M; i++) {\n    X[i][0] = A[i] * 0.5 + 1.0;\n    for (j = M - 1; j >= 0; j--)\n      \
                  A[j] = X[i][j] * 0.25 + 1.0;\n  }";
    let tiled =
        |tile| Options { plan: PlanRequest { tile: Some(tile), ..PlanRequest::optimising() }, ..Options::default() };
    let diamond = tiled(TileOptions { shape: TileShape::Diamond, ..TileOptions::default() });
    let small = tiled(TileOptions { sizes: vec![4, 3], ..TileOptions::default() });
    let modes = [("default", Options::optimising()), ("small-tiles", small), ("diamond", diamond)];
    let outputs = prints_what_the_source_prints("regression-descending", &program(kernel), &modes, &RUNS);
    assert!(outputs[0].contains("j--"), "the loop no longer runs down:\n{}", outputs[0]);
}

#[test]
fn a_strided_loop_with_an_inner_bound_that_follows_it_is_scanned() {
    // `i` in steps of 3 and `j < i + 2`: projected, the values of `j`
    // came with an existential that isl left without a floor expression,
    // and reading the pieces' constraints failed. The SCoP was kept as
    // written with P0014 (a scanner limitation), not transformed.
    let kernel = "  for (i = 0; i < 11; i += 3)\n    for (j = 0; j < i + 2; j++) {\n      \
                  s = X[i][j + 1] * 0.5 + A[j + 1] * 0.25;\n      A[j] = s * 0.5 + 1.0;\n    }";
    let source = program(kernel);
    let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("compiles");
    let codes: Vec<_> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.is_empty(), "{codes:?}");
    let modes = [("default", Options::optimising())];
    prints_what_the_source_prints("regression-strided-bound", &source, &modes, &RUNS);
}

#[test]
fn a_loop_is_jammed_only_where_the_loops_inside_keep_their_bounds() {
    // symm's `C[k][j] += B[i][j] * W[i][k]` over i > k: the rows k carry
    // nothing and hold the jammed reduction i, whose lower bound moves
    // with k. Jammed as a register block, the copies for k + 1, k + 2,
    // ... ran i from k + 1 as well, adding rows they must not.
    let program = r#"#include <stdio.h>
#include <stdlib.h>
double C[40][40], B[40][40], W[40][40];
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 20, M = argc > 2 ? atoi(argv[2]) : 16;
  if (N > 40) N = 40;
  if (M > 40) M = 40;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 40; j++) {
      C[i][j] = (i + j) % 7;
      W[i][j] = (i * j + 1) % 5 * 0.5;
      B[i][j] = (i - j + 40) % 3 * 0.25;
    }
#pragma scop
  for (int i = 0; i < N; i++)
    for (int k = 0; k < i; k++)
      for (int j = 0; j < M; j++)
        C[k][j] += B[i][j] * W[i][k];
#pragma endscop
  double s = 0;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 40; j++)
      s += C[i][j] * (i + 2 * j);
  printf("%.17g\n", s);
  return 0;
}
"#;
    let outputs =
        prints_what_the_source_prints("regression-jam-bounds", program, &[("default", Options::optimising())], &RUNS);
    assert!(outputs[0].contains("i += 4)"), "the reduction is no longer jammed:\n{}", outputs[0]);
}

#[test]
fn each_of_many_small_scops_in_one_file_is_transformed() {
    // One whole-file step per SCoP (walking the file's tree for its
    // names, parsing the file again with the function's macros
    // expanded) made 2,000 small SCoPs take minutes; each SCoP now reads
    // only its function, and what the file declares comes from one walk.
    // Each function must still see the globals it names, its own locals
    // (which shadow them) and the macros.
    let k = 24;
    let outputs = prints_what_the_source_prints(
        "regression-many-scops",
        &many_scops::many_scops(k),
        &[("default", Options::optimising())],
        &[&["40"], &["7"]],
    );
    // One parallel loop per SCoP, printed once without tiles, gated on
    // its own work.
    let regions = parallel_regions(&outputs[0]);
    assert_eq!(regions.len(), k, "{}", outputs[0]);
    assert!(regions.iter().all(|(_, gated)| *gated), "{}", outputs[0]);
}

#[test]
fn a_modulo_write_under_a_downward_loop_is_transformed() {
    // isl's value-based dataflow failed on this nest ("affine expression
    // involves some of the domain dimensions", a P0014 that kept it as
    // written): a downward loop, a triangular one inside, a write whose
    // two subscripts are `%` expressions and a read of another row. polyc
    // now falls back to the memory-based dependences there.
    let kernel = "  for (i = M - 1; i >= 0; i--)\n    for (j = i; j < N; j++) {\n      \
                  X[(i + 5) % 8][8 + (j - 4) % 3] = 0.5 * i + j;\n      X[j + 8][i + 8] = X[8 + i][7] * 0.5 + 1.0;\n    }";
    let source = program(kernel);
    let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("polyc compiles it");
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.is_empty(), "{messages:?}");
    let outputs = prints_what_the_source_prints(
        "regression-modulo-downward",
        &source,
        &[("default", Options::optimising())],
        &RUNS,
    );
    assert!(outputs[0].contains("#pragma omp parallel for"), "not transformed:\n{}", outputs[0]);
}

#[test]
fn a_statement_that_never_runs_leaves_the_others_scheduled() {
    // isl's scheduler leaves statements with empty domains out of the
    // schedule it returns, and polyc kept the whole SCoP as written (P0014,
    // "the scheduler dropped a statement"): random programs have such
    // loops, and conditions no iteration meets, often.
    let kernel = "  for (i = 0; i < N; i++)\n    for (j = 0; j < M; j++)\n      X[i][j] = X[i][j] + A[j];\n  \
                  for (i = 5; i < 3; i++)\n    A[i] = 0;\n  for (i = 0; i < N; i++)\n    if (i > N)\n      s = A[i];";
    let source = program(kernel);
    let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("polyc compiles it");
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.is_empty(), "{messages:?}");
    let outputs =
        prints_what_the_source_prints("regression-never-runs", &source, &[("default", Options::optimising())], &RUNS);
    assert!(outputs[0].contains("#pragma omp parallel for"), "not transformed:\n{}", outputs[0]);
}

#[test]
fn a_macro_that_only_copies_its_argument_is_expanded() {
    // PolyBench's `SCALAR_VAL(x) x`: its expansion is text copied from
    // the file, so polyc took the function for one without macros and
    // rejected the call (P0004, "a macro polyc could not expand here").
    let source = "#include <stdio.h>\n#include <stdlib.h>\n#define SCALAR_VAL(x) x\ndouble A[64], B[64];\n\
                  void scale(int n)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    \
                  A[i] = SCALAR_VAL(1.5) * B[i] + A[i];\n#pragma endscop\n}\n\
                  int main(int argc, char **argv)\n{\n  int n = argc > 1 ? atoi(argv[1]) : 40, i;\n  double c = 0;\n  \
                  for (i = 0; i < 64; i++) {\n    A[i] = i % 3;\n    B[i] = i % 5 * 0.25;\n  }\n  scale(n > 64 ? 64 : n);\n  \
                  for (i = 0; i < 64; i++)\n    c += A[i] * (i + 1);\n  printf(\"%.17g\\n\", c);\n  return 0;\n}\n";
    let outcome = polyc::driver::compile(source.to_string(), &Options::optimising()).expect("polyc compiles it");
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.is_empty(), "{messages:?}");
    let outputs =
        prints_what_the_source_prints("regression-copying-macro", source, &[("default", Options::optimising())], &RUNS);
    assert!(outputs[0].contains("#pragma omp parallel for"), "not transformed:\n{}", outputs[0]);
    assert!(outputs[0].contains("SCALAR_VAL(1.5) * B[i]"), "the statement lost its spelling:\n{}", outputs[0]);
}

#[test]
fn a_declaration_whose_value_names_a_macro_stays_a_statement() {
    // PolyBench's gemver and ludcmp, TSVC's s2251: the initialiser,
    // spelt again as the file has it (a macro in it), lost the `;` that
    // made it a statement, and the output did not compile.
    let kernel = "  for (i = 0; i < N; i++) {\n    REAL h = (REAL)A[i] / 2;\n    \
                  X[i][0] = h + 1.0;\n  }\n  REAL scale = (REAL)N;\n  for (i = 0; i < N; i++)\n    \
                  A[i] = A[i] * scale;";
    prints_what_the_source_prints(
        "regression-macro-initialiser",
        &format!("#define REAL double\n{}", program(kernel)),
        &[("default", Options::optimising())],
        &RUNS,
    );
}

#[test]
fn a_strided_read_under_a_halved_bound_does_not_crash_the_dataflow() {
    // The value-based dataflow of these four statements: the writes of
    // `A` not yet matched, after the writes of the loop nest, came back
    // from isl with two equal divisions (the parity of `j`, once `j = i`
    // was known), and isl's next maximum over them wrote out of bounds
    // and crashed polyc (model::isl::duplicate_divs).
    let kernel = "  A[1] = 1.125;\n  for (i = M - 1; i >= 0; i--) {\n    s = A[i + 1] * 0.5;\n    \
                  for (j = N / 2 - 1; j >= i; j--) {\n      s = A[j + 1] * 0.5;\n      \
                  for (k = 0; k < j + 3; k++)\n        A[k + 1] = A[2 * k] * 0.5 + 1.0;\n    }\n  }";
    let source = program(kernel);
    let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("compiles");
    let codes: Vec<_> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.is_empty(), "{codes:?}");
    let diamond = TileOptions { shape: TileShape::Diamond, ..TileOptions::default() };
    let diamond =
        Options { plan: PlanRequest { tile: Some(diamond), ..PlanRequest::optimising() }, ..Options::default() };
    let modes = [("default", Options::optimising()), ("diamond", diamond)];
    prints_what_the_source_prints("regression-equal-divisions", &source, &modes, &RUNS);
}

#[test]
fn dependences_too_costly_to_compute_exactly_are_taken_memory_based() {
    // A write under `(j + 1) % 2` and its `else` beside writes of the
    // same row: isl's exact dataflow splits its maxima by the parity
    // and ran out of the planning budget, and the whole SCoP was kept
    // as written (P0022), its independent second nest too. Now those
    // dependences are memory-based, the second nest runs in parallel.
    let kernel = "  for (i = 0; i < M - 2; i++) {\n    X[1][40 + i - 1] = X[1][40 + i] * 0.5 + 1.0;\n    \
                  for (j = 0; j < N / 2; j++) {\n      if ((j + 1) % 2 == 0)\n        \
                  A[j + 1] += (A[j] - X[1][40 + M - j + 1]) * 0.25 + X[1][40 + j + 2] * 0.5;\n      else\n        \
                  X[1][40 + i - 2] = (A[N - i] - X[1][40 + M - j + 1]) * 0.5 + X[1][40 + j - 1] * 0.25;\n      \
                  X[1][40 + j - 2] = A[2 * j] * 0.5 + 1.0;\n    }\n    A[N - i + 2] = X[1][40 + i + 1] * 0.5 + 1.0;\n  }\n  \
                  for (i = 2; i < M + 2; i++)\n    for (j = 0; j < N; j++)\n      X[i][j] = X[i][j] * 0.5 + A[j] * 0.25;";
    let source = program(kernel);
    let outcome = polyc::driver::compile(source.clone(), &Options::optimising()).expect("compiles");
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.len() == 1 && messages[0].starts_with("memory-based dependences through the other variables"),
        "{messages:?}"
    );
    let outputs =
        prints_what_the_source_prints("regression-memory-based", &source, &[("default", Options::optimising())], &RUNS);
    assert!(outputs[0].contains("#pragma omp parallel for"), "the second nest is not parallel:\n{}", outputs[0]);
}
