/* utsolve: back substitution with many right-hand sides, solves U * X = B
   for upper triangular U; X overwrites B (outer loop counts down) */
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
#define N 50
#endif
#ifndef M
#define M 60
#endif
/* polyc-bench: -DN=2000 -DM=2000 */

static double U[N][N];
static double B[N][M];

/* Print an output array: every element if the program's total output is
   small, otherwise the sum of all elements and every 97th element. */
static void print_array(const char *name, const double *a, long n, int all)
{
  long i;
  double s = 0.0;
  if (all) {
    printf("%s\n", name);
    for (i = 0; i < n; i++)
      printf("%.10e\n", a[i]);
    return;
  }
  for (i = 0; i < n; i++)
    s += a[i];
  printf("%s sum %.10e\n", name, s);
  for (i = 0; i < n; i += 97)
    printf("%.10e\n", a[i]);
}

/* small off-diagonal entries keep the solve well conditioned */
static void init(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      U[i][j] = (j > i) ? (double)((i + 3 * j) % 9) / (9.0 * N) : 0.0;
    U[i][i] = 1.0 + (double)(i % 4) / 4.0;
    for (j = 0; j < M; j++)
      B[i][j] = (double)((i * j + i + 2 * j) % 15) / 15.0;
  }
}

static void kernel_utsolve(void)
{
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = N - 1; i >= 0; i--) {
    for (int k = i + 1; k < N; k++)
      for (int j = 0; j < M; j++)
        B[i][j] -= U[i][k] * B[k][j];
    for (int j = 0; j < M; j++)
      B[i][j] = B[i][j] / U[i][i];
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * M;
  init();
  POLYC_BENCH_START();
  kernel_utsolve();
  POLYC_BENCH_STOP();
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  return 0;
}
