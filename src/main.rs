//! The `polyc` command line.
//!
//! It parses the flags with clap into [`polyc::options::Options`] (through
//! `options::Choice` for the options with named values), compiles the file
//! with `driver::compile_file` on a compile thread
//! (`driver::on_compile_thread`) or a tree with `batch::run`, prints the
//! diagnostics, and writes the output (`driver::write_output`). The exit
//! statuses are listed in `EXIT_CODES`, which `--help` prints: among
//! them 3 for a file polyc cannot compile (nothing is written) and 5 for
//! a bug in polyc (a panic on the compile thread).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, FromArgMatches, Parser};
use polyc::batch::{self, BatchError};
use polyc::diagnostics::{Code, Diagnostic, Severity};
use polyc::driver;
use polyc::frontend::cpp::{self, MacroFlag};
use polyc::frontend::encoding;
use polyc::options::{
    Choice, Emit, Options, PlanRequest, Scaling, ScheduleKind, SimulateOptions, SvgOptions, TileOptions, TileShape,
    DEFAULT_SCALING_STEPS, DEFAULT_SICA_RHO,
};
use polyc::schedule::Fuse;
use polyc::storage::{Method, StorageOptions};
use polyc::tile::hw::Hardware;
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_CODES: &str = "\
The output chooses at run time: each transformed SCoP keeps its source text
beside its new loops for where the run-time checks fail; tiles and threads
run only with enough work (the sum over statements of their iterators'
extents >= POLYC_MIN_WORK, 1e7 unless compiled with -DPOLYC_MIN_WORK=N, or
the bytes of the array cells it touches >= POLYC_MIN_DATA, 4194304 unless
defined),
and with less, the source's order with SIMD loops, interchanges and
unroll-and-jam, each parallel region on threads only where one run of it
holds POLYC_MIN_REGION_WORK instances (1e6 unless defined) and OpenMP has
more than one thread; where scalars
are expanded into arrays, only if their allocation succeeds.

Exit codes:
  0  the output is written (rejected SCoPs, and text that does not parse as C,
     are copied unchanged with a warning)
  1  --strict and some warning (a rejected SCoP, a step not applied, text that
     does not parse; the output is still written), or --emit=svg drew no
     picture (nothing is written)
  2  usage error, or -o names the input without --in-place (nothing is written)
  3  the input cannot be read, or a `multifor` in it cannot be compiled
     (nothing is written)
  4  the output cannot be written
  5  polyc failed on this file: a bug, reported with its message (nothing is written)

`polyc batch --help` for the batch mode and its exit codes.";

const BATCH_EXIT_CODES: &str = "\
Exit codes:
  0  every file was compiled and written (rejected SCoPs are kept unchanged)
  2  usage error (including DIR not a directory, or OUTDIR equal to or containing DIR)
  3  at least one file could not be read, compiled (a `multifor` that cannot be) or
     written (every other file is written)
  4  the output directory or the report cannot be written";

#[derive(Parser, Debug)]
#[command(
    name = "polyc",
    version,
    about = "A polyhedral source-to-source C compiler: rewrites the `#pragma scop` regions of a C file.",
    after_help = EXIT_CODES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The C file to compile.
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,

    /// Where to write the result (`-` for standard output, the default).
    #[arg(short, long, default_value = "-")]
    output: String,

    /// What to print.
    #[arg(long, value_parser = choice::<Emit>(), default_value = "c")]
    emit: Emit,

    #[command(flatten)]
    transform: TransformArgs,

    #[command(flatten)]
    preprocessor: PreprocessorArgs,

    #[command(flatten)]
    simulate: SimulateArgs,

    #[command(flatten)]
    svg: SvgArgs,

    /// Exit with status 1 if any SCoP is rejected.
    #[arg(long)]
    strict: bool,

    /// Do not print warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Allow the output to be the input file.
    #[arg(long)]
    in_place: bool,

    /// After each regenerated region, a `#line` directive that gives the
    /// lines after it their numbers in the input (for `__LINE__`, the
    /// compiler's messages and debug information).
    #[arg(long)]
    line_directives: bool,

    /// Also write, as JSON, what was found, transformed and refused, and
    /// why (the record of a file in `polyc batch --report`).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,

    /// Explain a diagnostic code (e.g. P0002) and exit.
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Compile every `.c` file under a directory, in parallel, into another directory.
    #[command(after_help = BATCH_EXIT_CODES)]
    Batch(Box<BatchArgs>),
    /// Summarise what polyc-cc did over a build, from the records it left
    /// in DIR (`POLYC_REPORT=DIR make CC=polyc-cc`).
    Report {
        /// The directory of the records.
        dir: PathBuf,
    },
}

