//! What the whole translation unit knows about types and functions: the
//! file is run through the C compiler's preprocessor (`$CC`, else `cc`,
//! with the user's `-I`/`-D`/`-U`) and the result parsed with `lang-c`.
//!
//! **Typedefs.** [`Unit::resolve_typedef`] follows chains of typedefs down
//! to a scalar arithmetic type and spells it canonically (`size_t` ->
//! `unsigned long`, `long int` -> `long`, `int32_t` -> `int`). Qualifiers
//! and attributes are dropped. Anything else (arrays, pointers, structs,
//! enums, `_Complex`, unknown builtins) does not resolve.
//!
//! **Functions.** [`Unit::function`] says what calling a function does.
//! A function the unit *defines* is judged from its body, syntactically
//! and conservatively: a wrong "pure" makes polyc write wrong code, a
//! wrong "impure" only keeps a SCoP unchanged. Its body may
//!
//! - read and write its parameters, its locals (scalars, structs, arrays)
//!   and enumeration constants;
//! - read global variables only when they are `const` scalars or arrays
//!   of scalars (reading any other global, `const` structs and pointers
//!   included, is impure: another statement of the SCoP may write it);
//! - read and write the memory a pointer or array parameter points to, by
//!   `*p`, `p[i]`, `p[i][j]` (array parameters), `p->x`, `*(p + i)`, or
//!   by passing `p`, `p + i`, `p[i]` (a row) or `&p[i]` to a function of
//!   the unit whose effects are known (the effects carry over);
//! - call pure functions: those of the unit (judged first; recursion is
//!   impure), those declared `__attribute__((pure))` or `((const))`, and
//!   the known libm ones.
//!
//! Everything else makes the function impure, with the reason: writing or
//! reading a global, calling an unknown function or through a pointer,
//! changing a pointer parameter or using it as a value in any other way
//! (copying it, comparing it, returning it), local pointers, taking an
//! address other than as an argument, casts to pointer types, `static`
//! locals, `volatile`, `goto`, `asm`, statement expressions, compound
//! literals, `va_arg`, `_Generic`, old-style definitions and parameters
//! of types other than scalars, single pointers and arrays (`double **`,
//! `double *a[]`, `double (*a)[n]`, function pointers).
//!
//! Conservative corners, impure for now: arrays inside structs
//! (`p->v[k]`, `s.v[k]`), locals and parameters of a typedef'd array or
//! pointer type indexed (`vec v; v[0]`), comparisons of pointers. A
//! pointer argument to a parameter its callee never touches counts as
//! read. The libm functions count as pure although they may set `errno`.
//!
//! A function only *declared* is pure when declared with `pure`/`const`
//! (`__pure__`/`__const__`) attributes (then it reads, and never writes,
//! through its pointer parameters) or when it is a known libm function;
//! otherwise it is impure ("`f` is not defined in the unit"). When the
//! unit defines a function, its body decides, whatever its attributes.
//! `Function::impure_because` (or [`Unit::visibly_impure`]) is the reason
//! to give a user who named an impure function pure.
//!
//! The front end keeps each declaration's resolved type beside the one
//! written (`decls::VarDecl::base`), so that storage expansion
//! (`storage::expand`) copies `real w` as it would `double w`.
//! `extract::calls` reads what a function does: a call statement's
//! pointer argument `&A[..]` stands for one element only when the body
//! never reaches past the pointee (`ParamEffect::only_pointee`).

mod declarations;
mod effects;
mod purity;

pub use effects::{Function, ParamEffect};

use super::cpp::Flags;
use declarations::Scan;
use lang_c::driver::{parse_preprocessed, Config, Flavor};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// What the unit knows about types and functions.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// Typedef names that stand for a scalar arithmetic type, and that type.
    typedefs: HashMap<String, String>,
    functions: HashMap<String, Function>,
    /// The functions the unit defines (has a body for).
    defined: HashSet<String>,
}

/// The unit of a file, parsed the first time it is needed (a call, a
/// typedef name): most SCoPs need neither, and parsing runs the
/// preprocessor again.
#[derive(Debug)]
pub struct Lazy {
    text: String,
    dir: Option<std::path::PathBuf>,
    flags: Flags,
    unit: std::sync::OnceLock<Option<Unit>>,
}

impl Lazy {
    pub fn new(text: &str, dir: Option<&Path>, flags: &Flags) -> Lazy {
        Lazy { text: text.to_string(), dir: dir.map(Path::to_path_buf), flags: flags.clone(), unit: Default::default() }
    }

