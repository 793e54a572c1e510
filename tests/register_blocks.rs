//! Register blocks in the default mode: the contractions' rows jammed by
//! 8 around their reduction jammed by 4, the block's elements on locals
//! and stored once per row (gemm, trmm's full tiles, doitgen's parts), and
//! in a triangle each row's ragged rest after the block (syrk, covariance).

use crate::transforms::{applied, compile_default, corpus_text, optimising_with_tile_sizes, scop_lines};

#[test]
fn gemm_s_rows_around_its_jammed_reduction_form_a_register_block() {
    // Past the first tile of k, rows i are jammed by 8 around k jammed by
    // 4: 32 updates per vector of j on eight locals, each B[k + u][j]
    // read by eight rows.
    let outcome = compile_default("gemm");
    let lines = scop_lines(&outcome.output);
    // The first tile of k also scales C by beta, in a block of its own.
    let block = (0..lines.len() - 1)
        .find(|&p| {
            lines[p..p + 2]
                == ["__typeof__(C[i + 7][j]) polyc_C_7 = C[i + 7][j];", "polyc_C += alpha * polyc_A * B[k][j];"]
        })
        .expect("eight rows of C on locals");
    assert_eq!(lines[block + 2], "polyc_C_1 += alpha * polyc_A_1 * B[k][j];", "rows not side by side");
    assert_eq!(lines[block + 32], "polyc_C_7 += alpha * polyc_A_31 * B[k + 3][j];", "not 8 x 4");
    assert_eq!(lines[block + 40], "C[i + 7][j] = polyc_C_7;", "C not stored once per row");
    assert!(lines[..block].iter().any(|l| l.starts_with("for (; i <= i_end - 7; i += 8)")), "rows not jammed");
}

#[test]
fn syrk_reads_a_transposed_copy_and_blocks_its_triangle_s_rows_with_their_ragged_ends() {
    // `C[i][j] += alpha * A[i][k] * A[j][k]` with `j <= i`: A is read from
    // a transposed copy, so that j walks rows; rows i are jammed by 8
    // around k jammed by 4 over the first row's j, each other row then
    // runs its own last j (past i, up to i + u) after the block. The
    // sizes polyc would choose are given, so that the product keeps its
    // tiles rather than run on packed panels.
    let options = optimising_with_tile_sizes(&[32, 32, 256]);
    let outcome = polyc::driver::compile(corpus_text("syrk"), &options).expect("syrk compiles");
    let lines = scop_lines(&outcome.output);
    assert!(lines.iter().any(|l| l.starts_with("/* polyc: A read from a transposed copy, tiled")));
    assert!(lines.contains(&"polyc_A_t[A_i1][A_i0] = A[A_i0][A_i1];"), "no transposed copy");
    let block = register_block(&lines, "C", "polyc_C_7 += alpha * polyc_polyc_A_t_31 * polyc_A_t[k + 3][j];");
    let rests: Vec<[String; 2]> = (1..8)
        .map(|u| {
            let end = format!("const int j_end = polyc_min(i + {u}, 256 * c3 + 255);");
            [end, "for (int j = polyc_max(256 * c3, i + 1); j <= j_end; j++) {".to_string()]
        })
        .collect();
    assert_rests_in_order(&lines[block..], &rests);
}

#[test]
fn trmm_s_full_tiles_keep_a_block_of_b_in_registers() {
    // `B[i][j] += A[k][i] * B[k][j]` with `i < k`: the points run `i, k, j`,
    // `k` jammed by 4 everywhere; off the diagonal (`c3 < c2`), rows `i`
    // are jammed by 8 around it, their elements of `B` on locals although
    // the statement reads `B` too: no row it reads there is one it writes.
    let outcome = compile_default("trmm");
    let lines = scop_lines(&outcome.output);
    let block = register_block(&lines, "B", "polyc_B_7 += polyc_A_31 * B[k + 3][j];");
    assert!(lines[..block].contains(&"for (int c3 = 0; c3 < c2; c3++)"), "the full tiles are not apart");
    assert_eq!(lines[block + 40], "B[i + 7][j] = polyc_B_7;", "B not stored once per row");
    // On the diagonal, after the full tiles, rows read rows the tile
    // writes: one row at a time, its sum over four k in a row.
    let diagonal =
        block + lines[block..].iter().position(|l| *l == "int k = i + 1;").expect("the diagonal's k from i + 1");
    assert!(lines[diagonal..].contains(&"B[i][j] += polyc_A_3 * B[k + 3][j];"), "k not jammed on the diagonal");
}

