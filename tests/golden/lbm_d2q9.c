/* The dependence pattern of a D2Q9 lattice-Boltzmann step in a pull
   model (SMO, Fig. 6), each node's nine distributions folded into one
   value: A[t][i][j] pulls from its nine neighbours at t - 1 (none from
   outside the lattice). A keeps every time step, as in the paper's array
   space, and only the last one is read after the loop. The successive
   modulo keeps two time steps, 2N^2 cells; SMO's hyperplanes
   (i - 2t) and j fold A onto (N + 2) N. */
#include <stdio.h>

#ifndef N
#define N 24
#endif
#ifndef T
#define T 10
#endif

static double init[N][N], out[N][N];

static void lbm(void)
{
  double A[T][N][N];
  double acc;
  int t, i, j;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[0][i][j] = init[i][j];
  for (int t = 1; t < T; t++) {
    if (N >= 2) {
      acc = 0.25 * A[t - 1][0][0];
      acc = acc + 0.125 * A[t - 1][0][1];
      acc = acc + 0.125 * A[t - 1][1][0];
      acc = acc + 0.0625 * A[t - 1][1][1];
      A[t][0][0] = acc;
      for (int j = 1; j < N - 1; j++) {
        acc = 0.25 * A[t - 1][0][j];
        acc = acc + 0.125 * A[t - 1][0][j - 1];
        acc = acc + 0.125 * A[t - 1][0][j + 1];
        acc = acc + 0.0625 * A[t - 1][1][j - 1];
        acc = acc + 0.125 * A[t - 1][1][j];
        acc = acc + 0.0625 * A[t - 1][1][j + 1];
        A[t][0][j] = acc;
      }
      acc = 0.25 * A[t - 1][0][N - 1];
      acc = acc + 0.125 * A[t - 1][0][N - 2];
      acc = acc + 0.0625 * A[t - 1][1][N - 2];
      acc = acc + 0.125 * A[t - 1][1][N - 1];
      A[t][0][N - 1] = acc;
    }
    for (int i = 1; i < N - 1; i++) {
      acc = 0.25 * A[t - 1][i][0];
      acc = acc + 0.125 * A[t - 1][i - 1][0];
      acc = acc + 0.0625 * A[t - 1][i - 1][1];
      acc = acc + 0.125 * A[t - 1][i][1];
      acc = acc + 0.125 * A[t - 1][i + 1][0];
      acc = acc + 0.0625 * A[t - 1][i + 1][1];
      A[t][i][0] = acc;
      for (int j = 1; j < N - 1; j++) {
        acc = 0.25 * A[t - 1][i][j];
        acc = acc + 0.0625 * A[t - 1][i - 1][j - 1];
        acc = acc + 0.125 * A[t - 1][i - 1][j];
        acc = acc + 0.0625 * A[t - 1][i - 1][j + 1];
        acc = acc + 0.125 * A[t - 1][i][j - 1];
        acc = acc + 0.125 * A[t - 1][i][j + 1];
        acc = acc + 0.0625 * A[t - 1][i + 1][j - 1];
        acc = acc + 0.125 * A[t - 1][i + 1][j];
        acc = acc + 0.0625 * A[t - 1][i + 1][j + 1];
        A[t][i][j] = acc;
      }
      acc = 0.25 * A[t - 1][i][N - 1];
      acc = acc + 0.0625 * A[t - 1][i - 1][N - 2];
      acc = acc + 0.125 * A[t - 1][i - 1][N - 1];
      acc = acc + 0.125 * A[t - 1][i][N - 2];
      acc = acc + 0.0625 * A[t - 1][i + 1][N - 2];
      acc = acc + 0.125 * A[t - 1][i + 1][N - 1];
      A[t][i][N - 1] = acc;
    }
    if (N >= 2) {
      acc = 0.25 * A[t - 1][N - 1][0];
      acc = acc + 0.125 * A[t - 1][N - 2][0];
      acc = acc + 0.0625 * A[t - 1][N - 2][1];
      acc = acc + 0.125 * A[t - 1][N - 1][1];
      A[t][N - 1][0] = acc;
      for (int j = 1; j < N - 1; j++) {
        acc = 0.25 * A[t - 1][N - 1][j];
        acc = acc + 0.0625 * A[t - 1][N - 2][j - 1];
        acc = acc + 0.125 * A[t - 1][N - 2][j];
        acc = acc + 0.0625 * A[t - 1][N - 2][j + 1];
        acc = acc + 0.125 * A[t - 1][N - 1][j - 1];
        acc = acc + 0.125 * A[t - 1][N - 1][j + 1];
        A[t][N - 1][j] = acc;
      }
      acc = 0.25 * A[t - 1][N - 1][N - 1];
      acc = acc + 0.0625 * A[t - 1][N - 2][N - 2];
      acc = acc + 0.125 * A[t - 1][N - 2][N - 1];
      acc = acc + 0.125 * A[t - 1][N - 1][N - 2];
      A[t][N - 1][N - 1] = acc;
    }
    if (N == 1) {
      acc = 0.25 * A[t - 1][0][0];
      A[t][0][0] = acc;
    }
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      out[i][j] = A[T - 1][i][j];
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      init[i][j] = (double)((i * 7 + j * 3) % 10) / 10.0;
  lbm();
  for (i = 0; i < N; i += 2)
    for (j = 0; j < N; j += 3)
      printf("%.10e\n", out[i][j]);
  return 0;
}
