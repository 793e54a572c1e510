/* shape_params: loop bounds from the kernel's int parameters n and m, a
   parameter guard around a loop, and an affine guard on iterators and a
   parameter inside a nest; the kernel is called twice, once with the guard
   false */
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
#define N 30
#endif
#ifndef M
#define M 40
#endif
#if N < 8 || M < 8
#error "shape_params needs N >= 8 and M >= 8"
#endif
/* polyc-bench: -DN=8000 -DM=8000 */

static double A[N][M];
static double B[N][M];
static double x[N];
static double y[M];

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
  for (i = 0; i < N; i++) {
    x[i] = (double)(i % 9) / 9.0;
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * 5 + j * 3 + 1) % 13) / 13.0;
      B[i][j] = 0.0;
    }
  }
  for (j = 0; j < M; j++)
    y[j] = 0.0;
}

/* requires 2 <= n <= N and 2 <= m <= M */
static void kernel_params(int n, int m)
{
  int i, j;
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  if (n >= 6)
    for (int i = 0; i < n; i++)
      x[i] = x[i] * 0.5 + 1.0;
  for (int i = 0; i <= polyc_min(1, n - 1); i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] - x[i];
  if (m >= 1)
    for (int i = 2; i < n; i++) {
      for (int j = 0; j < m - 1; j++)
        B[i][j] = A[i - 2][j + 1] + A[i][j] * x[i];
      B[i][m - 1] = A[i][m - 1] - x[i];
    }
  for (int j = 0; j < m; j++) {
    y[j] = 0.0;
    for (int i = 1; i < n - 1; i++)
      y[j] += 0.25 * B[i - 1][j] + 0.5 * B[i][j] + 0.25 * B[i + 1][j];
  }
  for (int i = 0; i <= polyc_min(m - 1, n - 1); i++)
    for (int j = i; j < m; j++)
      A[i][j] = A[i][j] + y[j] / n;
#pragma endscop
}

int main(void)
{
  long total = 2L * N * M + N + M;
  init();
  POLYC_BENCH_START();
  kernel_params(N - 3, M - 4);
  kernel_params(4, M / 2);
  POLYC_BENCH_STOP();
  print_array("A", &A[0][0], (long)N * M, total <= 4000);
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  print_array("x", x, N, total <= 4000);
  print_array("y", y, M, total <= 4000);
  return 0;
}
