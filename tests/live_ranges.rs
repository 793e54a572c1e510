//! Live ranges (seed 004): each value from its write to its last read.
//! A schedule keeps the storage when it keeps every live range whole; a
//! loop that runs iterations reusing one scalar at the same time breaks
//! them, and a private copy per iteration repairs that, copied out only
//! when something reads the last value after the loop. Seed 004's own
//! example, a matrix product accumulated in a scalar, runs in parallel
//! with the scalar private and not expanded.

use crate::common;

use crate::transforms::scop_lines;
use polyc::deps::live;
use polyc::driver;
use polyc::frontend::Source;
use polyc::model::isl::{Map, UnionMap};
use polyc::model::Scop;
use polyc::options::{Emit, Options, PlanRequest};
use polyc::schedule::live::{violations, Breach};
use polyc::schedule::Scattering;
use std::path::Path;

fn corpus(name: &str) -> String {
    in_repository(&format!("corpus/{name}"))
}

fn in_repository(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn compile(text: String, options: &Options) -> String {
    let outcome = driver::compile(text, options).unwrap_or_else(|d| panic!("{}", d.message));
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    outcome.output
}

fn optimising() -> Options {
    Options { plan: PlanRequest { time_budget: None, ..PlanRequest::optimising() }, ..Options::default() }
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

/// Seed 004's Figure 1: `s` is set, accumulated over `k` and stored into
/// `C[i][j]` for every `(i, j)`. A plan proposed with its flow alone
/// tiles `(i, j, k)`, which interleaves the sums of a tile: its live
/// ranges must be repaired. Nothing reads `s` after the SCoP and nothing
/// touches `C[i][j]` while its sum runs, so `C[i][j]` itself holds the sum
/// (in place: no new memory), and the nest is tiled as a matrix product.
#[test]
fn the_seed_matrix_product_holds_its_sum_in_place() {
    let output = compile(corpus("matmul_scalar.c"), &optimising());
    let first = &output[output.find("#pragma scop").unwrap()..output.find("#pragma endscop").unwrap()];
    // The only memory allocated holds the packed panels of the product.
    assert!(!first.contains("polyc_s"), "new memory:\n{first}");
    assert_eq!(first.matches("__builtin_malloc").count(), 1, "new memory:\n{first}");
    assert!(first.contains("summed into C[i][j], on packed panels"), "not packed:\n{first}");
    assert!(first.contains("polyc_C += polyc_A * B[k][j];"), "not accumulated in C:\n{first}");
    assert!(first.contains("polyc_floord(N - 1, 32)"), "not tiled:\n{first}");

    let report = compile(corpus("matmul_scalar.c"), &Options { emit: Emit::LiveRanges, ..optimising() });
    let s = section(&report, "s");
    assert!(s.contains("s (scalar; nothing reads it after the SCoP)"), "{s}");
    for pair in ["S0 -> S1", "S1 -> S1", "S1 -> S2"] {
        assert!(s.contains(&format!("    {pair}: ")), "no live range {pair}:\n{s}");
    }
    assert!(s.contains("expanded in place: held in C[i][j]"), "{s}");
    assert!(!report.contains("NOT REPAIRED"), "{report}");
}

/// Without a home cell (the sum is added to a row total, which every
/// `j` of the row touches while the sums run), the tiles the proposal
/// wants need a copy of `s` per `(i, j)`: new memory, said so.
#[test]
fn a_sum_without_a_home_gets_new_memory() {
    let text = "#define N 2000\ndouble A[N][N], B[N][N], t[N];\nvoid f(void) {\n  int i, j, k;\n  double s;\n\
                #pragma scop\n  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++) {\n      s = 0.0;\n      \
                for (k = 0; k < N; k++)\n        s += A[i][k] * B[k][j];\n      t[i] += s;\n    }\n#pragma endscop\n}\n";
    let output = compile(text.to_string(), &optimising());
    assert!(output.contains("polyc_s_memory = __builtin_malloc"), "{output}");
    let report = compile(text.to_string(), &Options { emit: Emit::LiveRanges, ..optimising() });
    assert!(section(&report, "s").contains("expanded into polyc_s[N][N]"), "{report}");
}

/// A value left by the last iteration and read after the loop (`last`)
/// is copied out (by the printer: `emit::copy_out`); one read after an
/// inner loop but not after the outer one (`q`) is a plain private of the
/// outer loop.
#[test]
fn only_values_read_after_the_loop_are_copied_out() {
    let output = compile(corpus("matmul_scalar.c"), &optimising());
    let second = &output[output.rfind("#pragma scop").unwrap()..];
    let found = pragmas(second);
    assert!(found.contains(&"#pragma omp for nowait schedule(static) private(last)"), "{second}");
    assert!(second.contains("last = polyc_last_value;"), "{second}");
    assert!(found.contains(&"#pragma omp parallel for schedule(static) private(q)"), "{second}");

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
        // The loops for little work, if any, have the same loop, behind
        // a gate on its region's work (`if (... && POLYC_THREADS > 1)`);
        // without a work check, the loop is printed once, gated so.
        let gated = output.matches(" >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {").count();
        let versioned = usize::from(output.contains(" >= POLYC_MIN_WORK"));
        let found: Vec<&str> = pragmas(&output).into_iter().filter(|p| p.contains(" for")).collect();
        let want = if what == "local" {
            "#pragma omp parallel for schedule(static) private(t)"
        } else {
            "#pragma omp for nowait schedule(static) private(t)"
        };
        assert_eq!(found, vec![want; versioned + gated], "{what}:\n{output}");
        assert!(!found.is_empty(), "{what}:\n{output}");
        assert_eq!(output.contains("t = polyc_t_value;"), what != "local", "{what}:\n{output}");
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
    let ranges = live::of_scop(&scop, None, &|v| v == "s").unwrap();
    let s = ranges.iter().find(|l| l.variable == "s").expect("s is written");
    // From the dataflow the dependences computed for `s` alone: the same.
    let deps = polyc::deps::analyse(&scop).unwrap();
    let known = live::of_scop(&scop, Some(&deps), &|v| v == "s").unwrap();
    let same = |a: &UnionMap, b: &UnionMap| {
        a.subtract(b).unwrap().is_empty().unwrap() && b.subtract(a).unwrap().is_empty().unwrap()
    };
    assert!(same(&known[0].ranges, &s.ranges) && same(&known[0].boundaries, &s.boundaries));
    assert!(!s.ranges.is_empty().unwrap() && !s.boundaries.is_empty().unwrap());
    let original = Scattering::original(&scop);
    let never = |_: usize, _: usize| false;
    assert!(violations(&scop, s, &original, &never).unwrap().is_empty());

    let rows = |_: usize, dim: usize| dim == 1;
    let found = violations(&scop, s, &original, &rows).unwrap();
    assert!(!found.is_empty() && found.iter().all(|v| v.breach == Breach::Concurrent { dim: 1 }));

    // i, k, j: S0 and S2 at k = -1 and k = N, S1 inside.
    let maps = [
        "[N] -> { S0[i, j] -> [i, -1, j] }",
        "[N] -> { S1[i, j, k] -> [i, k, j] }",
        "[N] -> { S2[i, j] -> [i, N, j] }",
    ];
    let interchanged =
        Scattering { stmts: vec![0, 1, 2], maps: maps.iter().map(|m| Map::parse(m).unwrap()).collect(), dims: 3 };
    let found = violations(&scop, s, &interchanged, &never).unwrap();
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
    let failures = common::on_workers(&files, |path| {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let Ok(outcome) = driver::compile(text, &Options { emit: Emit::LiveRanges, ..optimising() }) else {
            return Ok(());
        };
        match outcome.output.contains("NOT REPAIRED") {
            true => Err(format!("{}:\n{}", path.display(), outcome.output)),
            false => Ok(()),
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Which sums live in the cell they are stored to (corpus/shape_inplace,
/// whose outputs the equivalence test compares in every mode): one that
/// starts from its home and ends there does; one whose web reads its home
/// cell, the second of two sums stored into one cell, one whose home is
/// shared by iterations, and one read after the SCoP get new memory.
#[test]
fn a_home_holds_a_sum_only_where_nothing_else_touches_it() {
    let report = compile(corpus("shape_inplace.c"), &Options { emit: Emit::LiveRanges, ..optimising() });
    let repair = |v: &str| section(&report, v).lines().find(|l| l.starts_with("  expanded")).unwrap_or("").to_string();
    let holds = |v: &str, home: &str| repair(v).contains(&format!("expanded in place: held in {home}"));
    let copied = |v: &str| repair(v).contains(&format!("expanded into polyc_{v}[N][N]"));
    assert!(holds("w", "C[i][j]") && holds("t", "E[i][j]"), "{report}");
    for v in ["s", "u", "v", "last"] {
        assert!(copied(v), "{v}:\n{report}");
    }
    let output = compile(corpus("shape_inplace.c"), &optimising());
    assert!(!output.contains("C[i][j] = C[i][j];"), "the copy onto itself is dropped:\n{output}");
}

/// A recursive filter run down each column (deriche's shape), its state
/// in scalars reset for every column `j` and carried down the rows `i`.
fn column_filter() -> String {
    "void f(int w, int h, double img[w][h], double res[w][h]) {\n  double prev, last, older;\n#pragma scop\n  \
     for (int j = 0; j < h; j++) {\n    prev = 0.0;\n    last = 0.0;\n    older = 0.0;\n    \
     for (int i = 0; i < w; i++) {\n      \
     res[i][j] = 0.25 * img[i][j] + 0.15 * prev + 0.6 * last - 0.2 * older;\n      \
     prev = img[i][j];\n      older = last;\n      last = res[i][j];\n    }\n  }\n#pragma endscop\n}\n"
        .to_string()
}

/// Private copies per column leave the column loop outermost and the
/// rows walking columns; a copy per column lets the rows run inside
/// strips of columns (the states reset there too: nothing reads them
/// after the SCoP), each a vector loop walking a row.
#[test]
fn a_filter_state_carried_down_each_column_gets_a_copy_per_column_so_columns_run_in_vectors() {
    let output = compile(column_filter(), &optimising());
    let lines = scop_lines(&output);
    for state in ["prev", "last", "older"] {
        let copies = format!("double (*restrict polyc_{state}) = (void *)");
        assert!(lines.iter().any(|l| l.starts_with(&copies)), "no copies of {state}: {lines:#?}");
    }
    let strips = lines.iter().position(|l| l.starts_with("for (int c0 = 0; c0 <= polyc_floord(h - 1, 256); c0++)"));
    let strips = strips.unwrap_or_else(|| panic!("no strips of columns: {lines:#?}"));
    assert_eq!(lines[strips - 1], "#pragma omp parallel for schedule(static)", "{lines:#?}");
    let rows = lines[strips..].iter().position(|l| l.starts_with("for (int i = ")).expect("rows inside the strips");
    let columns = lines[strips + rows..].iter().position(|l| *l == "for (int j = 256 * c0; j <= j_end; j++) {");
    let columns = strips + rows + columns.expect("columns inside the rows");
    assert_eq!(lines[columns - 1], "#pragma omp simd", "{lines:#?}");
}

/// tests/real_c/filter_states.c: a state set afresh for every row or
/// column gets a copy per row or column; one a row hands on to the next
/// (`carry`), or one reset on even rows only (`mixed`), keeps its storage.
#[test]
fn a_filter_state_gets_copies_only_where_each_row_or_column_starts_it_afresh() {
    let text = in_repository("tests/real_c/filter_states.c");
    let report = compile(text, &Options { emit: Emit::LiveRanges, ..optimising() });
    for copied in ["state_after", "prev", "held"] {
        assert!(section(&report, copied).contains("  expanded into"), "{copied}:\n{report}");
    }
    for kept in ["carry", "mixed"] {
        assert!(!section(&report, kept).contains("expanded"), "{kept}:\n{report}");
    }
}
