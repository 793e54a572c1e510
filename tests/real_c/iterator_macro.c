/* `CELL` names the loop iterators without taking them as arguments: the
   regenerated statements must be written expanded, with the iterators
   of the new loops. */
#include <stdio.h>

#define N 64
#define CELL A[i][j]
#define LEFT A[i][j - 1]

double A[N][N];

int main(void) {
  int t, i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (i * 3 + j) % 7;
#pragma scop
  for (t = 0; t < 4; t++)
    for (i = 0; i < N; i++)
      for (j = 1; j < N; j++)
        CELL = (CELL + LEFT) * 0.5;
#pragma endscop
  double sum = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      sum += A[i][j] * (1 + (i + j) % 5);
  printf("%.6f\n", sum);
  return 0;
}