#[derive(clap::Args, Debug)]
struct BatchArgs {
    /// The directory whose `.c` files (recursively) are compiled.
    dir: PathBuf,

    /// The directory the results go to, each at its input's path relative to DIR.
    #[arg(short, long, value_name = "OUTDIR")]
    output: PathBuf,

    /// Files compiled at once [default: the available parallelism].
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,

    /// Also write the summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,

    #[command(flatten)]
    transform: TransformArgs,

    #[command(flatten)]
    preprocessor: PreprocessorArgs,
}

/// The preprocessor's flags, with the C compiler's meaning: the file is
/// analysed as the compiler will see it (macros from the file, its
/// headers and these flags; the `#if` branches they select).
#[derive(clap::Args, Debug, Clone)]
struct PreprocessorArgs {
    /// Add DIR to the directories searched for included headers.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,

    /// Define macro NAME (as 1, or as VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,

    /// Undefine macro NAME.
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,

    /// Pass ARG to the preprocessor as well (`--cpp-arg=-isystem
    /// --cpp-arg=DIR`, `--cpp-arg=-std=c11`), after -I, -D and -U.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    cpp_arg: Vec<String>,

    /// Functions to take for pure (they read only their arguments), as
    /// `#pragma polyc pure(F, G)` in the file does.
    #[arg(long, value_delimiter = ',', value_name = "F,G,...")]
    pure: Vec<String>,
}

impl PreprocessorArgs {
    /// The flags, `-D` and `-U` in the order given (`matches` holds their
    /// positions on the command line).
    fn flags(&self, matches: &clap::ArgMatches) -> cpp::Flags {
        let at = |id: &str| matches.indices_of(id).map(|i| i.collect::<Vec<_>>()).unwrap_or_default();
        let defines = at("define").into_iter().zip(self.define.iter().cloned().map(MacroFlag::Define));
        let undefines = at("undefine").into_iter().zip(self.undefine.iter().cloned().map(MacroFlag::Undefine));
        let mut macros: Vec<(usize, MacroFlag)> = defines.chain(undefines).collect();
        macros.sort_by_key(|(index, _)| *index);
        cpp::Flags {
            include_dirs: self.include.clone(),
            macros: macros.into_iter().map(|(_, m)| m).collect(),
            other: self.cpp_arg.clone(),
        }
    }
}

/// The simulator's flags (`--emit=parallelism`).
#[derive(clap::Args, Debug, Clone)]
struct SimulateArgs {
    /// Processors of the simulated machine (per scaling step k: k times as many).
    #[arg(long, value_name = "P", default_value_t = NonZeroUsize::MIN)]
    procs: NonZeroUsize,

    /// Weak scaling: at step k, the scaled parameter (--scale-param) at k
    /// times its --param value, on k times the processors.
    #[arg(long)]
    scaling: bool,

    /// The steps k of --scaling [default: 1,2,4,8,16,32].
    #[arg(long, value_delimiter = ',', value_name = "K,K,...")]
    scaling_steps: Vec<NonZeroUsize>,

    /// The parameter --scaling grows.
    #[arg(long, value_name = "NAME", default_value = "N")]
    scale_param: String,
}

impl SimulateArgs {
    fn options(&self) -> SimulateOptions {
        let steps = if self.scaling_steps.is_empty() {
            DEFAULT_SCALING_STEPS.to_vec()
        } else {
            self.scaling_steps.iter().map(|k| k.get()).collect()
        };
        SimulateOptions {
            procs: self.procs.get(),
            scaling: self.scaling.then(|| Scaling { param: self.scale_param.clone(), steps }),
        }
    }
}

