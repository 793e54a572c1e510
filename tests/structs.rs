//! Members of structs as arrays (`frontend::extract::fields`): `g.u[i][j]`
//! of a struct variable, `p->x[i]` through a pointer (an array member or a
//! pointer member), `bodies[j].x` of an array of structs. Each kernel is
//! transformed, and its output prints what the source prints on one and
//! two threads; members of one object need no run-time check, what
//! pointers reach does. What polyc does not model keeps its text, with a
//! diagnostic that says what would do.

use crate::common;
use common::*;
use polyc::options::Options;

const RUNS: [&[&str]; 2] = [&["40"], &["97"]];
const PARALLEL: &str = "#pragma omp parallel for";
const SIMD: &str = "#pragma omp simd";

/// A program of `decls` and the function `kernel`, whose `main` fills
/// with `init`, calls `call` and prints the checksum `sum` (C
/// expressions over `i`, `j`, and `n`, the first argument).
fn program(decls: &str, kernel: &str, init: &str, call: &str, sum: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n{decls}\n{kernel}\nint main(int argc, char **argv) {{\n  \
         int n = argc > 1 ? atoi(argv[1]) : 40;\n  {init}\n  {call}\n  double s = 0;\n  \
         for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) s += ({sum}) * (1 + (i + 2 * j) % 5);\n  \
         printf(\"%.17g\\n\", s);\n  return 0;\n}}\n"
    )
}

/// The program's output under the default mode, checked against the
/// source's; it must be transformed (its loops marked `pragma`) and
/// compile without a diagnostic.
fn transformed(name: &str, source: &str, pragma: &str) -> String {
    let outcome = polyc::driver::compile(source.to_string(), &Options::optimising()).expect("polyc compiles it");
    let messages: Vec<&str> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.is_empty(), "{name}: {messages:?}");
    let outputs = prints_what_the_source_prints(name, source, &[("default", Options::optimising())], &RUNS);
    assert!(outputs[0].contains(pragma), "{name}: not transformed:\n{}", outputs[0]);
    outputs[0].clone()
}

/// The first line of the output's run-time checks.
fn checks(output: &str) -> &str {
    output.lines().find(|l| l.trim_start().starts_with("if (")).unwrap_or("")
}

#[test]
fn a_stencil_on_the_members_of_a_static_struct() {
    let decls = "#define N 100\ntypedef struct { double u[N][N]; double v[N][N]; } grid_t;\nstatic grid_t g;";
    let kernel = "static void step(int n, int steps) {
#pragma scop
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        g.v[i][j] = g.u[i][j] + 0.125 * (g.u[i - 1][j] + g.u[i + 1][j] + g.u[i][j - 1] + g.u[i][j + 1] - 4.0 * g.u[i][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        g.u[i][j] = g.v[i][j];
  }
#pragma endscop
}";
    let init = "if (n > N) n = N;\n  for (int i = 0; i < N; i++)\n    for (int j = 0; j < N; j++) g.u[i][j] = g.v[i][j] = (i * 7 + j * 3) % 11;";
    let output = transformed("structs-grid", &program(decls, kernel, init, "step(n, 5);", "g.u[i][j]"), PARALLEL);
    // Two members of one object, with storage of its own: no alias check.
    assert!(!output.contains("polyc_disjoint("), "{output}");
}

#[test]
fn the_array_members_of_a_struct_behind_a_pointer() {
    let decls = "#define NP 100\nstruct particles { double x[NP], y[NP], vx[NP], vy[NP]; };";
    let kernel = "static void move(struct particles *p, int n, double dt) {
  double ax, ay;
#pragma scop
  for (int s = 0; s < n; s++)
    for (int i = 0; i < n; i++) {
      ax = -p->x[i] * 0.01;
      ay = -p->y[i] * 0.01;
      p->vx[i] += dt * ax * s;
      p->vy[i] += dt * ay;
    }
#pragma endscop
}";
    let init = "struct particles *p = malloc(sizeof *p);\n  if (n > NP) n = NP;\n  \
                for (int i = 0; i < NP; i++) { p->x[i] = i % 17; p->y[i] = i % 13; p->vx[i] = 0; p->vy[i] = 1; }";
    let sum = "p->vx[i] + 2 * p->vy[j]";
    let output = transformed("structs-particles", &program(decls, kernel, init, "move(p, n, 0.1);", sum), SIMD);
    assert!(!output.contains("polyc_disjoint("), "{output}");
}

