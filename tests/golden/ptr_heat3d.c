/* ptr_heat3d: 3-D 7-point heat equation on linearly indexed pointers (heat-3d.c on the heap) */
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

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 20
#endif
/* polyc-bench: -DTSTEPS=500 -DN=120 */

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

static void kernel_heat3d(int tsteps, int n, double *A, double *B)
{
  int t, i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          B[(i * n + j) * n + k] = 0.125 * (A[((i + 1) * n + j) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[((i - 1) * n + j) * n + k])
                                 + 0.125 * (A[(i * n + j + 1) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j - 1) * n + k])
                                 + 0.125 * (A[(i * n + j) * n + k + 1] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j) * n + k - 1])
                                 + A[(i * n + j) * n + k];
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          A[(i * n + j) * n + k] = 0.125 * (B[((i + 1) * n + j) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[((i - 1) * n + j) * n + k])
                                 + 0.125 * (B[(i * n + j + 1) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + j - 1) * n + k])
                                 + 0.125 * (B[(i * n + j) * n + k + 1] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + j) * n + k - 1])
                                 + B[(i * n + j) * n + k];
  }
#pragma endscop
}

static void init(int n, double *A, double *B)
{
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        A[(i * n + j) * n + k] = B[(i * n + j) * n + k] = (double)(i + j + (n - k)) * 10 / n;
}

int main(void)
{
  long total = (long)N * N * N;
  double *A = fresh(total), *B = fresh(total), *pool = fresh(2 * total);
  init(N, A, B);
  POLYC_BENCH_START();
  kernel_heat3d(TSTEPS, N, A, B);
  POLYC_BENCH_STOP();
  print_array("A", A, total, total <= 4000);
  /* B one plane after A: each sweep reads a plane the other just wrote. */
  init(N, pool, pool + (long)N * N);
  kernel_heat3d(TSTEPS, N, pool, pool + (long)N * N);
  print_array("A overlapping B", pool, total, total <= 4000);
  fprintf(stderr, "alias checks: %ld apart, %ld overlapping\n", checks_apart, checks_overlapping);
  return 0;
}
