/* shape_scalars: scalar temporaries written and read inside the SCoP, a
   scalar carried across outer iterations, reductions into scalars (sum and
   max), and scalar results stored into an array */
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
/* polyc-bench: -DN=8000 -DM=8000 */

static double A[N][M];
static double B[N][M];
static double x[M];
static double y[N];
static double res[4];

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
    x[j] = (double)((j * 3) % 10) / 10.0 - 0.3;
  for (i = 0; i < N; i++) {
    y[i] = 0.0;
    for (j = 0; j < M; j++) {
      A[i][j] = (double)((i * j + 2 * i + 1) % 21) / 21.0;
      B[i][j] = 0.0;
    }
  }
  for (i = 0; i < 4; i++)
    res[i] = 0.0;
}

static void kernel_scalars(void)
{
  int i, j;
  double acc, t, total, mx, prev;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  total = 0.0;
  prev = 0.0;
  for (int i = 0; i < N; i++) {
    acc = 0.0;
    for (int j = 0; j < M; j++) {
      t = A[i][j] * x[j];
      acc += t;
      B[i][j] = t - prev;
    }
    y[i] = acc;
    total += acc * acc;
    prev = acc * 0.001;
  }
  res[0] = sqrt(total);
  mx = fabs(y[0]);
  for (int i = 1; i < N; i++)
    mx = fmax(mx, fabs(y[i]));
  res[1] = mx;
  for (int i = 0; i < N; i++) {
    t = y[i];
    y[i] = 0.5 * y[N - 1 - i] + 0.5 * t;
  }
  total = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      total -= B[i][j] / M;
  res[2] = total;
  res[3] = prev * mx;
#pragma endscop
}

int main(void)
{
  long total = (long)N * M + N + 4;
  init();
  POLYC_BENCH_START();
  kernel_scalars();
  POLYC_BENCH_STOP();
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  print_array("y", y, N, total <= 4000);
  print_array("res", res, 4, total <= 4000);
  return 0;
}