#[test]
fn a_layer_whose_weights_are_members_is_checked_against_its_output() {
    let decls =
        "#define NIN 100\n#define NOUT 100\ntypedef struct { double w[NOUT][NIN]; double bias[NOUT]; } layer_t;";
    let kernel = "static void forward(const layer_t *L, int n, double x[n][n], double y[n][n]) {
  double z;
#pragma scop
  for (int b = 0; b < n; b++)
    for (int o = 0; o < n; o++) {
      z = L->bias[o];
      for (int k = 0; k < n; k++)
        z += L->w[o][k] * x[b][k];
      y[b][o] = z > 0 ? z : 0.01 * z;
    }
#pragma endscop
}";
    let init = "layer_t *L = malloc(sizeof *L);\n  if (n > NIN) n = NIN;\n  double (*x)[n] = malloc(sizeof(double[n][n])), (*y)[n] = malloc(sizeof(double[n][n]));\n  \
                for (int o = 0; o < NOUT; o++) { L->bias[o] = o % 7 - 3; for (int k = 0; k < NIN; k++) L->w[o][k] = (o * 3 + k) % 11 * 0.01 - 0.05; }\n  \
                for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) x[i][j] = (i + j) % 5;";
    let output =
        transformed("structs-layer", &program(decls, kernel, init, "forward(L, n, x, y);", "y[i][j]"), PARALLEL);
    let line = checks(&output);
    assert!(line.contains("polyc_disjoint(&L->w[0][0], &L->w[n - 1][n - 1] + 1, &y[0][0]"), "{line}");
    assert!(line.contains("polyc_disjoint(&L->bias[0], &L->bias[n - 1] + 1, &y[0][0]"), "{line}");
    // `w` and `bias` are members of one object: never checked apart.
    assert!(!line.contains("&L->w[0][0], &L->w[n - 1][n - 1] + 1, &L->bias"), "{line}");
}

#[test]
fn the_scalar_members_of_an_array_of_structs() {
    let decls = "#define NP 100\ntypedef struct { double x, y, m; } body_t;\nbody_t bodies[NP];\ndouble fx[NP][NP];";
    let kernel = "static void forces(int n) {
  double dx, dy;
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      dx = bodies[j].x - bodies[i].x;
      dy = bodies[j].y - bodies[i].y;
      fx[i][j] = bodies[j].m * (dx + 0.5 * dy) / (dx * dx + dy * dy + 0.01);
    }
#pragma endscop
}";
    let init = "if (n > NP) n = NP;\n  for (int i = 0; i < NP; i++) { bodies[i].x = i % 17; bodies[i].y = i % 13; bodies[i].m = 1 + i % 3; }";
    let output = transformed("structs-bodies", &program(decls, kernel, init, "forces(n);", "fx[i][j]"), PARALLEL);
    assert!(!output.contains("polyc_disjoint("), "{output}");
}

/// Images behind pointers, blurred apart and in place: the in-place call
/// shares memory, which the run-time check sees (the source text runs).
const IMAGE_DECLS: &str = "#define H 100\n#define W 100\ntypedef struct { int h, w; double px[H][W]; } image_t;";
const IMAGE_KERNEL: &str = "static void blur(const image_t *in, image_t *out, int n) {
#pragma scop
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      out->px[i][j] = 0.25 * in->px[i][j] + 0.125 * (in->px[i - 1][j] + in->px[i + 1][j] + in->px[i][j - 1])
        + 0.0625 * (in->px[i - 1][j + 1] + in->px[i + 1][j - 1] + in->px[i][j + 1]);
#pragma endscop
}";

#[test]
fn images_behind_two_pointers_are_checked_apart() {
    let init = "image_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);\n  if (n > H) n = H;\n  \
                for (int i = 0; i < H; i++) for (int j = 0; j < W; j++) a->px[i][j] = (i * 7 + j * 3) % 11;";
    let call = "blur(a, b, n);\n  blur(b, b, n);";
    let output = transformed("structs-image", &program(IMAGE_DECLS, IMAGE_KERNEL, init, call, "b->px[i][j]"), PARALLEL);
    let line = checks(&output);
    assert!(line.contains("polyc_disjoint(&in->px[0][0], &in->px[n - 1][n - 1] + 1, &out->px[1][1]"), "{line}");
}

