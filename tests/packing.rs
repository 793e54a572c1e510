//! Matrix products on packed panels (`plan::packing`, `emit::packed`):
//! which statements get them, and that their code prints what the source
//! prints. The printed code is tried with block sizes small enough
//! (`POLYC_PACK_DEPTH`, `POLYC_PACK_ROWS`) that the test's extents span
//! several blocks of the sum and of rows, so that the order of the sums
//! across blocks is tested. It is also tried with the register blocks
//! of SSE, AVX and AVX-512 (`POLYC_VECTOR_BYTES`), on one and two
//! threads.

use crate::common::{gcc, run_with, scratch};
use crate::transforms::{compile_default, optimising, optimising_with_tile_sizes, scop_text};
use std::process::Command;
use std::time::Duration;

/// A program running `products` (statements over `i < NI`, `j < NJ`,
/// `k < NK`, on `double` matrices `A[NI][NK]`, `B[NK][NJ]`, `Bt[NJ][NK]`,
/// `C[NI][NJ]`, `alpha`) in a SCoP, then printing `C`.
fn program(products: &str) -> String {
    format!(
        r#"#include <stdio.h>
#define NI 23
#define NJ 19
#define NK 17
static double A[NI][NK], B[NK][NJ], Bt[NJ][NK], C[NI][NJ];
int main(void) {{
  int i, j, k;
  double alpha = 1.25;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      A[i][k] = (double)((i * 7 + k * 3) % 11) / 11.0;
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++) {{
      B[k][j] = (double)((k * 5 + j) % 13) / 13.0;
      Bt[j][k] = (double)((k + j * 3) % 7) / 7.0;
    }}
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      C[i][j] = (double)(i - j) / 3.0;
#pragma scop
{products}
#pragma endscop
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      printf("%.17g\n", C[i][j]);
  return 0;
}}
"#
    )
}

/// polyc's default output for `source`, checked to print what `source`
/// prints under each set of block sizes, on one and two threads.
fn packed_output(name: &str, source: &str) -> String {
    let dir = scratch(name);
    let (src, out) = (dir.join("source.c"), dir.join("out.c"));
    std::fs::write(&src, source).expect("scratch file");
    let output = polyc::driver::compile(source.to_string(), &optimising()).expect("compiles").output;
    std::fs::write(&out, &output).expect("scratch file");
    let run = |binary: &std::path::Path, threads: &str| {
        let mut cmd = Command::new(binary);
        cmd.env("OMP_NUM_THREADS", threads);
        match run_with(cmd, Duration::from_secs(60)) {
            Ok((Some(0), out, _)) => out,
            other => panic!("{name}: {}: {other:?}", binary.display()),
        }
    };
    gcc(&src, &dir.join("source"), &[]).expect("the source compiles");
    let expected = run(&dir.join("source"), "1");
    let sizes: [&[&str]; 3] = [
        &[],
        &["-DPOLYC_PACK_DEPTH=5", "-DPOLYC_PACK_ROWS=7", "-DPOLYC_VECTOR_BYTES=32"],
        &["-DPOLYC_PACK_DEPTH=1", "-DPOLYC_PACK_ROWS=1", "-DPOLYC_VECTOR_BYTES=64"],
    ];
    for defines in sizes {
        let binary = dir.join("out");
        let flags: Vec<&str> = std::iter::once("-fopenmp").chain(defines.iter().copied()).collect();
        gcc(&out, &binary, &flags).unwrap_or_else(|e| panic!("{name}: {e}\n{output}"));
        for threads in ["1", "2"] {
            assert!(run(&binary, threads) == expected, "{name}, {defines:?}, {threads} threads:\n{output}");
        }
    }
    output
}

/// How many products `output` computes on packed panels.
fn packed_products(output: &str) -> usize {
    scop_text(output).matches("on packed panels of their factors */").count()
}

