/* ptr_conv2d: 5x5 convolution of an image, on linearly indexed pointers (the heap twin of conv2d.c) */
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

#ifndef H
#define H 70
#endif
#ifndef W
#define W 90
#endif
/* polyc-bench: -DH=6000 -DW=6000 */

/* polyc's output runs its new loops only if the buffers a SCoP writes
   do not overlap the others it touches (polyc_disjoint, which the output
   defines unless it is defined already). Here each check is counted, and
   main reports on stderr how many found the buffers apart and how many
   found them overlapping: the call on overlapping buffers must run the
   source text. */
static long checks_apart, checks_overlapping;
__attribute__((unused)) static int counted_disjoint(const void *a, const void *a_end, const void *b,
                                                    const void *b_end)
{
  int apart = (__UINTPTR_TYPE__)a_end <= (__UINTPTR_TYPE__)b || (__UINTPTR_TYPE__)b_end <= (__UINTPTR_TYPE__)a;
  if (apart)
    checks_apart++;
  else
    checks_overlapping++;
  return apart;
}
#define polyc_disjoint(a, a_end, b, b_end) counted_disjoint(a, a_end, b, b_end)

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

/* Cache-line aligned, as gcc aligns the twins' static arrays. */
static double *fresh(long n)
{
  double *p = aligned_alloc(64, (sizeof(double) * (n > 0 ? n : 1) + 63) / 64 * 64);
  if (!p)
    exit(2);
  return p;
}

static void kernel_conv2d(int h, int w, const double *img, const double *K, double *out)
{
  int i, j, k, l;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < h - 4; i++)
    for (int j = 0; j < w - 4; j++) {
      out[i * w + j] = 0.0;
      for (int k = 0; k <= 4; k++)
        for (int l = 0; l <= 4; l++)
          out[i * w + j] += K[k * 5 + l] * img[(i + k) * w + j + l];
    }
#pragma endscop
}

static void init(int h, int w, double *img, double *K)
{
  int i, j;
  for (i = 0; i < h; i++)
    for (j = 0; j < w; j++)
      img[i * w + j] = (double)((i * 7 + j * 13) % 31) / 31.0;
  for (i = 0; i < 5; i++)
    for (j = 0; j < 5; j++)
      K[i * 5 + j] = (double)((i + 1) * (5 - j) % 7) / 25.0;
}

int main(void)
{
  long total = (long)H * W;
  double *img = fresh(total), *out = fresh(total), K[25];
  init(H, W, img, K);
  for (long c = 0; c < total; c++)
    out[c] = 0.0;
  POLYC_BENCH_START();
  kernel_conv2d(H, W, img, K, out);
  POLYC_BENCH_STOP();
  print_array("out", out, total, total <= 4000);
  /* In place: each output pixel replaces one its neighbours below still read. */
  init(H, W, img, K);
  kernel_conv2d(H, W, img, K, img);
  print_array("out in place", img, total, total <= 4000);
  fprintf(stderr, "alias checks: %ld apart, %ld overlapping\n", checks_apart, checks_overlapping);
  return 0;
}
