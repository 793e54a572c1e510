/* A pure function defined in the same file may be called in a SCoP; a
   function named pure that writes a global may not. */
#include <stdio.h>

#define N 80

double A[N][N], B[N][N];
int calls;

static double blend(double a, double b) {
  double m = 0.5 * (a + b);
  return m * m;
}

static double counted(double a) {
  calls++;
  return a;
}

#pragma polyc pure(counted)

static void smooth(int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n - 1; j++)
      B[i][j] = blend(A[i][j], A[i][j + 1]);
#pragma endscop
}

static void count(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i][0] = counted(B[i][0]);
#pragma endscop
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (3 * i + j) % 11;
  smooth(N);
  count(N);
  double sum = calls;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += B[i][j] * (1 + (i + j) % 4);
  printf("%.6f\n", sum);
  return 0;
}
