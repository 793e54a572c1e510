/* gemv_rowptr: y := 0.5 y + A x and z := A^T y on a row-major 1-D buffer, row pointers and size_t casts */
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

#ifndef M
#define M 90
#endif
#ifndef N
#define N 110
#endif
/* polyc-bench: -DM=12000 -DN=12000 */

static double a[M * N];
static double x[N];
static double y[M];
static double z[N];

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
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      a[(size_t)i * N + j] = (double)((i + 2 * j) % 9 - 4) / 8.0;
  for (int j = 0; j < N; j++)
    x[j] = (double)(j % 7) / 7.0;
  for (int i = 0; i < M; i++)
    y[i] = (double)(i % 5) / 5.0;
}

static void kernel_gemv_rowptr(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double acc_;
    double acc__;
  for (int i = 0; i < M; i++) {
    acc_ = 0.0;
    for (int j = 0; j < N; j++)
      acc_ += (&a[(size_t)i * N])[j] * x[j];
    y[i] = 0.5 * y[i] + acc_;
  }
  for (int j = 0; j < N; j++) {
    acc__ = 0.0;
    for (int i = 0; i < M; i++)
      acc__ += a[(size_t)i * N + j] * y[i];
    z[j] = acc__;
  }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)M + N;
  init();
  POLYC_BENCH_START();
  kernel_gemv_rowptr();
  POLYC_BENCH_STOP();
  print_array("y", y, M, total <= 4000);
  print_array("z", z, N, total <= 4000);
  return 0;
}