/// The picture's flags (`--emit=svg`).
#[derive(clap::Args, Debug, Clone)]
struct SvgArgs {
    /// The statement to draw (S0, S1, ..) [default: the first tiled one].
    #[arg(long, value_name = "NAME")]
    svg_stmt: Option<String>,

    /// The iterators (indices, outermost 0) on the vertical and the
    /// horizontal axis [default: the first two the tiles cut].
    #[arg(long, value_name = "A,B", value_parser = parse_dims)]
    svg_dims: Option<(usize, usize)>,

    /// The SCoP to draw, by the line of its `#pragma scop` [default: the first tiled one].
    #[arg(long, value_name = "LINE")]
    svg_scop: Option<usize>,
}

impl SvgArgs {
    fn options(&self) -> SvgOptions {
        SvgOptions { stmt: self.svg_stmt.clone(), dims: self.svg_dims, scop_line: self.svg_scop }
    }
}

/// `A,B`, two iterator indices.
fn parse_dims(text: &str) -> Result<(usize, usize), String> {
    let (a, b) = text.split_once(',').ok_or_else(|| format!("`{text}` is not A,B"))?;
    let index = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("`{s}` is not an iterator index"));
    Ok((index(a)?, index(b)?))
}

/// The transformation flags. With none of `--schedule`, `--tile`,
/// `--parallel`, `--simd` given, polyc does what polycc
/// users expect: `--schedule=auto --tile=rect --parallel --simd`.
/// Otherwise it does exactly what is asked (`--schedule=identity` alone
/// regenerates the loops unchanged).
#[derive(clap::Args, Debug, Clone)]
struct TransformArgs {
    /// Scheduling strategy [default: auto, or identity when only other
    /// transformation flags are given].
    #[arg(long, value_parser = choice::<ScheduleKind>())]
    schedule: Option<ScheduleKind>,

    /// Fusion of loop nests by --schedule=auto.
    #[arg(long, value_parser = choice::<Fuse>(), default_value = "smart")]
    fuse: Fuse,

    /// Tile permutable bands of depth >= 2, in this shape.
    #[arg(long, value_enum)]
    tile: Option<TileKind>,

    /// SICA's cache-use ratio: the share of L1 a tile's data may fill.
    #[arg(long, value_name = "RHO", default_value_t = DEFAULT_SICA_RHO)]
    sica_rho: f64,

    /// A hardware description (TOML) for SICA's tile sizes, instead of
    /// this machine's (sysfs and CPUID).
    #[arg(long, value_name = "FILE")]
    hw: Option<PathBuf>,

    /// Tile sizes, outermost first (the last is repeated) [default: 32, 256
    /// for a vector loop innermost (128 where threads share its tiles
    /// alone), or the contents of a `tile.sizes` file in the current
    /// directory].
    #[arg(long, value_delimiter = ',', value_name = "N,N,...")]
    tile_sizes: Vec<i64>,

    /// Add a second level of tiles, RATIO first-level tiles wide.
    #[arg(long, value_name = "RATIO", num_args = 0..=1, default_missing_value = "8")]
    l2_tile: Option<i64>,

    /// Mark the outermost parallel loop of each nest `omp parallel for`.
    #[arg(long)]
    parallel: bool,

    /// Mark vectorisable innermost loops `omp simd` (`GCC ivdep` without --parallel).
    #[arg(long)]
    simd: bool,

    /// Unroll-and-jam, FACTOR iterations at a time, the loops around a
    /// SIMD loop whose dependences all stay inside its iterations (a
    /// reduction); 1: none [default: 4 in the default mode, else none].
    #[arg(long, value_name = "FACTOR", num_args = 0..=1, default_missing_value = "4")]
    unroll_jam: Option<i64>,

    /// isl operations allowed per SCoP before it is kept unchanged.
    #[arg(long, default_value_t = polyc::model::isl::DEFAULT_OPERATION_BUDGET)]
    isl_budget: u64,

