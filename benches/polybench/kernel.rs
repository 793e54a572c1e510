//! One kernel through every variant: polyc's and PLUTO's translations,
//! the builds, the check at MINI against the original's arrays, and the
//! timed runs (more rounds for short kernels), as `KernelResult`s.

use crate::*;

/// How a variant fared on one kernel.
#[derive(Clone, PartialEq)]
pub(crate) enum Status {
    Ok,
    /// Its arrays at the check size differ from the original's.
    Wrong,
    /// polyc, polycc, the compiler or a run failed.
    Failed,
}

pub(crate) struct Cell {
    pub(crate) status: Status,
    pub(crate) detail: String,
    pub(crate) runs: Vec<f64>,
    /// The kernel ran for more rounds as its runs are short (see
    /// `wants_more_rounds`): its time is the fastest run.
    pub(crate) short: bool,
}

impl Cell {
    /// The median of the runs; for a short kernel their minimum. A run of
    /// a few milliseconds lands in one of two modes (jacobi-1d's source
    /// text: 0.31-0.36 ms or 0.45-0.60 ms, for gcc's binary and polyc's
    /// alike), and a median of 25 falls in either; the machine's noise
    /// only ever adds time.
    pub(crate) fn time(&self) -> Option<f64> {
        if self.status != Status::Ok {
            return None;
        }
        if self.short {
            self.runs.iter().copied().reduce(f64::min)
        } else {
            median(&self.runs)
        }
    }

    pub(crate) fn statistic(&self) -> &'static str {
        if self.short {
            "minimum"
        } else {
            "median"
        }
    }
}

pub(crate) fn median(runs: &[f64]) -> Option<f64> {
    if runs.is_empty() {
        return None;
    }
    let mut s = runs.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 })
}

/// A source-to-source tool's run on one kernel.
pub(crate) struct Translation {
    pub(crate) output: PathBuf,
    pub(crate) seconds: f64,
    pub(crate) error: Option<String>,
    pub(crate) stderr: String,
}

impl Translation {
    /// The diagnostic codes polyc printed, e.g. `P0004`.
    pub(crate) fn codes(&self) -> Vec<String> {
        let mut codes: Vec<String> = self
            .stderr
            .match_indices("warning[")
            .filter_map(|(i, m)| self.stderr[i + m.len()..].split(']').next().map(String::from))
            .collect();
        codes.sort();
        codes.dedup();
        codes
    }
}

pub(crate) struct KernelResult {
    pub(crate) name: String,
    pub(crate) cells: Vec<Cell>,
    pub(crate) polyc: Translation,
    pub(crate) polyc_unchanged: bool,
    pub(crate) pluto: Option<Translation>,
}

impl KernelResult {
    /// baseline / variant `i`.
    pub(crate) fn speedup(&self, i: usize) -> Option<f64> {
        let base = self.cells[0].time()?;
        let v = self.cells[i].time()?;
        (v > 0.0 && base > 0.0).then(|| base / v)
    }
}

pub(crate) fn translate(config: &Config, kernel: &Kernel, work: &Path, polycc: Option<&Path>) -> Translation {
    let (tag, program) = match polycc {
        Some(p) => ("pluto", p.to_path_buf()),
        None => ("polyc", polyc_binary()),
    };
    let output = work.join(format!("{}.{tag}.c", kernel.name));
    let _ = std::fs::remove_file(&output);
    let mut args: Vec<&std::ffi::OsStr> = vec![kernel.source.as_os_str()];
    let utilities = config.pb.join("utilities");
    if polycc.is_some() {
        args.extend(["--tile", "--parallel", "-o"].map(std::ffi::OsStr::new));
        args.push(output.as_os_str());
    } else {
        args.extend([std::ffi::OsStr::new("-o"), output.as_os_str(), std::ffi::OsStr::new("-I")]);
        args.push(utilities.as_os_str());
        args.extend(config.polyc_flags.iter().map(std::ffi::OsStr::new));
    }
    // polycc leaves scratch files in its working directory; polyc runs in the
    // repository, as in benches/runtime.rs (a tile.sizes there is read).
    let cwd = if polycc.is_some() { work.to_path_buf() } else { root() };
    let result = timed(config.timeout, &program, &args, &[], &cwd);
    match result {
        Ok((out, seconds)) => {
            let error = if !out.status.success() {
                Some(failure(tag, &out))
            } else if !output.is_file() {
                Some(format!("{tag} wrote no {}", output.display()))
            } else {
                None
            };
            Translation { output, seconds, error, stderr: String::from_utf8_lossy(&out.stderr).trim().to_string() }
        }
        Err(e) => Translation { output, seconds: config.timeout, error: Some(e), stderr: String::new() },
    }
}

