/* sobel_edges: Sobel gradient magnitude of an image held in a struct, through pointers */
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

struct image {
  double px[H][W];
};

static struct image picture, edges;

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

static void init(struct image *im)
{
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      im->px[i][j] = (double)((i * i + 3 * j) % 19) / 18.0;
}

static void kernel_sobel_edges(const struct image *in, struct image *out)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double gx;
    double gy;
  for (int i = 1; i < H - 1; i++)
    for (int j = 1; j < W - 1; j++) {
      gx = (in->px[i - 1][j + 1] + 2.0 * in->px[i][j + 1] + in->px[i + 1][j + 1])
                  - (in->px[i - 1][j - 1] + 2.0 * in->px[i][j - 1] + in->px[i + 1][j - 1]);
      gy = (in->px[i + 1][j - 1] + 2.0 * in->px[i + 1][j] + in->px[i + 1][j + 1])
                  - (in->px[i - 1][j - 1] + 2.0 * in->px[i - 1][j] + in->px[i - 1][j + 1]);
      out->px[i][j] = sqrt(gx * gx + gy * gy);
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)H * W;
  init(&picture);
  POLYC_BENCH_START();
  kernel_sobel_edges(&picture, &edges);
  POLYC_BENCH_STOP();
  print_array("edges", &edges.px[0][0], (long)H * W, total <= 4000);
  return 0;
}
