//! SICA, SIMD- and cache-aware tile sizes (Feld, Lemke et al.): the
//! vector loop (innermost, parallel) is tiled so that the data one tile
//! of it loads fills a share `rho` of the L1 cache, in a whole number of
//! SIMD registers, and the outermost loop of its band in tiles of the
//! L2/L1 size ratio.
//!
//! The equations, with `E` the distinct new elements each iteration of
//! the vector loop loads for a block of statements (1), `D` the size of
//! an element in bytes, `C_L1` and `C_L2` the cache sizes and `R` the
//! SIMD register width (here all in bytes):
//!
//! - (2) `CaSiEl = C_L1 / D`, the elements the L1 cache holds;
//! - (3) `ElPeRe = R / D`, the elements one register holds;
//! - (5) `ItToBl = rho * CaSiEl / E`, the iterations whose data fill `rho` of L1;
//! - (6) `q_L1 = floor(ItToBl / ElPeRe) * ElPeRe`, a whole number of registers
//!   (equations 7 and 8 are the same in one formula);
//! - (9) `q_L2 = C_L2 / C_L1`.
//!
//! `E` is counted per statement block of the vector loop (statements that
//! share its iterations: their outer time prefixes meet): an access counts
//! if its element moves along the loop, once per stream (accesses to one
//! array a few iterations apart, up to 16: `C[i][j]` read and written, a
//! stencil's `A[i][j-1]` and `A[i][j+1]`); with mixed element types, `E`
//! elements of the widest. The band takes the smallest of its blocks'
//! sizes, one tiling for all its statements. `plan::sica` applies it to
//! each band, verified like every step.

use super::hw::Hardware;
use crate::model::isl::{IslResult, Map};
use crate::model::Scop;
use crate::schedule::{strides, Scattering};

/// (2) The elements of `d` bytes the L1 cache holds.
pub fn cache_elements(l1_bytes: u64, d: u64) -> u64 {
    l1_bytes / d.max(1)
}

/// (3) The elements of `d` bytes one SIMD register holds (at least one:
/// an element wider than the register still takes one iteration).
pub fn elements_per_register(simd_bytes: u64, d: u64) -> u64 {
    (simd_bytes / d.max(1)).max(1)
}

/// (5) The iterations of the vector loop whose `e` new elements per
/// iteration fill the share `rho` of `cache_elements`.
pub fn iterations_to_block(rho: f64, cache_elements: u64, e: u64) -> f64 {
    rho * cache_elements as f64 / e.max(1) as f64
}

/// (6) The first-level tile size: the largest multiple of
/// `per_register` within `iterations`; one register's worth when not
/// even that fits (a tile smaller than a register would not vectorise).
pub fn first_level(iterations: f64, per_register: u64) -> u64 {
    let registers = (iterations / per_register as f64).floor();
    // A float's conversion saturates; a tile beyond 2^40 iterations is
    // the same as none.
    (registers.min((1u64 << 40) as f64) as u64).max(1) * per_register
}

/// (9) The second-level tile size of the band's outermost loop.
pub fn second_level(l2_bytes: u64, l1_bytes: u64) -> u64 {
    l2_bytes / l1_bytes.max(1)
}

/// The equations' values for one block of statements.
#[derive(Clone, Debug, PartialEq)]
pub struct L1Size {
    /// (1) `ElPeIt`: distinct new elements per iteration.
    pub e: u64,
    /// The element size in bytes.
    pub d: u64,
    /// (2)
    pub cache_elements: u64,
    /// (3)
    pub per_register: u64,
    /// (5)
    pub iterations: f64,
    /// (6)
    pub q_l1: u64,
}

/// Equations 2 to 6 for `e` elements of `d` bytes per iteration.
pub fn l1_size(hw: &Hardware, rho: f64, e: u64, d: u64) -> L1Size {
    let cache_elements = cache_elements(hw.l1_bytes, d);
    let per_register = elements_per_register(hw.simd_bytes, d);
    let iterations = iterations_to_block(rho, cache_elements, e);
    L1Size { e, d, cache_elements, per_register, iterations, q_l1: first_level(iterations, per_register) }
}

