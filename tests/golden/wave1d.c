/* wave1d: 1-D wave equation, leapfrog over three time levels, long loops and casts in bounds */
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
#define TSTEPS 60
#endif
#ifndef N
#define N 400
#endif
/* polyc-bench: -DTSTEPS=2000 -DN=400000 */

static double prev[N];
static double cur[N];
static double next[N];

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
  for (long i = 0; i < N; i++) {
    cur[i] = (double)((i * 11) % 21 - 10) / 10.0;
    prev[i] = cur[i];
  }
}

static void kernel_wave1d(void)
{
  const double c2 = 0.36; /* (c dt / dx)^2, stable below 1 */
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double lap;
  for (long t = 0; t < TSTEPS; t++) {
    for (long i = 1; i < N - 1; i++) {
      lap = cur[i - 1] - 2.0 * cur[i] + cur[i + 1];
      next[i] = 2.0 * cur[i] - prev[i] + c2 * lap;
    }
    for (long i = 1; i < N - 1; i++) {
      prev[i] = cur[i];
      cur[i] = next[i];
    }
  }
  }
#pragma endscop
}

int main(void)
{
  init();
  POLYC_BENCH_START();
  kernel_wave1d();
  POLYC_BENCH_STOP();
  print_array("cur", cur, N, N <= 4000);
  return 0;
}
