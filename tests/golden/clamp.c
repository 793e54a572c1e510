/* Clamp an image into [lo, hi]: a chain of data-dependent tests per pixel
   (an `else if`: the second test is evaluated only where the first fails). */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

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

/* polyc-bench: -DH=4000 -DW=4000 */

#ifndef H
#define H 480
#endif
#ifndef W
#define W 640
#endif

static float img[H][W], out[H][W];

int main(void) {
  const float lo = 0.25f, hi = 0.75f;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      img[i][j] = (float)((i * 31 + j * 17) % 101) / 100.0f;
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0, polyc_c1;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      if (img[i][j] > hi)
        out[i][j] = hi;
      else if (img[i][j] < lo)
        out[i][j] = lo;
      else
        out[i][j] = img[i][j];
    }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double sum = 0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      sum += out[i][j] * (1 + (i + j) % 7);
  printf("%.4f\n", sum);
  return 0;
}
