/* covariance: sample covariance matrix of M variables observed N times
   (data[N][M]); data is centred in place */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

#ifndef M
#define M 50
#endif
#ifndef N
#define N 60
#endif
/* polyc-bench: -DM=1000 -DN=1400 */

static double data[N][M];
static double cov[M][M];
static double mean[M];

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
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      data[i][j] = (double)((i * j + 7 * i + j) % 29) / 7.0 + (double)j / M;
}

static void kernel_covariance(void)
{
  int i, j, k;
  double float_n = (double)N;
#pragma scop
  for (int j = 0; j < M; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] -= mean[j];
  for (int i = 0; i < M; i++)
    for (int j = i; j < M; j++) {
      cov[i][j] = 0.0;
      for (int k = 0; k < N; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0);
      cov[j][i] = cov[i][j];
    }
#pragma endscop
}

int main(void)
{
  long total = (long)M * M;
  init();
  kernel_covariance();
  print_array("cov", &cov[0][0], (long)M * M, total <= 4000);
  return 0;
}
