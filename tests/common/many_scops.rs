//! A C program of many small SCoPs, one per function, over global arrays
//! and through PolyBench's macros: the shape of a file that gathers many
//! kernels. `tests/regressions.rs` compiles and runs a few dozen;
//! `benches/scale.rs` times polyc on thousands.

use std::fmt::Write as _;

/// A program of `k` functions `f0`, `f1`, ..., each holding one
/// `#pragma scop` nest over the global arrays (in turn: a scaled copy of
/// a matrix, a matrix-vector product, a 1-d stencil into a local array
/// that shadows a global); `main` calls them in order at size `n`
/// (argv[1], at most 64, 40 without it) and prints a checksum of each
/// array.
pub fn many_scops(k: usize) -> String {
    let mut c = String::from(
        "#include <stdio.h>\n#include <stdlib.h>\n#define N 64\n#define SCALAR_VAL(x) ((double) (x))\n\
         #define POLYBENCH_LOOP_BOUND(x, y) y\n#define _PB_N POLYBENCH_LOOP_BOUND(N, n)\n\n\
         double A[N][N], B[N][N], x[N], y[N], t[N];\n\n",
    );
    for f in 0..k {
        let kernel = match f % 3 {
            0 => format!(
                "  int i, j;\n#pragma scop\n  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n      \
                 A[i][j] = B[i][j] * SCALAR_VAL({}) + x[j];\n#pragma endscop\n",
                f % 7 + 1
            ),
            1 => "  int i, j;\n#pragma scop\n  for (i = 0; i < _PB_N; i++) {\n    y[i] = SCALAR_VAL(0);\n    \
                  for (j = 0; j < _PB_N; j++)\n      y[i] += A[i][j] * x[j];\n  }\n#pragma endscop\n"
                .to_string(),
            _ => "  int i;\n  double t[N];\n#pragma scop\n  for (i = 1; i < n - 1; i++)\n    \
                  t[i] = (y[i - 1] + y[i] + y[i + 1]) / 3.0;\n  for (i = 1; i < n - 1; i++)\n    \
                  x[i] = SCALAR_VAL(0.5) * (x[i] + t[i]);\n#pragma endscop\n"
                .to_string(),
        };
        let _ = write!(c, "void f{f}(int n)\n{{\n{kernel}}}\n\n");
    }
    c.push_str(
        "int main(int argc, char **argv)\n{\n  int n = argc > 1 ? atoi(argv[1]) : 40, i, j;\n  if (n > N) n = N;\n  \
         for (i = 0; i < N; i++) {\n    x[i] = i % 5 * 0.5;\n    y[i] = i % 3;\n    t[i] = 1;\n    \
         for (j = 0; j < N; j++)\n      B[i][j] = (i + 2 * j) % 7 * 0.25;\n  }\n",
    );
    for f in 0..k {
        let _ = writeln!(c, "  f{f}(n);");
    }
    c.push_str(
        "  double a = 0, s = 0;\n  for (i = 0; i < N; i++) {\n    s += x[i] + 2 * y[i] + 3 * t[i];\n    \
         for (j = 0; j < N; j++)\n      a += A[i][j] * (1 + (i + j) % 5);\n  }\n  printf(\"%.17g %.17g\\n\", a, s);\n  \
         return 0;\n}\n",
    );
    c
}
