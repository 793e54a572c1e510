//! Schedules: when each statement instance runs.
//!
//! A [`Scattering`] maps every statement's instances into one common,
//! anonymous time space (`S<k>[i..] -> [c0, ..]`), executed in
//! lexicographic order. It starts as the original (2d+1) schedule or as
//! one computed by isl's scheduler; later phases (tiling) rewrite it.
//! [`Scattering::verify`] is the one legality check every transformation
//! goes through, and [`Analysis`] reads off which dimensions are parallel
//! and which bands are permutable.

pub mod analysis;
mod auto;
pub mod live;
mod scattering;
mod verify;

pub use analysis::Analysis;
pub use auto::Fuse;
pub use scattering::{Nest, Scattering};
pub use verify::Violation;
