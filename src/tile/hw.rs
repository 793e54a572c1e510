//! The hardware SICA sizes tiles for (see [`mod@super::sica`]): the L1 data
//! cache, the L2 cache, the cache line and the SIMD register width. Read
//! from a TOML file (`--hw FILE`), or detected on this machine: cache
//! sizes from `/sys/devices/system/cpu/cpu0/cache/`, the SIMD width from
//! CPUID; whatever cannot be read falls back to the machine of the SICA
//! paper (32 KiB L1, 256 KiB L2, 64-byte lines, 128-bit SSE registers).

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;

/// Cache and register sizes, in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hardware {
    pub l1_bytes: u64,
    pub l2_bytes: u64,
    pub line_bytes: u64,
    /// The width of one SIMD register.
    pub simd_bytes: u64,
    /// Where the values come from (a file, or what was detected).
    pub source: String,
}

/// The `--hw` file: every field required, none other allowed (a typo is
/// an error, not a silent default).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HwFile {
    /// L1 data cache, KiB.
    l1d_kib: u64,
    /// L2 cache, KiB.
    l2_kib: u64,
    /// Cache line, bytes.
    cache_line_bytes: u64,
    /// SIMD register width, bits (128: SSE, 256: AVX, 512: AVX-512).
    simd_bits: u64,
}

const FALLBACK_L1: u64 = 32 << 10;
const FALLBACK_L2: u64 = 256 << 10;
const FALLBACK_LINE: u64 = 64;
const FALLBACK_SIMD: u64 = 16;

/// The largest size a file may give (1 TiB), so that products of sizes
/// stay far from overflow.
const MAX_BYTES: u64 = 1 << 40;

impl Hardware {
    /// The description in the TOML file `path`; the error says what is wrong.
    pub fn from_file(path: &Path) -> Result<Hardware, String> {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("--hw {name}: cannot read it: {e}"))?;
        Hardware::from_toml(&text, &name.to_string())
    }

    /// The description in TOML `text` (named `source` in reports and errors).
    pub fn from_toml(text: &str, source: &str) -> Result<Hardware, String> {
        let file: HwFile = toml::from_str(text).map_err(|e| format!("--hw {source}: {e}"))?;
        let kib = |v: u64| v.saturating_mul(1024);
        let hw = Hardware {
            l1_bytes: kib(file.l1d_kib),
            l2_bytes: kib(file.l2_kib),
            line_bytes: file.cache_line_bytes,
            simd_bytes: file.simd_bits / 8,
            source: source.to_string(),
        };
        let fields = [
            ("l1d_kib", hw.l1_bytes),
            ("l2_kib", hw.l2_bytes),
            ("cache_line_bytes", hw.line_bytes),
            ("simd_bits", hw.simd_bytes),
        ];
        if let Some((field, _)) = fields.iter().find(|(_, v)| !(1..=MAX_BYTES).contains(v)) {
            return Err(format!("--hw {source}: `{field}` is out of range"));
        }
        if !file.simd_bits.is_multiple_of(8) {
            return Err(format!("--hw {source}: `simd_bits` is not a whole number of bytes"));
        }
        Ok(hw)
    }

    /// `given`, or else this machine's description (detected once).
    pub fn given_or_detected(given: Option<&Hardware>) -> Hardware {
        static DETECTED: OnceLock<Hardware> = OnceLock::new();
        given.cloned().unwrap_or_else(|| DETECTED.get_or_init(Hardware::detect).clone())
    }

    /// This machine: caches from sysfs, the SIMD width from CPUID.
    fn detect() -> Hardware {
        let caches = sysfs_caches();
        let find = |level: u64| caches.iter().find(|c| c.level == level);
        let l1 = find(1);
        let (simd_bytes, simd_source) = simd_width();
        let source = match (l1, simd_source) {
            (Some(_), Some(how)) => format!("this machine: sysfs, {how}"),
            (Some(_), None) => "this machine: sysfs; SIMD width assumed".to_string(),
            (None, Some(how)) => format!("this machine: {how}; cache sizes assumed"),
            (None, None) => "assumed".to_string(),
        };
        Hardware {
            l1_bytes: l1.map_or(FALLBACK_L1, |c| c.size),
            l2_bytes: find(2).map_or(FALLBACK_L2, |c| c.size),
            line_bytes: l1.map_or(FALLBACK_LINE, |c| c.line),
            simd_bytes,
            source,
        }
    }
}

