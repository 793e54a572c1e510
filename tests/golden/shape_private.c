/* shape_private: scalars a parallel loop may privatise (a per-row
   temporary, a per-row sum, each read after its loop) and scalars it may
   not (a value carried to the next row, a value written on some rows
   only, a last row that does not write the scalar), and the same for
   one-dimensional arrays (a row buffer written whole in every row; a
   buffer whose last row writes only part of it) */
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
#define N 40
#endif
#ifndef M
#define M 50
#endif
/* polyc-bench: -DN=4000 -DM=4000 */

static double A[N][M];
static double B[N][M];
static double x[N];
static double y[N];
static double res[5];
static double row[M];
static double part[M];

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
    x[i] = (double)((i * 5 + 1) % 13) / 13.0;
    y[i] = 0.0;
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * j + 3 * j + 1) % 17) / 17.0;
      B[i][j] = 0.0;
    }
  }
  for (i = 0; i < 5; i++)
    res[i] = 0.0;
  for (j = 0; j < M; j++) {
    row[j] = 0.0;
    part[j] = -1.0;
  }
}

static void kernel_private(void)
{
  int i, j;
  double t, u, v, w, z;
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int i = 0; i < N; i++) {
    t = x[i] * 2.0 + 0.5;
    for (int j = 0; j < M; j++)
      B[i][j] = A[i][j] * t + 1.0;
    y[i] = t;
  }
  res[0] = t;
  u = 0.0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++)
      B[i][j] = B[i][j] + u;
    u = B[i][M - 1] * 0.5;
  }
  res[1] = u;
  v = 1.0;
  for (int i = 0; i < N; i++) {
    if (i % 2 == 0)
      v = x[i];
    for (int j = 0; j < M; j++)
      A[i][j] = A[i][j] + v;
  }
  res[2] = v;
  for (int i = 0; i < N; i++) {
    w = 0.0;
    for (int j = 0; j < M; j++)
      w += A[i][j] * B[i][j];
    x[i] = w;
  }
  res[3] = w;
  z = -1.0;
  for (int i = 0; i < N - 1; i++) {
    z = x[i] * 3.0;
    for (int j = 0; j < M; j++)
      B[i][j] = B[i][j] * 0.5 + z;
  }
  res[4] = z;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++)
      row[j] = A[i][j] * 0.5 + x[i];
    for (int j = 1; j < M; j++)
      B[i][j] = B[i][j] + row[j] * row[j - 1];
  }
  for (int i = 0; i <= polyc_min(M - 1, N - 1); i++) {
    for (int j = 0; j < -i + M; j++)
      part[j] = B[i][j] * 0.25;
    for (int j = 0; j < -i + M; j++)
      A[i][j] = A[i][j] - part[j];
  }
#pragma endscop
}

int main(void)
{
  long total = 2L * N * M + 2L * N + 5 + 2L * M;
  init();
  POLYC_BENCH_START();
  kernel_private();
  POLYC_BENCH_STOP();
  print_array("A", &A[0][0], (long)N * M, total <= 4000);
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  print_array("x", x, N, total <= 4000);
  print_array("y", y, N, total <= 4000);
  print_array("res", res, 5, total <= 4000);
  print_array("row", row, M, total <= 4000);
  print_array("part", part, M, total <= 4000);
  return 0;
}
