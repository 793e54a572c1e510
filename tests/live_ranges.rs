//! Live ranges (seed 004): each value from its write to its last read.
//! A schedule keeps the storage when it keeps every live range whole; a
//! loop that runs iterations reusing one scalar at the same time breaks
//! them, and a private copy per iteration repairs that, copied out only
//! when something reads the last value after the loop. Seed 004's own
//! example, a matrix product accumulated in a scalar, runs in parallel
//! with the scalar private and not expanded.

use polyc::deps::live::{self, Breach};
use polyc::driver::{self, Emit, Options};
use polyc::frontend::Source;
use polyc::model::isl::Map;
use polyc::model::Scop;
use polyc::schedule::Scattering;
use std::path::Path;

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn compile(text: String, options: &Options) -> String {
    let outcome = driver::compile(text, options).unwrap_or_else(|d| panic!("{}", d.message));
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    outcome.output
}

fn optimising() -> Options {
    Options { time_budget: None, ..Options::optimising() }
}

/// The `#pragma omp` lines of `output`, trimmed.
fn pragmas(output: &str) -> Vec<&str> {
    output.lines().map(str::trim).filter(|l| l.starts_with("#pragma omp")).collect()
}

/// The lines of `--emit=live-ranges` about `variable`.
fn section(report: &str, variable: &str) -> String {
    let mut lines = report.lines().skip_while(|l| !l.starts_with(&format!("{variable} (")));
    let head = lines.next().unwrap_or_else(|| panic!("no {variable}:\n{report}"));
    std::iter::once(head).chain(lines.take_while(|l| l.starts_with(' '))).collect::<Vec<_>>().join("\n")
}

/// Seed 004's Figure 1: `s` is set, accumulated over `k` and stored for
/// every `(i, j)`. Its live ranges stay within one `(i, j)`, so the rows
/// run in parallel with a private `s` that nothing copies out (nothing
/// reads it after the SCoP), no expansion.
#[test]
fn the_seed_matrix_product_keeps_its_scalar_private() {
    let output = compile(corpus("matmul_scalar.c"), &optimising());
    let first = &output[output.find("#pragma scop").unwrap()..output.find("#pragma endscop").unwrap()];
    assert_eq!(pragmas(first), ["#pragma omp parallel for private(s)"], "{first}");
    assert!(!first.contains("polyc_s"), "expanded:\n{first}");

    let report = compile(corpus("matmul_scalar.c"), &Options { emit: Emit::LiveRanges, ..optimising() });
    let s = section(&report, "s");
    assert!(s.contains("s (scalar; nothing reads it after the SCoP)"), "{s}");
    for pair in ["S0 -> S1", "S1 -> S1", "S1 -> S2"] {
        assert!(s.contains(&format!("    {pair}: ")), "no live range {pair}:\n{s}");
    }
    assert!(s.contains("repaired: a private copy per iteration of c0, not copied out"), "{s}");
    assert!(!report.contains("NOT REPAIRED"), "{report}");
}

/// A value left by the last iteration and read after the loop (`last`)
/// is copied out; one read after an inner loop but not after the outer
/// one (`q`) is a plain private of the outer loop.
#[test]
fn only_values_read_after_the_loop_are_copied_out() {
    let output = compile(corpus("matmul_scalar.c"), &optimising());
    let second = &output[output.rfind("#pragma scop").unwrap()..];
    let found = pragmas(second);
    assert!(found.contains(&"#pragma omp parallel for lastprivate(conditional: last)"), "{second}");
    assert!(found.contains(&"#pragma omp parallel for private(q)"), "{second}");

    let report = compile(corpus("matmul_scalar.c"), &Options { emit: Emit::LiveRanges, ..optimising() });
    assert!(section(&report, "last").contains("the last iteration's copied out"), "{report}");
    assert!(section(&report, "q").contains("not copied out"), "{report}");
}

