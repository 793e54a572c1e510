//! polyc: a polyhedral source-to-source C compiler.
//!
//! The pipeline, one module per phase, data flowing one way:
//! [`frontend`] (C text → SCoP ASTs, `multifor` loops included) → [`model`] (isl sets and maps;
//! [`storage`] may rewrite the AST with scalars expanded first) →
//! [`scan`] (loop AST) → [`emit`] (C text), driven by [`driver`];
//! [`batch`] runs the driver over a directory tree.
//! See `docs/ARCHITECTURE.md`.

pub mod batch;
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
