/* shape_negstride: loops counting down with i-- and i -= 3, counting up with
   i += 2 and j += 2, and a time loop that counts down */
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
#define TSTEPS 4
#endif
#ifndef N
#define N 60
#endif
#ifndef M
#define M 30
#endif
/* polyc-bench: -DTSTEPS=60 -DN=3000 -DM=3000 */

static double a[N];
static double sfx[N];
static double b[N];
static double c[N];
static double G[N][M];
static double F[N][M];

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
    a[i] = (double)((i * 13 + 5) % 17) / 17.0;
    sfx[i] = 0.0;
    b[i] = -1.0;
    c[i] = -2.0;
    for (j = 0; j < M; j++) {
      G[i][j] = (double)((i + 3 * j) % 11) / 11.0;
      F[i][j] = (double)((2 * i + j) % 7) / 7.0;
    }
  }
}

static void kernel_negstride(void)
{
  int t, i, j;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  sfx[N - 1] = a[N - 1];
  for (int i = N - 2; i >= 0; i--)
    sfx[i] = sfx[i + 1] + a[i];
  for (int i = N - 1; i >= 2; i -= 3)
    b[i] = a[i] * 2.0 + a[i - 1] - a[i - 2];
  for (int i = 0; i < N - 1; i += 2) {
    c[i] = a[i] + a[i + 1];
    c[i + 1] = a[i] - a[i + 1];
  }
  for (int t = TSTEPS - 1; t >= 0; t--) {
    for (int i = N - 1; i >= 1; i--)
      for (int j = 1; j < M; j += 2)
        G[i][j] = 0.5 * G[i - 1][j] + 0.25 * F[i][j - 1] + 0.001 * t;
    for (int i = 0; i < N; i++)
      for (int j = M - 1; j >= 3; j -= 3)
        F[i][j - 3] = 0.5 * F[i][j - 3] + 0.25 * F[i][j] + 0.125 * G[i][j];
  }
#pragma endscop
}

int main(void)
{
  long total = 3L * N + 2L * N * M;
  init();
  POLYC_BENCH_START();
  kernel_negstride();
  POLYC_BENCH_STOP();
  print_array("sfx", sfx, N, total <= 4000);
  print_array("b", b, N, total <= 4000);
  print_array("c", c, N, total <= 4000);
  print_array("G", &G[0][0], (long)N * M, total <= 4000);
  print_array("F", &F[0][0], (long)N * M, total <= 4000);
  return 0;
}
