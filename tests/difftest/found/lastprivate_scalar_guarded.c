/* polyc differential test, shrunk reproducer.
   seed 62 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[28], [6], [40]]
   shrunk: output differs: threads=2 params=[6]: expected `s 1.25`, got `s 4.6523118402705486e-310` [polyc's output has lastprivate(s)
   original: output differs: threads=2 params=[6]: expected `s 1.375`, got `s 4.6385333941015441e-310` [polyc's output has lastprivate(s) 
   polyc: known (lastprivate_unwritten.c): s, written only in the iterations where (i + 1) % 3 == 1, is lastprivate(s); the thread with the last iteration never writes it and copies back an uninitialised value */
/* polyc difftest, seed 62 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double C[1][1];
double s = 1.0;
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 28;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 1; i1++) C[i0][i1] = ((2 + 3 * i0 + 5 * i1) % 17) * 0.25;
#pragma scop
  for (i = 2; i < N; i++) {
    if ((i + 1) % 3 == 1)
      for (j = 0; j < 3; j++)
        s = C[0][0] * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 1; i1++) c += C[i0][i1] * (1 + (0 + 1 * i0 + 2 * i1) % 7); printf("C %.17g\n", c); }
  printf("s %.17g\n", s);
  return 0;
}
