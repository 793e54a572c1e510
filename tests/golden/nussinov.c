/* nussinov: RNA secondary structure prediction by dynamic programming
   (maximum number of complementary base pairs in every subsequence).
   Bases are 0..3; bases b1 and b2 pair when b1 + b2 == 3, computed
   arithmetically as 1 - min(|b1 + b2 - 3|, 1). */
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
#define N 60
#endif
/* polyc-bench: -DN=1800 */

static double seq[N];
static double table[N][N];

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
    seq[i] = (double)((i * 7 + i / 3 + 1) % 4);
    for (j = 0; j < N; j++)
      table[i][j] = 0.0;
  }
}

static void kernel_nussinov(void)
{
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = N - 2; i >= 0; i--) {
    table[i][i + 1] = fmax(table[i][i + 1], table[i][i]);
    table[i][i + 1] = fmax(table[i][i + 1], table[i + 1][i + 1]);
    table[i][i + 1] = fmax(table[i][i + 1], table[i + 1][i]);
    for (int j = i + 2; j < N; j++) {
      table[i][j] = fmax(table[i][j], table[i][j - 1]);
      table[i][j] = fmax(table[i][j], table[i + 1][j]);
      table[i][j] = fmax(table[i][j], table[i + 1][j - 1]
                             + 1.0 - fmin(fabs(seq[i] + seq[j] - 3.0), 1.0));
      for (int k = i + 1; k < j; k++)
        table[i][j] = fmax(table[i][j], table[i][k] + table[k + 1][j]);
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * N;
  init();
  POLYC_BENCH_START();
  kernel_nussinov();
  POLYC_BENCH_STOP();
  print_array("table", &table[0][0], (long)N * N, total <= 4000);
  return 0;
}
