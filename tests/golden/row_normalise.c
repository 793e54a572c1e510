/* row_normalise: scales every row of a matrix to unit Euclidean norm, size_t loops */
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
#ifndef M
#define M 80
#endif
/* polyc-bench: -DN=8000 -DM=8000 */

static double mat[N][M];

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
    for (size_t j = 0; j < M; j++)
      mat[i][j] = (double)((i * 5 + j * 3) % 11 + 1) / 11.0;
}

static void kernel_row_normalise(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double norm;
    double inv;
  for (size_t i = 0; i < N; i++) {
    norm = 0.0;
    for (size_t j = 0; j < M; j++)
      norm += mat[i][j] * mat[i][j];
    inv = 1.0 / sqrt(norm);
    for (size_t j = 0; j < M; j++)
      mat[i][j] *= inv;
  }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * M;
  init();
  POLYC_BENCH_START();
  kernel_row_normalise();
  POLYC_BENCH_STOP();
  print_array("mat", &mat[0][0], (long)N * M, total <= 4000);
  return 0;
}