#[test]
fn products_in_every_accumulating_form_run_on_packed_panels() {
    let forms = [
        ("added", "for (i = 0; i < NI; i++) for (k = 0; k < NK; k++) for (j = 0; j < NJ; j++)\n  C[i][j] += alpha * A[i][k] * B[k][j];"),
        ("spelt-out", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] = C[i][j] + B[k][j] * A[i][k];"),
        ("subtracted", "for (i = 2; i < NI; i++) for (j = 1; j < NJ - 1; j++) for (k = 3; k < NK; k++)\n  C[i][j] -= A[i][k] * (Bt[j][k] * alpha);"),
        ("columns-outside", "for (j = 0; j < NJ; j++) for (i = 0; i < NI; i++) for (k = 0; k < NK; k++)\n  C[i][j] += Bt[j][k] * A[i][k];"),
        // triangles and bands: bounds on `j - i` cut the box
        ("lower-triangle", "for (i = 0; i < NJ; i++) for (k = 0; k < NK; k++) for (j = 0; j <= i; j++)\n  C[i][j] += alpha * A[i][k] * Bt[j][k];"),
        ("upper-triangle", "for (i = 1; i < NJ; i++) for (j = i + 1; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];"),
        ("band", "for (i = 0; i < NJ; i++) for (j = i; j < NJ && j <= i + 3; j++) for (k = 0; k < NK; k++)\n  C[i][j] -= A[i][k] * B[k][j];"),
        // two products summed, syr2k's shape, on a triangle
        ("two-products", "for (i = 0; i < NJ; i++) for (k = 0; k < NK; k++) for (j = 0; j <= i; j++)\n  C[i][j] += A[i][k] * B[k][j] + Bt[j][k] * alpha * A[i][k];"),
        ("two-products-subtracted", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] -= B[k][j] * A[i][k] - A[i][k] * (alpha * Bt[j][k]);"),
        // the sum's bounds depend on the row: bounds on `k - i` cut the box
        ("sum-above-the-row", "for (i = 0; i < NK; i++) for (j = 0; j < NJ; j++) for (k = i; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];"),
        ("sum-below-the-row", "for (i = 0; i < NK; i++) for (k = 0; k < i; k++) for (j = 0; j < NJ; j++)\n  C[i][j] -= alpha * A[i][k] * B[k][j];"),
        ("sum-near-the-row", "for (i = 0; i < NK; i++) for (j = 0; j < NJ; j++) for (k = i - 2; k < NK && k <= i + 3; k++)\n  if (k >= 0) C[i][j] += A[i][k] * (B[k][j] + B[k][j]);"),
        // trmm's shape: the column factor reads rows of the target that
        // are written only after it, then each element is scaled
        ("reads-target-later", "for (i = 0; i < NK; i++) for (j = 0; j < NJ; j++) {\n  for (k = i + 1; k < NK; k++) C[i][j] += Bt[k][i] * C[k][j];\n  C[i][j] = alpha * C[i][j];\n}"),
    ];
    for (name, products) in forms {
        let output = packed_output(&format!("packing-{name}"), &program(products));
        assert_eq!(packed_products(&output), 1, "{name}:\n{output}");
    }
}

#[test]
fn gemm_s_scaling_is_split_off_so_that_its_product_runs_on_packed_panels() {
    let outcome = compile_default("gemm");
    assert!(outcome.output.contains("C[i][j] summed on packed panels"), "{}", outcome.output);
    let products = "for (i = 0; i < NI; i++) {\n  for (j = 0; j < NJ; j++) C[i][j] *= 0.5;\n  \
                    for (k = 0; k < NK; k++) for (j = 0; j < NJ; j++) C[i][j] += alpha * A[i][k] * B[k][j];\n}";
    assert_eq!(packed_products(&packed_output("packing-gemm", &program(products))), 1);
}

/// symm's sum `temp2`, expanded, with nothing copied back (nothing reads
/// it after the SCoP): isl fuses its reset, sum and store into one nest
/// whose loops all stay in bands, where the sum shares its nest. Apart,
/// the sum runs on packed panels, so `--fuse=smart` keeps it apart.
#[test]
fn an_expanded_sum_keeps_its_packed_panels_rather_than_isl_s_fusion() {
    let output = compile_default("symm").output;
    assert!(output.contains("temp2 expanded"), "{output}");
    assert!(output.contains("polyc_temp2[i][j] summed on packed panels"), "{output}");
}

#[test]
fn syrk_s_panels_read_its_matrix_in_order_without_a_transposed_copy() {
    let output = compile_default("syrk").output;
    assert_eq!(packed_products(&output), 1, "{output}");
    assert!(!output.contains("transposed copy"), "{output}");
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let copy = lines.iter().position(|l| l.ends_with("= A[j][k];")).expect("no panel of A's rows j");
    assert!(lines[copy - 1].starts_with("for (int k = "), "the copy does not walk A's rows:\n{output}");
}

/// While a register block sums, the target's rows of the block below it
/// are prefetched (its load would wait for memory), only where that block
/// lies wholly inside the target: in syrk's triangle, under the band test.
#[test]
fn the_target_rows_of_the_next_register_block_are_prefetched_inside_the_target() {
    let gemm = compile_default("gemm").output;
    let prefetch = "__builtin_prefetch(&C[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);";
    assert!(gemm.contains(prefetch), "{gemm}");
    let syrk = compile_default("syrk").output;
    let guard = syrk.lines().map(str::trim).find(|l| l.starts_with("if (polyc_ir + 2 * polyc_mr <= polyc_rows"));
    let guard = guard.unwrap_or_else(|| panic!("no prefetch of the block below:\n{syrk}"));
    assert!(guard.contains("polyc_diagonal - polyc_mr + polyc_nr - 1 <= polyc_hi"), "{guard}");
}

