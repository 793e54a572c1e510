//! A file that is not UTF-8 (Latin-1 bytes, as gcc accepts them) is
//! compiled like any other: every byte outside the SCoPs is copied as it
//! is, the SCoPs are transformed, and a byte in a SCoP's own text comes
//! out as the same byte wherever that text is kept.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A stencil between Latin-1 bytes: in comments before and after the
/// SCoP and in a string literal the program prints. `@INSIDE@` is
/// replaced by text inside the SCoP's statement.
const PROGRAM: &[u8] = b"/* Latin-1 avant la r\xe9gion : caf\xe9 */
#include <stdio.h>
#define N 64
static double A[N][N], B[N][N];
static const char *name = \"\xe9t\xe9 \xe0 Orl\xe9\x61ns\";
int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      B[i][j] = (i * 7 + j) % 11;
#pragma scop
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      A[i][j] = 0.25 @INSIDE@* (B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1]);
#pragma endscop
  double s = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      s += A[i][j] * (i + 2 * j);
  printf(\"%s %.17g\\n\", name, s);
  return 0;
}
/* apr\xe8s : \xff\xfe */
";

fn program(inside: &[u8]) -> Vec<u8> {
    let at = PROGRAM.windows(8).position(|w| w == b"@INSIDE@").expect("a placeholder");
    [&PROGRAM[..at], inside, &PROGRAM[at + 8..]].concat()
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack.windows(needle.len()).position(|w| w == needle).expect("present")
}

/// What the program `binary` prints on `threads` threads.
fn prints(binary: &Path, threads: &str) -> Vec<u8> {
    let mut cmd = Command::new(binary);
    cmd.env("OMP_NUM_THREADS", threads);
    match run_with(cmd, Duration::from_secs(60)) {
        Ok((Some(0), out, _)) => out,
        other => panic!("{}: {other:?}", binary.display()),
    }
}

/// polyc's output for `source` (written to `dir`), after checking that
/// it exits 0 without a warning, keeps the bytes around the SCoP, and
/// prints what the source prints on one and two threads.
fn compiled(dir: &Path, source: &[u8]) -> Vec<u8> {
    let (input, output) = (dir.join("latin1.c"), dir.join("latin1.polyc.c"));
    std::fs::write(&input, source).unwrap();
    let mut cmd = Command::new(polyc_bin());
    cmd.arg(&input).arg("-o").arg(&output);
    let (code, _, err) = run_with(cmd, Duration::from_secs(60)).expect("polyc runs");
    let err = String::from_utf8_lossy(&err);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
    let out = std::fs::read(&output).unwrap();
    let (start, end) = (find(source, b"#pragma scop"), find(source, b"#pragma endscop"));
    let tail = &source[end..];
    assert_eq!(&out[..start], &source[..start], "the bytes before the SCoP");
    assert!(out.ends_with(tail), "the bytes after the SCoP");
    let region = &out[start..out.len() - tail.len()];
    assert!(find(region, b"#pragma omp parallel for") > 0, "the SCoP is transformed");
    gcc(&input, &dir.join("source"), &["-O3", "-march=native", "-fopenmp"]).unwrap();
    gcc(&output, &dir.join("polyc"), &["-O3", "-march=native", "-fopenmp"]).unwrap();
    let expected = prints(&dir.join("source"), "1");
    assert!(expected.starts_with(b"\xe9t\xe9 \xe0 Orl\xe9\x61ns "), "{expected:?}");
    for threads in ["1", "2"] {
        assert_eq!(prints(&dir.join("polyc"), threads), expected, "{threads} threads");
    }
    out
}

#[test]
fn latin1_around_a_scop_is_copied_and_the_scop_transformed() {
    compiled(&scratch("encoding-around"), &program(b""));
}

#[test]
fn latin1_inside_a_scop_comes_out_as_the_same_bytes() {
    let comment = b"/* moyenne \xe0 4 voisins */ ";
    let out = compiled(&scratch("encoding-inside"), &program(comment));
    // The statement's text, comment included, is printed in the new loops
    // and in the source text kept beside them.
    let copies = out.windows(comment.len()).filter(|w| w == comment).count();
    assert!(copies >= 2, "{}", String::from_utf8_lossy(&out));
    assert!(std::str::from_utf8(&out).is_err(), "no byte became a character");
}
