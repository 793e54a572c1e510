//! `polyc-cc` in builds: a small project of our own built by make (with
//! `-j2`, dependency files and a separate link), against the same build
//! with the plain compiler; a polyc that fails; the report; and PolyBench
//! built by its own generated makefiles (`POLYBENCH_DIR`, as in
//! tests/polybench.rs), every kernel's dump compared with `cc`'s.

use crate::common;
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const MAKEFILE: &str = "\
CFLAGS ?= -O2 -g
OBJS = main.o stencil.o
app: $(OBJS)
\t$(CC) $(CFLAGS) -o $@ $(OBJS) -lm
%.o: %.c
\t$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
clean:
\trm -f app $(OBJS) $(OBJS:.o=.d)
-include $(OBJS:.o=.d)
";

const HEADER: &str = "#define N 300\n#define STEPS 20\nvoid smooth(void);\ndouble total(void);\n";

const STENCIL: &str = r#"#include <assert.h>
#include "grid.h"
static double a[N][N], b[N][N];

void smooth(void) {
  int t, i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = (double)((i * 31 + j * 17) % 101) / 101.0;
  for (t = 0; t < STEPS; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        a[i][j] = b[i][j];
  }
  assert(__LINE__ == 18);
}

double total(void) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i][i];
  return s;
}
"#;

const MAIN: &str = r#"#include <stdio.h>
#include "grid.h"
int main(void) {
  smooth();
  printf("%.12f %s:%d\n", total(), __FILE__, __LINE__);
  return 0;
}
"#;

/// The project, in a fresh directory `name` under the scratch directory.
fn project(name: &str) -> PathBuf {
    let dir = scratch(name);
    for (file, text) in [("Makefile", MAKEFILE), ("grid.h", HEADER), ("stencil.c", STENCIL), ("main.c", MAIN)] {
        std::fs::write(dir.join(file), text).expect("the project is written");
    }
    dir
}

