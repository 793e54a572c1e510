/* polyc differential test, shrunk reproducer.
   seed 82 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[26], [1], [37]]
   shrunk: output differs: threads=1 params=[26]: expected `B 20.625`, got `B 8.125`
   original: output differs: threads=1 params=[26]: expected `B 48.5`, got `B 11.375` 
   polyc: known (lastprivate_array.c): 'omp parallel for lastprivate(B)' on an array: the private copy of B is uninitialised except B[4], and the whole copy is written back */
/* polyc difftest, seed 82 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double B[5];
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 26;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 5; i0++) B[i0] = ((1 + 2 * i0) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++)
    B[4] = 1.25 * 0.5 + 1.0;
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 5; i0++) c += B[i0] * (1 + (0 + 1 * i0) % 7); printf("B %.17g\n", c); }
  return 0;
}
