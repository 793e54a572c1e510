//! What a user asks of polyc: every option of a compilation, as plain
//! data. `main.rs` turns the command line into these (only it knows
//! clap); the driver reads them, and hands each phase the part it reads
//! (the planner a [`PlanRequest`], the reports their own options).
//!
//! An option with named values implements [`Choice`]: its values' names
//! and one line of help each, which the command line offers.
//!
//! No module but `main.rs` reads the command line: the driver, the
//! planner, the storage analysis and the reports each get the part of
//! [`Options`] they read, so that tests and `polyc batch` build options the
//! same way.

use crate::frontend::cpp;
use crate::model::isl;
use crate::schedule::Fuse;
use crate::storage::{Method, StorageOptions};
use crate::tile::hw::Hardware;
use serde::Serialize;
use std::time::Duration;

/// An option whose values have names: each value, its name on the
/// command line, and what it does.
pub trait Choice: Copy + Sized + 'static {
    const CHOICES: &'static [(Self, &'static str, &'static str)];

    /// The value called `name`.
    fn named(name: &str) -> Option<Self> {
        Self::CHOICES.iter().find(|(_, n, _)| *n == name).map(|(v, _, _)| *v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    C,
    Scop,
    ScopJson,
    Deps,
    LiveRanges,
    Schedule,
    Storage,
    StorageJson,
    TileSizes,
    Parallelism,
    ParallelismJson,
    Svg,
    Scops,
}

impl Choice for Emit {
    const CHOICES: &'static [(Emit, &'static str, &'static str)] = &[
        (Emit::C, "c", "The transformed C program"),
        (Emit::Scop, "scop", "The polyhedral model in isl notation"),
        (Emit::ScopJson, "scop-json", "The polyhedral model as JSON"),
        (Emit::Deps, "deps", "The dependences in isl notation, by kind and statement pair"),
        (
            Emit::LiveRanges,
            "live-ranges",
            "Each variable's live ranges (write to last read), and which of them the final schedule breaks, \
             with the repair (private copies, expansion)",
        ),
        (Emit::Schedule, "schedule", "The final schedule of each statement (after tiling), with loop marks"),
        (Emit::Storage, "storage", "The storage of each temporary array, as a table"),
        (Emit::StorageJson, "storage-json", "The storage of each temporary array, as JSON"),
        (
            Emit::TileSizes,
            "tile-sizes",
            "The tile sizes chosen for each band, and why (with `--tile=sica`: the hardware, rho, each \
             statement block's elements per iteration and SICA's equations)",
        ),
        (
            Emit::Parallelism,
            "parallelism",
            "The tile graph for the `--param` values, simulated on `--procs` processors (`--scaling`: a \
             weak-scaling sweep), as text",
        ),
        (Emit::ParallelismJson, "parallelism-json", "The same, as JSON"),
        (
            Emit::Svg,
            "svg",
            "A picture of one statement's points, dependences and tiles, for the `--param` values (the first \
             tiled SCoP, or `--svg-scop`)",
        ),
        (
            Emit::Scops,
            "scops",
            "Every candidate loop nest with its verdict: accepted, or rejected with a cause and where \
             (searches the functions without pragmas, as `--autodetect` does)",
        ),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScheduleKind {
    Identity,
    Auto,
}

impl Choice for ScheduleKind {
    const CHOICES: &'static [(ScheduleKind, &'static str, &'static str)] = &[
        (ScheduleKind::Identity, "identity", "Keep the original execution order (regenerate the loops only)"),
        (ScheduleKind::Auto, "auto", "An affine schedule for tilable bands and outer parallelism"),
    ];
}

impl Choice for Fuse {
    const CHOICES: &'static [(Fuse, &'static str, &'static str)] = &[
        (Fuse::Max, "max", "Fuse whenever the dependences allow it"),
        (
            Fuse::Smart,
            "smart",
            "isl's fusion where it keeps every statement's loops in permutable bands (so tiling and \
             vectorisation survive it); otherwise none",
        ),
        (Fuse::None, "none", "Keep every strongly connected component in its own nest"),
    ];
}

