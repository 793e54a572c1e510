/* conv1d: 1-D convolution, 'same' size, the tap range clipped at both ends by scalars computed with ?: */
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
#define N 1000
#endif
#ifndef RADIUS
#define RADIUS 4
#endif
/* polyc-bench: -DN=30000000 -DRADIUS=4 */

static double sig[N];
static double taps[2 * RADIUS + 1];
static double out[N];

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
    sig[i] = (double)((i * 13) % 27 - 13) / 13.0;
  for (int k = 0; k <= 2 * RADIUS; k++)
    taps[k] = (double)(RADIUS + 1 - (k < RADIUS ? RADIUS - k : k - RADIUS)) / (double)((RADIUS + 1) * (RADIUS + 1));
}

static void kernel_conv1d(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef polyc_max
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#endif
  {
    double acc;
  for (int i = 0; i < N; i++) {
    acc = 0.0;
    for (int k = polyc_max(-i + RADIUS, 0); k <= polyc_min(2 * RADIUS, -i + N + RADIUS - 1); k++)
      acc += taps[k] * sig[i + k - RADIUS];
    out[i] = acc;
  }
  }
#pragma endscop
}

int main(void)
{
  init();
  POLYC_BENCH_START();
  kernel_conv1d();
  POLYC_BENCH_STOP();
  print_array("out", out, N, N <= 4000);
  return 0;
}
