/* Jacobi sweeps repeated until the largest change falls below a tolerance,
   the convergence loop written inside the region: the `while` stays as
   written (its header counts the sweeps, so that a trace, where the
   region's statements only print, ends too), and the sweep, the largest
   change and the copy back run as a region of its own at each of its
   iterations. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <math.h>
#include <stdio.h>

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

/* polyc-bench: -DN=1000 */

#ifndef N
#define N 40
#endif
#ifndef MAXSWEEPS
#define MAXSWEEPS 400
#endif

static double A[N][N], B[N][N];

static int kernel_converge_while(double tol)
{
  double change = 1.0;
  int sweeps = 0;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      B[i][j] = A[i][j];
  while (change > tol && sweeps++ < MAXSWEEPS) {
    /* polyc: loops regenerated in the source's order */
    change = 0.0;
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        change = fmax(change, fabs(B[i][j] - A[i][j]));
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
  return sweeps;
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (i == 0 || j == N - 1) ? 1.0 : 0.0;
  POLYC_BENCH_START();
  int sweeps = kernel_converge_while(1e-3);
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += A[i][j] * (j % 3 + 1);
  printf("%d %.10e\n", sweeps, s);
  printf("A\n");
  for (int i = 0; i < N; i += 7)
    for (int j = 0; j < N; j += 5)
      printf("%.10e\n", A[i][j]);
  return 0;
}
