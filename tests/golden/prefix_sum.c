/* prefix_sum: inclusive prefix sum of an int vector and the summed-area
   table (integral image) of an int image; loop-carried recurrences in one
   and two dimensions, on int arrays */
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
#define N 1000
#endif
#ifndef ROWS
#define ROWS 40
#endif
#ifndef COLS
#define COLS 50
#endif
/* polyc-bench: -DN=50000000 -DROWS=8000 -DCOLS=8000 */

static int a[N];
static int s[N];
static int img[ROWS][COLS];
static int sat[ROWS][COLS];

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
    a[i] = (i * 7 + 3) % 10 - 4;
    s[i] = 0;
  }
  for (i = 0; i < ROWS; i++)
    for (j = 0; j < COLS; j++) {
      img[i][j] = (i * 3 + j * 5 + i * j) % 4;
      sat[i][j] = 0;
    }
}

static void kernel_prefix_sum(void)
{
  int i, j;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  s[0] = a[0];
  for (int i = 1; i < N; i++)
    s[i] = s[i - 1] + a[i];
  sat[0][0] = img[0][0];
  for (int j = 1; j < COLS; j++)
    sat[0][j] = sat[0][j - 1] + img[0][j];
  for (int i = 1; i < ROWS; i++) {
    sat[i][0] = sat[i - 1][0] + img[i][0];
    for (int j = 1; j < COLS; j++)
      sat[i][j] = img[i][j] + sat[i - 1][j] + sat[i][j - 1] - sat[i - 1][j - 1];
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N + (long)ROWS * COLS;
  init();
  POLYC_BENCH_START();
  kernel_prefix_sum();
  POLYC_BENCH_STOP();
  print_int_array("s", s, N, total <= 4000);
  print_int_array("sat", &sat[0][0], (long)ROWS * COLS, total <= 4000);
  return 0;
}