/// What may read a scalar after the SCoP: a global, a static local, a
/// local named after the region, a region inside a loop (the next run
/// reads what this one leaves). Each keeps its copy-out.
#[test]
fn a_scalar_that_may_be_read_later_is_copied_out() {
    let kernel = |decl: &str, before: &str, after: &str, around: (&str, &str)| {
        format!(
            "#define N 2000\ndouble A[N][N], x[N];\n{decl}\nvoid f(void) {{\n  int i, j;\n  {before}\n  {}\n#pragma scop\n  \
             for (i = 0; i < N; i++) {{\n    t = x[i] * 2.0;\n    for (j = 0; j < N; j++)\n      A[i][j] = A[i][j] * t;\n  }}\n\
             #pragma endscop\n  {}\n  {after}\n}}\n",
            around.0, around.1
        )
    };
    let cases = [
        ("local", kernel("", "double t;", "", ("", ""))),
        ("global", kernel("double t;", "", "", ("", ""))),
        ("static local", kernel("", "static double t;", "", ("", ""))),
        ("read after", kernel("", "double t;", "x[0] = t;", ("", ""))),
        ("in a loop", kernel("", "double t; int r;", "", ("for (r = 0; r < 3; r++) {", "}"))),
    ];
    for (what, text) in cases {
        let output = compile(text, &optimising());
        let found: Vec<&str> = pragmas(&output).into_iter().filter(|p| p.contains("parallel for")).collect();
        let want = if what == "local" {
            "#pragma omp parallel for private(t)"
        } else {
            "#pragma omp parallel for lastprivate(conditional: t)"
        };
        assert_eq!(found, [want], "{what}:\n{output}");
    }
}

/// The violation analysis itself, on seed 004's example: the original
/// order keeps every live range of `s`; interchanging `j` and `k`
/// interleaves the sums of a row (reversed boundaries); running the rows
/// at the same time breaks them between rows, which only a private copy
/// per row repairs.
#[test]
fn violations_are_found_where_the_schedule_breaks_live_ranges() {
    let text = corpus("matmul_scalar.c");
    let source = Source::parse(text).unwrap();
    let scop = Scop::build(source.scops().scops.remove(0)).unwrap();
    let ranges = live::of_scop(&scop, &|v| v == "s").unwrap();
    let s = ranges.iter().find(|l| l.variable == "s").expect("s is written");
    let original = Scattering::original(&scop);
    let never = |_: usize, _: usize| false;
    assert!(live::violations(&scop, s, &original, &never).unwrap().is_empty());

    let rows = |_: usize, dim: usize| dim == 1;
    let found = live::violations(&scop, s, &original, &rows).unwrap();
    assert!(!found.is_empty() && found.iter().all(|v| v.breach == Breach::Concurrent { dim: 1 }));

    // i, k, j: S0 and S2 at k = -1 and k = N, S1 inside.
    let maps = [
        "[N] -> { S0[i, j] -> [i, -1, j] }",
        "[N] -> { S1[i, j, k] -> [i, k, j] }",
        "[N] -> { S2[i, j] -> [i, N, j] }",
    ];
    let interchanged =
        Scattering { stmts: vec![0, 1, 2], maps: maps.iter().map(|m| Map::parse(m).unwrap()).collect(), dims: 3 };
    let found = live::violations(&scop, s, &interchanged, &never).unwrap();
    assert!(
        found.iter().any(|v| v.breach == Breach::Reversed { dim: 1 }),
        "{:?}",
        found.iter().map(|v| &v.pairs).collect::<Vec<_>>()
    );
}

/// No corpus kernel's plan breaks a live range it does not repair: the
/// verifier and the live-range analysis agree.
#[test]
fn every_corpus_plan_repairs_what_it_breaks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).collect();
    files.extend(std::fs::read_dir(root.join("dynamic")).unwrap().flatten().map(|e| e.path()));
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(outcome) = driver::compile(text, &Options { emit: Emit::LiveRanges, ..optimising() }) else { continue };
        assert!(!outcome.output.contains("NOT REPAIRED"), "{}:\n{}", path.display(), outcome.output);
    }
}