    /// Wall-clock seconds allowed per SCoP before it is kept unchanged
    /// (warning P0015 names the phase that ran out); 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = polyc::model::isl::DEFAULT_TIME_BUDGET.as_secs_f64(), value_parser = parse_seconds)]
    time_budget: f64,

    /// Replace every SCoP statement by a printf of its instance (debugging aid).
    #[arg(long)]
    trace: bool,

    /// Take pointers and array parameters never to share memory (as
    /// polycc does): no run-time alias checks in the output.
    #[arg(long)]
    assume_no_alias: bool,

    /// Contraction of temporary arrays (reported by --emit=storage).
    #[arg(long, value_parser = choice::<Method>(), default_value = "none")]
    storage: Method,

    /// Fix parameters' values, for exact storage sizes, the simulator
    /// and the pictures: N=100,M=50.
    #[arg(long = "param", value_delimiter = ',', value_name = "NAME=VALUE", value_parser = parse_param)]
    params: Vec<(String, i64)>,

    /// Arrays to contract besides the SCoP's own temporaries (locals
    /// named nowhere else in their function).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    temporaries: Vec<String>,

    /// Arrays whose last values are read after the SCoP.
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    live_out: Vec<String>,

    /// With every parameter fixed (--param), also search exhaustively for
    /// an optimal mapping (a budgeted search; the heuristics' otherwise).
    #[arg(long)]
    storage_optimal: bool,

    /// Also transform the static control parts of functions without
    /// `#pragma scop`: the largest runs of statements with a loop that
    /// are SCoPs (`--emit=scops` lists what was found and why not).
    #[arg(long)]
    autodetect: bool,
}

/// The values of an option with named values, each with its help.
fn choice<T: Choice + Send + Sync>() -> impl TypedValueParser<Value = T> {
    let values = T::CHOICES.iter().map(|(_, name, help)| PossibleValue::new(*name).help(*help));
    PossibleValuesParser::new(values).try_map(|name| T::named(&name).ok_or("not one of the possible values"))
}

/// A number of seconds, finite and not negative.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=1e9).contains(&s) => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds (0 to 1e9)")),
    }
}

/// `NAME=VALUE`, an integer value.
fn parse_param(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text.split_once('=').ok_or_else(|| format!("`{text}` is not NAME=VALUE"))?;
    let value = value.trim().parse::<i64>().map_err(|_| format!("`{value}` is not an integer"))?;
    Ok((name.trim().to_string(), value))
}

/// The largest unroll-and-jam factor: more copies than registers only
/// spill.
const MAX_UNROLL_JAM: i64 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum TileKind {
    /// No tiling.
    None,
    /// Rectangular tiles on the permutable bands of the schedule.
    Rect,
    /// Concurrent-start diamond tiles for time-iterated nests.
    Diamond,
    /// Hybrid hexagonal/classical tiles for time-iterated nests.
    Hex,
    /// SIMD- and cache-aware tile sizes.
    Sica,
    /// Diamonds for time-iterated nests where they apply, rectangles
    /// otherwise (the default mode's tiles).
    Auto,
}

impl TileKind {
    fn shape(self) -> Option<TileShape> {
        match self {
            TileKind::None => None,
            TileKind::Rect => Some(TileShape::Rect),
            TileKind::Diamond => Some(TileShape::Diamond),
            TileKind::Hex => Some(TileShape::Hex),
            TileKind::Sica => Some(TileShape::Sica),
            TileKind::Auto => Some(TileShape::Auto),
        }
    }
}

