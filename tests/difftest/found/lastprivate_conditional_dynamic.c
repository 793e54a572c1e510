/* polyc differential test, shrunk reproducer.
   seed 5027, mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[28], [6], [39]]
   shrunk: output differs: threads=1 params=[28]: expected `t 1.5625`, got `t 2` [polyc's output has lastprivate(conditional: t)]
   original: output differs: threads=1 params=[28]: expected `B 52982.542764634229`, got `B 52983.557726873667` [polyc's output has lastprivate(conditional: t)] */
/* polyc difftest, seed 5027 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double A[80];
double t = 2.0;
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 28;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 80; i0++) A[i0] = ((0 + 1 * i0) % 17) * 0.25;
#pragma scop
  for (i = 6; i >= 2; i--) {
    for (j = 0; j < N; j++)
      A[39 + N - j] = 0.25 * 0.5 + 1.0;
    t = A[39 + i] * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 80; i0++) c += A[i0] * (1 + (0 + 1 * i0) % 7); printf("A %.17g\n", c); }
  printf("t %.17g\n", t);
  return 0;
}
