//! What the default mode (`polyc in.c -o out.c`) does to the kernels users
//! expect a polyhedral compiler to tile and parallelise: each gets an
//! OpenMP parallel loop and tiles, and gemm's innermost loop is the
//! stride-1 one, marked SIMD.

use polyc::driver::{self, Options, Outcome};
use std::path::Path;

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

fn compile_default(name: &str) -> Outcome {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(format!("{name}.c"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    driver::compile(text, &Options::optimising()).unwrap_or_else(|d| panic!("{name}: {}", d.message))
}

/// The SCoP part of `output`, where tile loops and pragmas must be.
fn scop_text(output: &str) -> &str {
    let start = output.find("#pragma scop").expect("the SCoP is kept");
    let end = output.find("#pragma endscop").expect("the SCoP is kept");
    &output[start..end]
}

#[test]
fn default_mode_tiles_and_parallelises_the_dense_kernels() {
    for name in TILED_AND_PARALLEL {
        let outcome = compile_default(name);
        let transforms: Vec<&String> = outcome.scops.iter().flat_map(|s| &s.transforms).collect();
        assert!(transforms.iter().any(|t| t.starts_with("tile=")), "{name} is not tiled: {transforms:?}");
        let code = scop_text(&outcome.output);
        assert!(code.contains("#pragma omp parallel for"), "{name} has no parallel loop:\n{code}");
        // A tile loop steps over tile indices; its point loop starts at a multiple of the size.
        assert!(
            code.lines().any(|l| l.trim_start().starts_with("for (int") && l.contains("32 * c")),
            "{name} has no tile loops:\n{code}"
        );
    }
}

#[test]
fn gemm_innermost_loop_is_stride_one_and_simd() {
    let outcome = compile_default("gemm");
    let lines: Vec<&str> = scop_text(&outcome.output).lines().map(str::trim).collect();
    // The general instance (a tile may peel k = 0 off): j is the last subscript of C and B.
    let update = lines
        .iter()
        .position(|l| *l == "C[i][j] += alpha * A[i][k] * B[k][j];")
        .expect("gemm's update statement, unchanged");
    let header = lines[..update].iter().rposition(|l| l.starts_with("for (")).expect("a loop around the update");
    assert!(lines[header].starts_with("for (int j = "), "gemm's innermost loop is not j: {}", lines[header]);
    assert_eq!(lines[header - 1], "#pragma omp simd", "gemm's innermost loop is not marked SIMD");
}
