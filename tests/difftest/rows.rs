//! Random programs on tables of row pointers (`double **`): a kernel
//! taking two tables `A` (written) and `B` (read, sometimes written) and
//! a size `n`, its SCoP random affine loop nests reading and writing
//! through the tables, called from `main` with rows laid out in four
//! ways over one buffer (ascending and apart, descending with `B`'s rows
//! one element off `A`'s, overlapping: row `r` starts `step` elements
//! after row `r - 1`, `step` random and sometimes shorter than a row,
//! and `B` the same table as `A`), a checksum of the buffer printed after
//! each call, then once with `n = 0` and NULL tables. Every subscript
//! stays within `0..=n + 1`, the rows and columns each table has.

use super::gen::{Rng, MAXP};
use std::fmt::Write;

/// A generated program and its default `n`.
pub struct RowsProgram {
    pub text: String,
    pub defaults: Vec<i64>,
}

const ITERS: [&str; 3] = ["i", "j", "k"];

/// One loop: its iterator, and its header as C.
struct Loop {
    iter: &'static str,
    header: String,
}

/// The program of `seed`.
pub fn generate(seed: u64) -> RowsProgram {
    let mut rng = Rng::new(seed ^ 0x726F_7773);
    let b_written = rng.chance(30);
    let mut scop = String::new();
    for _ in 0..rng.range(1, 2) {
        nest(&mut rng, b_written, &mut scop);
    }
    let step = rng.range(1, 6);
    let n = rng.range(3, MAXP);
    RowsProgram { text: program(&scop, step), defaults: vec![n] }
}

/// A loop nest 2 or 3 deep, each loop from 1 to `n` (up, down, or from
/// the loop outside it), one or two statements innermost and sometimes
/// one between.
fn nest(rng: &mut Rng, b_written: bool, out: &mut String) {
    let depth = rng.range(2, 3) as usize;
    let mut loops: Vec<Loop> = Vec::new();
    for (d, iter) in ITERS.iter().copied().enumerate().take(depth) {
        let header = match (rng.below(4), d) {
            (0, _) => format!("for ({iter} = n; {iter} >= 1; {iter}--)"),
            (1, d) if d > 0 => format!("for ({iter} = {}; {iter} <= n; {iter}++)", loops[d - 1].iter),
            _ => format!("for ({iter} = 1; {iter} <= n; {iter}++)"),
        };
        loops.push(Loop { iter, header });
    }
    let middle = if rng.chance(25) { Some(rng.below(depth - 1)) } else { None };
    let indent = |d: usize| "  ".repeat(d + 1);
    for (d, l) in loops.iter().enumerate() {
        let _ = writeln!(out, "{}{} {{", indent(d), l.header);
        if middle == Some(d) {
            let _ = writeln!(out, "{}{}", indent(d + 1), statement(rng, &loops[..=d], b_written));
        }
    }
    for _ in 0..rng.range(1, 2) {
        let _ = writeln!(out, "{}{}", indent(depth), statement(rng, &loops, b_written));
    }
    for d in (0..depth).rev() {
        let _ = writeln!(out, "{}}}", indent(d));
    }
}

/// `T[r][c] = ...` over the iterators of `loops`, reading one to three
/// cells; weights adding up to less than one keep values bounded.
fn statement(rng: &mut Rng, loops: &[Loop], b_written: bool) -> String {
    let target = if b_written && rng.chance(40) { "B" } else { "A" };
    let mut text = format!("{} = ", cell(rng, target, loops));
    for k in 0..rng.range(1, 3) {
        let table = if rng.chance(50) { "A" } else { "B" };
        let weight = rng.pick(&["0.3125", "0.25", "0.125"]);
        let sign = if k > 0 { rng.pick(&[" + ", " - "]) } else { "" };
        let _ = write!(text, "{sign}{weight} * {}", cell(rng, table, loops));
    }
    text.push_str(" + 1.0;");
    text
}

/// `T[x + a][y + b]`: `x`, `y` iterators of `loops`, `a`, `b` in
/// `-1..=1` (so within `0..=n + 1`).
fn cell(rng: &mut Rng, table: &str, loops: &[Loop]) -> String {
    let subscript = |rng: &mut Rng| {
        let iter = loops[rng.below(loops.len())].iter;
        match rng.range(-1, 1) {
            0 => iter.to_string(),
            c if c < 0 => format!("{iter} - 1"),
            _ => format!("{iter} + 1"),
        }
    };
    let (row, column) = (subscript(rng), subscript(rng));
    format!("{table}[{row}][{column}]")
}

/// The whole program around the SCoP `scop`; `step` is the overlapping
/// layout's distance between rows.
fn program(scop: &str, step: i64) -> String {
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>

static void kernel(double **A, double **B, int n)
{{
  int i, j, k;
#pragma scop
{scop}#pragma endscop
}}

/* Rows of `t` at `base`, `stride` elements apart, the last first when
   `descending`. */
static void lay_out(double **t, double *base, int rows, long stride, int descending)
{{
  for (int r = 0; r < rows; r++)
    t[r] = base + (descending ? rows - 1 - r : r) * stride;
}}

int main(int argc, char **argv)
{{
  int n = argc > 1 ? atoi(argv[1]) : 8;
  if (n < 0 || n > {MAXP})
    n = {MAXP};
  int rows = n + 2;
  long width = n + 2, half = rows * (width + 1) + 2, len = 2 * half;
  double *buf = malloc(sizeof(double) * len);
  double **A = malloc(sizeof(double *) * rows), **B = malloc(sizeof(double *) * rows);
  for (int layout = 0; layout < 4; layout++) {{
    for (long e = 0; e < len; e++)
      buf[e] = (double)((e * 7 + layout) % 11) / 8;
    if (layout == 0) {{
      lay_out(A, buf, rows, width + 1, 0);
      lay_out(B, buf + half, rows, width + 1, 0);
    }} else if (layout == 1) {{
      lay_out(A, buf + 1, rows, width, 1);
      lay_out(B, buf, rows, width, 1);
    }} else if (layout == 2) {{
      lay_out(A, buf, rows, {step}, 0);
      lay_out(B, buf + half, rows, {step}, 0);
    }} else {{
      lay_out(A, buf, rows, width, 0);
      lay_out(B, buf, rows, width, 0);
    }}
    kernel(A, B, n);
    double sum = 0;
    for (long e = 0; e < len; e++)
      sum += buf[e] * (1 + e % 13);
    printf("layout %d: %.17g\n", layout, sum);
  }}
  kernel(0, 0, 0);
  printf("no rows\n");
  return 0;
}}
"#
    )
}
