/* Branches the printer writes back as nested if/else: an if inside a
   then-branch with an else outside it (the else must stay with the outer
   test), a test on what an earlier branch of the same iteration wrote,
   an empty then-branch; and a test on data in a loop that an affine
   test splits in two (there the variables stay). */
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

/* polyc-bench: -DT=100 -DN=2000000 */

#ifndef T
#define T 12
#endif
#ifndef N
#define N 1500
#endif

static double P[N], Q[N], R[N], S[N], U[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    P[i] = (double)((i * 29) % 23) - 11.0;
    Q[i] = (double)((i * 13) % 17) - 8.0;
    R[i] = 0;
    S[i] = 0;
    U[i] = 1;
  }
  POLYC_BENCH_START();
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  {
    __attribute__((unused)) int polyc_c0, polyc_c1, polyc_c2, polyc_c3, polyc_c4, polyc_c5, polyc_c6;
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      if (P[i] > 0) {
        if (Q[i] > P[i])
          R[i] = Q[i] - P[i];
      } else
        R[i] = 0.5 * R[i] + P[i];
      if (R[i] > 2.0)
        S[i] = S[i] + R[i];
      else if (R[i] < -2.0) {
        S[i] = S[i] - 0.5;
        U[i] = U[i] * 0.75;
      } else if (Q[i] < 0)
        U[i] = U[i] + 0.125;
      if (!(U[i] > 1.5))
        U[i] = U[i] + 0.25;
    }
    for (int i = 1; i <= polyc_min(2, N - 1); i++) {
      polyc_c6 = (P[i] < Q[i]);
      if (polyc_c6) S[i] = S[i] * 0.5;
    }
    for (int i = 3; i < N; i++) {
      polyc_c6 = (P[i] < Q[i]);
      if (polyc_c6) S[i] = S[i] * 0.5;
      P[i] = 0.5 * (P[i] + R[i - 1]) - 0.125 * S[i];
    }
    for (int i = 0; i < N; i++)
      Q[i] = 0.25 * Q[i] + 0.5 * U[i] - 0.0625 * R[i];
  }
  }
#pragma endscop
  POLYC_BENCH_STOP();
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (P[i] + 2 * Q[i] + 3 * R[i] + 5 * S[i] + 7 * U[i]) * (i % 5 + 1);
  printf("%.6f\n", s);
  return 0;
}
