/* Products with a transpose: each reads a matrix down its columns along
   the loop that writes consecutive elements, so polyc reads it from a
   transposed copy. `gram` reads only part of `A` (rows from 1, columns
   up to m - 2) through a parameter; `cross` reads two global matrices;
   `product` is a plain matrix product, whose `B` is read along its rows
   and keeps its layout. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#ifndef N
#define N 9
#endif
#ifndef M
#define M 7
#endif

static double A[N][M], B[N][M], C[N][N], D[N][N], P[N][M];

static void gram(int n, int m, double a[N][M], double c[N][N])
{
#pragma scop
  for (int i = 1; i < n; i++)
    for (int k = 0; k < m - 1; k++)
      for (int j = 1; j <= i; j++)
        c[i][j] += 0.5 * a[i][k] * a[j][k];
#pragma endscop
}

static void cross(int n, int m)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      D[i][j] *= 0.75;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        D[i][j] += A[j][k] * 1.5 * B[i][k] + B[j][k] * 1.5 * A[i][k];
  }
#pragma endscop
}

static void product(int n, int m)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < m; j++)
        P[i][j] += C[i][k] * A[k][j];
#pragma endscop
}

static double checksum(int rows, int cols, int stride, const double *x)
{
  double s = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      s += x[i * stride + j] * (1 + (i * 3 + j) % 5);
  return s;
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < M; k++) {
      A[i][k] = (double)((i * 5 + k * 3) % 13) / 13.0;
      B[i][k] = (double)((i * 2 + k * 7) % 11) / 11.0;
      P[i][k] = (double)(i + k) / 4.0;
    }
    for (int j = 0; j < N; j++)
      C[i][j] = D[i][j] = (double)((i * j) % 7) / 7.0;
  }
  gram(N, M, A, C);
  cross(N, M);
  product(N < M ? N : M, M);
  printf("%.17g %.17g %.17g\n", checksum(N, N, N, &C[0][0]), checksum(N, N, N, &D[0][0]), checksum(N, M, M, &P[0][0]));
  printf("%.17g %.17g %.17g\n", C[N - 1][1], D[N / 2][0], P[0][M - 1]);
  return 0;
}
