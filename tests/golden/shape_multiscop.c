/* shape_multiscop: two separate SCoPs in one function with ordinary
   (non-SCoP) code between them, and a third SCoP in another function */
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
/* polyc-bench: -DN=8000 */

static double a[N];
static double b[N];
static double c[N];
static double G[N][N];

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
  int i;
  for (i = 0; i < N; i++) {
    a[i] = (double)((i * 7 + 3) % 10) / 10.0 + 0.1;
    b[i] = 0.0;
    c[i] = 0.0;
  }
}

static void kernel_multiscop(void)
{
  int i, j;
  int guard;
  double scale;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 2.0 + 1.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      G[i][j] = b[i] * a[j];
#pragma endscop
  /* not a SCoP: data-dependent while loop */
  scale = 1.0;
  guard = 0;
  while (scale * b[N - 1] > 0.75 && guard < 100) {
    scale *= 0.5;
    guard++;
  }
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int p = 0; p < N; p++)
    c[p] = b[p] * scale;
  for (int p = 0; p < N; p++)
    for (int q = 0; q < N; q++)
      G[p][q] = G[p][q] * scale + c[q];
#pragma endscop
}

static void kernel_multiscop_tail(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = N - 1; i >= 1; i--)
    a[i] = a[i - 1] + c[i];
  for (int i = 1; i < N; i++)
    for (int j = 0; j < N; j++)
      G[i][j] = G[i][j] - 0.5 * G[i - 1][j] + a[i];
#pragma endscop
}

int main(void)
{
  long total = 3L * N + (long)N * N;
  init();
  POLYC_BENCH_START();
  kernel_multiscop();
  kernel_multiscop_tail();
  POLYC_BENCH_STOP();
  print_array("a", a, N, total <= 4000);
  print_array("b", b, N, total <= 4000);
  print_array("c", c, N, total <= 4000);
  print_array("G", &G[0][0], (long)N * N, total <= 4000);
  return 0;
}
