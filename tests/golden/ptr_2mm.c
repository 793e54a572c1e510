/* ptr_2mm: D := alpha*A*B*C + beta*D through tmp, on linearly indexed pointers (2mm.c on the heap) */
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
#define NI 40
#endif
#ifndef NJ
#define NJ 50
#endif
#ifndef NK
#define NK 70
#endif
#ifndef NL
#define NL 80
#endif
/* polyc-bench: -DNI=800 -DNJ=900 -DNK=1100 -DNL=1200 */

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

static void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta, double *tmp,
                       const double *A, const double *B, const double *C, double *D)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      tmp[i * nj + j] = 0.0;
      for (int k = 0; k < nk; k++)
        tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      D[i * nl + j] *= beta;
      for (int k = 0; k < nj; k++)
        D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
    }
#pragma endscop
}

static void init(int ni, int nj, int nk, int nl, double *A, double *B, double *C, double *D)
{
  int i, j;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nk; j++)
      A[i * nk + j] = (double)((i * j + 1) % ni) / ni;
  for (i = 0; i < nk; i++)
    for (j = 0; j < nj; j++)
      B[i * nj + j] = (double)(i * (j + 1) % nj) / nj;
  for (i = 0; i < nj; i++)
    for (j = 0; j < nl; j++)
      C[i * nl + j] = (double)((i * (j + 3) + 1) % nl) / nl;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++)
      D[i * nl + j] = (double)(i * (j + 2) % nk) / nk;
}

int main(void)
{
  long total = (long)NI * NL;
  double *A = fresh((long)NI * NK), *B = fresh((long)NK * NJ), *C = fresh((long)NJ * NL);
  double *D = fresh((long)NI * NL), *tmp = fresh((long)NI * NJ);
  double *pool = fresh((long)NI * NJ + (long)NI * NL);
  init(NI, NJ, NK, NL, A, B, C, D);
  POLYC_BENCH_START();
  kernel_2mm(NI, NJ, NK, NL, 1.5, 1.2, tmp, A, B, C, D);
  POLYC_BENCH_STOP();
  print_array("D", D, (long)NI * NL, total <= 2000);
  /* tmp and D share their middle: D's rows overwrite tmp's. */
  init(NI, NJ, NK, NL, A, B, C, pool + (long)NI * NJ / 2);
  kernel_2mm(NI, NJ, NK, NL, 1.5, 1.2, pool, A, B, C, pool + (long)NI * NJ / 2);
  print_array("D overlapping tmp", pool + (long)NI * NJ / 2, (long)NI * NL, total <= 2000);
  fprintf(stderr, "alias checks: %ld apart, %ld overlapping\n", checks_apart, checks_overlapping);
  return 0;
}