/// The statements that share the vector loop's iterations (a statement
/// block), and the data streams they walk along it.
#[derive(Clone, Debug)]
pub struct Block {
    /// Statement names (`S0`, ...).
    pub stmts: Vec<String>,
    /// Per distinct new element of an iteration, the array it is in.
    pub arrays: Vec<String>,
    /// The size of the widest of those elements, in bytes: with mixed
    /// types, `E * D` over-estimates the bytes per iteration, so the
    /// tile's data still fit.
    pub element_bytes: u64,
}

/// One block's sizes, and the band's: the smallest first-level size of
/// its blocks (the paper's uniform tiling, so that every block's data
/// fit), and the second-level size.
#[derive(Clone, Debug)]
pub struct Choice {
    pub blocks: Vec<(Block, L1Size)>,
    pub q_l1: u64,
    pub q_l2: u64,
}

/// The sizes for `blocks` on `hw`; `None` when no block loads anything
/// new per iteration (nothing for the cache to hold).
pub fn choose(hw: &Hardware, rho: f64, blocks: Vec<Block>) -> Option<Choice> {
    let sized: Vec<(Block, L1Size)> = blocks
        .into_iter()
        .filter(|b| !b.arrays.is_empty())
        .map(|b| {
            let size = l1_size(hw, rho, b.arrays.len() as u64, b.element_bytes);
            (b, size)
        })
        .collect();
    let q_l1 = sized.iter().map(|(_, s)| s.q_l1).min()?;
    Some(Choice { blocks: sized, q_l1, q_l2: second_level(hw.l2_bytes, hw.l1_bytes) })
}

/// A neighbour of an element within this many iterations of the vector
/// loop was loaded by an earlier iteration (a stencil's `A[i][j-1]` and
/// `A[i][j+1]` walk one stream): as far as a filter's taps reach.
const MAX_STREAM_GAP: i64 = 16;

/// The statement blocks of `sc`'s loop over dimension `k` (the vector
/// loop, innermost): statements that run in the same iterations of the
/// loops outside `k`, each with its distinct new elements per iteration.
/// An access counts when its element moves along `k` (one that stays put
/// is loaded once for the whole loop), once per stream: accesses to one
/// array whose elements are a few iterations apart along `k` (or the
/// same) load each element once.
pub fn blocks(scop: &Scop, sc: &Scattering, k: usize) -> IslResult<Vec<Block>> {
    let mut groups: Vec<(crate::model::isl::Set, Vec<usize>)> = Vec::new();
    let mut prefixes = Vec::new();
    for (s, (time, st)) in sc.statements(scop).enumerate() {
        if time.out_is_constant(k)? {
            continue;
        }
        let instances = time.intersect_domain(&st.domain)?;
        let outer = instances.keep_leading_out(k)?.range()?;
        prefixes.push((s, instances.keep_leading_out(k + 1)?));
        // Merge every group that shares an iteration of the outer loops.
        let mut merged = (outer, vec![s]);
        let mut kept = Vec::new();
        for (set, members) in groups {
            if set.intersect(&merged.0)?.is_empty()? {
                kept.push((set, members));
            } else {
                merged = (merged.0.union(&set)?, [members, merged.1].concat());
            }
        }
        kept.push(merged);
        groups = kept;
    }
    let step = strides::step_along(scop.ast.params.len(), k + 1, k)?;
    let mut blocks = Vec::new();
    for (_, mut members) in groups {
        members.sort_unstable();
        let mut streams: Vec<Stream> = Vec::new();
        let mut names = Vec::new();
        for &s in &members {
            let Some((_, prefix)) = prefixes.iter().find(|(p, _)| *p == s) else { continue };
            let st = &scop.statements[sc.stmts[s]];
            names.push(st.name.clone());
            for a in &st.accesses {
                let walk = prefix.reverse()?.apply_range(&a.relation)?;
                if let Some(stream) = Stream::along(&a.array, walk, &step)? {
                    if !stream.joins_any(&streams)? {
                        streams.push(stream);
                    }
                }
            }
        }
        let element_bytes = streams.iter().map(|s| element_bytes(scop, &s.array)).max().unwrap_or(1);
        blocks.push(Block { stmts: names, arrays: streams.into_iter().map(|s| s.array).collect(), element_bytes });
    }
    Ok(blocks)
}