impl TransformArgs {
    fn options(&self, emit: Emit) -> Result<Options, String> {
        let explicit =
            self.schedule.is_some() || self.tile.is_some() || self.parallel || self.simd || self.l2_tile.is_some();
        let base = if explicit { Options::default() } else { Options::optimising() }.plan;
        let shape = match self.tile {
            Some(kind) => kind.shape(),
            None if base.tile.is_some() || self.l2_tile.is_some() => Some(TileShape::Auto),
            None => None,
        };
        let tiled = shape.is_some();
        let tile = shape.map(|shape| self.tile_options(shape)).transpose()?;
        if let Some(bad) = self.unroll_jam.filter(|f| !(1..=MAX_UNROLL_JAM).contains(f)) {
            return Err(format!("unroll-and-jam factor {bad} is out of range (1 to {MAX_UNROLL_JAM})"));
        }
        let schedule = self.schedule.unwrap_or(if explicit && !tiled { base.schedule } else { ScheduleKind::Auto });
        let plan = PlanRequest {
            schedule,
            fuse: self.fuse,
            tile,
            parallel: base.parallel || self.parallel,
            simd: base.simd || self.simd,
            unroll_jam: match self.unroll_jam {
                Some(1) => None,
                Some(factor) => Some(factor),
                None => base.unroll_jam,
            },
            isl_budget: self.isl_budget,
            time_budget: (self.time_budget > 0.0).then(|| std::time::Duration::from_secs_f64(self.time_budget)),
        };
        Ok(Options {
            emit,
            plan,
            trace: self.trace,
            params: self.params.clone(),
            storage: StorageOptions {
                method: self.storage,
                temporaries: self.temporaries.clone(),
                live_out: self.live_out.clone(),
                optimal: self.storage_optimal,
            },
            simulate: SimulateOptions::default(),
            svg: SvgOptions::default(),
            preprocessor: cpp::Flags::default(),
            pure: Vec::new(),
            assume_no_alias: self.assume_no_alias,
            autodetect: self.autodetect,
            line_directives: false,
        })
    }

    fn tile_options(&self, shape: TileShape) -> Result<TileOptions, String> {
        let mut sizes = self.tile_sizes.clone();
        if sizes.is_empty() {
            if let Ok(text) = std::fs::read_to_string("tile.sizes") {
                sizes = text
                    .split_whitespace()
                    .map(|w| w.parse::<i64>().map_err(|_| format!("tile.sizes: `{w}` is not a tile size")))
                    .collect::<Result<_, _>>()?;
            }
        }
        if let Some(bad) = sizes.iter().chain(&self.l2_tile).find(|&&s| !(1..=1 << 20).contains(&s)) {
            return Err(format!("tile size or ratio {bad} is out of range (1 to 1048576)"));
        }
        if !(self.sica_rho > 0.0 && self.sica_rho <= 1.0) {
            return Err(format!("--sica-rho {} is out of range (0 to 1)", self.sica_rho));
        }
        // A bad file is a usage error here, not a warning per SCoP later.
        let hw = self.hw.as_deref().map(Hardware::from_file).transpose()?;
        // Sizes given, or a second level, are a rectangle's.
        let shape = match shape {
            TileShape::Auto if !sizes.is_empty() || self.l2_tile.is_some() => TileShape::Rect,
            shape => shape,
        };
        Ok(TileOptions { shape, sizes, l2_ratio: self.l2_tile, sica_rho: self.sica_rho, hw })
    }
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Some(Command::Batch(args)) => {
            let preprocessor = args.preprocessor.flags(matches.subcommand_matches("batch").unwrap_or(&matches));
            return run_batch(*args, preprocessor);
        }
        Some(Command::Report { dir }) => return report(&dir),
        None => {}
    }
    if let Some(code) = &cli.explain {
        return match Code::parse(code) {
            Some(c) => {
                println!("{}: {}", c.as_str(), c.explanation());
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("polyc: unknown diagnostic code `{code}`");
                ExitCode::from(2)
            }
        };
    }
    let preprocessor = cli.preprocessor.flags(&matches);
    run(cli, preprocessor)
}