    /// The unit, or `None` when it cannot be parsed.
    pub fn get(&self) -> Option<&Unit> {
        self.unit.get_or_init(|| Unit::parse(&self.text, self.dir.as_deref(), &self.flags).ok()).as_ref()
    }
}

impl Unit {
    /// Preprocess `text` (the file in `dir`, for `#include "..."`) with
    /// `$CC -E` (else `cc`) and the flags, and parse the result.
    pub fn parse(text: &str, dir: Option<&Path>, flags: &Flags) -> Result<Unit, String> {
        let source = super::cpp::run(text, dir, flags, &[])?;
        super::depth::check_unit(&source)?;
        let config = Config { cpp_command: String::new(), cpp_options: Vec::new(), flavor: Flavor::GnuC11 };
        let parse = parse_preprocessed(&config, source).map_err(|e| format!("cannot parse the unit: {e}"))?;
        let mut scan = Scan::default();
        for item in &parse.unit.0 {
            scan.external(&item.node);
        }
        let functions = purity::judge(&scan);
        let typedefs = scan.typedefs.into_iter().filter_map(|(n, t)| Some((n, t?))).collect();
        Ok(Unit { typedefs, functions, defined: scan.definitions.into_keys().collect() })
    }

    /// The scalar arithmetic type a typedef name stands for, as C type
    /// specifier text (`typedef float real;` -> `float`), through chains.
    pub fn resolve_typedef(&self, name: &str) -> Option<&str> {
        self.typedefs.get(name).map(String::as_str)
    }

