/* durbin: Levinson-Durbin recursion, solves the Yule-Walker system T * y = -r
   for the symmetric Toeplitz matrix T with first row (1, r[0], ..., r[N-2]) */
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
#define N 120
#endif
/* polyc-bench: -DN=2000 */

static double r[N];
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

/* r is the autocorrelation (lags 1..N) of a mixture of two AR(1) processes,
   so T is positive definite and the recursion is stable */
static void init(void)
{
  int i;
  for (i = 0; i < N; i++) {
    r[i] = 0.5 * pow(0.995, (double)(i + 1)) + 0.5 * pow(-0.6, (double)(i + 1));
    if (fabs(r[i]) < 1e-200)
      r[i] = 0.0;
    y[i] = 0.0;
    z[i] = 0.0;
  }
}

static void kernel_durbin(void)
{
  int i, k;
  double alpha, beta, sum;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  y[0] = -r[0];
  beta = 1.0;
  alpha = -r[0];
  for (int k = 1; k < N; k++) {
    beta = (1.0 - alpha * alpha) * beta;
    sum = 0.0;
    for (int i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (int i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (int i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N;
  init();
  POLYC_BENCH_START();
  kernel_durbin();
  POLYC_BENCH_STOP();
  print_array("y", y, N, total <= 4000);
  return 0;
}
