/* finite_diff: central-difference gradient and Laplacian of a field in a 1-D buffer, size_t cell index */
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
#ifndef M
#define M 70
#endif
/* polyc-bench: -DN=6000 -DM=6000 */

static double f[N * M];
static double gx[N * M];
static double gy[N * M];
static double lap[N * M];

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
    for (int j = 0; j < M; j++)
      f[(size_t)i * M + j] = (double)((i * i + j * j) % 31) / 30.0;
}

static void kernel_finite_diff(void)
{
  const double h = 0.5;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    size_t c;
    double ddx;
    double ddy;
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < M - 1; j++) {
      c = (size_t)i * M + j;
      ddx = f[c + 1] - f[c - 1];
      ddy = f[c + M] - f[c - M];
      gx[c] = ddx / (2.0 * h);
      gy[c] = ddy / (2.0 * h);
      lap[c] = (f[c + 1] + f[c - 1] + f[c + M] + f[c - M] - 4.0 * f[c]) / (h * h);
    }
  }
#pragma endscop
}

int main(void)
{
  long total = 3L * N * M;
  init();
  POLYC_BENCH_START();
  kernel_finite_diff();
  POLYC_BENCH_STOP();
  print_array("gx", gx, (long)N * M, total <= 4000);
  print_array("gy", gy, (long)N * M, total <= 4000);
  print_array("lap", lap, (long)N * M, total <= 4000);
  return 0;
}
