/* shape_inplace: scalar sums a plan wants expanded, and whether the cell
   each is stored to can hold it (in-place expansion) */
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
#define N 40
#endif
/* polyc-bench: -DN=600 */

static double A[N][N];
static double B[N][N];
static double C[N][N];
static double D[N][N];
static double E[N][N];
static double x[N];
static double last;

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
    x[i] = (double)(i % 5) / 5.0;
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * (j + 2) + 1) % N) / N;
      B[i][j] = (double)((i + 3 * j + 2) % 13) / 13.0;
      C[i][j] = (double)((2 * i + j) % 7) / 7.0;
      D[i][j] = 0.0;
      E[i][j] = 1.0;
    }
  }
}

static void kernel_inplace(void)
{
  int i, j, k;
  double s, t, u, v, w;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      w = C[i][j];
      for (int k = 0; k < N; k++)
        w += A[i][k] * B[k][j];
      C[i][j] = w;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s = 0.0;
      for (int k = 0; k < N; k++)
        s += A[i][k] * D[k][j];
      D[i][j] = s + 1.0;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      t = 0.0;
      u = 1.0;
      for (int k = 0; k < N; k++) {
        t += A[i][k] * B[k][j];
        u += B[i][k] * A[k][j];
      }
      E[i][j] = t * u;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      v = 0.0;
      for (int k = 0; k < N; k++)
        v += A[i][k] * B[k][j];
      x[i] = x[i] * 0.5 + v;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      last = 0.0;
      for (int k = 0; k < N; k++)
        last += B[i][k] * B[k][j];
      A[i][j] = A[i][j] + last;
    }
#pragma endscop
}

int main(void)
{
  long total = 4L * N * N + N + 1;
  init();
  POLYC_BENCH_START();
  kernel_inplace();
  POLYC_BENCH_STOP();
  print_array("A", &A[0][0], (long)N * N, total <= 4000);
  print_array("C", &C[0][0], (long)N * N, total <= 4000);
  print_array("D", &D[0][0], (long)N * N, total <= 4000);
  print_array("E", &E[0][0], (long)N * N, total <= 4000);
  print_array("x", x, N, total <= 4000);
  print_array("last", &last, 1, total <= 4000);
  return 0;
}
