//! `polyc batch`: every file of a tree compiled as the single-file mode
//! would, a failing file recorded without stopping the others, the report.

use crate::common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn polyc(args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(polyc_bin());
    cmd.args(args);
    let (code, out, err) = run_with(cmd, Duration::from_secs(600)).expect("polyc runs");
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// A fresh directory of its own under the system's temporary directory.
fn temp_scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("polyc-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn read_report(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the report is written")).expect("the report is JSON")
}

fn report_entry<'a>(report: &'a Value, path: &str) -> &'a Value {
    let files = report["files"].as_array().expect("files");
    files.iter().find(|f| f["path"] == path).unwrap_or_else(|| panic!("{path} is not in the report"))
}

fn text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_corpus_is_compiled_as_by_the_single_file_mode_and_reported() {
    let tmp = temp_scratch("batch-corpus");
    let (out, report) = (tmp.join("out"), tmp.join("r.json"));
    let corpus_dir = root().join("corpus");
    let (status, stdout, err) = polyc(&[
        "batch",
        corpus_dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--schedule=identity",
        "--jobs",
        "2",
    ]);
    assert_eq!(status, Some(0), "{err}");
    let files = corpus();
    assert!(stdout.contains(&format!("files: {} (0 failed, 0 without a SCoP, copied)", files.len())), "{stdout}");

    let report = read_report(&report);
    assert_eq!(report["files"].as_array().unwrap().len(), files.len());
    assert_eq!(report["totals"]["files_failed"], 0);
    for file in &files {
        let relative = file.strip_prefix(&corpus_dir).unwrap();
        assert!(out.join(relative).is_file(), "no output for {}", relative.display());
        let entry = report_entry(&report, relative.to_str().unwrap());
        assert_eq!(entry["status"], "ok", "{entry}");
        let scops = entry["scops"].as_array().expect("scops");
        assert!(!scops.is_empty(), "every corpus file has a SCoP: {entry}");
        assert!(scops.iter().all(|s| s["line"].as_u64().is_some() && s["status"].is_string()), "{entry}");
    }

    for name in ["gemm.c", "shape_multiscop.c", "jacobi-2d.c"] {
        let (status, single, err) = polyc(&[corpus_dir.join(name).to_str().unwrap(), "--schedule=identity"]);
        assert_eq!(status, Some(0), "{err}");
        assert_eq!(text(&out.join(name)), single, "{name}: batch and single-file outputs differ");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Bytes polyc cannot read as text: one that is not UTF-8, after a
/// character of each block of private-use characters it could read it as
/// (`frontend::encoding`).
fn undecodable() -> Vec<u8> {
    let blocks = (0..512).filter_map(|k| char::from_u32(0xF_0000 + 256 * k));
    let mut bytes = format!("/* {} */", blocks.collect::<String>()).into_bytes();
    bytes.push(0xff);
    bytes
}

#[test]
fn an_unreadable_file_is_recorded_and_the_others_are_still_written() {
    let tmp = temp_scratch("batch-unparsable");
    let (input, out, report) = (tmp.join("in"), tmp.join("out"), tmp.join("r.json"));
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("bad.c"), undecodable()).unwrap();
    std::fs::copy(root().join("tests/unparsable.c"), input.join("syntax.c")).unwrap();
    std::fs::copy(root().join("corpus/gemm.c"), input.join("sub/good.c")).unwrap();
    let (status, stdout, err) = polyc(&[
        "batch",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--schedule=identity",
    ]);
    assert_eq!(status, Some(3), "{stdout}{err}");
    assert!(out.join("sub/good.c").is_file(), "the good file is written");
    assert!(!out.join("bad.c").exists(), "nothing is written for the bad file");
    assert!(stdout.contains("failed: bad.c:"), "{stdout}");
    let syntax = std::fs::read(out.join("syntax.c")).expect("a file that does not parse is copied");
    assert_eq!(syntax, std::fs::read(input.join("syntax.c")).unwrap());
    assert!(stdout.contains("1 without a SCoP"), "{stdout}");

    let report = read_report(&report);
    let bad = report_entry(&report, "bad.c");
    assert_eq!(bad["status"], "error");
    assert!(bad["error"].as_str().is_some_and(|e| e.contains("not UTF-8")), "{bad}");
    assert_eq!(bad["diagnostics"], serde_json::json!(["E0002"]));
    let copied = report_entry(&report, "syntax.c");
    assert_eq!(copied["status"], "ok");
    assert_eq!(copied["diagnostics"], serde_json::json!(["P0016"]));
    assert_eq!(copied["scops"].as_array().map(Vec::len), Some(0));
    let good = report_entry(&report, "sub/good.c");
    assert_eq!(good["status"], "ok");
    assert_eq!(good["scops"].as_array().map(Vec::len), Some(1));
    assert_eq!(report["totals"]["files"], 3);
    assert_eq!(report["totals"]["files_failed"], 1);
    assert_eq!(report["totals"]["files_without_scop"], 1);
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn the_output_directory_cannot_be_the_input_directory() {
    let tmp = temp_scratch("batch-same-dir");
    std::fs::copy(root().join("corpus/gemm.c"), tmp.join("gemm.c")).unwrap();
    let before = text(&tmp.join("gemm.c"));
    let (status, _, err) = polyc(&["batch", tmp.to_str().unwrap(), "-o", tmp.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{err}");
    assert_eq!(text(&tmp.join("gemm.c")), before);
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 1, "nothing is written");
    let _ = std::fs::remove_dir_all(&tmp);
}
