/* lower_solve: forward substitution L x = b with a const row pointer and a running sum declared per row */
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
#define N 60
#endif
/* polyc-bench: -DN=3000 */

static double l[N][N];
static double b[N];
static double x[N];

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
  for (int i = 0; i < N; i++) {
    b[i] = (double)(i % 9 + 1) / 9.0;
    for (int j = 0; j < N; j++)
      l[i][j] = j < i ? (double)((i + j) % 5) / (8.0 * N) : 1.0 + (double)(i % 3);
  }
}

/* Forward substitution for a lower-triangular system, written with a
   row pointer and a running sum declared in the loop body. */
static void kernel_lower_solve(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double sum;
  for (int i = 0; i < N; i++) {
    sum = b[i];
    for (int j = 0; j < i; j++)
      sum -= l[i][j] * x[j];
    x[i] = sum / l[i][i];
  }
  }
#pragma endscop
}

int main(void)
{
  init();
  POLYC_BENCH_START();
  kernel_lower_solve();
  POLYC_BENCH_STOP();
  print_array("x", x, N, N <= 4000);
  return 0;
}
