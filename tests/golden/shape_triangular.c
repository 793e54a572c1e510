/* shape_triangular: triangular, strictly triangular, banded-by-iterator and
   tetrahedral iteration domains (bounds such as j <= i, j >= i + 1,
   k from j to i, j < N - i) */
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
/* polyc-bench: -DN=1500 */

static double A[N][N];
static double L[N][N];
static double U[N][N];
static double S[N][N];
static double x[N];
static double y[N];

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
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * 5 + j * 3 + i * j) % 17) / 17.0 - 0.4;
      L[i][j] = 0.0;
      U[i][j] = 0.0;
      S[i][j] = 0.0;
    }
}

static void kernel_triangular(void)
{
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++)
      L[i][j] = A[i][j] + 0.5 * A[j][i];
  for (int i = 0; i < N - 1; i++)
    for (int j = i + 1; j < N; j++)
      U[i][j] = A[i][j] - A[j][i];
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      S[i][j] = 0.0;
      for (int k = j; k <= i; k++)
        S[i][j] += L[i][k] * L[k][j];
    }
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    for (int j = 0; j < -i + N; j++)
      x[i] += A[j][i + j];
  }
  for (int i = 0; i < N; i++) {
    y[i] = 0.0;
    for (int j = i + 1; j < N; j++)
      for (int k = i; k <= j; k++)
        y[i] += U[i][j] * A[k][j] / N;
  }
  for (int i = 1; i < N; i++)
    for (int j = i - 1; j <= i; j++)
      S[j][i] = S[i][j] - L[i][j];
#pragma endscop
}

int main(void)
{
  long total = 3L * N * N + 2L * N;
  init();
  POLYC_BENCH_START();
  kernel_triangular();
  POLYC_BENCH_STOP();
  print_array("L", &L[0][0], (long)N * N, total <= 4000);
  print_array("U", &U[0][0], (long)N * N, total <= 4000);
  print_array("S", &S[0][0], (long)N * N, total <= 4000);
  print_array("x", x, N, total <= 4000);
  print_array("y", y, N, total <= 4000);
  return 0;
}
