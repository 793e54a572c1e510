//! `-o` writes as gcc's does: through a symbolic link (or a chain of
//! them) to its target, which is replaced atomically and keeps its
//! permissions, the link staying a link; into a FIFO, whose reader gets
//! the output; never over the input. No test points `-o` at /dev/null or
//! /dev/stdout: the tests run as root, and a broken writer would replace
//! them.

use crate::common;
use common::*;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// polyc on corpus/gemm.c, `-o output`: its status and stderr.
fn polyc_to(input: &Path, output: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut cmd = Command::new(polyc_bin());
    cmd.arg(input).arg("-o").arg(output).args(extra);
    let (code, _, err) = run_with(cmd, Duration::from_secs(60)).expect("polyc runs");
    (code, String::from_utf8_lossy(&err).into_owned())
}

/// A copy of corpus/gemm.c in `dir`, and what polyc writes for it into a plain file.
fn gemm_and_expected(dir: &Path) -> (PathBuf, Vec<u8>) {
    let input = dir.join("gemm.c");
    std::fs::copy(root().join("corpus/gemm.c"), &input).expect("a copy of gemm");
    let plain = dir.join("plain.c");
    let (code, err) = polyc_to(&input, &plain, &[]);
    assert_eq!(code, Some(0), "{err}");
    let expected = std::fs::read(&plain).expect("the plain output");
    assert_ne!(expected, std::fs::read(&input).unwrap(), "gemm is transformed");
    (input, expected)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success());
}

/// Read `fifo` to its end on a thread; the receiver gets what was read.
fn read_on_a_thread(fifo: PathBuf) -> mpsc::Receiver<Vec<u8>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(std::fs::read(&fifo).unwrap_or_default());
    });
    receiver
}

#[test]
fn a_symbolic_link_stays_a_link_and_its_target_gets_the_output() {
    let dir = scratch("output-path-link");
    let (input, expected) = gemm_and_expected(&dir);
    let before = std::fs::read(&input).unwrap();
    std::fs::create_dir(dir.join("elsewhere")).unwrap();
    let target = dir.join("elsewhere/out.c");
    std::fs::write(&target, "old contents\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.c");
    std::os::unix::fs::symlink("elsewhere/out.c", &link).unwrap();
    let (code, err) = polyc_to(&input, &link, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(is_symlink(&link), "the link was replaced by a file");
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("elsewhere/out.c"));
    assert_eq!(std::fs::read(&target).unwrap(), expected);
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "the target keeps its permissions");
    let names: Vec<_> = std::fs::read_dir(dir.join("elsewhere")).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("out.c")], "no temporary file is left");
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input is untouched");
}

#[test]
fn a_chain_of_links_is_followed_to_its_end_which_may_not_exist_yet() {
    let dir = scratch("output-path-chain");
    let (input, expected) = gemm_and_expected(&dir);
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.join(sub)).unwrap();
    }
    // first.c -> a/second.c -> ../b/new.c (relative to a/), not there yet.
    let first = dir.join("first.c");
    std::os::unix::fs::symlink("a/second.c", &first).unwrap();
    std::os::unix::fs::symlink("../b/new.c", dir.join("a/second.c")).unwrap();
    let (code, err) = polyc_to(&input, &first, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(is_symlink(&first) && is_symlink(&dir.join("a/second.c")), "both links stay links");
    assert_eq!(std::fs::read(dir.join("b/new.c")).unwrap(), expected);
    assert_eq!(std::fs::read_dir(dir.join("b")).unwrap().count(), 1, "no temporary file is left");
}

#[test]
fn a_fifo_receives_the_output() {
    let dir = scratch("output-path-fifo");
    let (input, expected) = gemm_and_expected(&dir);
    let fifo = dir.join("out.fifo");
    mkfifo(&fifo);
    let received = read_on_a_thread(fifo.clone());
    let (code, err) = polyc_to(&input, &fifo, &[]);
    assert_eq!(code, Some(0), "{err}");
    let got = received.recv_timeout(Duration::from_secs(30)).expect("the reader got the output");
    assert_eq!(got, expected);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");
}

