//! Data-dependent conditions inside a SCoP (seed 001's filters): the
//! condition is a statement of its own, evaluated into a variable at each
//! instance of its `if`; the statements under it run under that variable,
//! and their writes may not happen, which the dataflow must respect.
//! `corpus/dynamic/` checks every mode's output against the source.
//! A `while` or `do` loop of a pragma region (a convergence loop) stays
//! as written, the statements of its body and around it regions of their
//! own.

use crate::common;
use polyc::diagnostics::Code;
use polyc::driver::{self, Outcome};
use polyc::options::{Emit, Options, PlanRequest};
use std::path::Path;

fn optimising() -> Options {
    Options { plan: PlanRequest { time_budget: None, ..PlanRequest::optimising() }, ..Options::default() }
}

fn compile(name: &str, options: &Options) -> Outcome {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/dynamic").join(format!("{name}.c"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let outcome = driver::compile(text, options).unwrap_or_else(|d| panic!("{name}: {}", d.message));
    assert!(
        outcome.diagnostics.is_empty(),
        "{name}: {:?}",
        outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    outcome
}

fn scop_text(output: &str) -> &str {
    let start = output.find("#pragma scop").expect("the SCoP is kept");
    let end = output.rfind("#pragma endscop").expect("the SCoP is kept");
    &output[start..end]
}

/// The lines of `deps` (`--emit=deps`) for dependences of `kind` from
/// statement `from` to `to`.
fn pairs<'a>(deps: &'a str, kind: &str, from: usize, to: usize) -> Vec<&'a str> {
    let section = deps.split(&format!("{kind} dependences")).nth(1).unwrap_or("");
    let section = section.split(" dependences:").next().unwrap_or("");
    section.lines().filter(|l| l.trim_start().starts_with(&format!("S{from} -> S{to}:"))).collect()
}

/// The example: a row filter choosing by the row above. Every row
/// depends on the input only, so the row loop runs in parallel, each
/// thread with its own copy of the condition's value, which the
/// statements of the `then` and the `else` branch read.
#[test]
fn a_data_dependent_if_is_parallelised() {
    let outcome = compile("threshold", &optimising());
    let code = scop_text(&outcome.output);
    assert!(code.contains("if (A[i - 1][j] > 0)\n"), "{code}");
    assert!(code.contains("  B[i][j] = 2 * A[i - 1][j];\n"), "{code}");
    assert!(code.contains("else\n"), "{code}");
    assert!(code.contains("#pragma omp parallel for schedule(static) private(polyc_c0)"), "{code}");
}

/// An `else if` evaluates its condition only where the first one fails:
/// its evaluation runs under the first condition's `else`. The variables
/// print where the statements do not stay together: an affine test splits
/// the loop, and the condition is evaluated in both parts.
#[test]
fn a_nested_condition_is_evaluated_under_its_filter() {
    let source = "void f(int n, double A[n], double B[n], double C[n]) {\n#pragma scop\n  \
                  for (int i = 0; i < n; i++) {\n    if (A[i] > 1.0) B[i] = 1.0;\n    \
                  else if (A[i] < 0.0) B[i] = 0.0;\n    if (i > 2) C[i] = B[i];\n  }\n#pragma endscop\n}\n";
    let out = driver::compile(source.to_string(), &Options::default()).unwrap().output;
    let code = scop_text(&out);
    assert!(code.contains("polyc_c0 = (A[i] > 1.0);"), "{code}");
    assert!(code.contains("polyc_c1 = !polyc_c0 && (A[i] < 0.0);"), "{code}");
    assert!(code.contains("if (!polyc_c0 && polyc_c1) B[i] = 0.0;"), "{code}");
}

