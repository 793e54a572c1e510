/* gauss_blur: separable 5-tap binomial (Gaussian) blur, rows then columns, through row pointers */
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

#ifndef H
#define H 60
#endif
#ifndef W
#define W 70
#endif
/* polyc-bench: -DH=4000 -DW=4000 */

static double img[H][W];
static double tmp[H][W];
static double res[H][W];

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
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      img[i][j] = (double)((5 * i + j * j) % 23) / 22.0;
}

static void kernel_gauss_blur(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < H; i++)
    for (int j = 2; j < W - 2; j++)
      tmp[i][j] = (img[i][j - 2] + 4.0 * img[i][j - 1] + 6.0 * img[i][j] + 4.0 * img[i][j + 1] + img[i][j + 2]) / 16.0;
  for (int i = 2; i < H - 2; i++)
    for (int j = 2; j < W - 2; j++)
      res[i][j] = (tmp[i - 2][j] + 4.0 * tmp[i - 1][j] + 6.0 * tmp[i][j] + 4.0 * tmp[i + 1][j] + tmp[i + 2][j]) / 16.0;
#pragma endscop
}

int main(void)
{
  long total = (long)H * W;
  init();
  POLYC_BENCH_START();
  kernel_gauss_blur();
  POLYC_BENCH_STOP();
  print_array("res", &res[0][0], (long)H * W, total <= 4000);
  return 0;
}
