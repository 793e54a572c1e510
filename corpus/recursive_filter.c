/* recursive_filter: a second-order recursive (IIR) smoothing filter run
   forward along each row, then backward along each column of the result,
   its state carried in scalars; the output averages the two passes */
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

#ifndef H
#define H 60
#endif
#ifndef W
#define W 70
#endif
/* polyc-bench: -DH=3000 -DW=3000 */

static double img[H][W];
static double rows[H][W];
static double cols[H][W];
static double out[H][W];

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
  int i, j;
  for (i = 0; i < H; i++)
    for (j = 0; j < W; j++) {
      img[i][j] = (double)((i * 7 + j * 13 + (i * j) % 17) % 256) / 255.0;
      rows[i][j] = 0.0;
      cols[i][j] = 0.0;
      out[i][j] = 0.0;
    }
}

/* Each output sample: 0.25 of the input, 0.15 of the previous input, and
   0.6 and -0.2 of the two previous outputs (poles inside the unit circle). */
static void kernel_recursive_filter(void)
{
  int i, j;
  double last_in, last_out, older_out;
#pragma scop
  for (i = 0; i < H; i++) {
    last_in = 0.0;
    last_out = 0.0;
    older_out = 0.0;
    for (j = 0; j < W; j++) {
      rows[i][j] = 0.25 * img[i][j] + 0.15 * last_in + 0.6 * last_out - 0.2 * older_out;
      last_in = img[i][j];
      older_out = last_out;
      last_out = rows[i][j];
    }
  }
  for (j = 0; j < W; j++) {
    last_in = 0.0;
    last_out = 0.0;
    older_out = 0.0;
    for (i = H - 1; i >= 0; i--) {
      cols[i][j] = 0.25 * rows[i][j] + 0.15 * last_in + 0.6 * last_out - 0.2 * older_out;
      last_in = rows[i][j];
      older_out = last_out;
      last_out = cols[i][j];
    }
  }
  for (i = 0; i < H; i++)
    for (j = 0; j < W; j++)
      out[i][j] = 0.5 * (rows[i][j] + cols[i][j]);
#pragma endscop
}

int main(void)
{
  long total = (long)H * W;
  init();
  POLYC_BENCH_START();
  kernel_recursive_filter();
  POLYC_BENCH_STOP();
  print_array("out", &out[0][0], (long)H * W, total <= 4000);
  return 0;
}
