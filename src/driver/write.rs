//! Writing an output file the way a compiler's `-o` does, without ever
//! leaving a half-written regular file: a regular file (or a path that
//! does not exist yet) is replaced atomically, a temporary file in its
//! directory renamed over it; a symbolic link is followed (a chain of
//! them) and its final target replaced, so the link stays a link; anything
//! else (a FIFO, a terminal, a device, `/dev/stdout`) is opened and written
//! through, as renaming over it would take the place of the node itself.

use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};

/// The kernel's limit on the links it follows in one path (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Write `contents` to `path`: atomically where it is (or will be) a
/// regular file, else through the node it names.
pub fn write_output(path: &Path, contents: &[u8]) -> io::Result<()> {
    let (target, through_proc) = final_target(path)?;
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && !through_proc => replace_atomically(&target, contents, Some(m.permissions())),
        Ok(_) => write_through(path, contents),
        Err(e) if e.kind() == ErrorKind::NotFound => replace_atomically(&target, contents, None),
        Err(e) => Err(e),
    }
}

/// The path `path`'s chain of symbolic links ends at (the path itself if
/// it is not a link; the end may not exist), and whether the chain went
/// through `/proc`: there a link (`/dev/stdout`, `/dev/fd/1`, to
/// `/proc/self/fd/1`) stands for a file some process holds open, which
/// only a write through it reaches. Each link is read in the directory
/// it really sits in, as the kernel does.
fn final_target(path: &Path) -> io::Result<(PathBuf, bool)> {
    let mut at = path.to_path_buf();
    let mut through_proc = false;
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let dir = at.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
                let dir = dir.canonicalize()?;
                through_proc |= dir.starts_with("/proc");
                at = dir.join(std::fs::read_link(&at)?);
            }
            Ok(_) => return Ok((at, through_proc)),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok((at, through_proc)),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links from `{}`", path.display())))
}

/// A temporary file in `path`'s directory, with `permissions` (those of
/// the file it replaces), renamed over `path`.
fn replace_atomically(path: &Path, contents: &[u8], permissions: Option<std::fs::Permissions>) -> io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.polyc-tmp", std::process::id()));
    let written = std::fs::write(&tmp, contents)
        .and_then(|()| permissions.map_or(Ok(()), |p| std::fs::set_permissions(&tmp, p)))
        .and_then(|()| std::fs::rename(&tmp, path));
    written.inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Open the node `path` names for writing, truncated as gcc's `-o` does
/// (which a FIFO or a device ignores), and write `contents` into it.
fn write_through(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut node = std::fs::OpenOptions::new().write(true).truncate(true).open(path)?;
    node.write_all(contents)?;
    node.flush()
}
