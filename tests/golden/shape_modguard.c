/* shape_modguard: if conditions using % by a constant, an if/else, negated
   and disjunctive guards, and an int array updated under guards */
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

#ifndef N
#define N 30
#endif
#ifndef M
#define M 40
#endif
/* polyc-bench: -DN=8000 -DM=8000 */

static double A[N][M];
static double B[N][M];
static double x[N];
static int cnt[N];

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

/* Print an integer output array: every element if the program's total output
   is small, otherwise the sum of all elements and every 97th element. */
static void print_int_array(const char *name, const int *a, long n, int all)
{
  long i;
  long long s = 0;
  if (all) {
    printf("%s\n", name);
    for (i = 0; i < n; i++)
      printf("%.10e\n", (double)a[i]);
    return;
  }
  for (i = 0; i < n; i++)
    s += a[i];
  printf("%s sum %.10e\n", name, (double)s);
  for (i = 0; i < n; i += 97)
    printf("%.10e\n", (double)a[i]);
}

static void init(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = 0.0;
    cnt[i] = -1;
    for (j = 0; j < M; j++) {
      A[i][j] = 0.0;
      B[i][j] = (double)((i * 17 + j * 5) % 19) / 19.0;
    }
  }
}

static void kernel_modguard(void)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_floord
#define polyc_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#endif
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int i = 0; i < N; i++)
    if (i + M >= 2 * polyc_floord(i + 1, 2) && M + 2 * polyc_floord(i + 1, 2) >= i + 1)
      for (int j = 0; j < M; j++) {
        if ((i + j) % 2 == 0)
          A[i][j] = B[i][j] * 2.0;
        if ((i + j + 1) % 2 == 0)
          A[i][j] = B[i][j] - 1.0;
      }
  for (int i = 0; i < N; i++) {
    if ((i + 1) % 3 == 0)
      x[i] = A[i][0] + A[i][M - 1];
    if (i % 3 == 0)
      x[i] = A[i][0] + A[i][M - 1];
  }
  for (int i = 1; i < N; i += 2)
    for (int j = 0; j < M; j += 4)
      B[i][j] = A[i][j] + x[i];
  for (int i = 0; i < N; i++) {
    cnt[i] = 0;
    for (int j = 0; j < M; j++) {
      if ((5 * i + j + 3) % 15 == 0)
        cnt[i] += j;
      if ((-i + j) % 3 == 0 && 5 * i + j >= 15 * polyc_floord(5 * i + j + 3, 15))
        cnt[i] += j;
      if ((j - 2) % 5 == 0 && j >= i + 3 * polyc_floord(-i + j, 3) + 1)
        cnt[i] += j;
    }
  }
  for (int i = 0; i < N; i++)
    if (3 * i + M + 7 * polyc_floord(-3 * i - 1, 7) >= -7 && 2 * M + 14 * polyc_floord(i - 2, 14) >= i - 15) {
      if ((i + 1) % 2 == 0) {
        for (int j = 0; j <= polyc_min(i - 1, M - 1); j++)
          if (3 * i + j >= 7 * polyc_floord(3 * i + j, 7) + 5)
            A[i][j] -= x[i];
        for (int j = i; j < M; j++)
          A[i][j] = A[i][j] * 0.5 + (double)cnt[i] / M;
      }
      if (i + 2 * polyc_floord(-3 * i - 1, 7) == 2 * polyc_floord(i - 2, 14) && 14 * polyc_floord(i - 2, 14) >= i - 14)
        for (int j = 0; j < M; j++)
          if (3 * i + j >= 7 * polyc_floord(3 * i + j, 7) + 5)
            A[i][j] -= x[i];
    }
#pragma endscop
}

int main(void)
{
  long total = 2L * N * M + 2L * N;
  init();
  POLYC_BENCH_START();
  kernel_modguard();
  POLYC_BENCH_STOP();
  print_array("A", &A[0][0], (long)N * M, total <= 4000);
  print_array("B", &B[0][0], (long)N * M, total <= 4000);
  print_array("x", x, N, total <= 4000);
  print_int_array("cnt", cnt, N, total <= 4000);
  return 0;
}
