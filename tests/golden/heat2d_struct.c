/* heat2d_struct: 2-D heat equation on a grid struct holding both time levels */
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

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 60
#endif
/* polyc-bench: -DTSTEPS=200 -DN=2000 */

struct grid {
  double u[N][N];
  double v[N][N];
};

static struct grid g;

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
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      g.u[i][j] = (double)((i * 3 + j * 5) % 17) / 16.0 + (i == 0 ? 1.0 : 0.0);
}

static void kernel_heat2d_struct(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        g.v[i][j] = g.u[i][j] + 0.125 * (g.u[i - 1][j] + g.u[i + 1][j] + g.u[i][j - 1] + g.u[i][j + 1] - 4.0 * g.u[i][j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        g.u[i][j] = g.v[i][j];
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N * N;
  init();
  POLYC_BENCH_START();
  kernel_heat2d_struct();
  POLYC_BENCH_STOP();
  print_array("u", &g.u[0][0], (long)N * N, total <= 4000);
  return 0;
}
