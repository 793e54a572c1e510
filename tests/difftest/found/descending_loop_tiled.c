/* polyc differential test, shrunk reproducer.
   seed 1096 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[20, 16], [4, 3], [39, 38]]
   shrunk: output differs: threads=1 params=[20, 16]: expected `B 270.125`, got `B 229.8125`
   original: output differs: threads=1 params=[20, 16]: expected `A 589.375`, got `A 547.375` 
   polyc: the descending loop 'for (j = M - 1; j >= 0; j--)' inside a tiled band is regenerated as 'for (j = ...; j >= -j_end; j--)' with j_end = polyc_max(128 * c0, i - 63): its lower bound has the wrong sign, j runs below 0 (out-of-bounds writes of A) and below the tile */
/* polyc difftest, seed 1096 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double A[40];
double B[40][1];
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 20;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int M = argc > 2 ? atoi(argv[2]) : 16;
  if (M < 0) M = 0;
  if (M > 40) M = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 40; i0++) A[i0] = ((0 + 1 * i0) % 17) * 0.25;
  for (int i0 = 0; i0 < 40; i0++) for (int i1 = 0; i1 < 1; i1++) B[i0][i1] = ((1 + 2 * i0 + 4 * i1) % 17) * 0.25;
#pragma scop
  for (i = 0; i < M; i++) {
    B[i][0] = A[i] * 0.5 + 1.0;
    for (j = M - 1; j >= 0; j--)
      A[j] = 0.25 * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 40; i0++) c += A[i0] * (1 + (0 + 1 * i0) % 7); printf("A %.17g\n", c); }
  { double c = 0; for (int i0 = 0; i0 < 40; i0++) for (int i1 = 0; i1 < 1; i1++) c += B[i0][i1] * (1 + (0 + 1 * i0 + 2 * i1) % 7); printf("B %.17g\n", c); }
  return 0;
}
