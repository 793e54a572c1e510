//! The command line: diagnostics with codes and positions, exit codes,
//! nothing written on a parse error, atomic output, the input protected.

use crate::common;
use common::*;
use std::process::Command;
use std::time::Duration;

fn polyc(args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(polyc_bin());
    cmd.args(args);
    let (code, out, err) = run_with(cmd, Duration::from_secs(60)).expect("polyc runs");
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

fn expected_code(text: &str) -> String {
    let start = text.find("expect: ").expect("bad inputs name their code") + 8;
    text[start..start + 5].to_string()
}

#[test]
fn each_rejected_region_gets_its_code_and_position_and_is_kept() {
    let dir = scratch("cli-bad");
    let mut bad: Vec<_> = std::fs::read_dir(root().join("tests/bad")).unwrap().flatten().map(|e| e.path()).collect();
    bad.sort();
    assert!(bad.len() >= 10);
    for path in bad {
        let text = std::fs::read_to_string(&path).unwrap();
        let code = expected_code(&text);
        let out = dir.join(path.file_name().unwrap());
        let (status, _, err) = polyc(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(status, Some(0), "{}: {err}", path.display());
        assert!(err.contains(&format!("warning[{code}]")), "{}: expected {code}, got:\n{err}", path.display());
        let position = format!("{}:", path.display());
        let line = err.lines().find(|l| l.starts_with(&position)).unwrap_or("");
        let fields: Vec<&str> = line.split(':').collect();
        assert!(
            fields.len() > 3 && fields[1].parse::<usize>().is_ok() && fields[2].parse::<usize>().is_ok(),
            "no file:line:col in {err}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text, "{}: a rejected region must be kept", path.display());
        let (strict, _, _) = polyc(&[path.to_str().unwrap(), "-o", out.to_str().unwrap(), "--strict"]);
        assert_eq!(strict, Some(1), "{}: --strict must fail", path.display());
    }
}

#[test]
fn a_syntax_error_outside_every_scop_is_a_warning_and_the_file_is_copied() {
    let dir = scratch("cli-unparsable");
    let out = dir.join("out.c");
    let input = root().join("tests/unparsable.c");
    let (status, stdout, err) = polyc(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{err}");
    assert!(err.contains("warning[P0016]") && err.contains("unparsable.c:2:"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&input).unwrap(), "copied byte for byte");
    assert!(stdout.is_empty());
}

#[test]
fn a_file_of_any_bytes_is_copied_byte_for_byte() {
    let dir = scratch("cli-binary");
    let (input, out) = (dir.join("binary.c"), dir.join("out.c"));
    std::fs::write(&input, [0xffu8, 0xfe, 0x00, 0x41, 0xe9, b'\n']).unwrap();
    let (status, stdout, err) = polyc(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&input).unwrap());
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file may be left");
}

#[test]
fn the_input_is_never_overwritten_unless_asked() {
    let dir = scratch("cli-inplace");
    let input = dir.join("gemm.c");
    std::fs::copy(root().join("corpus/gemm.c"), &input).unwrap();
    let before = std::fs::read_to_string(&input).unwrap();
    let (status, _, err) = polyc(&[input.to_str().unwrap(), "-o", input.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{err}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), before);
    let (status, _, _) = polyc(&[input.to_str().unwrap(), "-o", input.to_str().unwrap(), "--in-place"]);
    assert_eq!(status, Some(0));
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, vec!["gemm.c".to_string()], "the atomic write leaves no temporary file");
}

#[test]
fn the_model_is_printed_in_isl_notation_and_as_json() {
    let gemm = root().join("corpus/gemm.c");
    let (status, text, _) = polyc(&[gemm.to_str().unwrap(), "--emit=scop"]);
    assert_eq!(status, Some(0));
    assert!(
        text.contains("domain:") && text.contains("schedule:") && text.contains("read:") && text.contains("write:")
    );
    let (status, json, _) = polyc(&[gemm.to_str().unwrap(), "--emit=scop-json"]);
    assert_eq!(status, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let stmts = v[0]["statements"].as_array().expect("statements");
    assert_eq!(stmts.len(), 2);
    assert!(stmts[1]["domain"].as_str().unwrap().contains("S1["));
    assert!(!stmts[1]["reads"].as_array().unwrap().is_empty());
}

#[test]
fn codes_are_explained() {
    let (status, out, _) = polyc(&["--explain", "P0002"]);
    assert_eq!(status, Some(0));
    assert!(out.starts_with("P0002: "));
    let (status, _, _) = polyc(&["--explain", "X9999"]);
    assert_eq!(status, Some(2));
}

#[test]
fn unroll_and_jam_is_on_by_default_and_can_be_set_or_turned_off() {
    let gemm = root().join("corpus/gemm.c");
    let gemm = gemm.to_str().expect("a UTF-8 path");
    let jammed_by = |args: &[&str]| {
        let (status, out, err) = polyc(&[&[gemm, "--emit", "c"], args].concat());
        assert_eq!(status, Some(0), "{err}");
        (2..=16).find(|f| out.contains(&format!("k += {f})"))).unwrap_or(1)
    };
    assert_eq!(jammed_by(&[]), 4);
    assert_eq!(jammed_by(&["--unroll-jam", "1"]), 1);
    assert_eq!(jammed_by(&["--unroll-jam", "3"]), 3);
    assert_eq!(jammed_by(&["--tile", "rect", "--simd"]), 1);
    assert_eq!(jammed_by(&["--tile", "rect", "--simd", "--unroll-jam"]), 4);
    let (status, _, err) = polyc(&[gemm, "--unroll-jam", "0"]);
    assert_eq!(status, Some(2));
    assert!(err.contains("unroll-and-jam factor 0 is out of range"), "{err}");
}

/// Each exit code `--help` documents is what polyc returns in the
/// situation it names, and nothing is written where it says so.
#[test]
fn the_exit_codes_are_those_the_help_documents() {
    let dir = scratch("cli-exit-codes");
    let out = dir.join("out.c");
    let out_arg = out.to_str().unwrap();
    let (_, help, _) = polyc(&["--help"]);
    let section = help.split("Exit codes:\n").nth(1).and_then(|s| s.split("\n\n").next()).unwrap_or("");
    // A code's line is `  N  what`; the lines after it that go on are indented further.
    let codes: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once("  ").map(|(code, _)| code))
        .filter(|code| !code.is_empty())
        .collect();
    // 5 is a bug in polyc, which no input is known to reach: the compile
    // thread's own test turns a panic into its message (driver::thread).
    assert_eq!(codes, ["0", "1", "2", "3", "4", "5"], "{help}");
    assert!(help.contains("  3  the input cannot be read, or a `multifor` in it cannot be compiled"), "{help}");
    let unparsable = root().join("tests/unparsable.c");
    let unparsable = unparsable.to_str().unwrap();
    // 0: text that does not parse is copied.
    assert_eq!(polyc(&[unparsable, "-o", out_arg]).0, Some(0));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(unparsable).unwrap());
    std::fs::remove_file(&out).unwrap();
    // 1: --strict and a warning, the output still written; a picture not drawn.
    assert_eq!(polyc(&[unparsable, "-o", out_arg, "--strict"]).0, Some(1));
    assert!(out.exists());
    std::fs::remove_file(&out).unwrap();
    assert_eq!(polyc(&[unparsable, "--emit=svg", "-o", out_arg]).0, Some(1));
    assert!(!out.exists());
    // 2: usage error.
    assert_eq!(polyc(&[unparsable, "--no-such-flag", "-o", out_arg]).0, Some(2));
    assert!(!out.exists());
    // 3: an input that cannot be read; a multifor that cannot be compiled.
    let missing = dir.join("missing.c");
    let (status, _, err) = polyc(&[missing.to_str().unwrap(), "-o", out_arg]);
    assert_eq!(status, Some(3), "{err}");
    assert!(err.contains("error[E0002]"), "{err}");
    let multifor = root().join("tests/multifor/grain_zero.c");
    assert_eq!(polyc(&[multifor.to_str().unwrap(), "-o", out_arg]).0, Some(3));
    assert!(!out.exists());
    // 4: an output that cannot be written.
    let (status, _, err) = polyc(&[unparsable, "-o", dir.to_str().unwrap()]);
    assert_eq!(status, Some(4), "{err}");
    assert!(err.contains("error[E0003]"), "{err}");
}

/// `--tile=diamond` on gemm (no time loop) falls back to what
/// `--tile=rect` does, and says what that is: gemm alone gets no tiles
/// (the output is the source), with `--simd` rectangular tiles.
#[test]
fn the_diamond_fallback_says_what_the_output_does() {
    let gemm = root().join("corpus/gemm.c");
    let gemm = gemm.to_str().unwrap();
    let source = std::fs::read_to_string(gemm).unwrap();
    for (flags, tiled) in [(&[][..], false), (&["--simd"][..], true)] {
        let (_, rect, _) = polyc(&[&[gemm, "--tile=rect"], flags].concat());
        let (status, diamond, err) = polyc(&[&[gemm, "--tile=diamond"], flags].concat());
        assert_eq!(status, Some(0), "{err}");
        assert_eq!(diamond, rect, "{flags:?}: the fallback is --tile=rect");
        let (_, schedule, _) = polyc(&[&[gemm, "--tile=rect", "--emit=schedule"], flags].concat());
        assert_eq!(schedule.contains("tile=rect"), tiled, "{schedule}");
        let says = if tiled {
            "tile=diamond not applied: a dependence stays within one iteration of the outer loop (one time step of \
             a statement), which forbids concurrent start; tiled with rectangles instead"
        } else {
            "tile=diamond not applied: a dependence stays within one iteration of the outer loop (one time step of \
             a statement), which forbids concurrent start; not tiled: rectangular tiles, tried instead, do not pay \
             here either (as with --tile=rect)"
        };
        assert!(err.contains(says), "{flags:?}: {err}");
        assert_eq!(diamond == source, !tiled && flags.is_empty(), "{flags:?}");
    }
}

/// Running out of the isl operation budget has its own code, P0022, in
/// planning (no transformation applied) and in modelling (the SCoP kept).
#[test]
fn an_isl_budget_that_runs_out_is_p0022() {
    let gemm = root().join("corpus/gemm.c");
    let gemm = gemm.to_str().unwrap();
    let source = std::fs::read_to_string(gemm).unwrap();
    for (budget, says) in [
        ("20000", "warning[P0022]: no transformation applied: planning ran out of 2000 isl operations"),
        ("1000", "warning[P0022]: SCoP kept unchanged: isl: maximal number of operations exceeded"),
    ] {
        let (status, out, err) = polyc(&[gemm, "--isl-budget", budget, "--time-budget", "0"]);
        assert_eq!(status, Some(0), "{err}");
        assert!(err.contains(says) && !err.contains("P0014") && !err.contains("P0011"), "{budget}: {err}");
        assert_eq!(out, source, "{budget}: the SCoP is kept as written");
    }
    let (status, explained, _) = polyc(&["--explain", "P0022"]);
    assert_eq!(status, Some(0));
    assert!(explained.starts_with("P0022: isl counts the operations") && explained.contains("--isl-budget"));
}
