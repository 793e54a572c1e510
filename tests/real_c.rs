//! C as users write it (issue 19): macros from headers and from `-D`,
//! macros that name iterators, code outside the SCoPs that polyc's parser
//! alone cannot read, files without a SCoP. Each program, compiled by gcc
//! as written and after polyc (with the same flags), must print the same
//! on one and two threads.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn input(name: &str) -> PathBuf {
    root().join("tests/real_c").join(name)
}

/// polyc's exit status, output text and standard error for `file`.
fn polyc(file: &Path, out: &Path, flags: &[&str]) -> (Option<i32>, String, String) {
    let run = Command::new(polyc_bin()).arg(file).arg("-o").arg(out).args(flags).output().expect("polyc runs");
    let text = std::fs::read_to_string(out).unwrap_or_default();
    (run.status.code(), text, String::from_utf8_lossy(&run.stderr).into_owned())
}

/// `file` through polyc with `flags`; gcc builds the source and the
/// result with `cflags` (`-D`s and `-I`s the user would give both); both
/// print the same on one and two threads. Returns polyc's output and
/// its warnings.
fn prints_the_same(file: &str, flags: &[&str], cflags: &[&str]) -> (String, String) {
    let dir = scratch(&format!("real_c-{}-{}", file.trim_end_matches(".c"), flags.join("").replace(['/', '='], "_")));
    let out = dir.join(file);
    let (status, text, warnings) = polyc(&input(file), &out, flags);
    assert_eq!(status, Some(0), "{file}: {warnings}");
    let mut cflags = cflags.to_vec();
    cflags.extend(["-fopenmp", "-ffp-contract=off"]);
    gcc(&input(file), &dir.join("source"), &cflags).unwrap_or_else(|e| panic!("{file}: the source: {e}"));
    gcc(&out, &dir.join("polyc"), &cflags).unwrap_or_else(|e| panic!("{file}: polyc's output: {e}\n{text}"));
    for threads in ["1", "2"] {
        let printed = |binary: &str| {
            let mut cmd = Command::new(dir.join(binary));
            cmd.env("OMP_NUM_THREADS", threads);
            match run_with(cmd, Duration::from_secs(60)) {
                Ok((Some(0), out, _)) => String::from_utf8_lossy(&out).into_owned(),
                other => panic!("{file}: {binary}: {other:?}"),
            }
        };
        assert_eq!(printed("polyc"), printed("source"), "{file} on {threads} threads:\n{text}");
    }
    (text, warnings)
}

fn region(text: &str) -> String {
    scop_regions(text)
}

/// The regenerated loops of a versioned region (the source text follows
/// in its `else` branch).
fn regenerated(text: &str) -> String {
    region(text).split("} else {").next().unwrap_or_default().to_string()
}

#[test]
fn macros_from_an_included_header_are_analysed_and_kept_as_written() {
    let inc = input("inc");
    let include = format!("-I{}", inc.display());
    let (text, warnings) = prints_the_same("header_macros.c", &[&include], &[&include]);
    assert!(warnings.is_empty(), "{warnings}");
    let code = region(&text);
    assert!(code.contains("#pragma omp"), "the SCoP is transformed:\n{code}");
    assert!(code.contains("SCALE(a[i][j])") && code.contains("SQRT_OF("), "the user's spelling stays:\n{code}");

    let dir = scratch("real_c-header-missing");
    let (status, text, warnings) = polyc(&input("header_macros.c"), &dir.join("out.c"), &[]);
    assert_eq!(status, Some(0), "{warnings}");
    assert!(warnings.contains("warning[P0017]") && warnings.contains("kernel_macros.h"), "{warnings}");
    assert!(warnings.contains("-I"), "the warning says which flag helps: {warnings}");
    assert_eq!(text, std::fs::read_to_string(input("header_macros.c")).unwrap(), "without the header, kept as written");
}

#[test]
fn the_branch_a_flag_selects_decides_the_accesses() {
    for flags in [&[][..], &["-DTRANSPOSED"][..]] {
        let (_, warnings) = prints_the_same("selected_branch.c", flags, flags);
        assert!(warnings.is_empty(), "{flags:?}: {warnings}");
    }
    let (text, _) = prints_the_same("selected_branch.c", &[], &[]);
    let code = regenerated(&text);
    assert!(code.contains("A[i][j] = A[i - 1][j] * 0.5 + A[i][j];"), "written expanded:\n{code}");
    let dir = scratch("real_c-branch-model");
    let model = |flags: &[&str]| {
        let mut args = vec!["--emit=scop"];
        args.extend(flags);
        polyc(&input("selected_branch.c"), &dir.join("model.txt"), &args).1
    };
    assert!(model(&[]).contains("A[o0 = i0, o1 = i1]"), "{}", model(&[]));
    assert!(model(&["-DTRANSPOSED"]).contains("A[o0 = i1, o1 = i0]"), "{}", model(&["-DTRANSPOSED"]));
}

#[test]
fn a_macro_naming_iterators_is_expanded_where_the_loops_change() {
    let (text, warnings) = prints_the_same("iterator_macro.c", &[], &[]);
    assert!(warnings.is_empty(), "{warnings}");
    let code = regenerated(&text);
    assert!(!code.contains("CELL") && !code.contains("LEFT"), "the macros name the old iterators:\n{code}");
    assert!(code.contains("omp parallel") && code.contains("A[i][c2 - t - 1]"), "transformed:\n{code}");
}

