//! Exact dataflow through data-dependent conditions (seed 001, sections
//! 4-6): writes under filters that together certainly write an element at
//! an instance of their loops (the `then` and the `else` branch of one
//! `if`) hide the earlier writes of it from later reads, whose sources
//! stay the real statements; a write under a filter with no
//! complementary write hides nothing.

use polyc::deps;
use polyc::driver;
use polyc::frontend::Source;
use polyc::model::isl::Map;
use polyc::model::Scop;
use polyc::options::{Emit, Options};

/// The flow of the first SCoP of `source` from statement `from` to
/// statement `to` (`None`: no dependence).
fn flow(source: &str, from: usize, to: usize) -> Option<Map> {
    let source = Source::parse(source.to_string()).unwrap();
    let scop = Scop::build(source.scops().scops.remove(0)).unwrap();
    let deps = deps::analyse(&scop).unwrap();
    let pair = (format!("S{from}"), format!("S{to}"));
    deps.flow.maps().unwrap().into_iter().find(|m| (m.domain_name().unwrap(), m.range_name().unwrap()) == pair)
}

/// Whether the flow `from -> to` of `source` is exactly `expected` (isl
/// notation, the SCoP's parameters as `p0, p1, ..` in their order).
fn assert_flow(source: &str, from: usize, to: usize, expected: &str) {
    let found = flow(source, from, to).unwrap_or_else(|| panic!("no flow S{from} -> S{to}"));
    let expected = Map::parse(expected).unwrap();
    let text = found.to_text().unwrap();
    assert!(
        found.is_subset_of(&expected).unwrap() && expected.is_subset_of(&found).unwrap(),
        "S{from} -> S{to}: {text}\nexpected {}",
        expected.to_text().unwrap()
    );
}

/// Seed 001's Listing 2 (a receiver that detects, then decodes for a
/// while), as a loop over samples with the state in one scalar: the test
/// at step `k` reads the state the step before left, written by the
/// detection (`then`) or by the decoding (`else`), whichever ran; one of
/// them certainly did, so no older write reaches it (the paper's result:
/// sources in the previous iteration only, none at the first).
const RECEIVER: &str = "void receiver(int n, double in[n], double out[n]) {
  double mode = 0;
#pragma scop
  for (int k = 0; k < n; k++) {
    if (mode <= 0)
      mode = in[k] * 3;
    else {
      out[k] = in[k] * mode;
      mode = mode - 1;
    }
  }
#pragma endscop
}
";

#[test]
fn the_state_read_comes_from_the_step_before_only() {
    // S0 evaluates the condition, S1 detects, S2 decodes, S3 counts down.
    assert_flow(RECEIVER, 1, 0, "[p0] -> { S1[k] -> S0[k + 1] : 0 <= k <= p0 - 2 }");
    assert_flow(RECEIVER, 3, 0, "[p0] -> { S3[k] -> S0[k + 1] : 0 <= k <= p0 - 2 }");
    // The decoding's reads of the state: the same sources (not the
    // detection of the same step, which does not run when it does).
    assert_flow(RECEIVER, 1, 2, "[p0] -> { S1[k] -> S2[k + 1] : 0 <= k <= p0 - 2 }");
    assert_flow(RECEIVER, 3, 3, "[p0] -> { S3[k] -> S3[k + 1] : 0 <= k <= p0 - 2 }");
}

/// `--emit=deps` says which filter a flow from a conditional write
/// depends on.
#[test]
fn the_report_names_the_filter_of_a_conditional_source() {
    let outcome = driver::compile(RECEIVER.to_string(), &Options { emit: Emit::Deps, ..Options::default() }).unwrap();
    let line = |prefix: &str| outcome.output.lines().find(|l| l.trim_start().starts_with(prefix)).map(str::to_owned);
    let detect = line("S1 -> S0:").unwrap_or_else(|| panic!("{}", outcome.output));
    assert!(detect.ends_with(" under polyc_c0"), "{detect}");
    let count = line("S3 -> S0:").unwrap_or_else(|| panic!("{}", outcome.output));
    assert!(count.ends_with(" under !polyc_c0"), "{count}");
    let evaluation = line("S0 -> S1:").unwrap_or_else(|| panic!("{}", outcome.output));
    assert!(!evaluation.contains("under"), "{evaluation}");
}

