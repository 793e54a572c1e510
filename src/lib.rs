//! polyc: a polyhedral source-to-source C compiler.
//!
//! The pipeline, one module per phase, data flowing one way:
//! [`frontend`] (C text → SCoP ASTs, `multifor` loops included) → [`model`]
//! (isl sets and maps) → [`deps`] (dependences) → [`plan`] (a new schedule
//! from [`schedule`] and [`tile`], storage from [`storage`], loop marks) →
//! [`scan`] (loop AST) → [`emit`] (C text), or [`report`] for the other
//! `--emit` kinds; [`driver`] runs it for one file, [`batch`] for a
//! directory tree, both from the [`options`] `main.rs` builds; [`cc`] is
//! `polyc-cc`, the drop-in C compiler that runs polyc on a build's files.
//! See `docs/ARCHITECTURE.md`.

pub mod batch;
pub mod cc;
pub mod deps;
pub mod diagnostics;
pub mod driver;
pub mod emit;
pub mod frontend;
pub mod model;
pub mod multifor;
pub mod names;
pub mod options;
pub mod plan;
pub mod report;
pub mod scan;
pub mod schedule;
pub mod storage;
pub mod tile;
