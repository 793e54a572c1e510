/* heat1d: explicit 1-D heat equation with fixed ends, size_t loops */
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

#ifndef TSTEPS
#define TSTEPS 50
#endif
#ifndef N
#define N 500
#endif
/* polyc-bench: -DTSTEPS=2000 -DN=400000 */

static double u[N];
static double unew[N];

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
  for (size_t i = 0; i < N; i++)
    u[i] = 0.25 + (double)((i * 17) % 29) / 40.0;
  u[0] = 1.0;
  u[N - 1] = 0.5;
}

static void kernel_heat1d(void)
{
  const double r = 0.25;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double left;
    double right;
  for (size_t t = 0; t < TSTEPS; t++) {
    for (size_t i = 1; i < N - 1; i++) {
      left = u[i - 1];
      right = u[i + 1];
      unew[i] = u[i] + r * (left - 2.0 * u[i] + right);
    }
    for (size_t i = 1; i < N - 1; i++)
      u[i] = unew[i];
  }
  }
#pragma endscop
}

int main(void)
{
  init();
  POLYC_BENCH_START();
  kernel_heat1d();
  POLYC_BENCH_STOP();
  print_array("u", u, N, N <= 4000);
  return 0;
}
