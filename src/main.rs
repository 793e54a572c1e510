//! The `polyc` command line.

use clap::Parser;
use polyc::diagnostics::{Code, Diagnostic, Severity};
use polyc::driver::{self, Emit, Options, ScheduleKind};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit codes:
  0  success (warnings, if any, were printed; rejected SCoPs are kept unchanged)
  1  --strict and at least one SCoP was rejected (the output is still written)
  2  usage error
  3  the input cannot be read or does not parse as C (nothing is written)
  4  the output cannot be written";

#[derive(Parser, Debug)]
#[command(
    name = "polyc",
    version,
    about = "A polyhedral source-to-source C compiler: rewrites the `#pragma scop` regions of a C file.",
    after_help = EXIT_CODES
)]
struct Cli {
    /// The C file to compile.
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,

    /// Where to write the result (`-` for standard output, the default).
    #[arg(short, long, default_value = "-")]
    output: String,

    /// Scheduling strategy.
    #[arg(long, value_enum, default_value_t = ScheduleKind::Identity)]
    schedule: ScheduleKind,

    /// What to print.
    #[arg(long, value_enum, default_value_t = Emit::C)]
    emit: Emit,

    /// Exit with status 1 if any SCoP is rejected.
    #[arg(long)]
    strict: bool,

    /// Do not print warnings.
    #[arg(short, long)]
    quiet: bool,

    /// Allow the output to be the input file.
    #[arg(long)]
    in_place: bool,

    /// isl operations allowed per SCoP before it is kept unchanged.
    #[arg(long, default_value_t = polyc::model::isl::DEFAULT_OPERATION_BUDGET)]
    isl_budget: u64,

    /// Replace every SCoP statement by a printf of its instance (debugging aid).
    #[arg(long)]
    trace: bool,

    /// Explain a diagnostic code (e.g. P0002) and exit.
    #[arg(long, value_name = "CODE")]
    explain: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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
    run(cli)
}

fn run(cli: Cli) -> ExitCode {
    let Some(input) = cli.input.as_ref() else {
        return ExitCode::from(2);
    };
    let name = input.display().to_string();
    let color = std::io::stderr().is_terminal();
    let text = match std::fs::read(input).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => {
            return fail(&name, "", Diagnostic::error(Code::E0002, 0..0, "the input is not UTF-8 text"), color)
        }
        Err(e) => {
            return fail(&name, "", Diagnostic::error(Code::E0002, 0..0, format!("cannot read `{name}`: {e}")), color)
        }
    };
    if cli.output != "-" && !cli.in_place && same_file(input, std::path::Path::new(&cli.output)) {
        eprintln!("polyc: refusing to overwrite the input `{name}`; pass --in-place to allow it");
        return ExitCode::from(2);
    }
    let options = Options { emit: cli.emit, schedule: cli.schedule, isl_budget: cli.isl_budget, trace: cli.trace };
    let outcome = match driver::compile(text.clone(), &options) {
        Ok(o) => o,
        Err(d) => return fail(&name, &text, d, color),
    };
    for d in &outcome.diagnostics {
        if !cli.quiet || d.severity == Severity::Error {
            eprint!("{}", d.render(&name, &text, color));
        }
    }
    let written = if cli.output == "-" {
        use std::io::Write;
        std::io::stdout().write_all(outcome.output.as_bytes())
    } else {
        driver::write_atomically(&PathBuf::from(&cli.output), &outcome.output)
    };
    if let Err(e) = written {
        eprintln!("polyc: error[E0003]: cannot write `{}`: {e}", cli.output);
        return ExitCode::from(4);
    }
    if cli.strict && !outcome.diagnostics.is_empty() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
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
