/* shape_constbounds: loops with literal constant bounds (0..15, 2..13, 0..7),
   alone and mixed with parametric outer/inner loops, and ++i increments */
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
#define N 40
#endif
#ifndef M
#define M 32
#endif
/* fixed extent of the constant-bound arrays (the loops use literals) */
#define CS 16
#if N < 20 || M < 20
#error "shape_constbounds needs N >= 20 and M >= 20"
#endif
/* polyc-bench: -DN=6000 -DM=6000 */

static double in[N][M];
static double out[N][M];
static double c[CS];
static double T[CS][CS];
static double rowpart[N];

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
    for (j = 0; j < M; j++) {
      in[i][j] = (double)((i * 7 + j * 11 + i * j) % 23) / 23.0;
      out[i][j] = 0.0;
    }
}

static void kernel_constbounds(void)
{
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int k = 0; k <= 15; k++)
    c[k] = 1.0 / (double)(k + 1);
  for (int i = 2; i <= 13; i++)
    for (int j = 1; j <= 14; j++)
      T[i][j] = in[i][j] * 2.0 + in[i - 1][j + 1] - in[i + 2][j - 1];
  for (int i = 0; i < N - 15; i++)
    for (int j = 0; j < M; j++) {
      out[i][j] = 0.0;
      for (int k = 0; k <= 15; k++)
        out[i][j] += c[k] * in[i + k][j];
    }
  for (int i = 0; i < N; i++) {
    rowpart[i] = 0.0;
    for (int j = 0; j <= 7; j++)
      rowpart[i] += in[i][2 * j + 1] - in[i][2 * j];
  }
  for (int i = 0; i <= 15; i++)
    for (int j = 0; j < M; j++)
      out[N - 1 - i][j] = T[i][i] + c[i] * in[i][j];
#pragma endscop
}

int main(void)
{
  long total = (long)N * M + (long)CS * CS + N;
  init();
  POLYC_BENCH_START();
  kernel_constbounds();
  POLYC_BENCH_STOP();
  print_array("out", &out[0][0], (long)N * M, total <= 4000);
  print_array("T", &T[0][0], (long)CS * CS, total <= 4000);
  print_array("rowpart", rowpart, N, total <= 4000);
  return 0;
}
