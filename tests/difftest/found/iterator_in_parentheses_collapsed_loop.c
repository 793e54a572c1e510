/* polyc differential test, shrunk reproducer.
   seed 1025 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[15, 34], [7, 6], [37, 37]]
   shrunk: output differs: threads=1 params=[15, 34]: expected `t 1.96875`, got `t 1.03125`
   original: output differs: threads=1 params=[15, 34]: expected `t 3.5`, got `t 3.265625` 
   polyc: the loop 'for (i = 0; i < M; i++) if (i == M - 4)' becomes 'if (M >= 4)' and the statement still reads (i), now never set: the same bug as iterator_in_parentheses.c, through a loop the scanner collapses to a guard */
/* polyc difftest, seed 1025 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double t = 2.0;
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 15;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int M = argc > 2 ? atoi(argv[2]) : 34;
  if (M < 0) M = 0;
  if (M > 40) M = 40;
  int i, j, k, l;
  double T[1][3];
#pragma scop
  for (i = 0; i < 1; i++)
    for (j = 0; j < 3; j++)
      T[i][j] = 0.125 * (1 * i + 2 * j);
  for (i = 0; i < M; i++) {
    if (i == M - 4)
      t = (0.125 * (i) - (0.25 - T[0][2]) * 0.5) * 0.5 * 0.5 + 1.0;
  }
#pragma endscop
  printf("t %.17g\n", t);
  return 0;
}
