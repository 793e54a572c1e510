/* Max-plus recurrence of a Viterbi decoder: the best score of each state
   at step t is the best over its predecessors at step t-1; each state's
   maximum is a conditional update, the states of a step are independent. */
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

/* polyc-bench: -DSTEPS=1000 -DS=1000 */

#ifndef STEPS
#define STEPS 300
#endif
#ifndef S
#define S 160
#endif

static double V[STEPS][S], Tr[S][S], E[STEPS][S];

int main(void) {
  for (int k = 0; k < S; k++)
    for (int j = 0; j < S; j++)
      Tr[k][j] = -(double)((k * 13 + j * 7) % 29) / 4.0;
  for (int t = 0; t < STEPS; t++)
    for (int j = 0; j < S; j++) {
      E[t][j] = -(double)((t * 5 + j * 3) % 11) / 8.0;
      V[t][j] = -1e30;
    }
  for (int j = 0; j < S; j++)
    V[0][j] = E[0][j];
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    __attribute__((unused)) int polyc_c0;
  for (int t = 1; t < STEPS; t++)
    for (int j = 0; j < S; j++) {
      for (int k = 0; k < S; k++) {
        if (V[t - 1][k] + Tr[k][j] > V[t][j])
          V[t][j] = V[t - 1][k] + Tr[k][j];
      }
      V[t][j] = V[t][j] + E[t][j];
    }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double s = 0;
  for (int j = 0; j < S; j++)
    s += V[STEPS - 1][j] * (j % 3 + 1);
  printf("%.6f\n", s);
  return 0;
}
