//! A fuzzer for the front end and the whole pipeline, on stable Rust
//! (cargo-fuzz needs a nightly toolchain): inputs are arbitrary bytes and
//! mutations of the corpus's `.c` files (byte flips, token swaps and
//! replacements, lines deleted or duplicated, two files spliced, a
//! statement nesting thousands deep or a sum thousands of terms long), each
//! compiled by `polyc::driver::compile` in a thread of its own under the
//! isl and wall-clock budgets, with a time limit of its own. Every input
//! must be rejected with a diagnostic or compiled; a panic, a hang or a
//! text polyc built that isl does not read is a finding, saved under
//! `target/fuzz-findings/`.
//!
//! `cargo test --test suite fuzz::` runs a small fixed-seed campaign;
//! `scripts/fuzz-frontend --inputs N [--seed S] [--jobs J]` runs any number
//! (the ignored test `fuzz_campaign`, sized by `POLYC_FUZZ_INPUTS`).

use crate::common;
use common::root;
use polyc::driver;
use polyc::options::Options;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// splitmix64: small, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Tokens worth inserting: C punctuation, keywords, polyc's constructs.
const DICTIONARY: &[&str] = &[
    "for",
    "if",
    "else",
    "while",
    "int",
    "double",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "!",
    "=",
    "+=",
    "-=",
    "++",
    "--",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "?",
    ":",
    "0",
    "1",
    "-1",
    "2",
    "7",
    "1000000007",
    "2147483647",
    "9223372036854775807",
    "N",
    "M",
    "i",
    "j",
    "k",
    "t",
    "A",
    "B",
    "min",
    "max",
    "floord",
    "ceild",
    "sqrt",
    "multifor",
    "\n#pragma scop\n",
    "\n#pragma endscop\n",
    "#define N 10\n",
    "#pragma polyc temporary(A)\n",
    "#pragma polyc live_out(A)\n",
    "\"",
    "'",
    "\\",
    "/*",
    "*/",
    "//",
];

/// `text` split into tokens (identifiers, numbers, punctuation, spaces).
fn tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < text.len() {
        let start = k;
        let class = |b: u8| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9' => 0,
            b' ' | b'\t' | b'\n' | b'\r' => 1,
            _ => 2,
        };
        let c = class(text[k]);
        k += 1;
        if c != 2 {
            while k < text.len() && class(text[k]) == c {
                k += 1;
            }
        }
        out.push((start, k));
    }
    out
}

