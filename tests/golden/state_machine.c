/* Seed 001's Listing 2 (a receiver that alternates between detecting a
   frame and decoding samples) in the form of a loop over recorded
   samples per channel: which branch ran at step k decides which statement
   wrote the state that step k+1 reads. The channels are independent. */
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

/* polyc-bench: -DCH=1000 -DK=20000 */

#ifndef CH
#define CH 64
#endif
#ifndef K
#define K 4000
#endif

static int sample[CH][K], state[CH][K + 1], value[CH][K];

int main(void) {
  for (int c = 0; c < CH; c++) {
    state[c][0] = 0;
    for (int k = 0; k < K; k++) {
      sample[c][k] = (c * 131 + k * 71) % 37 - 18;
      value[c][k] = 0;
    }
  }
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0;
  for (int c = 0; c < CH; c++)
    for (int k = 0; k < K; k++) {
      if (state[c][k] <= 0)
        state[c][k + 1] = sample[c][k] > 9 ? 3 : 0;
      else {
        value[c][k] = sample[c][k] * state[c][k];
        state[c][k + 1] = state[c][k] - 1;
      }
    }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  long s = 0;
  for (int c = 0; c < CH; c++)
    for (int k = 0; k < K; k++)
      s += value[c][k] * (k % 5 + 1) + state[c][k];
  printf("%ld\n", s);
  return 0;
}
