/* polyc differential test, shrunk reproducer.
   seed 1057 (profile as run), mode diamond (polyc flags: --tile=diamond --parallel --simd)
   reference: gcc -O1; polyc's output: gcc -O1 -fopenmp -DPOLYC_MIN_WORK=0, OMP_NUM_THREADS=1 and 2
   parameter sets (argv): [[7, 7], [5, 6], [37, 38]]
   shrunk: output differs: threads=1 params=[7, 7]: expected `D 296`, got `D 293`
   original: output differs: threads=1 params=[7, 7]: expected `D 12798.0625`, got `D 12765.9375` 
   polyc: the same wrong sign as descending_loop_tiled.c with --tile=diamond: 'for (j = i - 1; j >= 2; j--)' becomes 'j >= -j_end' with j_end = polyc_max(..., 2), so j runs below 2 */
/* polyc difftest, seed 1057 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
double D[1][39];
double s = 1.0;
int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 7;
  if (N < 0) N = 0;
  if (N > 40) N = 40;
  int M = argc > 2 ? atoi(argv[2]) : 7;
  if (M < 0) M = 0;
  if (M > 40) M = 40;
  int i, j, k, l;
  for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 39; i1++) D[i0][i1] = ((3 + 4 * i0 + 6 * i1) % 17) * 0.25;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = i - 1; j >= 2; j--)
      D[0][j] = 0.25 * 0.5 + 1.0;
  if (0 != 6) {
  }
  else
    s = 0.25 * 0.5 + 1.0;
#pragma endscop
  { double c = 0; for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 39; i1++) c += D[i0][i1] * (1 + (0 + 1 * i0 + 2 * i1) % 7); printf("D %.17g\n", c); }
  printf("s %.17g\n", s);
  return 0;
}
