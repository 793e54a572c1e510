/* A histogram into BINS buckets per row, in a function that also uses a
   function-like macro: the SCoP is analysed with its macros expanded,
   where BINS stays a name, and a divisor must still be its value. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#define BINS 8
#define SQUARE(x) ((x) * (x))
#define N 300

static double A[N][N], H[N][BINS];

static void histogram(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      H[i][j % BINS] += SQUARE(A[i][j]);
#pragma endscop
}

int main(void)
{
  int i, j;
  double sum = 0.0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
  histogram();
  for (i = 0; i < N; i++)
    for (j = 0; j < BINS; j++)
      sum += H[i][j] * (j + 1);
  printf("%.10e\n", sum);
  return 0;
}
