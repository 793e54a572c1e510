/* col_standardise: standardises every column of a data matrix (mean 0, stddev 1, stddev clamped to 0.1) */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

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
#define N 80
#endif
#ifndef M
#define M 50
#endif
/* polyc-bench: -DN=6000 -DM=6000 */

static double data[N][M];
static double mean[M];
static double stddev[M];

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
      data[i][j] = (double)((i * (j + 1)) % 13) + (double)j / 4.0;
}

static void kernel_col_standardise(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double s;
    double ss;
    double d;
  for (int j = 0; j < M; j++) {
    s = 0.0;
    for (int i = 0; i < N; i++)
      s += data[i][j];
    mean[j] = s / (double)N;
  }
  for (int j = 0; j < M; j++) {
    ss = 0.0;
    for (int i = 0; i < N; i++) {
      d = data[i][j] - mean[j];
      ss += d * d;
    }
    stddev[j] = fmax(sqrt(ss / (double)N), 0.1);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] = (data[i][j] - mean[j]) / stddev[j];
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * M + 2L * M;
  init();
  POLYC_BENCH_START();
  kernel_col_standardise();
  POLYC_BENCH_STOP();
  print_array("data", &data[0][0], (long)N * M, total <= 4000);
  print_array("mean", mean, M, total <= 4000);
  print_array("stddev", stddev, M, total <= 4000);
  return 0;
}
