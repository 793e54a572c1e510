/* gramschmidt: QR decomposition by modified Gram-Schmidt, A (M x N, M >= N)
   is overwritten, Q receives the orthonormal columns and R the upper
   triangular factor */
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
#define M 70
#endif
#ifndef N
#define N 60
#endif
#if M < N
#error "gramschmidt needs M >= N (full column rank)"
#endif
/* polyc-bench: -DM=1000 -DN=700 */

static double A[M][N];
static double R[N][N];
static double Q[M][N];

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

/* a dominant "diagonal" keeps the columns well conditioned */
static void init(void)
{
  int i, j;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 2 * i + 1) % 13) / 13.0;
      if (i == j)
        A[i][j] += 8.0;
      Q[i][j] = 0.0;
    }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      R[i][j] = 0.0;
}

static void kernel_gramschmidt(void)
{
  int i, j, k;
  double nrm;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int k = 0; k < N; k++) {
    nrm = 0.0;
    for (int i = 0; i < M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (int i = 0; i < M; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (int j = k + 1; j < N; j++) {
      R[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)M * N * 2 + (long)N * N;
  init();
  POLYC_BENCH_START();
  kernel_gramschmidt();
  POLYC_BENCH_STOP();
  print_array("A", &A[0][0], (long)M * N, total <= 4000);
  print_array("R", &R[0][0], (long)N * N, total <= 4000);
  print_array("Q", &Q[0][0], (long)M * N, total <= 4000);
  return 0;
}