#[test]
fn covariance_blocks_its_triangle_s_rows_with_their_ragged_starts() {
    // `cov[i][j] += data[k][i] * data[k][j]` with `j >= i`: rows i jammed by
    // 8 around k jammed by 4 over the last row's j (from i + 7), each row
    // then runs its own first j (from i + u, up to i + 6) on its own.
    let outcome = compile_default("covariance");
    let lines = scop_lines(&outcome.output);
    let block = register_block(&lines, "cov", "polyc_cov_7 += polyc_data_31 * data[k + 3][j];");
    let shared = "for (int j = polyc_max(256 * c3, i + 7); j <= j_end; j++) {";
    assert!(lines[..block].contains(&shared), "the block does not start at the last row's j");
    let rests: Vec<[String; 2]> = (0..7)
        .map(|u| {
            let i = if u == 0 { "i".to_string() } else { format!("i + {u}") };
            let end = "const int j_end = polyc_min(256 * c3 + 255, polyc_min(M - 1, i + 6));".to_string();
            [end, format!("for (int j = polyc_max({i}, 256 * c3); j <= j_end; j++) {{")]
        })
        .collect();
    assert_rests_in_order(&lines[block..], &rests);
}

#[test]
fn doitgen_s_rows_of_q_block_registers_part_by_part() {
    // `sum` is expanded over q, which rows r share: inside a tile, q runs
    // innermost of the points, so that eight rows of q set their sums, add
    // to them (s jammed by 4, 32 updates per vector of p) and store them,
    // each part for all eight rows.
    let outcome = compile_default("doitgen");
    assert!(applied(&outcome).contains(&"tile-points-for-registers"), "{:?}", applied(&outcome));
    let lines = scop_lines(&outcome.output);
    let rows = lines.iter().position(|l| *l == "for (; c3 <= c3_end - 7; c3 += 8) {").expect("rows of q not jammed");
    let set = lines[rows..].iter().position(|l| *l == "polyc_polyc_sum_7 = 0.0;").expect("sums not set") + rows;
    let load = "__typeof__(polyc_sum[c3 + 6][p]) polyc_polyc_sum_7 = polyc_sum[c3 + 6][p];";
    let block = lines[set..].iter().position(|l| *l == load).expect("eight sums on locals") + set;
    assert_eq!(lines[block + 32], "polyc_polyc_sum_7 += polyc_A_31 * C4[s + 3][p];", "not 8 x 4");
    let store = lines[block..].iter().position(|l| *l == "A[r][c3 + 6][p] = polyc_sum[c3 + 6][p];");
    assert!(store.is_some(), "eight rows not stored after the sums");
}

/// The line where eight rows of `array` are loaded onto locals in a
/// register block of 8 rows by 4 copies of `k`, whose 32nd update is `last`.
fn register_block(lines: &[&str], array: &str, last: &str) -> usize {
    let load = format!("__typeof__({array}[i + 7][j]) polyc_{array}_7 = {array}[i + 7][j];");
    let block = lines.iter().position(|l| *l == load).expect("eight rows on locals");
    assert!(lines[..block].iter().any(|l| l.starts_with("for (; i <= i_end - 7; i += 8)")), "rows not jammed");
    assert_eq!(lines[block + 32], last, "not 8 x 4");
    block
}

/// Each row's rest after a register block: its bound, then its loop seven
/// lines further, one row after the other.
fn assert_rests_in_order(lines: &[&str], rests: &[[String; 2]]) {
    let mut from = 0;
    for [end, head] in rests {
        let found = (from..lines.len().saturating_sub(7)).find(|&p| lines[p] == end && lines[p + 7] == head);
        from = 1 + found.unwrap_or_else(|| panic!("no rest `{end}` ... `{head}` after line {from}"));
    }
}
