//! Schedules: when each statement instance runs.
//!
//! A [`Scattering`] maps every statement's instances into one common,
//! anonymous time space (`S<k>[i..] -> [c0, ..]`), executed in
//! lexicographic order. It starts as the original (2d+1) schedule or as
//! one computed by isl's scheduler; later phases (tiling) rewrite it.
//! [`Scattering::verify`] is the one legality check every transformation
//! goes through, and [`Analysis`] reads off which dimensions are parallel
//! and which bands are permutable.
//!
//! A [`Scattering`] holds some statements' maps (all of them, or one
//! nest's), padded with zeros to one length. [`Scattering::auto`] is isl's
//! scheduler configured like PLUTO (outer coincidence, coefficients of at
//! most 4, fusion as `--fuse` says); [`Scattering::skewed`] forgoes outer
//! coincidence for one fused band, for time tiling. [`Scattering::nests`]
//! splits a scattering into loop nests at constant leading time dimensions
//! (the children of the schedule tree's outer sequences), which the planner
//! transforms one by one, and [`Scattering::join`] puts them back behind
//! their prefixes.
//!
//! [`Scattering::verify`] checks that each instance is scheduled once and
//! that every dependence goes forward; [`Scattering::verify_within`] does
//! the same with a sound over-approximation of the distances (time tiles,
//! whose exact distances cost isl seconds). Both also check seed 004's
//! live ranges of the condition variables, which the output holds in one
//! scalar each, and refuse a schedule that breaks them
//! ([`Violation::Overwritten`]). [`Analysis`] reads off dependence
//! distances in time space, parallel dimensions and permutable bands;
//! `strides` measures access contiguity and reuse along a dimension
//! (kept per dimension in the [`Analysis`]), `analysis` short loops, and
//! which loops a private copy makes parallel (`analysis::is_privatisable`).
//!
//! Invariants: nothing is emitted from a scattering the verifier has not
//! accepted: each instance scheduled once, every dependence (or every
//! vector of a bound proven to contain all distances) lexicographically
//! forward. Dependences between nests are carried by their constant
//! prefixes, which planning never changes.

pub mod analysis;
mod auto;
pub mod live;
mod scattering;
pub mod strides;
mod verify;

pub use analysis::Analysis;
pub use auto::Fuse;
pub use scattering::{Nest, Scattering};
pub use verify::Violation;
