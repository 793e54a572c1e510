//! The `--emit` reports other than C: one function per kind, each given
//! the SCoP (and its analyses) and returning text or JSON. The driver
//! dispatches to them; nothing else prints a report.

pub mod deps;
mod final_plan;
pub mod live_ranges;
pub mod parallelism;
pub mod plans;
pub mod scop;
pub mod scops;
pub mod simulate;
pub mod svg;
