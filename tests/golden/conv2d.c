/* conv2d: 2-D convolution of an image with a 5x5 weight mask (4-deep nest,
   constant-bound inner loops, subscripts with offsets i + di - 2) */
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
#define N 60
#endif
#ifndef M
#define M 64
#endif
/* size of the mask, fixed: the loops use the literal 5 */
#define KS 5
/* polyc-bench: -DN=6000 -DM=6000 */

static double img[N][M];
static double out[N][M];
static double mask[KS][KS];

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
  for (i = 0; i < KS; i++)
    for (j = 0; j < KS; j++)
      mask[i][j] = (double)(1 + (i * KS + j) % 6) / 60.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      img[i][j] = (double)((i * i + 3 * j + i * j) % 64) / 16.0;
      out[i][j] = 0.0;
    }
}

static void kernel_conv2d(void)
{
  int i, j, di, dj;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 2; i < N - 2; i++)
    for (int j = 2; j < M - 2; j++) {
      out[i][j] = 0.0;
      for (int di = 0; di <= 4; di++)
        for (int dj = 0; dj <= 4; dj++)
          out[i][j] += mask[di][dj] * img[i + di - 2][j + dj - 2];
    }
#pragma endscop
}

int main(void)
{
  long total = (long)N * M;
  init();
  POLYC_BENCH_START();
  kernel_conv2d();
  POLYC_BENCH_STOP();
  print_array("out", &out[0][0], (long)N * M, total <= 4000);
  return 0;
}