/// Compiles one program of a kernel: `compiler flags -I utilities -I <kernel dir>
/// utilities/polybench.c source defines -lm -o binary`.
pub(crate) fn build(
    config: &Config,
    compiler: Compiler,
    kernel: &Kernel,
    source: &Path,
    defines: &[&str],
    binary: &Path,
) -> Result<(), String> {
    let mut cmd = match compiler {
        Compiler::Gcc | Compiler::GccOpenmp => {
            let mut c = Command::new(GCC[0]);
            c.args(&GCC[1..]);
            if compiler == Compiler::GccOpenmp {
                c.arg("-fopenmp");
            }
            c
        }
        Compiler::Polly => {
            let mut c = Command::new(config.clang.as_deref().unwrap_or("clang-19"));
            c.args(POLLY_FLAGS);
            c
        }
    };
    let utilities = config.pb.join("utilities");
    cmd.arg("-I").arg(&utilities).arg("-I").arg(kernel.dir());
    cmd.arg(utilities.join("polybench.c")).arg(source).args(defines).arg("-lm").arg("-o").arg(binary);
    let out = cmd.output().map_err(|e| format!("cannot run the compiler: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{} failed: {}", cmd.get_program().to_string_lossy(), first_line(&out.stderr)))
    }
}

/// 1-based line of the first difference.
pub(crate) fn differing_line(a: &[u8], b: &[u8]) -> usize {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    1 + a[..at].iter().filter(|c| **c == b'\n').count()
}

