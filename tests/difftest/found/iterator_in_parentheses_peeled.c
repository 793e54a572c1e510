/* polyc differential test, shrunk reproducer.
   seed 1081 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[16], [3], [37]]
   shrunk: output differs: threads=1 params=[16]: expected `A 240`, got `A 239.9375`
   original: output differs: threads=1 params=[16]: expected `A 572.703125`, got `A 575.421875` 
   polyc: the first iterations are peeled (s = ..., A[1 + 0 - 1] = ...) and their (i) stays i: the same bug as iterator_in_parentheses.c */
/* polyc difftest, seed 1081 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double A[40];
double s = 1.0;
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 16;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 40; i0++) A[i0] = ((0 + 1 * i0) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++) {
    s = A[1 + 0] * 0.5 + 1.0;
    A[1 + i - 1] = (0.125 * (i) - 0.125 * (0)) * 0.5 * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 40; i0++) c += A[i0] * (1 + (0 + 1 * i0) % 7); printf("A %.17g\n", c); }
  printf("s %.17g\n", s);
  return 0;
}
