/* polyc differential test, shrunk reproducer.
   seed 1140 (profile as run), mode default (polyc flags: (none))
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[10, 10], [3, 4], [37, 39]]
   shrunk: polyc timeout: no output after 60s
   original: polyc timeout: no output after 60s 
   polyc: no output after 60 s (shrunk within a 600 s budget, each kept step costing 60 s: not minimal). The class of /work/shared/repros/compile_time_blowup.c. Timeouts in the same run: seeds 1140 and 1194 in all three modes, 1091, 1175, 1205, 1255, 1445 in diamond, 1233 in storage; CI seed 63 in storage */
/* polyc difftest, seed 1140 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double A[82];
double B[46];
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 10;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int M = argc > 2 ? atoi(argv[2]) : 10;
  if (M < 0) M = 0;
  if (M > 40) M = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 82; i0++) A[i0] = ((0 + 1 * i0) % 17) * 0.25;
  for (int i0 = 0; i0 < 46; i0++) B[i0] = ((1 + 2 * i0) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++) {
    for (j = (M) / 2; j < N; j++)
      A[1 + i + j + 2] = sqrt(fabs(0.125 * (j))) * 0.5 + 1.0;
    for (j = (N) / 2; j < N - i + 2; j++) {
      B[2 + i - 2] = sqrt(fabs(sqrt(fabs((A[1 + j - 1] - 1.5) * 0.5)))) * 0.5 + 1.0;
      B[2 + j + 2] = B[2 + j + 1] * 0.5 + 1.0;
    }
    B[2 + i] = 0.25 * 0.5 + 1.0;
  }
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 82; i0++) c += A[i0] * (1 + (0 + 1 * i0) % 7); printf("A %.17g\n", c); }
  { double c = 0; for (int i0 = 0; i0 < 46; i0++) c += B[i0] * (1 + (0 + 1 * i0) % 7); printf("B %.17g\n", c); }
  return 0;
}