/// Where a condition's statements stay together after it, they print as
/// the source's `if`s: an `else` stays with its own test around an inner
/// `if` without one, an `else` holding one `if` is an `else if`, an empty
/// `then` tests the condition's negation. The variables stay in the loop
/// that an affine test splits.
#[test]
fn conditions_print_as_the_sources_ifs_where_their_statements_stay_together() {
    let outcome = compile("nested_branches", &Options::default());
    let code = scop_text(&outcome.output);
    let dangling = "if (P[i] > 0) {\n        if (Q[i] > P[i])\n          R[i] = Q[i] - P[i];\n      } else\n";
    assert!(code.contains(dangling), "{code}");
    assert!(code.contains("} else if (Q[i] < 0)\n"), "{code}");
    assert!(code.contains("if (!(U[i] > 1.5))\n"), "{code}");
    assert!(!code.contains("polyc_c0 ="), "{code}");
    assert!(code.contains("if (polyc_c6) S[i] = S[i] * 0.5;"), "{code}");
}

/// A write under a condition may not happen: the value `B[i] = last..`
/// reads can come from any earlier iteration. Taken for certain, the
/// write would make `last` private to each iteration and the loop
/// parallel; the flow into the read must reach back over iterations, and
/// the loop must stay sequential.
#[test]
fn a_conditional_write_hides_no_earlier_one() {
    let deps = compile("last_positive", &Options { emit: Emit::Deps, ..Options::default() }).output;
    let into_read = pairs(&deps, "flow", 1, 2);
    assert!(into_read.iter().any(|l| l.contains("i0 <= i0'")), "no flow from earlier iterations:\n{deps}");
    let outcome = compile("last_positive", &optimising());
    assert!(!outcome.output.contains("omp parallel"), "{}", scop_text(&outcome.output));
}

/// Seed 001's Listing 2 as a loop: which branch ran at step `k` decides
/// which statement wrote the state step `k + 1` tests, so the test's read
/// has both branches' writes as sources (S1 in the `then` branch, S3 in
/// the `else`), and both flows reach it from the step before.
#[test]
fn a_read_has_the_writes_of_both_branches_as_sources() {
    let deps = compile("state_machine", &Options { emit: Emit::Deps, ..Options::default() }).output;
    for writer in [1, 3] {
        let flows = pairs(&deps, "flow", writer, 0);
        assert!(flows.iter().any(|l| l.contains("i1' = 1 + i1")), "no flow S{writer} -> S0:\n{deps}");
    }
    // The channels are independent: the outer loop runs in parallel.
    let outcome = compile("state_machine", &optimising());
    assert!(scop_text(&outcome.output).contains("#pragma omp parallel for"), "{}", outcome.output);
}

/// Affine conjuncts before a data-dependent one bound the domain: the
/// condition's reads are modelled only where C evaluates them.
#[test]
fn leading_affine_conjuncts_bound_the_domain() {
    let source = "void f(int n, double A[n], double B[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    if (i > 0 && A[i - 1] > 0)\n      B[i] = A[i - 1];\n#pragma endscop\n}\n";
    let scop = driver::compile(source.to_string(), &Options { emit: Emit::Scop, ..Options::default() }).unwrap().output;
    let condition =
        scop.lines().find(|l| l.contains("S0[i0]") && l.contains("domain")).unwrap_or_else(|| panic!("{scop}"));
    assert!(condition.contains("0 < i0"), "{scop}");
    assert!(scop.contains("S0[i0] -> A[o0 = -1 + i0] : 0 < i0 < n"), "{scop}");
}

/// The statements of `source` between the pragmas, narrowed around a
/// `while`: the output with every diagnostic.
fn narrowed(source: &str) -> Outcome {
    driver::compile(source.to_string(), &optimising()).unwrap_or_else(|d| panic!("{}", d.message))
}

/// Whether the bytes of `source` outside the lines of `kept` (each a
/// piece of it) come out in order in `output`: the text before, between
/// and after them is copied.
fn copied_around(source: &str, output: &str, kept: &[&str]) -> bool {
    let mut at = 0;
    for piece in kept {
        let Some(p) = output[at..].find(piece) else { return false };
        at += p + piece.len();
    }
    let (start, end) = (source.find("#pragma scop").unwrap(), source.find("#pragma endscop").unwrap());
    output.starts_with(&source[..start + "#pragma scop\n".len()]) && output.ends_with(&source[end..])
}

