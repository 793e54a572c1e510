/* complex_mul: element-wise product of interleaved complex vectors and its squared modulus, long loops */
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
/* polyc-bench: -DN=30000000 */

static double z[2 * N];
static double w[2 * N];
static double prod[2 * N];
static double mag2[N];

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
    z[2 * i] = (double)(i % 9 - 4) / 4.0;
    z[2 * i + 1] = (double)((i * 5) % 7 - 3) / 3.0;
    w[2 * i] = (double)((i * 3) % 11 - 5) / 5.0;
    w[2 * i + 1] = (double)(i % 4) / 4.0;
  }
}

static void kernel_complex_mul(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double re;
    double im;
    double wr;
    double wi;
  for (long i = 0; i < N; i++) {
    re = z[2 * i];
    im = z[2 * i + 1];
    wr = w[2 * i];
    wi = w[2 * i + 1];
    prod[2 * i] = re * wr - im * wi;
    prod[2 * i + 1] = re * wi + im * wr;
  }
  for (long k = 0; k < 2 * N - 1; k += 2)
    mag2[k / 2] = prod[k] * prod[k] + prod[k + 1] * prod[k + 1];
  }
#pragma endscop
}

int main(void)
{
  long total = 3L * N;
  init();
  POLYC_BENCH_START();
  kernel_complex_mul();
  POLYC_BENCH_STOP();
  print_array("prod", prod, 2L * N, total <= 4000);
  print_array("mag2", mag2, N, total <= 4000);
  return 0;
}