/// One data or unified cache of cpu0, as sysfs describes it.
struct Cache {
    level: u64,
    size: u64,
    line: u64,
}

const SYSFS_CACHES: &str = "/sys/devices/system/cpu/cpu0/cache";

/// cpu0's data and unified caches (instruction caches left out); none
/// if sysfs cannot be read.
fn sysfs_caches() -> Vec<Cache> {
    let Ok(entries) = std::fs::read_dir(SYSFS_CACHES) else { return Vec::new() };
    let mut caches = Vec::new();
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with("index") {
            continue;
        }
        let read = |file: &str| std::fs::read_to_string(entry.path().join(file)).map(|t| t.trim().to_string());
        if read("type").is_ok_and(|t| t == "Instruction") {
            continue;
        }
        let level = read("level").ok().and_then(|t| t.parse().ok());
        let size = read("size").ok().and_then(|t| parse_size(&t));
        let line = read("coherency_line_size").ok().and_then(|t| t.parse().ok()).unwrap_or(FALLBACK_LINE);
        if let (Some(level), Some(size)) = (level, size) {
            caches.push(Cache { level, size, line });
        }
    }
    caches
}

/// A sysfs cache size: `32K`, `1024K`, `32M`, or plain bytes.
fn parse_size(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale = match unit {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale).filter(|&b| b > 0)
}

/// The widest SIMD register the CPU and the operating system support,
/// in bytes, and how that was found (`None`: assumed). The standard
/// library's feature test reads CPUID and also checks that the OS saves
/// the wide registers (XGETBV), which CPUID alone does not say.
#[cfg(target_arch = "x86_64")]
fn simd_width() -> (u64, Option<&'static str>) {
    let bytes = if std::arch::is_x86_feature_detected!("avx512f") {
        64
    } else if std::arch::is_x86_feature_detected!("avx") {
        32
    } else {
        // SSE2 is part of x86-64.
        FALLBACK_SIMD
    };
    (bytes, Some("CPUID"))
}

#[cfg(not(target_arch = "x86_64"))]
fn simd_width() -> (u64, Option<&'static str>) {
    (FALLBACK_SIMD, None)
}

impl std::fmt::Display for Hardware {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "L1 data {} B, L2 {} B, cache line {} B, SIMD register {} B ({} bits) [{}]",
            self.l1_bytes,
            self.l2_bytes,
            self.line_bytes,
            self.simd_bytes,
            self.simd_bytes * 8,
            self.source
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_sizes() {
        assert_eq!(parse_size("32K"), Some(32768));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size("12Q"), None);
    }

    #[test]
    fn this_machine_has_sizes() {
        let hw = Hardware::given_or_detected(None);
        assert!(hw.l1_bytes > 0 && hw.l2_bytes > 0 && hw.line_bytes > 0, "{hw}");
        assert!([16, 32, 64].contains(&hw.simd_bytes), "{hw}");
    }

    #[test]
    fn a_file_with_every_field() {
        let hw = Hardware::from_toml("l1d_kib = 32\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 128\n", "t")
            .expect("valid");
        assert_eq!((hw.l1_bytes, hw.l2_bytes, hw.line_bytes, hw.simd_bytes), (32768, 262144, 64, 16));
    }

    #[test]
    fn bad_files_are_errors() {
        for bad in [
            "l1d_kib = 32\nl2_kib = 256\ncache_line_bytes = 64\n",
            "l1d_kib = 32\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 128\nl3 = 1\n",
            "l1d_kib = 0\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 128\n",
            "l1d_kib = -1\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 128\n",
            "l1d_kib = 32\nl2_kib = 256\ncache_line_bytes = 64\nsimd_bits = 100\n",
            "l1d_kib = \"big\"",
            "not toml at all [",
        ] {
            assert!(Hardware::from_toml(bad, "t").is_err(), "{bad}");
        }
    }
}