/// The convergence loop, written inside the region: the `while`
/// header stays byte for byte, evaluated as in the source (once per
/// iteration, around the regions), and the sweep's nests inside it are
/// parallelised; the nest before the loop is a region of its own.
/// Nothing is said about any of them (`compile` checks there is no
/// diagnostic).
#[test]
fn a_convergence_loop_stays_and_its_body_is_parallelised() {
    let outcome = compile("converge_while", &optimising());
    let out = &outcome.output;
    let header = "\n  while (change > tol && sweeps++ < MAXSWEEPS) {\n";
    assert_eq!(out.matches(header).count(), 1, "{out}");
    let (before, inside) = out.split_at(out.find(header).unwrap());
    let inside = &inside[..inside.find("#pragma endscop").unwrap()];
    assert!(before[before.find("#pragma scop").unwrap()..].contains("#pragma omp parallel for"), "{out}");
    // The loops of the body, without tiles, printed once: each region
    // starts threads only where its own work pays them.
    let regions = common::parallel_regions(inside);
    assert_eq!(regions.len(), 2, "{inside}");
    assert!(regions.iter().all(|(_, gated)| *gated), "{inside}");
    assert!(inside.trim_end().ends_with("A[i][j] = B[i][j];\n    }\n  }"), "{inside}");
    assert_eq!(outcome.scops.len(), 2, "{:?}", outcome.scops.iter().map(|s| s.line).collect::<Vec<_>>());
}

/// A nest of the body that the extractor refuses (an indirect subscript)
/// is kept as written with its diagnostic, which points into it; the
/// nest after it is optimised and nothing is said about it, nor about
/// the `while` (no `P0001`). An inner `do` loop is treated as the outer
/// one: its body's nest is optimised too.
#[test]
fn a_refused_nest_in_the_body_is_kept_with_its_diagnostic() {
    let refused =
        "    for (int i = 0; i < n; i++)\n      for (int j = 0; j < n; j++)\n        B[i][j] = A[idx[i]][j];\n";
    let source = format!(
        "void f(int n, double A[n][n], double B[n][n], int idx[n], double tol) {{\n  double d = 1;\n#pragma scop\n  while (d > tol) {{\n{refused}    for (int i = 1; i < n; i++)\n      for (int j = 0; j < n; j++)\n        A[i][j] = 0.5 * B[i][j];\n    do {{\n      for (int i = 0; i < n; i++)\n        for (int j = 0; j < n; j++)\n          B[i][j] = B[i][j] * A[i][j];\n    }} while (B[0][0] > 1);\n    d = d / 2;\n  }}\n#pragma endscop\n}}\n"
    );
    let outcome = narrowed(&source);
    let out = &outcome.output;
    let codes: Vec<Code> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![Code::P0002], "{:?}", outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let nest = source.find(refused).unwrap();
    let span = &outcome.diagnostics[0].span;
    assert!(nest <= span.start && span.end <= nest + refused.len(), "{span:?}");
    assert!(
        copied_around(&source, out, &["  while (d > tol) {\n", refused, "    do {\n", "    } while (B[0][0] > 1);\n"]),
        "{out}"
    );
    let regions = common::parallel_regions(out);
    assert_eq!(regions.len(), 2, "{out}");
    assert!(regions.iter().all(|(_, gated)| *gated), "each region waits for its own work:\n{out}");
    assert!(out.find("} while (B[0][0] > 1);").unwrap() > out.rfind("#pragma omp parallel for").unwrap(), "{out}");
}

/// A `while` inside a `for` of the region keeps today's behaviour: the
/// region is kept as written, with `P0001` on the `while`.
#[test]
fn a_while_inside_a_for_keeps_the_region() {
    let source = "void f(int n, double A[n], double tol) {\n#pragma scop\n  for (int t = 0; t < 10; t++) {\n    while (A[0] > tol)\n      for (int i = 0; i < n; i++)\n        A[i] = A[i] / 2;\n  }\n#pragma endscop\n}\n";
    let outcome = narrowed(source);
    assert_eq!(outcome.output, source);
    let codes: Vec<Code> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec![Code::P0001]);
    assert_eq!(&source[outcome.diagnostics[0].span.clone()][..5], "while");
}