/// Jacobi sweeps where a mask pins some cells (corpus/dynamic/
/// masked_stencil.c): whichever branch ran, the copy-back at step `t`
/// reads the value written at step `t`, not at any earlier step.
#[test]
fn a_masked_update_feeds_the_copy_of_its_own_step() {
    let source = "void sweep(int t_max, int n, double A[n][n], double B[n][n], int pinned[n][n]) {
#pragma scop
  for (int t = 0; t < t_max; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        if (pinned[i][j])
          B[i][j] = A[i][j];
        else
          B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}
";
    let same_step = |s: usize| {
        format!("[p0, p1] -> {{ S{s}[t, i, j] -> S3[t, i, j] : 0 <= t < p0 and 0 < i <= p1 - 2 and 0 < j <= p1 - 2 }}")
    };
    assert_flow(source, 1, 3, &same_step(1));
    assert_flow(source, 2, 3, &same_step(2));
}

/// Three branches (`if`, `else if`, `else`): the second condition is
/// evaluated under the first's `else`; every case writes the element.
#[test]
fn an_else_if_chain_covers_every_case() {
    let source = "void clip(int n, double img[n], double out[n], double lo, double hi) {
#pragma scop
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < n; i++) {
      if (img[i] > hi)
        out[i] = hi;
      else if (img[i] < lo)
        out[i] = lo;
      else
        out[i] = img[i];
      img[i] = 0.5 * (img[i] + out[i]);
    }
#pragma endscop
}
";
    // S0 and S2 evaluate the conditions; S1, S3, S4 write out; S5 reads it.
    for writer in [1, 3, 4] {
        let expected = format!("[p0] -> {{ S{writer}[t, i] -> S5[t, i] : 0 <= t <= 3 and 0 <= i < p0 }}");
        assert_flow(source, writer, 5, &expected);
    }
}

/// Soundness: a write under a condition with no complementary write (or
/// whose complement writes another element) hides nothing: the value
/// read can still come from any earlier step. An analysis that took the
/// branches together for certain would drop those flows, and the
/// scheduler could then reorder steps.
#[test]
fn a_write_without_its_complement_hides_nothing() {
    let one_branch = "void f(int n, double A[n], double x[n], double B[8][n]) {
#pragma scop
  for (int t = 0; t < 8; t++)
    for (int i = 0; i < n; i++) {
      if (A[i] > t)
        x[i] = A[i];
      B[t][i] = x[i];
    }
#pragma endscop
}
";
    assert_flow(one_branch, 1, 2, "[p0] -> { S1[t', i] -> S2[t, i] : 0 <= t' <= t <= 7 and 0 <= i < p0 }");
    let other_element = "void f(int n, double A[n], double x[n + 1], double B[8][n]) {
#pragma scop
  for (int t = 0; t < 8; t++)
    for (int i = 0; i < n; i++) {
      if (A[i] > t)
        x[i] = A[i];
      else
        x[i + 1] = A[i];
      B[t][i] = x[i];
    }
#pragma endscop
}
";
    // x[i] is written by the `then` at (t, i) and the `else` at (t, i - 1):
    // neither instance certainly writes it, so flows reach back over steps.
    assert_flow(other_element, 1, 3, "[p0] -> { S1[t', i] -> S3[t, i] : 0 <= t' <= t <= 7 and 0 <= i < p0 }");
    let back = flow(other_element, 2, 3).expect("flow from the else branch");
    let older =
        Map::parse("[p0] -> { S2[t', i'] -> S3[t, i] : i' = i - 1 and 0 <= t' < t <= 7 and 1 <= i < p0 }").unwrap();
    assert!(older.is_subset_of(&back).unwrap(), "{}", back.to_text().unwrap());
}

/// Soundness: an unconditional write between two `if`s that write the
/// same element (one of them on both branches, the other on one) is the
/// source of a later read when the second condition fails; the first
/// pair's certain write must not hide it.
#[test]
fn a_certain_pair_does_not_hide_a_later_plain_write() {
    let source = "void f(int n, double A[n], double x[n], double B[8][n]) {
#pragma scop
  for (int t = 0; t < 8; t++)
    for (int i = 0; i < n; i++) {
      if (A[i] > t)
        x[i] = A[i];
      else
        x[i] = -A[i];
      x[i] = x[i] + 1;
      if (A[i] > 2 * t)
        x[i] = 0;
      B[t][i] = x[i];
    }
#pragma endscop
}
";
    // S0 c0, S1 then, S2 else, S3 plain write, S4 c1, S5 then, S6 the read.
    let same = "[p0] -> { S3[t, i] -> S6[t, i] : 0 <= t <= 7 and 0 <= i < p0 }";
    assert_flow(source, 3, 6, same);
    assert_flow(source, 5, 6, "[p0] -> { S5[t, i] -> S6[t, i] : 0 <= t <= 7 and 0 <= i < p0 }");
    assert!(flow(source, 1, 6).is_none() && flow(source, 2, 6).is_none(), "the plain write hides the first if's");
}
