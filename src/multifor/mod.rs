//! The loops of a `multifor` side by side: with `--parallel` and the
//! original order, each loop of a multifor runs in an OpenMP section of
//! its own, all joined where the multifor ends (the paper's section 3.2),
//! provided no dependence links two of them. The front end extracts a
//! multifor (`frontend::extract`), the model places its iterations on the
//! referential domain (`model`); this module only decides whether its
//! loops may run apart.
//!
//! When they may ([`apart()`]), the driver scans each loop's statements on
//! their own, each into an `omp section` (`driver::regenerate`); when a
//! dependence links two loops, they stay interleaved and the driver warns
//! `M0004` (each loop's own parallel loops are still marked).

mod apart;
pub mod ranked;

pub use apart::{apart, loops, Loops};
