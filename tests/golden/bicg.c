/* bicg: the two matrix-vector products of BiCG, s := A^T * r, q := A * p */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

#ifndef M
#define M 76
#endif
#ifndef N
#define N 90
#endif
/* polyc-bench: -DM=10000 -DN=11000 */

static double A[N][M];
static double s[M];
static double q[N];
static double p[M];
static double r[N];

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
  for (i = 0; i < M; i++)
    p[i] = (double)(i % M) / M;
  for (i = 0; i < N; i++) {
    r[i] = (double)(i % N) / N;
    for (j = 0; j < M; j++)
      A[i][j] = (double)(i * (j + 1) % N) / N;
  }
}

static void kernel_bicg(void)
{
#pragma scop
  for (int i = 0; i < M; i++)
    s[i] = 0.0;
  for (int i = 0; i < N; i++) {
    q[i] = 0.0;
    for (int j = 0; j < M; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}

int main(void)
{
  long total = (long)N + M;
  init();
  kernel_bicg();
  print_array("s", s, M, total <= 4000);
  print_array("q", q, N, total <= 4000);
  return 0;
}
