/* outer_product: rank-1 update A += alpha u v^T, a const scaled u[i] and a row pointer per row */
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
#define N 70
#endif
#ifndef M
#define M 80
#endif
/* polyc-bench: -DN=8000 -DM=8000 */

static double a[N][M];
static double u[N];
static double v[M];

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
  for (int i = 0; i < N; i++) {
    u[i] = (double)(i % 10 + 1) / 10.0;
    for (int j = 0; j < M; j++)
      a[i][j] = (double)((i * j) % 7) / 7.0;
  }
  for (int j = 0; j < M; j++)
    v[j] = (double)(j % 6 - 3) / 4.0;
}

static void kernel_outer_product(double alpha)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double ui;
  for (int i = 0; i < N; i++) {
    ui = alpha * u[i];
    for (int j = 0; j < M; j++)
      a[i][j] += ui * v[j];
  }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * M;
  init();
  POLYC_BENCH_START();
  kernel_outer_product(0.75);
  POLYC_BENCH_STOP();
  print_array("a", &a[0][0], (long)N * M, total <= 4000);
  return 0;
}
