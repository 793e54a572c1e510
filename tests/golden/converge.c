/* Jacobi sweeps repeated until the largest change falls below a tolerance:
   the loop that tests convergence stays outside the region; inside, each
   sweep keeps its largest change by a data-dependent update. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
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

/* polyc-bench: -DN=400 */

#ifndef N
#define N 200
#endif

static double A[N][N], B[N][N], change[N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = B[i][j] = (i == 0 || j == N - 1) ? 1.0 : 0.0;
  double largest = 1.0;
  int sweeps = 0;
  POLYC_BENCH_START();
  while (largest > 1e-3 && sweeps < 500) {
#pragma scop
    /* polyc: loops regenerated in the source's order */
    {
      __attribute__((unused)) int polyc_c0;
    for (int i = 1; i < N - 1; i++) {
      change[i] = 0;
      for (int j = 1; j < N - 1; j++) {
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
        if (fabs(B[i][j] - A[i][j]) > change[i])
          change[i] = fabs(B[i][j] - A[i][j]);
      }
    }
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
    }
#pragma endscop
    largest = 0;
    for (int i = 1; i < N - 1; i++)
      largest = change[i] > largest ? change[i] : largest;
    sweeps++;
  }
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += A[i][j] * (j % 3 + 1);
  printf("%d %.9f\n", sweeps, s);
  return 0;
}
