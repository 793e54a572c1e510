/* Macros a kernel takes from a header, as PolyBench's do. */
#define REAL double
#define SCALE(x) (0.5 * (x))
#define SQRT_OF(x) sqrt(x)
#define LOOP_BOUND(n) (n)
