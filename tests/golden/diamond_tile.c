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
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef polyc_max
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#endif
  for (int c1 = 0; c1 < B; c1++) {
    if (c1 >= 1) {
      acc = G[c1][-c1 + B - 1];
      acc = acc + G[c1][-c1 + B];
      acc = acc + AB[c1 - 1][-c1 + B];
      AB[c1][-c1 + B - 1] = acc / 3.0;
    }
    if (c1 >= 2) {
      acc = G[c1][-c1 + B];
      acc = acc + AB[c1 - 1][-c1 + B];
      acc = acc + AB[c1 - 1][-c1 + B + 1];
      AB[c1][-c1 + B] = acc / 3.0;
    }
    for (int ii = -c1 + B + 1; ii < c1 + B - 2; ii++) {
      acc = AB[c1 - 1][ii - 1];
      acc = acc + AB[c1 - 1][ii];
      acc = acc + AB[c1 - 1][ii + 1];
      AB[c1][ii] = acc / 3.0;
    }
    if (c1 >= 2) {
      acc = AB[c1 - 1][c1 + B - 3];
      acc = acc + AB[c1 - 1][c1 + B - 2];
      acc = acc + G[c1][c1 + B];
      AB[c1][c1 + B - 2] = acc / 3.0;
    }
    if (c1 == 1) {
      acc = G[1][B - 1];
      acc = acc + AB[0][B - 1];
      acc = acc + G[1][B + 1];
      AB[1][B - 1] = acc / 3.0;
    }
    if (c1 >= 1) {
      acc = AB[c1 - 1][c1 + B - 2];
      acc = acc + G[c1][c1 + B];
      acc = acc + G[c1][c1 + B + 1];
      AB[c1][c1 + B - 1] = acc / 3.0;
    }
    if (c1 == 0) {
      acc = G[0][B - 1];
      acc = acc + G[0][B];
      acc = acc + G[0][B + 1];
      AB[0][B - 1] = acc / 3.0;
    }
  }
  for (int tt = B; tt < 2 * B - 1; tt++)
    for (int ii = tt - B + 1; ii < -tt + 3 * B - 2; ii++) {
      acc = AB[tt - 1][ii - 1];
      acc = acc + AB[tt - 1][ii];
      acc = acc + AB[tt - 1][ii + 1];
      AB[tt][ii] = acc / 3.0;
    }
  for (int tt = B - 1; tt < 2 * B - 1; tt++) {
    for (int ii = tt - B + 1; ii <= polyc_min(-tt + 3 * B - 5, tt - B + 2); ii++)
      up_left[tt][ii] = AB[tt][ii];
    if (tt >= 2 * B - 3) {
      up_right[tt][B - 1] = AB[tt][B - 1];
      up_left[tt][B - 1] = AB[tt][B - 1];
    }
    for (int ii = polyc_max(-tt + 3 * B - 4, tt - B + 3); ii < -tt + 3 * B - 2; ii++)
      up_right[tt][ii] = AB[tt][ii];
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
