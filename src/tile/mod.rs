//! Tiling: rewrites of the time space of a scattering over a band
//! (`band`), SICA's tile sizes for a machine (`sica`, `hw`), and
//! concurrent start for time tiles (`concurrent`).

mod band;
pub mod concurrent;
pub mod hw;
pub mod sica;

pub use band::{
    default_rect_tile_sizes, default_skewed_tile_sizes, move_dim, move_dim_of, rectangular, sica, strip_distances,
    strip_mine_inward, strip_size, time_tile_distances, time_tiles, wavefront, TiledBand,
};