fn line_ranges(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (k, &b) in text.iter().enumerate() {
        if b == b'\n' {
            out.push((start, k + 1));
            start = k + 1;
        }
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out
}

/// `open` `n` times, `inner`, `close` `n` times.
fn nested(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// A statement nesting up to thousands of levels deep (parentheses,
/// subscripts, blocks, loops, `if`s, `else if` chains, unary operators), or
/// one long line (a sum of thousands of terms), inserted after a
/// `#pragma scop` line when there is one, else anywhere: every recursion
/// over the user's text must be bounded or iterative.
fn deepen(rng: &mut Rng, text: &mut Vec<u8>) {
    let n = 1 + rng.below(4000);
    let statement = match rng.below(8) {
        0 => format!("A[i][j] = {};", nested("(", "A[i][j]", ")", n)),
        1 => format!("x = {};", nested("A[", "0", "]", n)),
        2 => nested("{", "A[i][j] = 1;", "}", n),
        3 => nested("for (int i = 0; i < N; i++) ", "A[i][i] = 0;", "", n.min(1500)),
        4 => nested("if (i < N) ", "A[i][j] = 0;", "", n),
        5 => format!("if (i) A[i][j] = 1;{}", " else if (j < N) A[i][j] = 2;".repeat(n)),
        6 => format!("A[i][j] = {}A[i][j];", "-".repeat(n)),
        _ => format!("A[i][j] = {};", vec!["A[i][j]"; n].join(" + ")),
    };
    let after_pragma = |t: &[u8]| t.windows(13).position(|w| w == b"#pragma scop\n").map(|k| k + 13);
    let at = match after_pragma(text) {
        Some(k) if rng.chance(2) => k,
        _ => rng.below(text.len() + 1),
    };
    text.splice(at..at, format!("{statement}\n").into_bytes());
}

/// One mutation of `text` (`other`: a second file, for splicing).
fn mutate(rng: &mut Rng, text: &mut Vec<u8>, other: &[u8]) {
    match rng.below(9) {
        8 => deepen(rng, text),
        0 if !text.is_empty() => {
            let at = rng.below(text.len());
            text[at] ^= 1 << rng.below(8);
        }
        1 if !text.is_empty() => {
            let at = rng.below(text.len());
            let bytes = b"(){}[];+-*/%<>=!&|?:,.#\"'\\0123456789 \nijNx";
            text[at] = bytes[rng.below(bytes.len())];
        }
        2 | 3 => {
            let toks: Vec<(usize, usize)> =
                tokens(text).into_iter().filter(|&(s, e)| text[s] != b' ' && e > s).collect();
            if toks.len() < 2 {
                return;
            }
            let (a, b) = (toks[rng.below(toks.len())], toks[rng.below(toks.len())]);
            if rng.chance(2) {
                // Replace token a by token b's text or a dictionary word.
                let with: Vec<u8> = if rng.chance(2) {
                    text[b.0..b.1].to_vec()
                } else {
                    DICTIONARY[rng.below(DICTIONARY.len())].as_bytes().to_vec()
                };
                text.splice(a.0..a.1, with);
            } else if a.1 <= b.0 || b.1 <= a.0 {
                let (first, second) = if a.0 < b.0 { (a, b) } else { (b, a) };
                let mut out = text[..first.0].to_vec();
                out.extend_from_slice(&text[second.0..second.1]);
                out.extend_from_slice(&text[first.1..second.0]);
                out.extend_from_slice(&text[first.0..first.1]);
                out.extend_from_slice(&text[second.1..]);
                *text = out;
            }
        }
        4 => {
            let lines = line_ranges(text);
            if !lines.is_empty() {
                let first = rng.below(lines.len());
                let last = (first + rng.below(3)).min(lines.len() - 1);
                text.drain(lines[first].0..lines[last].1);
            }
        }
        5 => {
            let lines = line_ranges(text);
            if !lines.is_empty() {
                let (s, e) = lines[rng.below(lines.len())];
                let copy = text[s..e].to_vec();
                let (at, _) = lines[rng.below(lines.len())];
                text.splice(at..at, copy);
            }
        }
        6 => {
            let (mine, theirs) = (line_ranges(text), line_ranges(other));
            if !mine.is_empty() && !theirs.is_empty() {
                let cut = mine[rng.below(mine.len())].0;
                let from = theirs[rng.below(theirs.len())].0;
                text.truncate(cut);
                text.extend_from_slice(&other[from..]);
            }
        }
        _ => {
            let at = rng.below(text.len() + 1);
            let word = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes().to_vec();
            text.splice(at..at, word);
        }
    }
}

/// Input number `index` of the campaign seeded `seed`, and the options it runs with.
fn input(seed: u64, index: usize, corpus: &[Vec<u8>]) -> (String, Options) {
    let mut rng = Rng(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    rng.next();
    let bytes = if rng.chance(10) {
        let n = rng.below(400);
        (0..n).map(|_| rng.next() as u8).collect::<Vec<u8>>()
    } else {
        let mut text = corpus[rng.below(corpus.len())].clone();
        let other = &corpus[rng.below(corpus.len())];
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut text, other);
        }
        text
    };
    // The driver takes text: the bytes as `polyc` reads a file (`frontend::encoding`).
    let text = polyc::frontend::encoding::decode(bytes).map(|(text, _)| text).unwrap_or_default();
    let mut options = if rng.chance(8) { Options::optimising() } else { Options::default() };
    options.plan.isl_budget = 2_000_000;
    options.plan.time_budget = Some(Duration::from_secs(1));
    (text, options)
}

/// The `.c` files of the corpus, in a fixed order.
fn corpus_files() -> Vec<Vec<u8>> {
    let mut paths = Vec::new();
    collect(&root().join("corpus"), &mut paths);
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).expect("corpus file reads")).collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("corpus directory").flatten() {
        let p = entry.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "c") {
            out.push(p);
        }
    }
}

/// The name of the threads inputs are compiled on.
const INPUT_THREAD: &str = "fuzz-input";

#[derive(Debug)]
#[allow(dead_code)] // the messages are read through `Debug`
enum Verdict {
    /// Compiled (with this many SCoPs regenerated), or rejected with a diagnostic.
    Fine(usize),
    Panic(String),
    Hang,
    /// A diagnostic says polyc built a text isl does not read.
    BadIslText(String),
}