/// Every file under `dir` with its bytes, by relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
                out.insert(rel, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

fn app_output(dir: &Path) -> Vec<u8> {
    let mut cmd = Command::new(dir.join("app"));
    cmd.current_dir(dir).env("OMP_NUM_THREADS", "2");
    match run_with(cmd, Duration::from_secs(60)) {
        Ok((Some(0), out, _)) => out,
        other => panic!("{}/app failed: {other:?}", dir.display()),
    }
}

#[test]
fn a_parallel_make_builds_what_cc_builds_leaving_nothing_behind() {
    let plain = project("cc-plain");
    make(&plain, &["-j2", "CC=cc"], &[]).unwrap();
    let dir = project("cc-polyc");
    let tmp = scratch("cc-polyc-tmp");
    let reports = scratch("cc-polyc-report");
    let cc = format!("CC={}", polyc_cc().display());
    let env = [("TMPDIR", tmp.as_path()), ("POLYC_REPORT", reports.as_path())];
    let messages = make(&dir, &["-j2", &cc], &env).unwrap();
    assert_eq!(messages, "", "polyc-cc printed messages of its own");
    let (first, expected) = (files(&dir), files(&plain));
    assert_eq!(first.keys().collect::<Vec<_>>(), expected.keys().collect::<Vec<_>>(), "other files than cc's");
    assert_eq!(first["stencil.d"], expected["stencil.d"], "the dependency file names other files");
    assert_ne!(first["stencil.o"], expected["stencil.o"], "stencil.c was not transformed");
    assert!(files(&tmp).is_empty(), "temporary files left: {:?}", files(&tmp).keys());
    assert_eq!(app_output(&dir), app_output(&plain));

    make(&dir, &["clean"], &[]).unwrap();
    make(&dir, &["-j2", &cc], &env).unwrap();
    assert!(files(&dir) == first, "a second build differs from the first");

    let summary = Command::new(polyc_bin()).arg("report").arg(&reports).output().expect("polyc report runs");
    let summary = String::from_utf8_lossy(&summary.stdout);
    assert!(summary.contains("C files compiled: 2 (transformed 1, as written 1, fell back 0)"), "{summary}");
}

#[test]
fn a_failing_polyc_leaves_the_build_as_cc_makes_it() {
    // One directory for both builds: the objects hold its path.
    let dir = project("cc-broken");
    make(&dir, &["CC=cc"], &[]).unwrap();
    let plain = files(&dir);
    make(&dir, &["clean"], &[]).unwrap();
    let cc = format!("CC={}", polyc_cc().display());
    let messages = make(&dir, &[&cc], &[("POLYC", Path::new("/bin/false"))]).unwrap();
    let warnings: Vec<&str> = messages.lines().collect();
    assert_eq!(warnings.len(), 2, "{messages}");
    assert!(warnings.iter().all(|w| w.starts_with("polyc-cc: warning: ") && w.ends_with("compiled as written")));
    assert!(files(&dir) == plain, "the build differs from cc's");
}

const CMAKELISTS: &str = "\
cmake_minimum_required(VERSION 3.13)
project(grid C)
add_executable(app main.c stencil.c)
target_link_libraries(app m)
";

#[test]
fn cmake_takes_polyc_cc_for_its_c_compiler() {
    if Command::new("cmake").arg("--version").output().is_err() {
        eprintln!("cc: the CMake test skipped: no cmake (scripts/setup installs it)");
        return;
    }
    let dir = project("cc-cmake");
    std::fs::write(dir.join("CMakeLists.txt"), CMAKELISTS).unwrap();
    let reports = scratch("cc-cmake-report");
    let compiler = format!("-DCMAKE_C_COMPILER={}", polyc_cc().display());
    let mut outputs = Vec::new();
    for (build, cc) in [("build-cc", "-DCMAKE_C_COMPILER=cc"), ("build-polyc", compiler.as_str())] {
        tool("cmake", &dir, &["-S", ".", "-B", build, cc, "-DCMAKE_BUILD_TYPE=Release"], &[]).unwrap();
        tool("cmake", &dir, &["--build", build, "-j2"], &[("POLYC_REPORT", reports.as_path())]).unwrap();
        let mut app = Command::new(dir.join(build).join("app"));
        app.env("OMP_NUM_THREADS", "2");
        outputs.push(run_with(app, Duration::from_secs(60)).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
    let summary = Command::new(polyc_bin()).arg("report").arg(&reports).output().expect("polyc report runs");
    let summary = String::from_utf8_lossy(&summary.stdout);
    assert!(summary.contains("(transformed 1, as written 1, fell back 0)"), "{summary}");
}

#[test]
fn polyc_cc_refuses_to_run_itself_as_the_real_compiler() {
    let dir = scratch("cc-itself");
    std::fs::write(dir.join("x.c"), "int main(void) { return 0; }\n").unwrap();
    let out = Command::new(polyc_cc())
        .current_dir(&dir)
        .env("POLYC_REAL_CC", polyc_cc())
        .args(["-c", "x.c"])
        .output()
        .expect("polyc-cc runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("set POLYC_REAL_CC to a compiler"));
}

/// PolyBench/C's flags for the comparison: dumps on, small sizes, and
/// the new loops run whatever the work.
const POLYBENCH_CFLAGS: &str =
    "CFLAGS=-O2 -DPOLYBENCH_DUMP_ARRAYS -DPOLYBENCH_USE_C99_PROTO -DSMALL_DATASET -DPOLYC_MIN_WORK=0";

#[test]
fn polybench_builds_with_its_own_makefiles_and_dumps_what_cc_s_build_dumps() {
    let Some(pb) = polybench_dir() else { return };
    let trees = ["cc-polybench-plain", "cc-polybench-polyc"].map(|name| {
        let dir = scratch(name);
        let copied = Command::new("cp").arg("-r").arg(pb.join(".")).arg(&dir).status().expect("cp runs");
        assert!(copied.success());
        let generated = Command::new("perl")
            .current_dir(&dir)
            .args(["utilities/makefile-gen.pl", ".", "-cfg"])
            .status()
            .expect("perl runs");
        assert!(generated.success(), "makefile-gen.pl failed");
        dir
    });
    let list = std::fs::read_to_string(pb.join("utilities/benchmark_list")).expect("benchmark_list");
    let kernels: Vec<&str> = list.lines().filter(|l| l.ends_with(".c")).collect();
    assert_eq!(kernels.len(), 30);
    let reports = scratch("cc-polybench-report");
    let polyc = format!("CC={}", polyc_cc().display());
    let failures = on_workers(&kernels, |kernel| {
        let dir = Path::new(kernel).parent().unwrap_or(Path::new("."));
        let name = stem(Path::new(kernel));
        make(&trees[0].join(dir), &["CC=cc", POLYBENCH_CFLAGS], &[])?;
        make(&trees[1].join(dir), &[&polyc, POLYBENCH_CFLAGS], &[("POLYC_REPORT", reports.as_path())])?;
        let dumps: Vec<String> = trees.iter().map(|t| dump(&t.join(dir).join(&name))).collect::<Result<_, _>>()?;
        if dumps[0] != dumps[1] || dumps[0].is_empty() {
            return Err(format!("{name}: the dumps differ ({} and {} bytes)", dumps[0].len(), dumps[1].len()));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let summary = Command::new(polyc_bin()).arg("report").arg(&reports).output().expect("polyc report runs");
    let summary = String::from_utf8_lossy(&summary.stdout).into_owned();
    let transformed: usize = summary
        .split("transformed ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(transformed >= 28, "only {transformed} kernels transformed:\n{summary}");
}

/// What a PolyBench binary dumps (on standard error), on two threads.
fn dump(binary: &Path) -> Result<String, String> {
    let mut cmd = Command::new(binary);
    cmd.env("OMP_NUM_THREADS", "2");
    match run_with(cmd, Duration::from_secs(60))? {
        (Some(0), _, err) => Ok(String::from_utf8_lossy(&err).into_owned()),
        (code, _, _) => Err(format!("{} exited with {code:?}", binary.display())),
    }
}
