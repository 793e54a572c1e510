/* One diamond tile of a three-point stencil (SMO, Fig. 7): tiling
   hyperplanes (1, 1) and (1, -1), so that a row of tiles starts at
   once. u(tt, ii) reads u(tt - 1, ii - 1), u(tt - 1, ii) and
   u(tt - 1, ii + 1); the tile is the diamond B - 1 <= tt + ii <= 3B - 3,
   |tt - ii| <= B - 1, run row by row. AB is its data tile: the cells
   the two tiles above read are live-out (through up_right and up_left);
   values from outside the tile come from the reference grid G. The
   successive modulo keeps B x (2B - 1) cells; SMO's hyperplane
   (tt - 3ii) folds AB onto 6B - 5. */
#include <stdio.h>

#ifndef B
#define B 8
#endif
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))

/* G[tt + 1][ii + 1]: the stencil's values from row -1 to 2B - 2 and
   column -1 to 2B - 1, computed in main. */
static double G[2 * B][2 * B + 1];
static double up_right[2 * B - 1][2 * B - 1], up_left[2 * B - 1][2 * B - 1];

static void tile(void)
{
  double AB[2 * B - 1][2 * B - 1];
  double acc;
  int tt, ii;
#pragma scop
  for (tt = 0; tt <= 2 * B - 2; tt++)
    for (ii = max(B - 1 - tt, tt - B + 1); ii <= min(3 * B - 3 - tt, tt + B - 1); ii++) {
      if (tt + ii >= B + 1)
        acc = AB[tt - 1][ii - 1];
      else
        acc = G[tt][ii];
      if (tt + ii >= B && tt - ii >= 2 - B)
        acc = acc + AB[tt - 1][ii];
      else
        acc = acc + G[tt][ii + 1];
      if (tt - ii >= 3 - B)
        acc = acc + AB[tt - 1][ii + 1];
      else
        acc = acc + G[tt][ii + 2];
      AB[tt][ii] = acc / 3.0;
    }
  for (tt = 0; tt <= 2 * B - 2; tt++)
    for (ii = max(B - 1 - tt, tt - B + 1); ii <= min(3 * B - 3 - tt, tt + B - 1); ii++) {
      if (tt + ii >= 3 * B - 4)
        up_right[tt][ii] = AB[tt][ii];
      if (tt - ii >= B - 2)
        up_left[tt][ii] = AB[tt][ii];
    }
#pragma endscop
}

int main(void)
{
  int tt, ii;
  for (ii = 0; ii <= 2 * B; ii++)
    G[0][ii] = (double)(ii % 5) / 5.0;
  for (tt = 1; tt < 2 * B; tt++) {
    G[tt][0] = (double)(tt % 3) / 3.0;
    G[tt][2 * B] = (double)(tt % 4) / 4.0;
    for (ii = 1; ii < 2 * B; ii++)
      G[tt][ii] = (G[tt - 1][ii - 1] + G[tt - 1][ii] + G[tt - 1][ii + 1]) / 3.0;
  }
  tile();
  for (tt = 0; tt <= 2 * B - 2; tt++)
    for (ii = max(B - 1 - tt, tt - B + 1); ii <= min(3 * B - 3 - tt, tt + B - 1); ii++)
      if (tt + ii >= 3 * B - 4 || tt - ii >= B - 2)
        printf("%d %d %.10e %.10e %.10e\n", tt, ii, up_right[tt][ii], up_left[tt][ii], G[tt + 1][ii + 1]);
  return 0;
}
