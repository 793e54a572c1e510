/* shape_dims: 1-D, 2-D and 3-D arrays accessed together in one SCoP */
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

#ifndef NX
#define NX 12
#endif
#ifndef NY
#define NY 14
#endif
#ifndef NZ
#define NZ 16
#endif
/* polyc-bench: -DNX=400 -DNY=400 -DNZ=400 */

static double v[NZ];
static double P[NX][NY];
static double T[NX][NY][NZ];
static double S[NX][NY];
static double r[NX];

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
  int i, j, k;
  for (k = 0; k < NZ; k++)
    v[k] = (double)(k % 5) / 5.0 + 0.1;
  for (i = 0; i < NX; i++) {
    r[i] = 0.0;
    for (j = 0; j < NY; j++) {
      P[i][j] = (double)((i * 3 + j) % 7) / 7.0;
      S[i][j] = 0.0;
      for (k = 0; k < NZ; k++)
        T[i][j][k] = (double)((i + 2 * j + 3 * k) % 11) / 11.0;
    }
  }
}

static void kernel_dims(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      for (int k = 0; k < NZ; k++)
        T[i][j][k] = P[i][j] * v[k] + 0.5 * T[i][j][k];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      S[i][j] = 0.0;
      for (int k = 0; k < NZ; k++)
        S[i][j] += T[i][j][k] * v[k];
    }
  for (int i = 0; i < NX; i++) {
    r[i] = 0.0;
    for (int j = 0; j < NY; j++)
      r[i] += S[i][j];
  }
  for (int k = 1; k < NZ; k++)
    v[k] = v[k - 1] * 0.5 + T[NX - 1][NY - 1][k] + r[0] / (NY * NZ);
  for (int i = 1; i < NX; i++)
    for (int j = 1; j < NY; j++)
      T[i][j][0] = T[i - 1][j - 1][NZ - 1] + S[i][j] * v[NZ - 1];
#pragma endscop
}

int main(void)
{
  long total = (long)NX * NY * NZ + (long)NX * NY + NX + NZ;
  init();
  POLYC_BENCH_START();
  kernel_dims();
  POLYC_BENCH_STOP();
  print_array("T", &T[0][0][0], (long)NX * NY * NZ, total <= 4000);
  print_array("S", &S[0][0], (long)NX * NY, total <= 4000);
  print_array("r", r, NX, total <= 4000);
  print_array("v", v, NZ, total <= 4000);
  return 0;
}
