/* Motion detection (real-time video), Bee+Cl@k's Figure 4 kernel 5: for
   each pixel (i, j) of an M x N frame, Delta sums the squared
   differences with its (2m + 1) x (2n + 1) neighbours, and ODelta
   accumulates the sums of every pixel. Both are consumed as they are
   produced. Bee+Cl@k (Figure 3, m = n = 4, M = N = 32): ODelta folds
   onto one cell, Delta onto 10 (their DS over-approximates the exact
   {0}, so one cell is right); the indices here start at 0 and Delta
   keeps a slot for its initial zero, 29 x 29 x 82 cells. The sizes are
   written out in the SCoP (m = n = 4, M = N = 32, a window row of
   2n + 1 = 9, a frame row of N - n + 1 = 29): a macro reads as a
   parameter, and the flattened indices are affine only for these sizes. */
#include <stdio.h>

#define M 32
#define N 32
#define m 4
#define n 4
#define WINDOW 81

static double A[M + m + 1][N + n + 1], opt;

static void mot_detect(void)
{
  double Delta[M - m + 1][N - n + 1][WINDOW + 1];
  double ODelta[(M - m + 1) * (N - n + 1) + 1];
  int i, j, k, l;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  ODelta[0] = 0.0;
  for (int i = 4; i <= 32; i++)
    for (int j = 4; j <= 32; j++) {
      Delta[i - 4][j - 4][0] = 0.0;
      for (int k = i - 4; k <= i + 4; k++)
        for (int l = j - 4; l <= j + 4; l++)
          Delta[i - 4][j - 4][9 * (k - i + 4) + l - j + 4 + 1] =
              Delta[i - 4][j - 4][9 * (k - i + 4) + l - j + 4] + (A[i][j] - A[k][l]) * (A[i][j] - A[k][l]);
      ODelta[29 * (i - 4) + j - 4 + 1] =
          ODelta[29 * (i - 4) + j - 4] + Delta[i - 4][j - 4][81];
    }
  opt = ODelta[29 * 29];
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i <= M + m; i++)
    for (j = 0; j <= N + n; j++)
      A[i][j] = (double)((i * 5 + j * 3) % 13) / 4.0;
  mot_detect();
  printf("%.10e\n", opt);
  return 0;
}
