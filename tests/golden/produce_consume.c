/* Producer and consumer (SMO, Fig. 2): a 2-d recurrence fills A row by
   row; each value is read by its right and lower neighbours, and the
   last row and column are read again by a consumer loop. A is a
   temporary: SMO folds it onto 2N - 1 cells, the successive modulo
   keeps N x N. */
#include <stdio.h>

#ifndef N
#define N 60
#endif

static double L[N + 1], T[N + 1];

static double produce_consume(void)
{
  double A[N + 1][N + 1];
  double result = 0.0;
  int t, i;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  A[1][1] = L[1] + T[1];
  for (int i = 2; i <= N; i++)
    A[1][i] = A[1][i - 1] + T[i];
  for (int t = 2; t <= N; t++) {
    A[t][1] = L[t] + A[t - 1][1];
    for (int i = 2; i <= N; i++)
      A[t][i] = 0.5 * (A[t][i - 1] + A[t - 1][i]);
  }
  for (int i = 1; i <= N; i++)
    result = result + A[i][N] + A[N][i];
#pragma endscop
  return result;
}

int main(void)
{
  int k;
  for (k = 0; k <= N; k++) {
    L[k] = 1.0 / (k + 1);
    T[k] = (k % 7) * 0.25;
  }
  printf("%.10e\n", produce_consume());
  return 0;
}