    /// What calling function `name` does, when the unit defines or
    /// declares it.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// Why a function the unit defines is not pure (for "you named `f`
    /// pure but it writes global `x`"); `None` when it is pure or the unit
    /// does not define it.
    pub fn visibly_impure(&self, name: &str) -> Option<&str> {
        if !self.defined.contains(name) {
            return None;
        }
        self.functions.get(name)?.impure_because.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn unit(text: &str) -> Unit {
        Unit::parse(text, None, &Flags::default()).expect("the unit parses")
    }

    fn effect(pointer: bool, reads_target: bool, writes_target: bool) -> ParamEffect {
        ParamEffect { pointer, reads_target, writes_target, only_pointee: pointer }
    }

    /// `e` for a parameter the body indexes or moves past its pointee.
    fn past(e: ParamEffect) -> ParamEffect {
        ParamEffect { only_pointee: false, ..e }
    }

    fn why<'u>(u: &'u Unit, name: &str) -> &'u str {
        let f = u.function(name).expect("the function is known");
        assert!(!f.pure, "`{name}` should be impure");
        f.impure_because.as_deref().expect("a reason")
    }

    #[test]
    fn typedef_chains() {
        let u = unit(
            "#include <stdint.h>\n#include <stddef.h>\ntypedef double real; typedef real value;\n\
             typedef long int li; typedef unsigned short us; typedef real vec[4]; typedef real *ptr;\n\
             typedef struct { int x; } pt; typedef const value cv;\n",
        );
        assert_eq!(u.resolve_typedef("real"), Some("double"));
        assert_eq!(u.resolve_typedef("value"), Some("double"));
        assert_eq!(u.resolve_typedef("cv"), Some("double"));
        assert_eq!(u.resolve_typedef("int32_t"), Some("int"));
        assert_eq!(u.resolve_typedef("uint64_t"), Some("unsigned long"));
        assert_eq!(u.resolve_typedef("size_t"), Some("unsigned long"));
        assert_eq!(u.resolve_typedef("li"), Some("long"));
        assert_eq!(u.resolve_typedef("us"), Some("unsigned short"));
        assert_eq!(u.resolve_typedef("vec"), None);
        assert_eq!(u.resolve_typedef("ptr"), None);
        assert_eq!(u.resolve_typedef("pt"), None);
        assert_eq!(u.resolve_typedef("nothing"), None);
    }

    #[test]
    fn pure_helper() {
        let u = unit("static double sq(double x) { double y = x * x; return y; }");
        let f = u.function("sq").unwrap();
        assert_eq!(
            f,
            &Function {
                pure: true,
                impure_because: None,
                params: vec![effect(false, false, false)],
                returns_void: false
            }
        );
        assert_eq!(u.visibly_impure("sq"), None);
    }

    #[test]
    fn globals() {
        let u = unit(
            "int count; const double scale = 2.0; const volatile int reg = 1; const double tab[2] = {1, 2}; enum { N = 4 };\n\
             void bump(void) { count++; }\n\
             double reads(double x) { return x * count; }\n\
             double scaled(double x) { return x * scale * tab[1] * N; }\n\
             double shadow(double count) { return count; }\n\
             int device(void) { return reg; }\n",
        );
        assert_eq!(why(&u, "bump"), "writes global `count`");
        assert_eq!(u.visibly_impure("bump"), Some("writes global `count`"));
        assert_eq!(why(&u, "reads"), "reads global `count`");
        assert!(u.function("scaled").unwrap().pure);
        assert!(u.function("shadow").unwrap().pure);
        assert_eq!(why(&u, "device"), "reads global `reg`");
    }

    #[test]
    fn calls() {
        let u = unit(
            "#include <stdio.h>\n#include <math.h>\nint count;\n\
             void say(double x) { printf(\"%f\", x); }\n\
             double norm(double x, double y) { return sqrt(x * x + y * y) + fabsf(y); }\n\
             void bump(void) { count = 1; }\n\
             void outer(void) { bump(); }\n\
             int fact(int n) { return n ? n * fact(n - 1) : 1; }\n",
        );
        assert_eq!(why(&u, "say"), "calls `printf`");
        assert!(u.function("norm").unwrap().pure);
        assert_eq!(why(&u, "outer"), "calls `bump`, which writes global `count`");
        assert_eq!(why(&u, "fact"), "calls `fact` recursively");
        assert_eq!(why(&u, "printf"), "`printf` is not defined in the unit");
        assert_eq!(u.visibly_impure("printf"), None);
        assert!(u.function("sqrt").unwrap().pure);
    }

    #[test]
    fn pointer_parameters() {
        let u = unit(
            "void kernel(double in, double *out) { *out = in * 2; }\n\
             void acc(double *x) { *x += 1; }\n\
             void row(int n, double a[n][n], const double *b) { for (int j = 0; j < n; j++) a[2][j] = b[j] + *(b + 1); }\n\
             void twice(double *p, double q) { kernel(q, p); kernel(q, &p[1]); acc(p + 2); }\n\
             struct pt { double x; };\n\
             double getx(const struct pt *p) { return p->x; }\n",
        );
        let kernel = u.function("kernel").unwrap();
        assert!(kernel.pure && kernel.returns_void);
        assert_eq!(kernel.params, vec![effect(false, false, false), effect(true, false, true)]);
        assert_eq!(u.function("acc").unwrap().params, vec![effect(true, true, true)]);
        let row = u.function("row").unwrap();
        assert!(row.pure);
        assert_eq!(
            row.params,
            vec![effect(false, false, false), past(effect(true, false, true)), past(effect(true, true, false))]
        );
        let twice = u.function("twice").unwrap();
        assert!(twice.pure);
        assert_eq!(twice.params, vec![past(effect(true, true, true)), effect(false, false, false)]);
        assert_eq!(u.function("getx").unwrap().params, vec![effect(true, true, false)]);
    }

    #[test]
    fn unclassifiable_pointers() {
        let u = unit(
            "double *g;\nvoid keep(double *p);\n\
             void alias(double *p) { double *q = p; *q = 1; }\n\
             void moves(double *p) { p++; *p = 1; }\n\
             void leaks(double *p) { keep(p); }\n\
             double *same(double *p) { return p; }\n\
             void deep(double **p) { p[0][0] = 1; }\n\
             void cast(long a) { *(double *)a = 1; }\n\
             void jump(double *p) { goto out; out: *p = 0; }\n\
             void vol(double *p) { volatile double t = *p; }\n\
             void stat(double x) { static double last; last = x; }\n\
             void addr(double x, double *p) { double *r = &x; }\n\
             void nested(double *p) { double (*rows)[4]; }\n\
             void through(double *p) { g[0] = *p; }\n",
        );
        assert_eq!(why(&u, "alias"), "uses `p` as a value");
        assert_eq!(why(&u, "moves"), "changes pointer parameter `p`");
        assert_eq!(why(&u, "leaks"), "calls `keep`");
        assert_eq!(why(&u, "same"), "uses `p` as a value");
        assert_eq!(why(&u, "deep"), "has parameter `p` of a type polyc cannot classify");
        assert_eq!(why(&u, "cast"), "accesses memory through a cast");
        assert_eq!(why(&u, "jump"), "uses `goto`");
        assert_eq!(why(&u, "vol"), "declares `volatile` local `t`");
        assert_eq!(why(&u, "stat"), "declares a `static` or `extern` local");
        assert_eq!(why(&u, "addr"), "takes the address of `x`");
        assert_eq!(why(&u, "nested"), "declares local pointer `rows`");
        assert_eq!(why(&u, "through"), "writes global `g`");
    }

    #[test]
    fn locals() {
        let u = unit(
            "struct pt { double x; double *p; };\nconst struct pt origin = {0, 0};\n\
             void acc(double *x) { *x += 1; }\n\
             double arr(double x) { double t[4]; struct pt s; t[0] = x; acc(t); acc(&s.x); s.x = t[0]; return s.x; }\n\
             double field(void) { return *origin.p; }\n\
             void inner(double *p) { struct pt s; s.p = 0; s.p[0] = *p; }\n",
        );
        assert!(u.function("arr").unwrap().pure);
        assert_eq!(why(&u, "field"), "reads global `origin`");
        assert_eq!(why(&u, "inner"), "dereferences an element of member `p` through a pointer polyc cannot follow");
    }

    #[test]
    fn signatures() {
        let u = unit(
            "double zero() { return 0; }\ndouble one();\nvoid *alloc(void);\ndouble *first(double *p);\n\
             void nothing(void) {}\nint old(a) int a; { return a; }\n",
        );
        assert!(u.function("zero").unwrap().pure);
        assert_eq!(why(&u, "one"), "`one` is not defined in the unit");
        assert!(!u.function("alloc").unwrap().returns_void);
        assert!(!u.function("first").unwrap().returns_void);
        assert_eq!(u.function("first").unwrap().params, vec![past(effect(true, true, false))]);
        assert!(u.function("nothing").unwrap().returns_void && u.function("nothing").unwrap().pure);
        assert_eq!(why(&u, "old"), "has an old-style definition");
    }

    #[test]
    fn attributes() {
        let u = unit(
            "double f(const double *p, double x) __attribute__((pure));\n\
             __attribute__((__const__)) double g(double x);\n\
             double h(double x) __attribute__((__pure__));\n\
             double k(double x);\n\
             double use(const double *p) { return f(p, 1.0) + g(2.0) + h(3.0); }\n",
        );
        let f = u.function("f").unwrap();
        assert!(f.pure);
        assert_eq!(f.params, vec![past(effect(true, true, false)), effect(false, false, false)]);
        assert!(u.function("g").unwrap().pure);
        assert!(u.function("h").unwrap().pure);
        assert_eq!(why(&u, "k"), "`k` is not defined in the unit");
        let user = u.function("use").unwrap();
        assert!(user.pure);
        assert_eq!(user.params, vec![past(effect(true, true, false))]);
    }

    #[test]
    fn errors() {
        assert!(Unit::parse("#include \"no-such-header.h\"\n", None, &Flags::default()).is_err());
        assert!(Unit::parse("int f( {\n", None, &Flags::default()).unwrap_err().contains("cannot parse"));
    }

    #[test]
    fn polybench_gemm() {
        let root = PathBuf::from("/work/shared/polybench-4.2.1");
        let path = root.join("linear-algebra/blas/gemm/gemm.c");
        let Ok(text) = std::fs::read_to_string(&path) else { return };
        let flags = Flags { include_dirs: vec![root.join("utilities")], ..Flags::default() };
        let start = std::time::Instant::now();
        let u = Unit::parse(&text, path.parent(), &flags).expect("gemm.c parses");
        let total = start.elapsed();
        let start = std::time::Instant::now();
        let source = super::super::cpp::run(&text, path.parent(), &flags, &[]).expect("gemm.c preprocesses");
        let cpp = start.elapsed();
        let config = Config { cpp_command: String::new(), cpp_options: Vec::new(), flavor: Flavor::GnuC11 };
        let start = std::time::Instant::now();
        parse_preprocessed(&config, source).expect("gemm.c parses");
        eprintln!("Unit::parse(gemm.c): {total:?}; again: preprocessor {cpp:?}, lang-c {:?}", start.elapsed());
        assert_eq!(u.resolve_typedef("size_t"), Some("unsigned long"));
        assert_eq!(why(&u, "print_array"), "calls `fprintf`");
        assert!(u.function("kernel_gemm").is_some());
    }
}