pub(crate) fn bench_kernel(config: &Config, variants: &[Variant], kernel: &Kernel, work: &Path) -> KernelResult {
    let polyc = translate(config, kernel, work, None);
    let polyc_unchanged =
        polyc.error.is_none() && std::fs::read(&polyc.output).ok() == std::fs::read(&kernel.source).ok();
    let pluto = config.polycc.as_deref().map(|p| translate(config, kernel, work, Some(p)));
    let mut cells: Vec<Cell> = variants
        .iter()
        .map(|_| Cell { status: Status::Ok, detail: String::new(), runs: Vec::new(), short: false })
        .collect();
    let source_of = |s: Source| -> Result<&Path, String> {
        let t = match s {
            Source::Original => return Ok(&kernel.source),
            Source::Polyc => &polyc,
            Source::Pluto => pluto.as_ref().ok_or("no polycc")?,
        };
        match &t.error {
            Some(e) => Err(e.clone()),
            None => Ok(&t.output),
        }
    };
    // Without the thread count: a program's variants at 1 and 2 threads share
    // its binaries, which `built` makes once.
    let binary = |v: &Variant, purpose: &str| {
        let c = match v.compiler {
            Compiler::Gcc => "gcc",
            Compiler::GccOpenmp => "gcc-omp",
            Compiler::Polly => "polly",
        };
        work.join(format!("{}.{}.{c}.{purpose}", kernel.name, v.source.tag()))
    };
    let fail = |cell: &mut Cell, status: Status, detail: String| {
        cell.status = status;
        cell.detail = detail;
    };

    // The check: every variant's arrays at MINI, dumped on stderr, against the original's.
    let run_check = |bin: &Path, threads: usize| -> Result<Vec<u8>, String> {
        let (out, _) = timed(config.timeout, bin, &[], &[("OMP_NUM_THREADS", threads.to_string())], work)?;
        if out.status.success() {
            Ok(out.stderr)
        } else {
            Err(failure("the check run", &out))
        }
    };
    let reference_bin = binary(&variants[0], "check");
    let reference = build(config, Compiler::Gcc, kernel, &kernel.source, &CHECK_FLAGS, &reference_bin)
        .and_then(|_| run_check(&reference_bin, 1));
    let reference = match reference {
        Ok(r) => r,
        Err(e) => {
            for cell in &mut cells {
                fail(cell, Status::Failed, format!("original at MINI: {e}"));
            }
            return KernelResult { name: kernel.name.clone(), cells, polyc, polyc_unchanged, pluto };
        }
    };
    let mut built: HashMap<PathBuf, Result<(), String>> = HashMap::new();
    for (v, cell) in variants.iter().zip(&mut cells).skip(1) {
        let source = match source_of(v.source) {
            Ok(s) => s,
            Err(e) => {
                fail(cell, Status::Failed, e);
                continue;
            }
        };
        let bin = binary(v, "check");
        let made = built
            .entry(bin.clone())
            .or_insert_with(|| build(config, v.compiler, kernel, source, &CHECK_FLAGS, &bin))
            .clone();
        match made.and_then(|_| run_check(&bin, v.threads)) {
            Ok(dump) if dump == reference => {}
            Ok(dump) => fail(
                cell,
                Status::Wrong,
                format!(
                    "arrays at MINI differ from the original's from dump line {} ({} vs {} bytes)",
                    differing_line(&reference, &dump),
                    dump.len(),
                    reference.len()
                ),
            ),
            Err(e) => fail(cell, Status::Failed, format!("check: {e}")),
        }
    }

    // Timing builds, then rounds that interleave the variants so that drift
    // in the machine's speed affects all of them alike.
    let dataset = format!("-D{}_DATASET", config.dataset_of(&kernel.name));
    let defines = ["-DPOLYBENCH_TIME", dataset.as_str()];
    for (v, cell) in variants.iter().zip(&mut cells) {
        if cell.status != Status::Ok {
            continue;
        }
        let bin = binary(v, "time");
        let made = match source_of(v.source) {
            Ok(source) => built
                .entry(bin.clone())
                .or_insert_with(|| build(config, v.compiler, kernel, source, &defines, &bin))
                .clone(),
            Err(e) => Err(e),
        };
        if let Err(e) = made {
            fail(cell, Status::Failed, e);
        }
    }
    let mut rounds = 0;
    while rounds < config.runs || wants_more_rounds(&cells, rounds) {
        rounds += 1;
        for (v, cell) in variants.iter().zip(&mut cells) {
            if cell.status != Status::Ok {
                continue;
            }
            let bin = binary(v, "time");
            let seconds = timed(config.timeout, &bin, &[], &[("OMP_NUM_THREADS", v.threads.to_string())], work)
                .and_then(|(out, _)| {
                    if !out.status.success() {
                        return Err(failure("the timed run", &out));
                    }
                    let text = String::from_utf8_lossy(&out.stdout);
                    let last = text.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("");
                    last.parse::<f64>().map_err(|_| format!("no PolyBench time on stdout (last line `{last}`)"))
                });
            match seconds {
                Ok(s) => cell.runs.push(s),
                Err(e) => fail(cell, Status::Failed, e),
            }
        }
    }
    for cell in &mut cells {
        cell.short = rounds > config.runs;
    }
    KernelResult { name: kernel.name.clone(), cells, polyc, polyc_unchanged, pluto }
}

/// A kernel whose baseline runs under `SHORT_TOTAL_S` in its first rounds
/// gets more, up to `MAX_ROUNDS`, and is timed by its fastest run (see
/// `Cell::time`): a run of a few milliseconds moves by more than 5%
/// between runs, which a median of three does not absorb.
pub(crate) const SHORT_TOTAL_S: f64 = 1.0;
pub(crate) const MAX_ROUNDS: usize = 25;

pub(crate) fn wants_more_rounds(cells: &[Cell], rounds: usize) -> bool {
    let baseline = &cells[0];
    rounds < MAX_ROUNDS && baseline.status == Status::Ok && baseline.runs.iter().sum::<f64>() < SHORT_TOTAL_S
}
