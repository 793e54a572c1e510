//! Data-dependent conditions inside a SCoP (seed 001's filters): the
//! condition is a statement of its own, evaluated into a variable at each
//! instance of its `if`; the statements under it run under that variable,
//! and their writes may not happen, which the dataflow must respect.
//! `corpus/dynamic/` checks every mode's output against the source.

use polyc::driver::{self, Emit, Options, Outcome};
use std::path::Path;

fn optimising() -> Options {
    Options { time_budget: None, ..Options::optimising() }
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
    assert!(code.contains("int polyc_c0;"), "{code}");
    assert!(code.contains("polyc_c0 = (A[i - 1][j] > 0);"), "{code}");
    assert!(code.contains("if (polyc_c0) B[i][j] = 2 * A[i - 1][j];"), "{code}");
    assert!(code.contains("if (!polyc_c0) B[i][j] = -A[i][j];"), "{code}");
    assert!(code.contains("#pragma omp parallel for private(polyc_c0)"), "{code}");
}

/// An `else if` evaluates its condition only where the first one fails:
/// its evaluation runs under the first condition's `else`.
#[test]
fn a_nested_condition_is_evaluated_under_its_filter() {
    let outcome = compile("clamp", &Options::default());
    let code = scop_text(&outcome.output);
    assert!(code.contains("polyc_c0 = (img[i][j] > hi);"), "{code}");
    assert!(code.contains("polyc_c1 = !polyc_c0 && (img[i][j] < lo);"), "{code}");
    assert!(code.contains("if (!polyc_c0 && !polyc_c1) out[i][j] = img[i][j];"), "{code}");
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
