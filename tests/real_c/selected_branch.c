/* The access a macro stands for depends on a branch `-D` selects: with
   -DTRANSPOSED the statement reads and writes A[j][i], and only that
   reading carries a dependence along `i`. */
#include <stdio.h>

#define N 40
#ifdef TRANSPOSED
#define AT(x, y) A[y][x]
#else
#define AT(x, y) A[x][y]
#endif

double A[N][N];

int main(void) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i + 2 * j) % 5;
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 0; j < N; j++)
      AT(i, j) = AT(i - 1, j) * 0.5 + AT(i, j);
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j] * (1 + i % 3) * (1 + j % 7);
  printf("%.6f\n", sum);
  return 0;
}
