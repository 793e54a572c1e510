/* A scalar whose type is a typedef (`real`), reused inside a loop nest
   (an LU decomposition, as in ludcmp) and read after it: storage
   expansion gives it a cell per iteration, as it would a `double`, and
   the nest is tiled. */
#include <stdio.h>

typedef double real;
#define N 90

real A[N][N];
real last_w;

static void decompose(int n) {
  int i, j, k;
  real w;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++) {
      w = A[i][j];
      for (k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
#pragma endscop
  last_w = w;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((2 * i + 5 * j + i * j) % 23) / 23.0;
    A[i][i] = N + 1.0;
  }
  decompose(N - 4);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += A[i][j] * (1 + (i + 2 * j) % 9);
  printf("%.6f %.6f\n", sum, last_w);
  return 0;
}