#[test]
fn code_outside_the_scops_that_does_not_parse_is_copied_and_the_scop_is_transformed() {
    for flags in [&[][..], &["-DLONG_RUN"][..]] {
        let (text, warnings) = prints_the_same("knr_and_split_braces.c", flags, flags);
        let source = std::fs::read_to_string(input("knr_and_split_braces.c")).unwrap();
        let code = region(&text);
        assert!(code.contains("#pragma omp"), "{flags:?}: transformed:\n{code}\n{warnings}");
        let outside = |t: &str| t.replace(&region(t), "");
        assert_eq!(outside(&text).trim_start_matches(|c| c != '/'), outside(&source), "{flags:?}: outside unchanged");
        assert!(!warnings.contains("error"), "{warnings}");
    }
}

#[test]
fn a_file_without_a_scop_is_copied_byte_for_byte() {
    let dir = scratch("real_c-no-scop");
    let out = dir.join("out.c");
    let (status, _, warnings) = polyc(&input("no_scop.c"), &out, &[]);
    assert_eq!(status, Some(0), "{warnings}");
    assert!(warnings.is_empty(), "{warnings}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(input("no_scop.c")).unwrap());
}

#[test]
fn a_typedef_scalar_is_expanded_like_its_type() {
    let (text, warnings) = prints_the_same("typedef_scalar.c", &[], &[]);
    assert!(warnings.is_empty(), "{warnings}");
    let code = regenerated(&text);
    assert!(code.contains("real (*restrict polyc_w)"), "w expanded, declared with the user's type:\n{code}");
    assert!(code.contains("omp parallel for"), "and the nest transformed:\n{code}");
}

/// An expanded filter state goes back into its variable after the SCoP
/// only where something may read it there: the global `state_after`,
/// not the locals `prev` and `held`, which nothing names after the SCoP
/// (deriche's ten states: fourteen statements fewer to schedule).
#[test]
fn only_states_read_after_the_scop_are_copied_back() {
    let (code, _) = prints_the_same("filter_states.c", &[], &[]);
    assert!(
        code.contains("polyc_prev_memory") && code.contains("polyc_held_memory"),
        "prev and held expanded:\n{code}"
    );
    assert!(code.contains("state_after = polyc_state_after[c - 1];"), "the global copied back:\n{code}");
    for local in ["prev = polyc_prev", "held = polyc_held"] {
        let copied_back = code.lines().any(|l| l.trim_start().starts_with(local));
        assert!(!copied_back, "{local}: a dead local copied back:\n{code}");
    }
}

#[test]
fn a_pure_function_of_the_file_may_be_called_and_an_impure_one_named_pure_may_not() {
    let (text, warnings) = prints_the_same("pure_helper.c", &[], &[]);
    let code = regenerated(&text);
    assert!(code.contains("blend(A[i][j], A[i][j + 1])") && code.contains("omp parallel"), "{code}");
    assert!(
        warnings.contains("warning[P0004]")
            && warnings.contains("`counted` is named pure, but it is not: writes global `calls`"),
        "{warnings}"
    );
}

#[test]
fn a_call_writing_through_a_pointer_is_scheduled_and_tiled_like_the_assignment_it_hides() {
    let (text, warnings) = prints_the_same("pointer_output.c", &[], &[]);
    assert!(warnings.is_empty(), "{warnings}");
    let code = regenerated(&text);
    assert!(code.contains("for (int c2 = 0;") && code.contains("omp parallel for"), "tiled and parallel:\n{code}");
    // A[i][k] does not move in the vector loop: read once before it.
    assert!(code.contains("multiply_add(polyc_A, B[k][j], &C[i][j]);"), "the call as written:\n{code}");
}

#[test]
fn a_function_only_declared_is_pure_when_the_user_says_so() {
    let dir = scratch("real_c-declared-only");
    let (status, text, warnings) = polyc(&input("declared_only.c"), &dir.join("out.c"), &[]);
    assert_eq!(status, Some(0), "{warnings}");
    assert!(warnings.contains("warning[P0004]") && warnings.contains("--pure=weight"), "the flag is named: {warnings}");
    assert_eq!(text, std::fs::read_to_string(input("declared_only.c")).unwrap());
    let (status, text, warnings) = polyc(&input("declared_only.c"), &dir.join("out.c"), &["--pure=weight"]);
    assert_eq!(status, Some(0), "{warnings}");
    assert!(warnings.is_empty() && regenerated(&text).contains("B[i] = weight(A[i]);"), "{warnings}\n{text}");
}

/// `j % BINS`, BINS an integer macro, in a function that also uses a
/// function-like macro (so its SCoP is analysed with macros expanded and
/// BINS kept as a name): the divisor is the macro's value, the SCoP is
/// transformed and kept as the user spelled it.
#[test]
fn an_integer_macro_divides_where_macros_are_expanded() {
    let (text, warnings) = prints_the_same("macro_divisor.c", &["-DPOLYC_MIN_WORK=0"], &["-DPOLYC_MIN_WORK=0"]);
    assert!(!warnings.contains("P0002"), "{warnings}");
    let loops = regenerated(&text);
    assert!(loops.contains("#pragma omp parallel for"), "{loops}");
    assert!(loops.contains("H[i][j % BINS] += SQUARE(A[i][j]);"), "{loops}");
}
