/* trisolv: forward substitution, solves L * x = b for lower triangular L */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 120
#endif
/* polyc-bench: -DN=14000 */

static double L[N][N];
static double x[N];
static double b[N];

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
    x[i] = -999.0;
    b[i] = (double)(i % 7) + 1.0;
    for (j = 0; j < i; j++)
      L[i][j] = (double)((i + 2 * j) % 11) / (11.0 * N);
    L[i][i] = 1.0 + (double)(i % 3);
  }
}

static void kernel_trisolv(void)
{
  int i, j;
#pragma scop
  for (int i = 0; i < N; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N;
  init();
  kernel_trisolv();
  print_array("x", x, N, total <= 4000);
  return 0;
}
