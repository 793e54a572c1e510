//! Execution equivalence: every corpus program, compiled by gcc before and
//! after polyc, prints the same bytes; and with statements instrumented,
//! runs the same statement instances in the same order.

mod common;
use common::*;
use polyc::driver::{self, Options};
use std::time::Duration;

fn regenerate(path: &std::path::Path, options: &Options) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let outcome = driver::compile(text, options).map_err(|d| format!("{}: {}", path.display(), d.message))?;
    if let Some(d) = outcome.diagnostics.first() {
        return Err(format!("{}: unexpected diagnostic {:?}: {}", path.display(), d.code, d.message));
    }
    Ok(outcome.output)
}

fn same_output(name: &str, original: &std::path::Path, transformed: &str, dir: &std::path::Path) -> Result<(), String> {
    let out_src = dir.join(format!("{name}.polyc.c"));
    std::fs::write(&out_src, transformed).map_err(|e| e.to_string())?;
    let (a, b) = (dir.join(format!("{name}.orig")), dir.join(format!("{name}.polyc")));
    gcc(original, &a, &[]).map_err(|e| format!("{name}: original does not compile: {e}"))?;
    gcc(&out_src, &b, &[]).map_err(|e| format!("{name}: polyc output does not compile: {e}"))?;
    let limit = Duration::from_secs(60);
    let expected = run(&a, limit)?;
    let got = run(&b, limit)?;
    if expected != got {
        return Err(format!("{name}: output differs (see {})", out_src.display()));
    }
    if expected.is_empty() {
        return Err(format!("{name}: the program prints nothing, so the comparison is void"));
    }
    Ok(())
}

#[test]
fn every_corpus_program_prints_the_same_bytes_after_regeneration() {
    let dir = scratch("equivalence");
    let files = corpus();
    assert!(files.len() >= 30, "the corpus must hold at least 30 programs, found {}", files.len());
    let failures = on_workers(&files, |path| {
        let name = stem(path);
        let out = regenerate(path, &Options::default())?;
        same_output(&name, path, &out, &dir)
    });
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn regenerated_code_runs_the_same_instances_in_the_same_order() {
    let dir = scratch("trace");
    let files = corpus();
    let failures = on_workers(&files, |path| {
        let name = stem(path);
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let reference = driver::trace_original(text).map_err(|d| d.message)?;
        let reference_src = dir.join(format!("{name}.trace-ref.c"));
        std::fs::write(&reference_src, reference).map_err(|e| e.to_string())?;
        let traced = regenerate(path, &Options { trace: true, ..Options::default() })?;
        same_output(&format!("{name}.trace"), &reference_src, &traced, &dir)
    });
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn bytes_outside_the_scops_are_unchanged() {
    for path in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        let out = regenerate(&path, &Options::default()).unwrap();
        let first = text.find("#pragma scop").expect("every corpus file has a SCoP");
        let last = text.rfind("#pragma endscop").expect("every corpus file has a SCoP");
        assert_eq!(out[..first], text[..first], "{}: prefix changed", path.display());
        let tail = &text[last..];
        assert!(out.ends_with(tail), "{}: suffix changed", path.display());
    }
}

#[test]
fn scops_without_if_regenerate_without_if() {
    let has_if = |s: &str| s.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "if");
    let mut new_guards = Vec::new();
    for path in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        if has_if(&scop_regions(&text)) {
            continue;
        }
        let out = regenerate(&path, &Options::default()).unwrap();
        if has_if(&scop_regions(&out)) {
            new_guards.push(stem(&path));
        }
    }
    assert!(new_guards.is_empty(), "guards appeared where the source had none: {new_guards:?}");
}
