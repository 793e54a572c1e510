/* Carry the last positive value forward: the write under the condition
   may not happen, so the value read can come from any earlier iteration.
   A dataflow analysis that took the write for certain would privatise
   the scalar and run the loop in parallel, reading garbage. */
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

/* polyc-bench: -DN=20000000 */

#ifndef N
#define N 100000
#endif

static double A[N], B[N];

int main(void) {
  for (int i = 0; i < N; i++)
    A[i] = (double)((i * 7919) % 23) - 15.0;
  double last = 0;
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0;
  for (int i = 0; i < N; i++) {
    if (A[i] > 0)
      last = A[i];
    B[i] = last * 0.5 + A[i];
  }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    s += B[i] * (i % 3 + 1);
  printf("%.3f %.3f\n", s, last);
  return 0;
}
