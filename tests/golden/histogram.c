/* A conditional histogram: the pixels above a threshold, summed into a
   few bins by column. Every pixel adds into a bin others share. */
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
#define H 512
#endif
#ifndef W
#define W 512
#endif
#define BINS 8

static double img[H][W], hist[BINS];
static int count[BINS];

int main(void) {
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++)
      img[i][j] = (double)((i * 37 + j * 11) % 100) / 100.0;
  for (int b = 0; b < BINS; b++) {
    hist[b] = 0;
    count[b] = 0;
  }
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0;
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) {
      if (img[i][j] > 0.6) {
        hist[j % 8] += img[i][j];
        count[j % 8]++;
      }
    }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  for (int b = 0; b < BINS; b++)
    printf("%d %.6f\n", count[b], hist[b]);
  return 0;
}
