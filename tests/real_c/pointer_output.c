/* A kernel that returns its result through a pointer: the call
   statement reads its value arguments and reads and writes the element
   `&C[i][j]` stands for, so the nest is scheduled and tiled like the
   assignment it hides. */
#include <stdio.h>

#define N 100

double A[N][N], B[N][N], C[N][N];

static void multiply_add(double a, double b, double *c) {
  *c += a * b;
}

static void product(int n) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        multiply_add(A[i][k], B[k][j], &C[i][j]);
#pragma endscop
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i + 2 * j) % 7;
      B[i][j] = (2 * i + j) % 5;
      C[i][j] = 0;
    }
  product(N - 3);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += C[i][j] * (1 + (i * j) % 3);
  printf("%.6f\n", sum);
  return 0;
}