#[test]
fn pointer_members_and_the_cells_holding_them_are_checked() {
    let decls = "typedef struct { int n; double *x; double *y; } vec_t;";
    let kernel = "static void smooth(vec_t *s, int n) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int t = 1; t < n; t++)
      s->y[i] = s->y[i] * 0.5 + s->x[i] * t;
#pragma endscop
}";
    let init = "double *buf = malloc(sizeof(double) * (n + 1));\n  for (int i = 0; i <= n; i++) buf[i] = i % 7;\n  \
                vec_t v = { n, buf, buf + 1 }, w = { n, buf, malloc(sizeof(double) * n) };\n  for (int i = 0; i < n; i++) w.y[i] = i % 3;";
    let call = "smooth(&v, n);\n  smooth(&w, n);";
    let output = transformed("structs-vec", &program(decls, kernel, init, call, "buf[i] + w.y[j] * (i == 0)"), SIMD);
    let line = checks(&output);
    // The cells behind the two pointers, and the cell holding `s->x`
    // against what is written through `s->y`.
    assert!(line.contains("&s->y[0], &s->y[n - 1] + 1"), "{line}");
    assert!(line.contains("&s->x[0], &s->x[n - 1] + 1"), "{line}");
    assert!(line.contains("&s->x, &s->x + 1"), "{line}");
}

#[test]
fn array_members_of_structs_behind_a_pointer_and_a_struct_defined_in_its_declaration() {
    let decls = "typedef struct { double x, y; double u[4]; } body_t;\nstruct holder { double *x; double *y; } gh;";
    let kernel = "static void spread(body_t *b, double *out, int n) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 4; k++)
      b[i].u[k] = b[i].x * k + out[i];
#pragma endscop
}
static void accumulate(int n) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      gh.y[j] += gh.x[j] * i;
#pragma endscop
}";
    let init = "body_t *b = malloc(sizeof(body_t) * n);\n  double *o = malloc(sizeof(double) * n);\n  \
                for (int i = 0; i < n; i++) { b[i].x = i % 3; b[i].y = i % 2; o[i] = i % 5; }\n  \
                gh.x = malloc(sizeof(double) * n); gh.y = malloc(sizeof(double) * n);\n  \
                for (int i = 0; i < n; i++) { gh.x[i] = i % 4; gh.y[i] = 1; }";
    // The second call's `out` runs across the members `y` and `u`.
    let call = "spread(b, o, n);\n  spread(b, &b[0].y, n - 2);\n  accumulate(n);";
    let sum = "b[i].u[j % 4] + gh.y[j] * 2 + b[i].y";
    let output = transformed("structs-holder", &program(decls, kernel, init, call, sum), PARALLEL);
    assert!(output.contains("polyc_disjoint(&out[0], &out[n - 1] + 1, &b[0].u[0], &b[n - 1].u[3] + 1)"), "{output}");
    assert!(output.contains("polyc_disjoint(&gh.y[0], &gh.y[n - 1] + 1, &gh.x, &gh.x + 1)"), "{output}");
}

/// The diagnostics of compiling `source`, which keeps every region.
fn refused(source: &str) -> Vec<String> {
    let outcome = polyc::driver::compile(source.to_string(), &Options::optimising()).expect("polyc compiles it");
    assert!(!outcome.output.contains("omp"), "{}", outcome.output);
    outcome
        .diagnostics
        .iter()
        .map(|d| format!("{:?}: {}; {}", d.code, d.message, d.note.clone().unwrap_or_default()))
        .collect()
}

#[test]
fn what_is_not_modelled_keeps_its_text_and_says_what_would_do() {
    let head = "#define N 10\ntypedef struct { int h; double u[N]; double *q; } s_t;\n\
                union un { double a[N]; double b[N]; };\nstruct nest { s_t in; double z[N]; };\n\
                s_t g; union un U; struct nest ns;\n#pragma polyc pure(use)\ndouble use(s_t);\n";
    let cases = [
        ("p->u[i] = g.h;", "`g.h` is a scalar member of one struct"),
        ("p->q = 0;", "`p->q` is reached with 0 subscripts but has 1 dimensions"),
        ("p->u[i] = 1; p++;", "`p` is used here besides through its members"),
        ("p->u[i] = p[0].u[i] + 1;", "`p->u` is reached two ways in the region"),
        ("U.a[i] = U.b[i] + 1;", "polyc knows no struct type `union un`"),
        ("ns.in.u[i] = ns.z[i] + 1;", "polyc models the members of a struct variable"),
        ("g.u[i] = use(g);", "`g` is used here besides through its members"),
        ("p[i].q[0] = 1;", "member `p[i].q` is a pointer table"),
        ("for (int j = 0; j < p->h; j++) p->u[j] = 1;", "a struct member is not quasi-affine"),
    ];
    for (statement, expected) in cases {
        let source = format!(
            "{head}void f(s_t *p) {{\n#pragma scop\n  for (int i = 0; i < N; i++) {{ {statement} }}\n#pragma endscop\n}}\n"
        );
        let messages = refused(&source);
        assert!(messages.iter().any(|m| m.contains(expected)), "{statement}: {messages:?}");
    }
}
