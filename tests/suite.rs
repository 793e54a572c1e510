//! The integration tests, one binary: each file of `tests/` is a module
//! here. One binary links polyc, isl and tree-sitter once (not once per
//! file), compiles `common` once, and lets libtest keep both cores busy
//! across files instead of waiting for each file's slowest test.
//! `cargo test --test suite equivalence::` runs one file's tests.

mod common;
mod difftest;

mod alias;
mod architecture;
mod autodetect;
mod batch;
mod budget;
mod cc;
mod chains;
mod cli;
mod column_strips;
mod concurrent;
mod dataflow;
mod delinearise;
mod differential;
mod dynamic;
mod encoding;
mod equivalence;
mod fuzz;
mod golden;
mod grammar;
mod jam;
mod live_ranges;
mod multifor;
mod output_path;
mod packing;
mod parallelism;
mod polybench;
mod privatisation;
mod projects;
mod real_c;
mod register_blocks;
mod regressions;
mod repros;
mod robustness;
mod sica;
mod storage;
mod storage_lattice;
mod storage_quov;
mod storage_smo;
mod structs;
mod svg;
mod transforms;
mod verifier;
mod wavefront;
