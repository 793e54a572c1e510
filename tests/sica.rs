//! `--tile=sica`: SICA's equations on a fixed hardware description
//! (tests/hw/small.toml), what `--emit=tile-sizes` prints for gemm, the
//! tiled gemm printing what the source prints, and bad `--hw` files.

use crate::common;
use common::*;
use polyc::tile::hw::Hardware;
use polyc::tile::sica;
use std::process::Command;
use std::time::Duration;

fn small() -> std::path::PathBuf {
    root().join("tests/hw/small.toml")
}

fn polyc(args: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(polyc_bin());
    cmd.args(args);
    let (code, out, err) = run_with(cmd, Duration::from_secs(60)).expect("polyc runs");
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// By hand, for gemm's doubles (D = 8) and its two new elements per
/// iteration of `j` (`C[i][j]`, `B[k][j]`; `A[i][k]` stays put), on
/// 8 KiB of L1, 64 KiB of L2 and 256-bit registers:
/// CaSiEl = 8192 / 8 = 1024, ElPeRe = 32 / 8 = 4,
/// ItToBl = 0.9 * 1024 / 2 = 460.8, q_L1 = floor(115.2) * 4 = 460,
/// q_L2 = 64 / 8 = 8.
#[test]
fn the_equations_on_the_small_machine() {
    let hw = Hardware::from_file(&small()).expect("tests/hw/small.toml");
    let s = sica::l1_size(&hw, 0.9, 2, 8);
    assert_eq!((s.cache_elements, s.per_register, s.q_l1), (1024, 4, 460));
    assert!((s.iterations - 460.8).abs() < 1e-9);
    assert_eq!(sica::second_level(hw.l2_bytes, hw.l1_bytes), 8);
    // rho = 0.05: ItToBl = 25.6, q_L1 = floor(6.4) * 4 = 24.
    assert_eq!(sica::l1_size(&hw, 0.05, 2, 8).q_l1, 24);
}

#[test]
fn tile_sizes_of_gemm_are_the_equations() {
    let (gemm, hw) = (root().join("corpus/gemm.c"), small());
    let args = [gemm.to_str().unwrap(), "--emit=tile-sizes", "--tile=sica", "--hw", hw.to_str().unwrap()];
    let (code, out, err) = polyc(&args);
    assert_eq!(code, Some(0), "{err}");
    for expected in [
        "tile: sica, rho = 0.9",
        "L1 data 8192 B, L2 65536 B, cache line 64 B, SIMD register 32 B (256 bits)",
        "(1) E = 2 new elements per iteration (C, B), D = 8 bytes",
        "(2) CaSiEl = L1 / D = 1024",
        "(3) ElPeRe = R / D = 4",
        "(5) ItToBl = rho * CaSiEl / E = 0.9 * 1024 / 2 = 460.80",
        "(6) q_L1 = floor(ItToBl / ElPeRe) * ElPeRe = 460",
        "(9) q_L2 = L2 / L1 = 8",
        "tiled: c0 by 8 (L2), c2 by 460 (L1)",
        "tile=sica",
    ] {
        assert!(out.contains(expected), "no `{expected}` in:\n{out}");
    }
}

#[test]
fn tiled_gemm_prints_what_the_source_prints() {
    let dir = scratch("sica-gemm");
    let gemm = root().join("corpus/gemm.c");
    gcc(&gemm, &dir.join("gemm"), &[]).unwrap();
    let expected = run(&dir.join("gemm"), Duration::from_secs(20)).unwrap();
    let hw = small();
    // rho = 0.05 gives tiles of 24 columns, so that gemm's 70 leave a partial one.
    for (k, extra) in [vec![], vec!["--sica-rho", "0.05"], vec!["--parallel"], vec!["--sica-rho", "0.05", "--parallel"]]
        .into_iter()
        .enumerate()
    {
        let out = dir.join(format!("gemm.{k}.c"));
        let mut args = vec![gemm.to_str().unwrap(), "--tile=sica", "--hw", hw.to_str().unwrap()];
        args.extend(&extra);
        args.extend(["-o", out.to_str().unwrap()]);
        let (code, _, err) = polyc(&args);
        assert_eq!(code, Some(0), "{extra:?}: {err}");
        let text = std::fs::read_to_string(&out).unwrap();
        let size = if extra.contains(&"0.05") { "24" } else { "460" };
        assert!(text.contains(&format!("{size} * c1")), "{extra:?}: not tiled by {size}:\n{text}");
        let binary = dir.join(format!("gemm.{k}"));
        gcc(&out, &binary, &["-fopenmp"]).unwrap();
        assert!(run(&binary, Duration::from_secs(20)).unwrap() == expected, "{extra:?}: output differs");
    }
}

#[test]
fn a_bad_hardware_file_is_a_usage_error() {
    let dir = scratch("sica-bad-hw");
    let gemm = root().join("corpus/gemm.c");
    let cases = [
        ("typo.toml", "l1d_kib = 32\nl2_kb = 256\ncache_line_bytes = 64\nsimd_bits = 128\n", "l2_kb"),
        ("zero.toml", "l1d_kib = 0\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 128\n", "l1d_kib"),
        ("syntax.toml", "l1d_kib = [\n", "--hw"),
    ];
    for (name, text, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, out, err) = polyc(&[gemm.to_str().unwrap(), "--tile=sica", "--hw", path.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(out.is_empty() && err.contains(says) && !err.contains("panicked"), "{name}: {err}");
    }
    let missing = dir.join("missing.toml");
    let (code, _, err) = polyc(&[gemm.to_str().unwrap(), "--tile=sica", "--hw", missing.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}
