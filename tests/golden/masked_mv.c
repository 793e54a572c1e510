/* A matrix-vector product over the entries a mask keeps (a dense matrix
   with a sparsity pattern): y = (M .* A) x, then the same product again
   with the mask inverted into z. */
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

/* polyc-bench: -DN=5000 */

#ifndef N
#define N 900
#endif

static double A[N][N], x[N], y[N], z[N];
static char keep[N][N];

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 13) / 13.0;
    y[i] = z[i] = 0;
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((i + 2 * j) % 9) / 9.0;
      keep[i][j] = (i * j) % 7 < 3;
    }
  }
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      if (keep[i][j] != 0)
        y[i] = y[i] + A[i][j] * x[j];
      else
        z[i] = z[i] + A[i][j] * x[j];
    }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i] * (i % 4) - z[i];
  printf("%.6f\n", s);
  return 0;
}
