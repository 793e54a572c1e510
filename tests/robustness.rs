//! polyc never panics and never hangs: every corpus file cut short at many
//! points, garbage, and adversarial SCoPs. Each run is a separate process
//! with a time limit; the only acceptable outcomes are a result (exit 0)
//! or a diagnosed error (exit 3), never a crash.

mod common;
use common::*;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

fn survives(input: &PathBuf) -> Result<(), String> {
    let mut cmd = Command::new(polyc_bin());
    cmd.arg(input).arg("-o").arg("-").arg("--isl-budget").arg("2000000");
    let (code, _, err) = run_with(cmd, Duration::from_secs(60)).map_err(|e| format!("{}: {e}", input.display()))?;
    let err = String::from_utf8_lossy(&err);
    match code {
        Some(0) | Some(3) if !err.contains("panicked") => Ok(()),
        other => Err(format!("{}: exit {other:?}\n{err}", input.display())),
    }
}

#[test]
fn truncated_corpus_files_never_crash() {
    let dir = scratch("robust-truncated");
    let mut inputs = Vec::new();
    for path in corpus() {
        let bytes = std::fs::read(&path).unwrap();
        for k in 1..=12 {
            let cut = bytes.len() * k / 13;
            let mut end = cut;
            while std::str::from_utf8(&bytes[..end]).is_err() {
                end -= 1;
            }
            let p = dir.join(format!("{}-{k}.c", stem(&path)));
            std::fs::write(&p, &bytes[..end]).unwrap();
            inputs.push(p);
        }
    }
    let failures = on_workers(&inputs, survives);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn nest(depth: usize) -> String {
    let mut s = String::new();
    for d in 0..depth {
        s.push_str(&format!("for (int i{d} = 0; i{d} < N; i{d}++)\n"));
    }
    let idx: Vec<String> = (0..depth).map(|d| format!("i{d}")).collect();
    s.push_str(&format!("A[0] += {};\n", idx.join(" + ")));
    s
}

#[test]
fn garbage_and_adversarial_inputs_never_crash_or_hang() {
    let dir = scratch("robust-adversarial");
    let wrap = |body: &str| {
        format!("double A[10], B[10][10];\nvoid f(int N, int M) {{\n#pragma scop\n{body}\n#pragma endscop\n}}\n")
    };
    let cases: Vec<(&str, String)> = vec![
        ("garbage", "\u{1}\u{2}}}{{ ;;; #pragma scop )))".to_string()),
        ("empty_file", String::new()),
        ("only_pragmas", "#pragma scop\n#pragma endscop\n".to_string()),
        ("huge_constants", wrap("for (int i = 0; i < 1099511627775; i++) A[0] += i;")),
        ("huge_but_fine", wrap("for (int i = 0; i < 1000000000; i += 999999937) A[0] += i;")),
        ("deep_nest", wrap(&nest(12))),
        ("empty_scop", wrap("")),
        ("nested_pragmas", wrap("for (int i = 0; i < N; i++) {\n#pragma scop\nA[0] = i;\n#pragma endscop\n}")),
        ("unbounded", wrap("for (int i = 0; i >= 0; i++) A[0] += i;")),
        ("many_mods", wrap("for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) if ((i + j) % 7 == 3 || (i - j) % 5 == 1 || (2 * i + j) % 11 != 4) B[i % 10][j % 10] += 1;")),
        ("min_max_chain", wrap("for (int i = 0; i < N; i++) for (int j = (i > 3 ? (i > 7 ? i : 7) : 3); j < (N < M ? (N < 2*i ? N : 2*i) : M); j++) A[j % 10] += 1;")),
        ("coupled_bounds", wrap("for (int i = 0; i < N; i++) for (int j = i; j < N - i; j += 3) for (int k = j - i; k <= i + j; k += 2) A[0] += k;")),
    ];
    let mut inputs = Vec::new();
    for (name, text) in cases {
        let p = dir.join(format!("{name}.c"));
        std::fs::write(&p, text).unwrap();
        inputs.push(p);
    }
    let failures = on_workers(&inputs, survives);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
