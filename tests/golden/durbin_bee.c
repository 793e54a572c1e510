/* Durbin's Toeplitz solver in single-assignment form, as Bee+Cl@k's
   running example writes it: alpha, beta, sum and y are temporaries.
   Bee+Cl@k (Figure 3, N = 100): alpha, beta and sum fold onto one cell
   each; y onto N x 2 = 200 cells with the lattice heuristics (197 with
   an exhaustive search). */
#include <stdio.h>

#ifndef N
#define N 100
#endif

static double r[N], out[N];

static void durbin(void)
{
  double y[N][N], sum[N + 1][N], alpha[N], beta[N];
  int k, i;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  y[0][0] = r[0];
  beta[0] = 1.0;
  alpha[0] = r[0];
  for (int k = 1; k < N; k++) {
    beta[k] = beta[k - 1] - alpha[k - 1] * alpha[k - 1] * beta[k - 1];
    sum[0][k] = r[k];
    for (int i = 0; i < k; i++)
      sum[i + 1][k] = sum[i][k] + r[k - i - 1] * y[i][k - 1];
    alpha[k] = -sum[k][k] * beta[k];
    for (int i = 0; i < k; i++)
      y[i][k] = y[i][k - 1] + alpha[k] * y[k - i - 1][k - 1];
    y[k][k] = alpha[k];
  }
  for (int i = 0; i < N; i++)
    out[i] = y[i][N - 1];
#pragma endscop
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    r[i] = 0.5 / (i + 2);
  durbin();
  for (i = 0; i < N; i++)
    printf("%.10e\n", out[i]);
  return 0;
}
