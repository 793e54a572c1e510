/* Yuki and Rajopadhye, Figure 1: a uniform recurrence whose values flow
   along [2, 0], [2, 1], [1, 2] and [0, 2], in a fully tilable 2-d space
   (the first two rows and columns come from the input). The shortest
   QUOV for tiled execution (Theorem 1) is their element-wise maximum
   [2, 2]: A[i][j] and A[i + 2][j + 2] share a cell, so A folds onto two
   cells per diagonal, 2 (2N - 1), valid for every tile size (Strout et
   al.'s trivial UOV, the sum, is [5, 5]). */
#include <stdio.h>

#ifndef N
#define N 40
#endif

static double in[N][N], out[N][N];

static void fig1(void)
{
  double A[N][N];
  int i, j;
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int i = 0; i <= polyc_min(1, N - 1); i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = in[i][j];
      out[i][j] = 2.0 * A[i][j];
    }
  for (int i = 2; i < N; i++) {
    for (int j = 0; j <= 1; j++) {
      A[i][j] = in[i][j];
      out[i][j] = 2.0 * A[i][j];
    }
    for (int j = 2; j < N; j++) {
      A[i][j] = 0.25 * (A[i - 2][j] + A[i - 2][j - 1] + A[i - 1][j - 2] + A[i][j - 2]) + in[i][j];
      out[i][j] = 2.0 * A[i][j];
    }
  }
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      in[i][j] = ((i * 7 + j * 3) % 11) * 0.125;
  fig1();
  for (i = 0; i < N; i++) {
    double row = 0.0;
    for (j = 0; j < N; j++)
      row += out[i][j];
    printf("%.10e\n", row);
  }
  return 0;
}
