/* Regularity detection (robot vision), Bee+Cl@k's Figure 4 kernel 2:
   running sums along the upper triangle of an N x N grid, spread over P
   samples and summed again. sum_t, mean and diff are each written whole
   before any of them is read; sum_d is consumed as it is produced.
   Bee+Cl@k (Figure 3, N = 6, P = 64): sum_d folds onto one cell; sum_t
   and mean keep 6 x 6 = 36 cells with the heuristics (27 with an
   exhaustive search: their DS is the hexagon |i|, |j|, |i - j| < N);
   diff 6 x 6 x 64 = 2304 with the heuristics, 1728 optimal. */
#include <stdio.h>

#ifndef N
#define N 6
#endif
#ifndef P
#define P 64
#endif

static double tangent[N][N], path[N][N];

static void reg_detect(void)
{
  double sum_t[N][N], mean[N][N], diff[N][N][P], sum_d[N][N][P];
  int i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int j = 0; j < N; j++) {
    sum_t[j][j] = tangent[j][j];
    for (int i = j + 1; i < N; i++)
      sum_t[j][i] = sum_t[j][i - 1] + tangent[j][i];
  }
  for (int j = 0; j < N; j++)
    for (int i = j; i < N; i++)
      for (int k = 0; k < P; k++)
        diff[j][i][k] = sum_t[j][i] * (k + 1);
  for (int j = 0; j < N; j++)
    for (int i = j; i < N; i++) {
      sum_d[j][i][0] = diff[j][i][0];
      for (int k = 1; k < P; k++)
        sum_d[j][i][k] = sum_d[j][i][k - 1] + diff[j][i][k];
      mean[j][i] = sum_d[j][i][P - 1] / P;
    }
  for (int i = 0; i < N; i++)
    path[0][i] = mean[0][i];
  for (int j = 1; j < N; j++)
    for (int i = j; i < N; i++)
      path[j][i] = path[j - 1][i - 1] + mean[j][i];
#pragma endscop
}

int main(void)
{
  int i, j;
  for (j = 0; j < N; j++)
    for (i = 0; i < N; i++)
      tangent[j][i] = (double)((i * 7 + j * 3 + 3) % 11) / 5.0;
  reg_detect();
  for (j = 0; j < N; j++)
    for (i = j; i < N; i++)
      printf("%.10e\n", path[j][i]);
  return 0;
}
