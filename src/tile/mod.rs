//! Tiling: rewrites of the time space of a scattering over a band
//! (`band`), SICA's tile sizes for a machine (`sica`, `hw`), and
//! concurrent start for time tiles (`concurrent`).
//!
//! Every rewrite here is a (piecewise) affine map of the time space:
//! which rewrite a nest gets, and whether it is legal, is the planner's to
//! decide (`plan`, which runs each through `Scattering::verify`).
//! `--tile=sica` uses [`sica()`] with sizes from [`mod@sica`] for the
//! hardware [`hw`] describes (read by the command line); under it, no time
//! tiles or strips. `--tile=diamond|hex` uses [`concurrent`];
//! tests/concurrent.rs checks the hexagons' bound on distances against the
//! exact ones.

mod band;
pub mod concurrent;
mod full;
pub mod hw;
pub mod sica;

pub use band::{
    default_rect_tile_sizes, default_skewed_tile_sizes, move_dim, move_dim_of, rectangular, sica, size_of,
    strip_distances, strip_mine_inward, strip_mine_outward, strip_size, time_tile_distances, time_tile_sizes,
    time_tiles, wavefront, TiledBand,
};
pub use full::{full_tiles, Tiles};
