/* A toy dynamic program (Bee+Cl@k's Figure 4 kernel 3, after PolyBench's
   dynprog): c[i][j] sums the costs c[i][k] + c[k][j] of every split
   point k through the partial sums sum_c[i][j][k]. Bee+Cl@k (Figure 3,
   LENGTH = 10): sum_c folds onto one cell, c onto 9 x 9 = 81 with the
   heuristics (61 with an exhaustive search). Its c is live-in; here c is
   cleared at each time step, and the exhaustive search finds no lattice
   below the heuristics' 9 x 8 = 72 cells. */
#include <stdio.h>

#ifndef LENGTH
#define LENGTH 10
#endif
#ifndef TSTEPS
#define TSTEPS 3
#endif

static double W[LENGTH][LENGTH];

static double dynprog(void)
{
  double c[LENGTH][LENGTH], sum_c[LENGTH][LENGTH][LENGTH];
  double out = 0.0;
  int iter, i, j, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int iter = 0; iter < TSTEPS; iter++) {
    for (int i = 0; i < LENGTH; i++)
      for (int j = 0; j < LENGTH; j++)
        c[i][j] = 0.0;
    for (int i = 0; i < LENGTH - 1; i++)
      for (int j = i + 1; j < LENGTH; j++) {
        sum_c[i][j][i] = 0.0;
        for (int k = i + 1; k < j; k++)
          sum_c[i][j][k] = sum_c[i][j][k - 1] + c[i][k] + c[k][j];
        c[i][j] = sum_c[i][j][j - 1] + W[i][j];
      }
    out = out + c[0][LENGTH - 1];
  }
#pragma endscop
  return out;
}

int main(void)
{
  int i, j;
  for (i = 0; i < LENGTH; i++)
    for (j = 0; j < LENGTH; j++)
      W[i][j] = (double)((i * j + 3) % 7) / LENGTH;
  printf("%.10e\n", dynprog());
  return 0;
}