impl Choice for Method {
    const CHOICES: &'static [(Method, &'static str, &'static str)] = &[
        (Method::None, "none", "Keep every array as declared"),
        (Method::Modulo, "modulo", "Lefebvre and Feautrier's successive modulo along the array's axes"),
        (
            Method::Lattice,
            "lattice",
            "The successive modulo along several bases (Darte, Schreiber and Villard's Heuristic 3): the \
             axes in every order, diagonals",
        ),
        (
            Method::Smo,
            "smo",
            "SMO's partitioning hyperplanes, each the solution of an integer program (Bhaskaracharya, \
             Bondhugula and Cohen)",
        ),
        (
            Method::Quov,
            "quov",
            "A projection along the shortest quasi-universal occupancy vector for tiled execution (Yuki and \
             Rajopadhye), for uniform flows",
        ),
        (Method::Best, "best", "Every method above; the smallest proven mapping"),
    ];
}

/// The shape of tiles (`--tile=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TileShape {
    /// Rectangular tiles of permutable bands; time-iterated nests skewed
    /// into parallelogram tiles run on a wavefront (pipelined start).
    #[default]
    Rect,
    /// Concurrent start: diamonds in time and the outer space dimension
    /// (every space dimension where the dependences allow), the others
    /// classical.
    Diamond,
    /// Hybrid hexagonal/classical: hexagons in time and the outer space
    /// dimension, in two alternating phases, the others classical.
    Hex,
    /// SIMD- and cache-aware sizes for the vector loop and the outermost loop.
    Sica,
    /// The default mode's: diamonds for a time-iterated nest where they
    /// apply, else rectangles, with no word about the choice. Diamonds
    /// meet once per row of tiles, a wavefront of parallelograms once
    /// per step (on two threads: jacobi-2d 1.3x faster; a 1-D stencil of
    /// 2 million points, 200 steps, 2.9x, and 6x beside another busy
    /// process).
    Auto,
}

impl TileShape {
    /// The name `--tile` takes.
    pub fn name(self) -> &'static str {
        match self {
            TileShape::Rect => "rect",
            TileShape::Diamond => "diamond",
            TileShape::Hex => "hex",
            TileShape::Sica => "sica",
            TileShape::Auto => "auto",
        }
    }
}

/// Tiling of permutable bands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileOptions {
    pub shape: TileShape,
    /// Tile size per band member, outermost first; the last is repeated.
    /// Empty: polyc's choice (see [`crate::tile`]).
    pub sizes: Vec<i64>,
    /// A second (L2) level of tiles this many first-level tiles wide.
    pub l2_ratio: Option<i64>,
    /// SICA's cache-use ratio (the share of L1 a tile's data may fill).
    pub sica_rho: f64,
    /// The hardware SICA sizes tiles for (`--hw FILE`); this machine's
    /// (sysfs, CPUID) when `None`.
    pub hw: Option<Hardware>,
}

/// SICA's default cache-use ratio.
pub const DEFAULT_SICA_RHO: f64 = 0.9;

impl Default for TileOptions {
    fn default() -> Self {
        TileOptions { shape: TileShape::Rect, sizes: Vec::new(), l2_ratio: None, sica_rho: DEFAULT_SICA_RHO, hw: None }
    }
}

/// What the planner reads: the transformations asked for and what
/// planning may spend.
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub schedule: ScheduleKind,
    pub fuse: Fuse,
    pub tile: Option<TileOptions>,
    /// `#pragma omp parallel for` on the outermost parallel loop.
    pub parallel: bool,
    /// `#pragma omp simd` (or `GCC ivdep`) on vectorisable innermost loops.
    pub simd: bool,
    /// Unroll-and-jam factor of loops around a perfect nest with a SIMD
    /// loop innermost (see [`crate::plan::marks::LoopMark::jam`]).
    pub unroll_jam: Option<i64>,
    /// isl operations allowed per SCoP.
    pub isl_budget: u64,
    /// Wall-clock time allowed per SCoP (`None`: unbounded); out of it,
    /// the SCoP keeps its source text.
    pub time_budget: Option<Duration>,
}

/// Plain regeneration with the original schedule.
impl Default for PlanRequest {
    fn default() -> Self {
        PlanRequest {
            schedule: ScheduleKind::Identity,
            fuse: Fuse::Smart,
            tile: None,
            parallel: false,
            simd: false,
            unroll_jam: None,
            isl_budget: isl::DEFAULT_OPERATION_BUDGET,
            time_budget: Some(isl::DEFAULT_TIME_BUDGET),
        }
    }
}