/// The elements one access touches along the vector loop.
struct Stream {
    array: String,
    /// Time prefix (up to the vector loop) to element.
    walk: Map,
    /// How the element moves from one iteration to the next, when that
    /// is one constant vector.
    step: Option<Vec<i64>>,
}

impl Stream {
    /// The access to `array` through `walk` as a stream of new elements;
    /// `None` if its element stays put along the loop (or it is a scalar).
    fn along(array: &str, walk: Map, step: &Map) -> IslResult<Option<Stream>> {
        if walk.n_out()? == 0 {
            return Ok(None);
        }
        let moves = walk.reverse()?.apply_range(step)?.apply_range(&walk)?.deltas()?;
        let step = single_point(&moves)?;
        if step.as_ref().is_some_and(|m| m.iter().all(|&x| x == 0)) {
            return Ok(None);
        }
        Ok(Some(Stream { array: array.to_string(), walk, step }))
    }

    /// Whether this access walks the same elements as one of `streams`.
    fn joins_any(&self, streams: &[Stream]) -> IslResult<bool> {
        for other in streams.iter().filter(|o| o.array == self.array) {
            let gap = single_point(&other.walk.reverse()?.apply_range(&self.walk)?.deltas()?)?;
            if let Some(gap) = gap {
                if gap.iter().all(|&x| x == 0) || other.step.as_ref().is_some_and(|m| within_steps(&gap, m)) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// The one point of `set`, if it has exactly one (whatever the parameters).
fn single_point(set: &crate::model::isl::Set) -> IslResult<Option<Vec<i64>>> {
    Ok(set.points(1)?.and_then(|mut points| if points.len() == 1 { points.pop() } else { None }))
}

/// Whether `gap` is `c * step` for an integer `c` with `|c| <= MAX_STREAM_GAP`.
fn within_steps(gap: &[i64], step: &[i64]) -> bool {
    let Some(at) = step.iter().position(|&m| m != 0) else { return false };
    if gap[at] % step[at] != 0 {
        return false;
    }
    let c = gap[at] / step[at];
    c.abs() <= MAX_STREAM_GAP && gap.iter().zip(step).all(|(&g, &m)| g == c * m)
}

/// The size in bytes of an element of `array`, from its declared type
/// (8 when the type is not a standard one: a typedef's size is unknown,
/// and a larger guess keeps the tile's data within the cache).
pub fn element_bytes(scop: &Scop, array: &str) -> u64 {
    let ty = scop.ast.arrays.iter().find(|(name, _)| name == array).map_or("", |(_, decl)| decl.ty.as_str());
    type_bytes(ty)
}

/// The size of C type `ty` on the usual 64-bit targets (LP64).
fn type_bytes(ty: &str) -> u64 {
    let words: Vec<&str> = ty.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    if has("double") {
        if has("long") {
            16
        } else {
            8
        }
    } else if has("float") || has("int") && !has("long") && !has("short") {
        4
    } else if has("char") || ty.contains("int8_t") {
        1
    } else if has("short") || ty.contains("int16_t") {
        2
    } else if ty.contains("int32_t") {
        4
    } else {
        8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paper_machine() -> Hardware {
        // The SICA paper's Xeon X5650: 32 KB L1, 256 KB L2, 128-bit SSE.
        Hardware { l1_bytes: 32 << 10, l2_bytes: 256 << 10, line_bytes: 64, simd_bytes: 16, source: "test".into() }
    }

    /// Equation 8 as the paper writes it: `C_L1` in KB, `R` in bits.
    fn equation_8(rho: f64, cl1_kb: u64, r_bits: u64, e: u64, d: u64) -> u64 {
        (rho * cl1_kb as f64 * 8192.0 / (r_bits * e) as f64).floor() as u64 * (r_bits / (8 * d))
    }

    #[test]
    fn the_paper_s_matrix_multiplications() {
        let hw = paper_machine();
        // Section 3.2.1: single precision, C[i][j] and B[k][j] per iteration.
        assert_eq!(l1_size(&hw, 1.0, 2, 4).q_l1, 4096);
        // Figure 19: rho = 0.9 gives 3684 (floor(921.6) * 4).
        let s = l1_size(&hw, 0.9, 2, 4);
        assert_eq!((s.cache_elements, s.per_register, s.q_l1), (8192, 4, 3684));
        assert!((s.iterations - 3686.4).abs() < 1e-9);
        // Section 4.1.1: the sums of two and three products.
        assert_eq!(l1_size(&hw, 1.0, 3, 4).q_l1, 2728);
        assert_eq!(l1_size(&hw, 1.0, 4, 4).q_l1, 2048);
        assert_eq!(second_level(hw.l2_bytes, hw.l1_bytes), 8);
    }

    #[test]
    fn equations_2_to_6_are_equation_8() {
        for (rho, kb, bits, e, d) in
            [(0.9, 32, 256, 2, 8), (0.8, 48, 512, 5, 4), (0.5, 64, 128, 3, 8), (1.0, 32, 256, 7, 4)]
        {
            let hw = Hardware {
                l1_bytes: kb << 10,
                l2_bytes: 1 << 20,
                line_bytes: 64,
                simd_bytes: bits / 8,
                source: String::new(),
            };
            assert_eq!(l1_size(&hw, rho, e, d).q_l1, equation_8(rho, kb, bits, e, d), "{rho} {kb} {bits} {e} {d}");
        }
    }

    #[test]
    fn at_least_one_register() {
        // 1 KB, 10 doubles per iteration: 12.8 iterations, under 2 registers of 8.
        let hw = Hardware { l1_bytes: 1024, l2_bytes: 4096, line_bytes: 64, simd_bytes: 64, source: String::new() };
        assert_eq!(l1_size(&hw, 1.0, 10, 8).q_l1, 8);
        assert_eq!(l1_size(&hw, 1.0, 100, 8).q_l1, 8);
    }

    #[test]
    fn the_smallest_block_size_wins() {
        let block = |n: usize| Block { stmts: vec!["S0".into()], arrays: vec!["A".into(); n], element_bytes: 8 };
        let choice = choose(&paper_machine(), 1.0, vec![block(1), block(4), block(0)]).expect("sizes");
        assert_eq!(choice.blocks.len(), 2);
        assert_eq!(choice.q_l1, 1024);
        assert!(choose(&paper_machine(), 1.0, vec![block(0)]).is_none());
    }

    #[test]
    fn c_types() {
        assert_eq!(type_bytes("double"), 8);
        assert_eq!(type_bytes("long double"), 16);
        assert_eq!(type_bytes("float"), 4);
        assert_eq!(type_bytes("unsigned int"), 4);
        assert_eq!(type_bytes("long"), 8);
        assert_eq!(type_bytes("short int"), 2);
        assert_eq!(type_bytes("unsigned char"), 1);
        assert_eq!(type_bytes("my_t"), 8);
    }

    #[test]
    fn streams_of_neighbours() {
        assert!(within_steps(&[0, 2], &[0, 1]));
        assert!(within_steps(&[0, -4], &[0, 2]));
        assert!(!within_steps(&[1, 0], &[0, 1]));
        assert!(!within_steps(&[0, 3], &[0, 2]));
        assert!(!within_steps(&[0, 17], &[0, 1]));
    }
}
