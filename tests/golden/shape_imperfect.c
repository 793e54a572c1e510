/* shape_imperfect: imperfectly nested loops, with statements before, between
   and after inner loops at two depths */
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
#define N 30
#endif
#ifndef M
#define M 40
#endif
/* polyc-bench: -DN=1500 -DM=1500 */

static double A[N][M];
static double B[N][M];
static double C[N][N];
static double v[M];
static double x[N];
static double y[N];
static double z[N];

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
  for (j = 0; j < M; j++)
    v[j] = (double)(j % 7) / 7.0 + 0.25;
  for (i = 0; i < N; i++) {
    x[i] = y[i] = z[i] = 0.0;
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * 11 + j * 3) % 17) / 17.0;
      B[i][j] = 0.0;
    }
    for (j = 0; j < N; j++)
      C[i][j] = 0.0;
  }
}

static void kernel_imperfect(void)
{
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    for (int j = 0; j < M; j++)
      x[i] += A[i][j] * v[j];
    y[i] = x[i] / M + 1.0;
    for (int j = 0; j < M; j++)
      B[i][j] = A[i][j] * y[i];
    for (int k = 0; k < i; k++) {
      C[i][k] = 0.0;
      for (int j = 0; j < M; j++)
        C[i][k] += B[i][j] * B[k][j];
      C[i][k] = C[i][k] / (y[k] * M);
    }
    z[i] = y[i] + 0.5 * x[i];
  }
#pragma endscop
}

int main(void)
{
  long total = 3L * N + (long)N * M + (long)N * N;
  init();
  POLYC_BENCH_START();
  kernel_imperfect();
  POLYC_BENCH_STOP();
  print_array("x", x, N, total <= 4000);
  print_array("y", y, N, total <= 4000);
  print_array("z", z, N, total <= 4000);
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  print_array("C", &C[0][0], (long)N * N, total <= 4000);
  return 0;
}
