/* One hexagonal tile of a three-point stencil (SMO, Table I): u(tt, ii)
   reads u(tt - 1, ii - 1), u(tt - 1, ii) and u(tt - 1, ii + 1); the
   tile's rows widen by one point on each side from B points at the
   bottom to 3B - 2 at row B - 1, then narrow back to B at the top row
   2B - 2, and run row by row. Columns are shifted, jj = ii + B - 1, so
   that they start at 0. AB is the data tile: the cells the tiles above
   read are live-out (through top, left and right); values from outside
   the tile come from the reference grid G. The successive modulo keeps
   B x (3B - 2) cells; SMO's hyperplane (-tt + 3jj) folds AB onto
   9B - 8. */
#include <stdio.h>

#ifndef B
#define B 6
#endif
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))

/* G[tt + 1][jj + 1]: the stencil's values from row -1 to 2B - 2 and
   column -1 to 3B - 2, computed in main. */
static double G[2 * B][3 * B];
static double top[3 * B - 2], left[2 * B - 1][2], right[2 * B - 1][2];

static void tile(void)
{
  double AB[2 * B - 1][3 * B - 2];
  double acc;
  int tt, jj;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  if (B >= 1)
    for (int jj = B - 1; jj < 2 * B - 1; jj++) {
      acc = G[0][jj];
      acc = acc + G[0][jj + 1];
      acc = acc + G[0][jj + 2];
      AB[0][jj] = acc / 3.0;
    }
  for (int tt = 1; tt < B; tt++) {
    acc = G[tt][-tt + B - 1];
    acc = acc + G[tt][-tt + B];
    acc = acc + AB[tt - 1][-tt + B];
    AB[tt][-tt + B - 1] = acc / 3.0;
    acc = G[tt][-tt + B];
    acc = acc + AB[tt - 1][-tt + B];
    acc = acc + AB[tt - 1][-tt + B + 1];
    AB[tt][-tt + B] = acc / 3.0;
    for (int jj = -tt + B + 1; jj < tt + 2 * B - 3; jj++) {
      acc = AB[tt - 1][jj - 1];
      acc = acc + AB[tt - 1][jj];
      acc = acc + AB[tt - 1][jj + 1];
      AB[tt][jj] = acc / 3.0;
    }
    acc = AB[tt - 1][tt + 2 * B - 4];
    acc = acc + AB[tt - 1][tt + 2 * B - 3];
    acc = acc + G[tt][tt + 2 * B - 1];
    AB[tt][tt + 2 * B - 3] = acc / 3.0;
    acc = AB[tt - 1][tt + 2 * B - 3];
    acc = acc + G[tt][tt + 2 * B - 1];
    acc = acc + G[tt][tt + 2 * B];
    AB[tt][tt + 2 * B - 2] = acc / 3.0;
  }
  for (int tt = B; tt < 2 * B - 1; tt++)
    for (int jj = tt - B + 1; jj < -tt + 4 * B - 3; jj++) {
      acc = AB[tt - 1][jj - 1];
      acc = acc + AB[tt - 1][jj];
      acc = acc + AB[tt - 1][jj + 1];
      AB[tt][jj] = acc / 3.0;
    }
  for (int jj = B - 1; jj < 2 * B - 1; jj++)
    top[jj] = AB[2 * B - 2][jj];
  for (int tt = B - 1; tt < 2 * B - 2; tt++) {
    left[tt][0] = AB[tt][tt - B + 1];
    left[tt][1] = AB[tt][tt - B + 2];
    right[tt][0] = AB[tt][4 * B - 5 - tt];
    right[tt][1] = AB[tt][4 * B - 4 - tt];
  }
#pragma endscop
}

int main(void)
{
  int tt, jj;
  for (jj = 0; jj < 3 * B; jj++)
    G[0][jj] = (double)(jj % 5) / 5.0;
  for (tt = 1; tt < 2 * B; tt++) {
    G[tt][0] = (double)(tt % 3) / 3.0;
    G[tt][3 * B - 1] = (double)(tt % 4) / 4.0;
    for (jj = 1; jj < 3 * B - 1; jj++)
      G[tt][jj] = (G[tt - 1][jj - 1] + G[tt - 1][jj] + G[tt - 1][jj + 1]) / 3.0;
  }
  tile();
  for (jj = B - 1; jj <= 2 * B - 2; jj++)
    printf("%.10e %.10e\n", top[jj], G[2 * B - 1][jj + 1]);
  for (tt = B - 1; tt <= 2 * B - 3; tt++)
    printf("%.10e %.10e %.10e %.10e\n", left[tt][0], left[tt][1], right[tt][0], right[tt][1]);
  return 0;
}
