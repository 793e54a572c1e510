/* shape_minmax: loop bounds with min/max, written as ternaries
   (a < b ? a : b) and as the MIN/MAX macros defined below; max only in lower
   bounds and min only in upper bounds, plus a && conjunction bound and a
   hand-tiled loop nest whose point loops are clipped with MIN */
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

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#ifndef N
#define N 30
#endif
#ifndef M
#define M 24
#endif
/* polyc-bench: -DN=6000 -DM=6000 */

static double A[N][M];
static double x[M];
static double y[N];
static double B[N][N];
static double C[N][N];
static double D[N][N];

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

static void init(void)
{
  int i, j;
  for (j = 0; j < M; j++)
    x[j] = (double)(j % 9) / 9.0 + 0.5;
  for (i = 0; i < N; i++) {
    y[i] = 0.0;
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 3 + j * 7) % 13) / 13.0;
    for (j = 0; j < N; j++) {
      B[i][j] = 0.0;
      C[i][j] = 0.0;
      D[i][j] = (double)((i + j) % 5);
    }
  }
}

static void kernel_minmax(void)
{
  int i, j, ii, jj;
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef polyc_max
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#endif
  for (int i = 0; i < N; i++) {
    y[i] = 0.0;
    for (int j = polyc_max(i - 3, 0); j <= polyc_min(i + 3, M - 1); j++)
      y[i] += A[i][j] * x[j];
  }
  for (int i = 0; i < N; i++)
    for (int j = polyc_max(i - 2, 0); j <= polyc_min(i + 4, N - 1); j++)
      B[i][j] = y[i] * 0.5 + (double)(j - i);
  for (int ii = 0; ii < N; ii += 8)
    for (int jj = 0; jj < N; jj += 8)
      for (int i = ii; i <= polyc_min(ii + 7, N - 1); i++)
        for (int j = jj; j <= polyc_min(jj + 7, N - 1); j++)
          C[i][j] = B[j][i] + 0.25 * B[i][j];
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++)
      D[i][j] = C[i][j] * 0.5 + D[i][j];
  for (int i = 0; i < N; i++)
    for (int j = polyc_max(i, 10); j < N; j++)
      D[i][j] = D[i][j] - C[j][i];
  for (int i = 2; i < N; i++)
    for (int j = polyc_max(i, 4); j <= polyc_min(2 * i, N - 1); j++)
      D[i][j] += 0.125 * A[i][0];
#pragma endscop
}

int main(void)
{
  long total = (long)N + 3L * N * N;
  init();
  POLYC_BENCH_START();
  kernel_minmax();
  POLYC_BENCH_STOP();
  print_array("y", y, N, total <= 4000);
  print_array("B", &B[0][0], (long)N * N, total <= 4000);
  print_array("C", &C[0][0], (long)N * N, total <= 4000);
  print_array("D", &D[0][0], (long)N * N, total <= 4000);
  return 0;
}
