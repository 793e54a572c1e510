/* box_blur: 3x3 box blur of a grey image, borders left black */
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
/* polyc-bench: -DH=6000 -DW=6000 */

static double img[H][W];
static double out[H][W];

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
      img[i][j] = (double)((i * 7 + j * 13) % 32) / 31.0;
}

static void kernel_box_blur(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double ninth;
    double s;
  for (int i = 1; i < H - 1; i++)
    for (int j = 1; j < W - 1; j++) {
      ninth = 1.0 / 9.0;
      s = 0.0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
          s += img[i + di][j + dj];
      out[i][j] = ninth * s;
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)H * W;
  init();
  POLYC_BENCH_START();
  kernel_box_blur();
  POLYC_BENCH_STOP();
  print_array("out", &out[0][0], (long)H * W, total <= 4000);
  return 0;
}
