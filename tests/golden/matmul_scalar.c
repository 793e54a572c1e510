/* matmul_scalar: C := A * B accumulated in a scalar (seed 004's motivating
   example, a SCoP of its own), then scalars whose values leave their loop
   (copied out) and one that lives only inside an iteration (private) */
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
#define N 50
#endif
/* polyc-bench: -DN=700 */

static double A[N][N];
static double B[N][N];
static double C[N][N];
static double D[N][N];
static double rowmax[N];
static double res[3];

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
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * (j + 3) + 1) % N) / N;
      B[i][j] = (double)((i + 2 * j + 5) % 17) / 17.0;
    }
}

static void kernel_matmul_scalar(void)
{
  int i, j, k;
  double s, last, q;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s = 0.0;
      for (int k = 0; k < N; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
#pragma endscop
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++) {
    last = C[i][0] * 0.5;
    for (int j = 0; j < N; j++)
      D[i][j] = C[i][j] - last;
  }
  res[0] = last;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      q = D[i][j] * D[i][j];
      D[i][j] = q + 1.0;
    }
    rowmax[i] = q;
  }
#pragma endscop
}

int main(void)
{
  long total = 2L * N * N + N + 3;
  init();
  POLYC_BENCH_START();
  kernel_matmul_scalar();
  POLYC_BENCH_STOP();
  print_array("C", &C[0][0], (long)N * N, total <= 4000);
  print_array("D", &D[0][0], (long)N * N, total <= 4000);
  print_array("rowmax", rowmax, N, total <= 4000);
  print_array("res", res, 3, total <= 4000);
  return 0;
}