#[test]
fn products_packing_would_change_keep_their_loops() {
    let kept = [
        // not a band: not every pair of a factor's iterators is read
        ("steep-triangle", "for (i = 0; i < NI; i++) for (j = 0; j <= 2 * i && j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];"),
        // where NJ > NI, no row reaches the last columns, which the panels would read
        ("short-triangle", "for (i = 0; i < NI; i++) for (k = 0; k < NK; k++) for (j = 0; j <= i && j < NJ; j++)\n  C[i][j] += A[i][k] * Bt[j][k];"),
        // three products: the panels would not fit the registers and caches
        ("three-products", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j] + A[i][k] * B[k][j] + A[i][k] * B[k][j];"),
        // a factor over all three iterators
        ("three-iterators", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j] * Bt[j][k];"),
        // a factor reading rows of the target written before it
        ("reads-target", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * C[k][j];"),
        // the rows end at the lesser of NI and NK: no affine bound
        ("rows-up-to-either-bound", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = i; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];"),
        // the row factor reads the target, which other blocks of rows write meanwhile
        ("target-in-the-row-factor", "for (i = 0; i < 15; i++) for (j = 0; j < NJ; j++) for (k = i; k <= i + 1; k++)\n  C[i][j] += C[i + 1][k] * B[k][j];"),
        // the sum runs down
        ("descending", "for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = NK - 1; k >= 0; k--)\n  C[i][j] += A[i][k] * B[k][j];"),
        // each row of sums feeds the next row's factor: no nest of its own
        ("feeds-its-factor", "for (i = 0; i + 1 < NI; i++) {\n  for (j = 0; j < NJ; j++) for (k = 0; k < NK; k++) C[i][j] += A[i][k] * B[k][j];\n  A[i + 1][0] += C[i][NJ - 1];\n}"),
    ];
    for (name, products) in kept {
        let output = packed_output(&format!("packing-kept-{name}"), &program(products));
        assert_eq!(packed_products(&output), 0, "{name}:\n{output}");
    }
}

#[test]
fn tiles_the_user_sizes_are_not_replaced_by_panels() {
    let options = optimising_with_tile_sizes(&[16]);
    let source = program(
        "for (i = 0; i < NI; i++) for (k = 0; k < NK; k++) for (j = 0; j < NJ; j++)\n  C[i][j] += A[i][k] * B[k][j];",
    );
    let output = polyc::driver::compile(source, &options).expect("compiles").output;
    assert_eq!(packed_products(&output), 0, "{output}");
}

/// Where a band's rows do more work the later they come (a lower
/// triangle, a sum below the row), its blocks of rows go to the threads
/// last first; where they do less (an upper triangle, a sum above the
/// row), first first. The test compiles the block's own declarations.
#[test]
fn a_band_s_largest_blocks_of_rows_go_to_the_threads_first() {
    let cases = [
        ("lower-triangle", "for (i = 0; i < NJ; i++) for (k = 0; k < NK; k++) for (j = 0; j <= i; j++)\n  C[i][j] += A[i][k] * Bt[j][k];", 1),
        ("sum-below-the-row", "for (i = 0; i < NK; i++) for (k = 0; k < i; k++) for (j = 0; j < NJ; j++)\n  C[i][j] -= A[i][k] * B[k][j];", 1),
        ("upper-triangle", "for (i = 1; i < NJ; i++) for (j = i + 1; j < NJ; j++) for (k = 0; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];", 0),
        ("sum-above-the-row", "for (i = 0; i < NK; i++) for (j = 0; j < NJ; j++) for (k = i; k < NK; k++)\n  C[i][j] += A[i][k] * B[k][j];", 0),
    ];
    for (name, products, last_first) in cases {
        let output = packed_output(&format!("packing-order-{name}"), &program(products));
        let declarations: Vec<&str> = output
            .lines()
            .map(str::trim)
            .filter(|l| ["const long polyc_", "const int polyc_last_first"].iter().any(|p| l.starts_with(p)))
            .take_while(|l| !l.starts_with("const long polyc_b"))
            .collect();
        assert!(declarations.iter().any(|l| l.starts_with("const int polyc_last_first")), "{name}:\n{output}");
        let dir = scratch(&format!("packing-order-{name}-check"));
        let text = format!(
            "#include <stdio.h>\n#define NI 23\n#define NJ 19\n#define NK 17\nint main(void) {{\n{}\nprintf(\"%d\", polyc_last_first);\nreturn 0;\n}}\n",
            declarations.join("\n")
        );
        let (src, binary) = (dir.join("order.c"), dir.join("order"));
        std::fs::write(&src, text).expect("scratch file");
        gcc(&src, &binary, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let printed = run_with(Command::new(&binary), Duration::from_secs(10));
        assert!(
            matches!(&printed, Ok((Some(0), out, _)) if *out == last_first.to_string().into_bytes()),
            "{name}: {printed:?}"
        );
    }
}
