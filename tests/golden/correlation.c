/* correlation: Pearson correlation matrix of M variables observed N times
   (data[N][M]); data is standardised in place.  Standard deviations are
   clamped from below by eps so near-constant columns cannot divide by 0. */
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

#ifndef M
#define M 50
#endif
#ifndef N
#define N 60
#endif
/* polyc-bench: -DM=900 -DN=1400 */

static double data[N][M];
static double corr[M][M];
static double mean[M];
static double stddev[M];

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
    for (j = 0; j < M; j++)
      data[i][j] = (double)((i * (j + 1) + 3 * j) % 31) / 5.0 + (double)i / N;
}

static void kernel_correlation(void)
{
  double float_n = (double)N;
  double eps = 0.1;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int j = 0; j < M; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (int j = 0; j < M; j++) {
    stddev[j] = 0.0;
    for (int i = 0; i < N; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = fmax(sqrt(stddev[j]), eps);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }
  for (int i = 0; i < M - 1; i++) {
    corr[i][i] = 1.0;
    for (int j = i + 1; j < M; j++) {
      corr[i][j] = 0.0;
      for (int k = 0; k < N; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[M - 1][M - 1] = 1.0;
#pragma endscop
}

int main(void)
{
  long total = (long)M * M;
  init();
  POLYC_BENCH_START();
  kernel_correlation();
  POLYC_BENCH_STOP();
  print_array("corr", &corr[0][0], (long)M * M, total <= 4000);
  return 0;
}
