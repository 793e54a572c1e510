//! What an object file's functions compile to, for comparing two builds of
//! one source: `objdump`'s disassembly per function, with what depends on
//! where the function sits (its address, absolute jump targets) left out.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Each function of `object` (by symbol, clones such as `f.part.0` apart)
/// and its instructions, one a line, without addresses.
pub fn functions(object: &Path) -> Result<BTreeMap<String, String>, String> {
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn"])
        .arg(object)
        .output()
        .map_err(|e| format!("cannot run objdump: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut code: BTreeMap<String, String> = BTreeMap::new();
    let mut body: Option<&mut String> = None;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(name) = symbol_heading(line) {
            body = Some(code.entry(name.to_string()).or_default());
        } else if let (Some(body), Some((_, insn))) = (body.as_deref_mut(), line.split_once(":\t")) {
            body.push_str(&without_addresses(insn));
            body.push('\n');
        }
    }
    Ok(code)
}

/// `0000000000000040 <s314>:` gives `s314`.
fn symbol_heading(line: &str) -> Option<&str> {
    let (address, rest) = line.split_once(' ')?;
    let name = rest.strip_prefix('<')?.strip_suffix(">:")?;
    address.chars().all(|c| c.is_ascii_hexdigit()).then_some(name)
}

/// `jmp    1d2 <s314+0x42>` gives `jmp    <s314+0x42>`: the target relative
/// to its symbol stays, its offset in the section goes.
fn without_addresses(insn: &str) -> String {
    let Some(open) = insn.find(" <") else { return insn.trim_end().to_string() };
    let head = insn[..open].trim_end_matches(|c: char| c.is_ascii_hexdigit());
    format!("{}{}", head, insn[open + 1..].trim_end())
}

/// The function of the base symbol (`s314` for `s314.part.0`, and for
/// `s314._omp_fn.0`, the region OpenMP outlined from it).
pub fn base_symbol(symbol: &str) -> &str {
    symbol.split('.').next().unwrap_or(symbol)
}

/// The names of the functions defined around the given lines of a C file
/// whose definitions start in column 0 (`real_t s314(struct args_t *a)`
/// on one line, the body after it): for each line, the last such heading
/// above it.
pub fn functions_around(source: &str, lines: &[usize]) -> Vec<String> {
    let mut heading_at: Vec<(usize, String)> = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let starts_definition = line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && line.contains('(')
            && !line.trim_end().ends_with(';');
        let name = line.split('(').next().and_then(|h| h.split(|c: char| !is_ident(c)).rfind(|w| !w.is_empty()));
        if let (true, Some(name)) = (starts_definition, name) {
            heading_at.push((i + 1, name.to_string()));
        }
    }
    lines.iter().filter_map(|&l| heading_at.iter().rev().find(|(h, _)| *h <= l).map(|(_, name)| name.clone())).collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
