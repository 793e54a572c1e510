/* Which branch writes x[i] at step t depends on the data, so the source
   of each later read of x[i] is one of the two branches of that step,
   never an older step; y[i] is written under a condition with no else,
   so its reads reach back to any older step. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

/* Benchmark timing hook (benches/runtime.rs): compiled with
   -DPOLYC_BENCH_TIME, main prints the kernel's wall time to stderr. */
#ifdef POLYC_BENCH_TIME
#include <time.h>
static struct timespec polyc_bench_t0, polyc_bench_t1;
#define POLYC_BENCH_START() clock_gettime(CLOCK_MONOTONIC, &polyc_bench_t0)
#define POLYC_BENCH_STOP()                                                   \
  (clock_gettime(CLOCK_MONOTONIC, &polyc_bench_t1),                          \
   fprintf(stderr, "polyc-bench-time: %.9f\n",                               \
           (double)(polyc_bench_t1.tv_sec - polyc_bench_t0.tv_sec)           \
               + 1e-9 * (double)(polyc_bench_t1.tv_nsec - polyc_bench_t0.tv_nsec)))
#else
#define POLYC_BENCH_START() ((void)0)
#define POLYC_BENCH_STOP() ((void)0)
#endif

/* polyc-bench: -DT=200 -DN=4000000 */

#ifndef T
#define T 30
#endif
#ifndef N
#define N 2000
#endif

static double A[N], B[N], x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    A[i] = (double)((i * 37) % 19) - 9.0;
    B[i] = (double)((i * 11) % 7) - 3.0;
    y[i] = 0;
  }
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0, polyc_c1;
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      if (A[i] > B[i])
        x[i] = A[i] - B[i];
      else
        x[i] = 0.5 * B[i] + t;
      if (x[i] > 4.0)
        y[i] = y[i] + x[i];
    }
    for (int i = 1; i < N; i++)
      A[i] = 0.5 * (x[i] + x[i - 1]) - 0.25 * A[i];
    for (int i = 0; i < N - 1; i++)
      B[i] = 0.75 * B[i] - 0.125 * x[i + 1] + 0.01 * y[i];
  }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (A[i] + 2 * B[i] + 3 * x[i] + y[i]) * (i % 7 + 1);
  printf("%.6f\n", s);
  return 0;
}
