//! The helper macros the printed C may use, each defined once in the
//! output and guarded, so that regions printed apart can share them.

use std::fmt::Write;

/// Helper macros, defined once in the output when used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Helpers {
    pub floord: bool,
    pub ceild: bool,
    pub min: bool,
    pub max: bool,
    pub min_work: bool,
    pub min_data: bool,
    pub min_region_work: bool,
    pub modulo: bool,
    pub disjoint: bool,
    /// The block sizes of matrix products on packed panels (`emit::packed`).
    pub packed: bool,
}

impl Helpers {
    pub fn union(self, o: Helpers) -> Helpers {
        Helpers {
            floord: self.floord || o.floord,
            ceild: self.ceild || o.ceild,
            min: self.min || o.min,
            max: self.max || o.max,
            min_work: self.min_work || o.min_work,
            min_data: self.min_data || o.min_data,
            min_region_work: self.min_region_work || o.min_region_work,
            modulo: self.modulo || o.modulo,
            disjoint: self.disjoint || o.disjoint,
            packed: self.packed || o.packed,
        }
    }

    pub fn any(self) -> bool {
        self.floord
            || self.ceild
            || self.min
            || self.max
            || self.min_work
            || self.min_data
            || self.min_region_work
            || self.modulo
            || self.disjoint
            || self.packed
    }

    /// The definitions, guarded so that a second copy is harmless.
    pub fn definitions(self) -> String {
        let min_work = format!(" {DEFAULT_MIN_WORK}");
        let min_region_work = format!(" {DEFAULT_MIN_REGION_WORK}");
        let min_data = format!(" {DEFAULT_MIN_DATA}");
        let defs = [
            (self.floord, "polyc_floord", "(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))"),
            (self.ceild, "polyc_ceild", "(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))"),
            (self.min, "polyc_min", "(x, y) ((x) < (y) ? (x) : (y))"),
            (self.max, "polyc_max", "(x, y) ((x) > (y) ? (x) : (y))"),
            (self.min_work, "POLYC_MIN_WORK", &min_work),
            (self.min_data, "POLYC_MIN_DATA", &min_data),
            (self.min_region_work, "POLYC_MIN_REGION_WORK", &min_region_work),
            (self.modulo, "polyc_mod", "(a, m) ((((a) % (m)) + (m)) % (m))"),
            (
                self.disjoint,
                "polyc_disjoint",
                "(a, a_end, b, b_end) \\\n  ((__UINTPTR_TYPE__)(a_end) <= (__UINTPTR_TYPE__)(b) || (__UINTPTR_TYPE__)(b_end) <= (__UINTPTR_TYPE__)(a))",
            ),
        ];
        let mut out = String::new();
        for (used, name, body) in defs {
            if used {
                let _ = writeln!(out, "#ifndef {name}\n#define {name}{body}\n#endif");
            }
        }
        if self.min_region_work {
            out.push_str(POLYC_THREADS);
        }
        if self.packed {
            out.push_str(PACKED_BLOCKS);
        }
        out
    }
}

/// Statement instances below which a SCoP runs as written: tiles, loop
/// overheads and OpenMP regions cost more than they save in a few
/// milliseconds of work (jacobi-1d's 2 million instances took 0.3 ms
/// as written, 0.9 ms time-tiled, 2.6-14 ms on two threads), while the
/// smallest kernels that gain (gemver, 16 million) keep their new loops.
pub const DEFAULT_MIN_WORK: &str = "1e7";

/// Bytes of data from which a SCoP's new loops run whatever its
/// instances: beyond the L2 cache of today's cores (1 to 2 MiB), where
/// the loops stream from L3 or memory. trisolv's 2 million instances
/// over 32 MB ran 1.3x faster tiled on one thread and 1.8x on two,
/// jacobi-1d's 2 million over 32 KB no faster.
pub const DEFAULT_MIN_DATA: &str = "4194304.0";

/// The threads a parallel region would start: OpenMP's count where the
/// output is compiled with OpenMP (declared where it is used, as the
/// helpers are defined inside the first region's function), else 1.
const POLYC_THREADS: &str = "#ifndef POLYC_THREADS\n#ifdef _OPENMP\n#define POLYC_THREADS \\\n  \
    __extension__({ extern int omp_get_max_threads(void); omp_get_max_threads(); })\n#else\n\
    #define POLYC_THREADS 1\n#endif\n#endif\n";

/// The block sizes of packed matrix products, for the machine the output is
/// compiled for (`emit::packed`): a vector register's bytes, from the
/// largest alignment the compiler knows (16 with SSE, 32 with AVX, 64
/// with AVX-512), and the cache blocks: `POLYC_PACK_DEPTH` steps of the
/// sum keep a panel of each operand in L1, `POLYC_PACK_ROWS` rows of
/// the first operand's panels in L2. Each may be defined on the command
/// line; gemm at 1000 x 1100 x 1200 ran fastest at 96 and 256 on Zen 3.
/// `POLYC_TEAM` is the number of threads of the region it is read in.
/// `polyc_pack_steps` is the steps of the sum in a block for `shared`
/// products whose row factor's elements take `size` bytes: at least one.
/// Each thread holds `POLYC_PACK_ROWS` x `POLYC_PACK_DEPTH` elements of the
/// row factor on its stack (192 KiB of doubles with the defaults): much
/// larger values need larger thread stacks (`OMP_STACKSIZE`).
const PACKED_BLOCKS: &str = "#ifndef POLYC_VECTOR_BYTES\n#ifdef __BIGGEST_ALIGNMENT__\n\
    #define POLYC_VECTOR_BYTES __BIGGEST_ALIGNMENT__\n#else\n#define POLYC_VECTOR_BYTES 16\n#endif\n#endif\n\
    #ifndef POLYC_PACK_ROWS\n#define POLYC_PACK_ROWS 96\n#endif\n\
    #ifndef POLYC_PACK_DEPTH\n#define POLYC_PACK_DEPTH 256\n#endif\n\
    #ifndef polyc_pack_steps\n#define polyc_pack_steps(size, shared) \\\n  \
    (POLYC_PACK_DEPTH * 8 / ((size) > 8 ? (size) : 8) / (shared) > 0 \\\n   \
    ? POLYC_PACK_DEPTH * 8 / ((size) > 8 ? (size) : 8) / (shared) : 1)\n#endif\n\
    #ifndef POLYC_TEAM\n#ifdef _OPENMP\n#define POLYC_TEAM \\\n  \
    __extension__({ extern int omp_get_num_threads(void); omp_get_num_threads(); })\n#else\n\
    #define POLYC_TEAM 1\n#endif\n#endif\n";

/// Statement instances below which a parallel region of the loops for
/// little work runs on one thread: a region of a million instances (0.3
/// to 1 ms of work) pays its threads' start many times over, while
/// jacobi-1d's rows of 2,000 points, a region per time step, would not.
pub const DEFAULT_MIN_REGION_WORK: &str = "1e6";
