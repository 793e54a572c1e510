/* dense_relu: a dense neural-net layer with ReLU (fmax) on a batch, weights in a struct read through a const pointer */
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

#ifndef NBATCH
#define NBATCH 16
#endif
#ifndef NIN
#define NIN 64
#endif
#ifndef NOUT
#define NOUT 32
#endif
/* polyc-bench: -DNBATCH=512 -DNIN=2048 -DNOUT=1024 */

struct layer {
  double w[NOUT][NIN];
  double bias[NOUT];
};

static struct layer net;
static double x[NBATCH][NIN];
static double act[NBATCH][NOUT];

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
  for (int o = 0; o < NOUT; o++) {
    for (int k = 0; k < NIN; k++)
      net.w[o][k] = (double)((o * 7 + k * 3) % 11 - 5) / 20.0;
    net.bias[o] = (double)(o % 5 - 2) / 10.0;
  }
  for (int b = 0; b < NBATCH; b++)
    for (int k = 0; k < NIN; k++)
      x[b][k] = (double)((b + k * k) % 9) / 8.0;
}

static void kernel_dense_relu(const struct layer *L)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double z;
  for (int b = 0; b < NBATCH; b++)
    for (int o = 0; o < NOUT; o++) {
      z = L->bias[o];
      for (int k = 0; k < NIN; k++)
        z += L->w[o][k] * x[b][k];
      act[b][o] = fmax(z, 0.0);
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)NBATCH * NOUT;
  init();
  POLYC_BENCH_START();
  kernel_dense_relu(&net);
  POLYC_BENCH_STOP();
  print_array("act", &act[0][0], (long)NBATCH * NOUT, total <= 4000);
  return 0;
}