fn run(cli: Cli, preprocessor: cpp::Flags) -> ExitCode {
    let start = std::time::Instant::now();
    let Some(input) = cli.input.as_ref() else {
        return ExitCode::from(2);
    };
    let name = input.display().to_string();
    let color = std::io::stderr().is_terminal();
    let decoded = std::fs::read(input).map_err(|e| format!("cannot read `{name}`: {e}")).and_then(encoding::decode);
    let (text, encoding) = match decoded {
        Ok(decoded) => decoded,
        Err(why) => return fail(&name, "", Diagnostic::error(Code::E0002, 0..0, why), color),
    };
    if cli.output != "-" && !cli.in_place && same_file(input, std::path::Path::new(&cli.output)) {
        eprintln!("polyc: refusing to overwrite the input `{name}`; pass --in-place to allow it");
        return ExitCode::from(2);
    }
    let options = match cli.transform.options(cli.emit) {
        Ok(o) => Options {
            simulate: cli.simulate.options(),
            svg: cli.svg.options(),
            preprocessor,
            pure: cli.preprocessor.pure.clone(),
            line_directives: cli.line_directives,
            ..o
        },
        Err(e) => {
            eprintln!("polyc: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = match driver::on_compile_thread(|| driver::compile_file(text.clone(), Some(input), &options)) {
        Ok(Ok(o)) => o,
        Ok(Err(d)) => return fail(&name, &text, d, color),
        Err(bug) => {
            eprintln!("polyc: internal error on `{name}`: {bug}; nothing was written (please report it with the file)");
            return ExitCode::from(5);
        }
    };
    for d in &outcome.diagnostics {
        if !cli.quiet || d.severity == Severity::Error {
            eprint!("{}", d.render(&name, &text, color));
        }
    }
    if options.emit == Emit::Svg && outcome.output.is_empty() {
        match options.svg.scop_line {
            Some(line) => {
                eprintln!("polyc: no picture drawn (no SCoP starts at line {line}, or it failed: see the warnings)")
            }
            None => eprintln!("polyc: no picture drawn (no SCoP, or every one failed: see the warnings)"),
        }
        return ExitCode::from(1);
    }
    let output = encoding.encode(&outcome.output);
    let written = if cli.output == "-" {
        use std::io::Write;
        std::io::stdout().write_all(&output)
    } else {
        driver::write_output(&PathBuf::from(&cli.output), &output)
    };
    if let Err(e) = written {
        eprintln!("polyc: error[E0003]: cannot write `{}`: {e}", cli.output);
        return ExitCode::from(4);
    }
    if let Some(path) = &cli.report {
        let record = batch::FileReport::compiled(name, &outcome, start.elapsed());
        let json = serde_json::to_string_pretty(&record).map_err(std::io::Error::other);
        if let Err(e) = json.and_then(|j| driver::write_output(path, j.as_bytes())) {
            eprintln!("polyc: error[E0003]: cannot write `{}`: {e}", path.display());
            return ExitCode::from(4);
        }
    }
    if cli.strict && !outcome.diagnostics.is_empty() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn run_batch(args: BatchArgs, preprocessor: cpp::Flags) -> ExitCode {
    let options = match args.transform.options(Emit::C) {
        Ok(o) => Options { preprocessor, pure: args.preprocessor.pure.clone(), ..o },
        Err(e) => {
            eprintln!("polyc: {e}");
            return ExitCode::from(2);
        }
    };
    let config = batch::Config {
        input_dir: args.dir,
        output_dir: args.output,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)),
        options,
        progress: std::io::stderr().is_terminal(),
    };
    let report = match batch::run(&config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("polyc: {e}");
            return ExitCode::from(match e {
                BatchError::Usage(_) => 2,
                BatchError::Output(_) => 4,
            });
        }
    };
    print!("{}", report.table());
    if let Some(path) = &args.report {
        let written =
            report.to_json().map_err(std::io::Error::other).and_then(|j| driver::write_output(path, j.as_bytes()));
        if let Err(e) = written {
            eprintln!("polyc: error[E0003]: cannot write `{}`: {e}", path.display());
            return ExitCode::from(4);
        }
    }
    ExitCode::from(if report.all_ok() { 0 } else { 3 })
}

fn report(dir: &std::path::Path) -> ExitCode {
    match polyc::cc::summary::read_records(dir) {
        Ok(records) => {
            print!("{}", polyc::cc::summary::summary(&records));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("polyc: {e}");
            ExitCode::from(3)
        }
    }
}

fn fail(name: &str, text: &str, d: Diagnostic, color: bool) -> ExitCode {
    eprint!("{}", d.render(name, text, color));
    ExitCode::from(3)
}

fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
