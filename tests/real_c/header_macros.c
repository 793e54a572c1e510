/* A SCoP written with macros from a header found through -I: bounds,
   constants and calls all come from `kernel_macros.h`. */
#include <math.h>
#include <stdio.h>
#include "kernel_macros.h"

#define N 48

static void kernel(int n, REAL a[N][N], REAL b[N][N]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < LOOP_BOUND(n); i++)
    for (j = 0; j < LOOP_BOUND(n); j++) {
      b[i][j] = SCALE(a[i][j]);
      for (k = 0; k < LOOP_BOUND(n); k++)
        b[i][j] += SQRT_OF(a[i][k] * a[k][j]);
    }
#pragma endscop
}

int main(void) {
  static REAL a[N][N], b[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = (i * 7 + j * 3) % 11 + 1;
  kernel(N - 3, a, b);
  double sum = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += b[i][j] * (i + 2 * j);
  printf("%.6f\n", sum);
  return 0;
}