/// Compile `text` in a thread of its own, at most `limit`.
fn judge(text: String, options: Options, limit: Duration) -> Verdict {
    let (send, receive) = mpsc::channel();
    let worker =
        std::thread::Builder::new().name(INPUT_THREAD.into()).stack_size(driver::COMPILE_STACK).spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| driver::compile(text, &options)));
            let verdict = match outcome {
                Err(panic) => Verdict::Panic(
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                ),
                Ok(Ok(out)) => match out.diagnostics.iter().find(|d| d.message.contains("does not read the text")) {
                    Some(d) => Verdict::BadIslText(d.message.clone()),
                    None => {
                        Verdict::Fine(out.scops.iter().filter(|s| s.status == driver::ScopStatus::Regenerated).count())
                    }
                },
                Ok(Err(d)) if d.message.contains("does not read the text") => Verdict::BadIslText(d.message),
                Ok(Err(_)) => Verdict::Fine(0),
            };
            let _ = send.send(verdict);
        });
    if worker.is_err() {
        return Verdict::Panic("cannot start a thread".into());
    }
    match receive.recv_timeout(limit) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => Verdict::Hang,
        Err(mpsc::RecvTimeoutError::Disconnected) => Verdict::Panic("worker died".into()),
    }
}

/// Run inputs `0..n` of campaign `seed` on `jobs` threads; the findings,
/// each saved under `target/fuzz-findings/`.
fn campaign(seed: u64, n: usize, jobs: usize, report_every: usize) -> Vec<String> {
    let corpus = corpus_files();
    let dir = root().join("target").join("fuzz-findings");
    std::fs::create_dir_all(&dir).expect("findings directory");
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    // Inputs with some SCoP modelled and regenerated: those that went past the front end.
    let deep = AtomicUsize::new(0);
    let findings = Mutex::new(Vec::new());
    let start = Instant::now();
    // Quiet inputs: their panics are findings, reported at the end.
    let hook = std::sync::Arc::new(std::panic::take_hook());
    let others = hook.clone();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(INPUT_THREAD) {
            others(info)
        }
    }));
    std::thread::scope(|s| {
        for worker in 0..jobs {
            let (corpus, dir, next, done, deep, findings) = (&corpus, &dir, &next, &done, &deep, &findings);
            s.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= n {
                    break;
                }
                let (text, options) = input(seed, k, corpus);
                // A crash that takes the process down leaves its input here.
                let _ = std::fs::write(dir.join(format!("in-flight-{worker}.c")), &text);
                let verdict = judge(text.clone(), options, Duration::from_secs(60));
                if let Verdict::Fine(regenerated) = verdict {
                    if regenerated > 0 {
                        deep.fetch_add(1, Ordering::SeqCst);
                    }
                } else {
                    let kind = match &verdict {
                        Verdict::Panic(_) => "panic",
                        Verdict::Hang => "hang",
                        _ => "bad-isl-text",
                    };
                    let file = dir.join(format!("{kind}-seed{seed}-{k}.c"));
                    let _ = std::fs::write(&file, &text);
                    findings.lock().expect("no poisoned lock").push(format!("{}: {verdict:?}", file.display()));
                }
                let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                if report_every > 0 && d % report_every == 0 {
                    let f = findings.lock().expect("no poisoned lock").len();
                    let deep = deep.load(Ordering::SeqCst);
                    eprintln!(
                        "inputs {d}, findings {f} ({deep} with a SCoP regenerated, {:.0} s)",
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let _ = std::panic::take_hook();
    if let Ok(hook) = std::sync::Arc::try_unwrap(hook) {
        std::panic::set_hook(hook);
    }
    for worker in 0..jobs {
        let _ = std::fs::remove_file(dir.join(format!("in-flight-{worker}.c")));
    }
    findings.into_inner().expect("no poisoned lock")
}

/// The first inputs of campaign 1: a smoke test within the CI's time
/// (1,000 inputs took 57 s of two cores' on a slower machine, 2026-12-01);
/// campaigns run `fuzz_campaign`.
#[test]
fn fuzz_fixed_seed_smoke() {
    let n = 600;
    let findings = campaign(1, n, 2, 0);
    println!("inputs {n}, findings {}", findings.len());
    assert!(findings.is_empty(), "{}", findings.join("\n"));
}

/// `scripts/fuzz-frontend`: `POLYC_FUZZ_INPUTS` inputs (default 100000)
/// of campaign `POLYC_FUZZ_SEED` (default 2) on `POLYC_FUZZ_JOBS` threads
/// (default 2); prints `inputs N, findings K`.
#[test]
#[ignore]
fn fuzz_campaign() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let n = env("POLYC_FUZZ_INPUTS", 100_000) as usize;
    let seed = env("POLYC_FUZZ_SEED", 2);
    let jobs = env("POLYC_FUZZ_JOBS", 2) as usize;
    let findings = campaign(seed, n, jobs, 1000);
    for f in &findings {
        println!("{f}");
    }
    println!("inputs {n}, findings {}", findings.len());
}
