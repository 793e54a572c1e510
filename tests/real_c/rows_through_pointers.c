/* A row of partial sums reached through a pointer, as an array parameter
   (PolyBench's own doitgen passes `sum` so) and as a pointer variable:
   reset and accumulated for every (r, q), then stored. Its cells past
   `np`, and its values when no (r, q) runs, must survive. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#ifndef NR
#define NR 6
#endif
#ifndef NQ
#define NQ 5
#endif
#ifndef NP
#define NP 7
#endif

static double A[NR][NQ][NP];
static double C4[NP][NP];
static double row[NP + 2];
static double other_row[NP + 2];

static void project(int nr, int nq, int np, double A[NR][NQ][NP], double C4[NP][NP], double sum[NP])
{
#pragma scop
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p] * 0.5;
    }
#pragma endscop
}

static void accumulate(int nr, int nq, int np, double A[NR][NQ][NP], double C4[NP][NP], double *acc)
{
#pragma scop
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        acc[p] = 1.0;
        for (int s = 0; s < np; s++)
          acc[p] += A[r][q][s] * C4[p][s];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = acc[p] * 0.25;
    }
#pragma endscop
}

int main(void)
{
  for (int r = 0; r < NR; r++)
    for (int q = 0; q < NQ; q++)
      for (int p = 0; p < NP; p++)
        A[r][q][p] = (double)((r * 7 + q * 3 + p) % 11) / 11.0;
  for (int s = 0; s < NP; s++)
    for (int p = 0; p < NP; p++)
      C4[s][p] = (double)((s + 2 * p) % 5) / 5.0;
  for (int p = 0; p < NP + 2; p++) {
    row[p] = -1.0 - p;
    other_row[p] = -2.0 - p;
  }
  project(NR, NQ, NP, A, C4, row);
  accumulate(NR, NQ, NP, A, C4, other_row);
  for (int p = 0; p < NP + 2; p++)
    printf("row[%d] = %.12e, other_row[%d] = %.12e\n", p, row[p], p, other_row[p]);
  double total = 0.0;
  for (int r = 0; r < NR; r++)
    for (int q = 0; q < NQ; q++)
      for (int p = 0; p < NP; p++)
        total += A[r][q][p] * (1 + (r + q + p) % 3);
  printf("A: %.12e\n", total);
  return 0;
}
