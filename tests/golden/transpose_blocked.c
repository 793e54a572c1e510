/* transpose_blocked: hand-blocked transpose, the tile ends computed in the region with ?: */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

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

#ifndef N
#define N 70
#endif
#ifndef M
#define M 50
#endif
#ifndef TILE
#define TILE 16
#endif
/* polyc-bench: -DN=6000 -DM=6000 */

static double a[N][M];
static double at[M][N];

/* Print an output array: every element if the program's total output is
   small, otherwise the sum of all elements and every 97th element. */
static void print_array(const char *name, const double *a, long n, int all)
{
  double s = 0.0;
  if (all) {
    printf("%s\n", name);
    for (long i = 0; i < n; i++)
      printf("%.10e\n", a[i]);
    return;
  }
  for (long i = 0; i < n; i++)
    s += a[i];
  printf("%s sum %.10e\n", name, s);
  for (long i = 0; i < n; i += 97)
    printf("%.10e\n", a[i]);
}

static void init(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = (double)(i * M + j) / (double)(N * M);
}

static void kernel_transpose_blocked(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int ii = 0; ii < N; ii += 16)
    for (int jj = 0; jj < M; jj += 16)
      for (int i = ii; i <= polyc_min(ii + TILE - 1, N - 1); i++)
        for (int j = jj; j <= polyc_min(jj + TILE - 1, M - 1); j++)
          at[j][i] = a[i][j];
#pragma endscop
}

int main(void)
{
  long total = (long)N * M;
  init();
  POLYC_BENCH_START();
  kernel_transpose_blocked();
  POLYC_BENCH_STOP();
  print_array("at", &at[0][0], (long)M * N, total <= 4000);
  return 0;
}
