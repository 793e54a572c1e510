/* polyc differential test, shrunk reproducer.
   seed 1103 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[15], [2], [39]]
   shrunk: output differs: threads=1 params=[15]: expected `C 25132.25`, got `C 25118.25`
   original: output differs: threads=1 params=[15]: expected `C 34509.204277766032`, got `C 34504.141777766032` 
   polyc: a loop iterator written in parentheses, (i), is left as it is when polyc renames the iterator (c0 - 2) or replaces it by a value (0): the statement reads the stale variable i. With 'x = 0.125 * i' instead, the output is right. Also seed 1183 and 1259 (all modes, not yet checked one by one). */
/* polyc difftest, seed 1103 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double C[40][80];
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 15;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 40; i0++) for (int i1 = 0; i1 < 80; i1++) C[i0][i1] = ((2 + 3 * i0 + 5 * i1) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++) {
    C[i][39 + i] = 1.0 * 0.5 + 1.0;
    C[1][39 + N - i] = (0.125 * (i) + (0.25 - 0.25) * 0.5) * 0.5 * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 40; i0++) for (int i1 = 0; i1 < 80; i1++) c += C[i0][i1] * (1 + (0 + 1 * i0 + 2 * i1) % 7); printf("C %.17g\n", c); }
  return 0;
}
