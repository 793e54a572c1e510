/* gemm_acc: C := alpha A B + beta C with a local accumulator, restrict pointer parameters */
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

#ifndef NI
#define NI 60
#endif
#ifndef NJ
#define NJ 70
#endif
#ifndef NK
#define NK 80
#endif
/* polyc-bench: -DNI=1000 -DNJ=1100 -DNK=1200 */

static double ma[NI * NK];
static double mb[NK * NJ];
static double mc[NI * NJ];

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
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      ma[i * NK + k] = (double)((i * (k + 1) + 3) % NK) / NK;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      mb[k * NJ + j] = (double)((k * (j + 2) + 1) % NJ) / NJ;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      mc[i * NJ + j] = (double)((i + 2 * j) % 13) / 13.0;
}

static void kernel_gemm_acc(int ni, int nj, int nk, double alpha, double beta, double *restrict c,
                            const double *restrict a, const double *restrict b)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double acc;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      acc = 0.0;
      for (int k = 0; k < nk; k++)
        acc += a[i * nk + k] * b[k * nj + j];
      c[i * nj + j] = alpha * acc + beta * c[i * nj + j];
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)NI * NJ;
  init();
  POLYC_BENCH_START();
  kernel_gemm_acc(NI, NJ, NK, 1.5, 1.2, mc, ma, mb);
  POLYC_BENCH_STOP();
  print_array("C", mc, (long)NI * NJ, total <= 4000);
  return 0;
}