#[test]
fn a_link_to_a_fifo_writes_into_the_fifo() {
    let dir = scratch("output-path-link-fifo");
    let (input, expected) = gemm_and_expected(&dir);
    let fifo = dir.join("out.fifo");
    mkfifo(&fifo);
    let link = dir.join("link.c");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let received = read_on_a_thread(fifo.clone());
    let (code, err) = polyc_to(&input, &link, &[]);
    assert_eq!(code, Some(0), "{err}");
    let got = received.recv_timeout(Duration::from_secs(30)).expect("the reader got the output");
    assert_eq!(got, expected);
    assert!(is_symlink(&link));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");
}

/// `/proc/self/fd/1`, and `/dev/fd/1` (a link in a linked directory),
/// with the standard output redirected to a file: the file the process
/// holds open is written through, not replaced.
#[test]
fn an_open_file_named_through_proc_is_written_through() {
    let dir = scratch("output-path-proc");
    let (input, expected) = gemm_and_expected(&dir);
    for name in ["/proc/self/fd/1", "/dev/fd/1"] {
        let redirected = dir.join("redirected.c");
        let file = std::fs::File::create(&redirected).unwrap();
        let inode = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&redirected).unwrap());
        let out = Command::new(polyc_bin()).arg(&input).args(["-o", name]).stdout(file).output().expect("polyc runs");
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read(&redirected).unwrap(), expected, "{name}");
        let after = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&redirected).unwrap());
        assert_eq!(after, inode, "{name}: the open file was replaced");
    }
}

#[test]
fn a_link_to_the_input_is_refused_and_the_input_untouched() {
    let dir = scratch("output-path-input");
    let input = dir.join("gemm.c");
    std::fs::copy(root().join("corpus/gemm.c"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let link = dir.join("link.c");
    std::os::unix::fs::symlink("gemm.c", &link).unwrap();
    let (code, err) = polyc_to(&input, &link, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("refusing to overwrite the input"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
    assert!(is_symlink(&link));
}

#[test]
fn batch_writes_through_links_but_never_into_the_inputs() {
    let dir = scratch("output-path-batch");
    let (src, out, elsewhere) = (dir.join("src"), dir.join("out"), dir.join("elsewhere"));
    for d in [&src, &out, &elsewhere] {
        std::fs::create_dir(d).unwrap();
    }
    let (gemm, jacobi) = (src.join("gemm.c"), src.join("jacobi.c"));
    std::fs::copy(root().join("corpus/gemm.c"), &gemm).unwrap();
    std::fs::copy(root().join("corpus/jacobi-1d.c"), &jacobi).unwrap();
    let jacobi_before = std::fs::read(&jacobi).unwrap();
    // out/gemm.c leads elsewhere; out/jacobi.c back onto its own input.
    std::os::unix::fs::symlink(elsewhere.join("gemm.c"), out.join("gemm.c")).unwrap();
    std::os::unix::fs::symlink(&jacobi, out.join("jacobi.c")).unwrap();
    let mut cmd = Command::new(polyc_bin());
    cmd.arg("batch").arg(&src).arg("-o").arg(&out).args(["--jobs", "1"]);
    let (code, stdout, _) = run_with(cmd, Duration::from_secs(120)).expect("batch runs");
    let table = String::from_utf8_lossy(&stdout);
    assert_eq!(code, Some(3), "{table}");
    assert!(table.contains("E0003") && table.contains("leads into the input directory"), "{table}");
    assert_eq!(std::fs::read(&jacobi).unwrap(), jacobi_before, "the input is untouched");
    assert!(is_symlink(&out.join("gemm.c")) && is_symlink(&out.join("jacobi.c")));
    let written = std::fs::read_to_string(elsewhere.join("gemm.c")).expect("the link's target is written");
    assert!(written.contains("#pragma omp parallel for"), "{written}");
}
