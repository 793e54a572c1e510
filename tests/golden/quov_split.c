/* Boundary cases and storage (Yuki and Rajopadhye, Figure 4), in single
   assignment: X holds the first statement's values, Y the second's, both
   fused in one loop over i. X[t][i] is read in its own iteration, except
   X[t][0], which the next time step reads again: stored as one array, X
   needs N + 1 cells (every X[t][i] lives while X[t][0] does). Split by
   UOV-guided index-set splitting into the boundary piece i = 0 and the
   rest, it needs two scalars. */
#include <stdio.h>

#ifndef N
#define N 40
#endif
#ifndef T
#define T 30
#endif

static double in[N + 1], out[N + 1];

static void kernel(void)
{
  double X[T][N + 1], Y[T][N + 1];
  int t, i;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  if (T >= 1 && N >= 1) {
    X[0][0] = 0.5 * in[0] + 1.0;
    X[0][1] = 0.5 * in[1] + 1.0;
    Y[0][1] = 0.25 * X[0][0] + 0.75 * X[0][1];
    for (int i = 2; i <= N; i++) {
      X[0][i] = 0.5 * in[i] + 1.0;
      Y[0][i] = 0.25 * Y[0][i - 1] + 0.75 * X[0][i];
    }
    for (int t = 1; t < T; t++) {
      X[t][0] = 0.5 * X[t - 1][0] + 1.0;
      X[t][1] = 0.5 * Y[t - 1][1] + 1.0;
      Y[t][1] = 0.25 * X[t][0] + 0.75 * X[t][1];
      for (int i = 2; i <= N; i++) {
        X[t][i] = 0.5 * Y[t - 1][i] + 1.0;
        Y[t][i] = 0.25 * Y[t][i - 1] + 0.75 * X[t][i];
      }
    }
  }
  if (N == 0 && T >= 1) {
    X[0][0] = 0.5 * in[0] + 1.0;
    for (int t = 1; t < T; t++)
      X[t][0] = 0.5 * X[t - 1][0] + 1.0;
  }
  out[0] = X[T - 1][0];
  for (int i = 1; i <= N; i++)
    out[i] = Y[T - 1][i];
#pragma endscop
}

int main(void)
{
  int i;
  for (i = 0; i <= N; i++)
    in[i] = (double)(i % 7) / 7.0;
  kernel();
  for (i = 0; i <= N; i++)
    printf("%.10e\n", out[i]);
  return 0;
}
