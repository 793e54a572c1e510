/* gesummv: y := alpha * A * x + beta * B * x */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 90
#endif
/* polyc-bench: -DN=9000 */

static double A[N][N];
static double B[N][N];
static double tmp[N];
static double x[N];
static double y[N];

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
  for (i = 0; i < N; i++) {
    x[i] = (double)(i % N) / N;
    for (j = 0; j < N; j++) {
      A[i][j] = (double)((i * j + 1) % N) / N;
      B[i][j] = (double)((i * j + 2) % N) / N;
    }
  }
}

static void kernel_gesummv(void)
{
  int i, j;
  double alpha = 1.5;
  double beta = 1.2;
#pragma scop
  for (int i = 0; i < N; i++) {
    tmp[i] = 0.0;
    y[i] = 0.0;
    for (int j = 0; j < N; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
#pragma endscop
}

int main(void)
{
  long total = 2L * N;
  init();
  kernel_gesummv();
  print_array("y", y, N, total <= 4000);
  print_array("tmp", tmp, N, total <= 4000);
  return 0;
}