/// The extractor's rules hold inside the `while`: a bound written by the
/// body outside a region is a parameter of it (constant while it runs),
/// but a run that writes its own bound is narrowed until it does not
/// (`m += 1` stays outside); a scalar the `while` tests is written back
/// by the region. The output computes what the source does, on one and
/// two threads.
#[test]
fn variables_the_while_reads_or_writes_stay_sound() {
    let source = "#include <stdio.h>\nstatic double A[300], B[300];\nstatic void f(int n) {\n  int m = 10, sweeps = 0;\n  double s = 1e9;\n#pragma scop\n  while (s > 1.0 && m < n) {\n    m += 1;\n    for (int i = 0; i < m; i++)\n      B[i] = A[i] + A[i + 1];\n    s = 0;\n    for (int i = 0; i < m; i++)\n      s += B[i];\n    for (int i = 0; i < m; i++)\n      A[i] = B[i] / 2.5;\n    sweeps++;\n  }\n#pragma endscop\n  printf(\"%d %d %.17g\\n\", m, sweeps, s);\n}\nint main(void) {\n  for (int i = 0; i < 300; i++)\n    A[i] = i % 7;\n  f(290);\n  for (int i = 0; i < 300; i += 13)\n    printf(\"%.17g\\n\", A[i]);\n  return 0;\n}\n";
    let outcome = narrowed(source);
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let out = &outcome.output;
    assert!(copied_around(source, out, &["  while (s > 1.0 && m < n) {\n    m += 1;\n"]), "{out}");
    assert!(out.contains("#pragma omp parallel for"), "{out}");
    let dir = common::scratch("dynamic_while");
    let run = |name: &str, text: &str, threads: &str| {
        let (src, bin) = (dir.join(format!("{name}.c")), dir.join(name));
        std::fs::write(&src, text).unwrap();
        common::gcc(&src, &bin, &["-fopenmp"]).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let mut cmd = std::process::Command::new(&bin);
        cmd.env("OMP_NUM_THREADS", threads);
        let (code, stdout, _) = common::run_with(cmd, std::time::Duration::from_secs(60)).unwrap();
        assert_eq!(code, Some(0), "{name}");
        stdout
    };
    let expected = run("source", source, "1");
    for threads in ["1", "2"] {
        assert_eq!(run("polyc", out, threads), expected, "{threads} threads:\n{out}");
    }
}

/// TSVC's s441: a chain of `if`s on data. Below the work check, the
/// source text runs; above it, the threads.
#[test]
fn a_branch_on_data_runs_as_written_with_little_work() {
    let source = "#define LEN 32000\nfloat a[LEN], b[LEN], c[LEN], d[LEN];\nvoid f(void) {\n#pragma scop\n  \
                  for (int i = 0; i < LEN; i++) {\n    if (d[i] < 0.f) a[i] += b[i] * c[i];\n    \
                  else if (d[i] == 0.f) a[i] += b[i] * b[i];\n    else a[i] += c[i] * c[i];\n  }\n#pragma endscop\n}\n";
    let out = driver::compile(source.to_string(), &Options::optimising()).unwrap().output;
    let code = scop_text(&out);
    let threads = code.find("#pragma omp parallel for").unwrap_or_else(|| panic!("no threads:\n{code}"));
    assert!(code[..threads].contains(">= POLYC_MIN_WORK"), "{code}");
    let (_, little) =
        code[threads..].split_once("} else {").unwrap_or_else(|| panic!("no loops for little work:\n{code}"));
    assert!(little.contains("    else if (d[i] == 0.f) a[i] += b[i] * b[i];"), "{code}");
    assert!(!little.contains("polyc_c"), "{code}");
}