impl PlanRequest {
    /// What `polyc in.c -o out.c` asks: schedule, tile, parallelise, vectorise.
    pub fn optimising() -> Self {
        PlanRequest {
            schedule: ScheduleKind::Auto,
            tile: Some(TileOptions { shape: TileShape::Auto, ..TileOptions::default() }),
            parallel: true,
            simd: true,
            unroll_jam: Some(DEFAULT_UNROLL_JAM),
            ..PlanRequest::default()
        }
    }

    /// Whether tiles, parallel or SIMD loops are asked for: what a new
    /// loop order has to gain to be kept.
    pub fn optimises(&self) -> bool {
        self.tile.is_some() || self.parallel || self.simd || self.unroll_jam.is_some()
    }

    /// Whether a new loop order is asked for at all.
    pub fn transforms(&self) -> bool {
        self.schedule == ScheduleKind::Auto || self.optimises()
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
    /// The transformations asked for and what planning may spend.
    pub plan: PlanRequest,
    /// Replace every statement by a `printf` of its name and iteration
    /// vector (with [`crate::driver::trace_original`], a check that the
    /// regenerated code runs the same instances in the same order).
    pub trace: bool,
    /// Contraction of temporary arrays.
    pub storage: StorageOptions,
    /// `--param`: parameters fixed to a value, for exact storage sizes,
    /// the simulator and the pictures.
    pub params: Vec<(String, i64)>,
    /// `--emit=parallelism`: processors, weak scaling.
    pub simulate: SimulateOptions,
    /// `--emit=svg`: what to draw.
    pub svg: SvgOptions,
    /// `-I`, `-D`, `-U`: the preprocessor the file is read through.
    pub preprocessor: cpp::Flags,
    /// `--pure`: functions taken for pure besides those the file shows.
    pub pure: Vec<String>,
    /// `--assume-no-alias`: pointers and array parameters never share
    /// memory, so the output has no run-time alias checks.
    pub assume_no_alias: bool,
    /// `--autodetect`: also find the SCoPs of functions without pragmas.
    pub autodetect: bool,
    /// `--line-directives`: a `#line` after each regenerated region.
    pub line_directives: bool,
}

/// The default unroll-and-jam factor: four copies of a reduction's
/// vector body keep four sums in registers (gemm 1.18x -> 1.28x,
/// correlation 13.1x -> 15.8x, on one thread).
pub const DEFAULT_UNROLL_JAM: i64 = 4;

/// Plain regeneration with the original schedule.
impl Default for Options {
    fn default() -> Self {
        Options {
            emit: Emit::C,
            plan: PlanRequest::default(),
            trace: false,
            assume_no_alias: false,
            storage: StorageOptions::default(),
            params: Vec::new(),
            simulate: SimulateOptions::default(),
            svg: SvgOptions::default(),
            preprocessor: cpp::Flags::default(),
            pure: Vec::new(),
            autodetect: false,
            line_directives: false,
        }
    }
}

impl Options {
    /// What `polyc in.c -o out.c` does: schedule, tile, parallelise, vectorise.
    pub fn optimising() -> Self {
        Options { plan: PlanRequest::optimising(), ..Options::default() }
    }

    /// Whether the output may run the statements in another order, or on
    /// other storage, than the source: what rests on the dependences.
    pub fn reorders(&self) -> bool {
        self.plan.transforms() || self.storage.method != Method::None
    }
}

/// The weak-scaling steps `k` when `--scaling-steps` gives none.
pub const DEFAULT_SCALING_STEPS: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// What the simulator is asked (`--procs`, `--scaling`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulateOptions {
    /// Processors of a single run; at step `k` of a sweep, `k` times as many.
    pub procs: usize,
    /// A weak-scaling sweep instead of one run.
    pub scaling: Option<Scaling>,
}

impl Default for SimulateOptions {
    fn default() -> Self {
        SimulateOptions { procs: 1, scaling: None }
    }
}

/// Step `k` runs with the parameter `param` at `k` times its `--param`
/// value on `k` times the processors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scaling {
    pub param: String,
    pub steps: Vec<usize>,
}

/// What to draw (`--svg-stmt`, `--svg-dims`, `--svg-scop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// The statement (`S0`, ..): by default the first tiled one.
    pub stmt: Option<String>,
    /// The two iterators (by index, outermost 0) of the axes, vertical
    /// first: by default the first two the tile changes along.
    pub dims: Option<(usize, usize)>,
    /// The line of the SCoP's `#pragma scop`: by default the first tiled SCoP.
    pub scop_line: Option<usize>,
}
