/* One parallelogram tile of a three-point stencil (SMO, Table I), in
   skewed coordinates: tiling hyperplanes (1, 0) and (1, 1) make the tile
   a B x B square in (tt, ii), where u(tt, ii) reads u(tt - 1, ii - 2),
   u(tt - 1, ii - 1) and u(tt - 1, ii). The tile runs row by row. AB is
   its data tile: the top row and the two right columns are live-out
   (read by the neighbouring tiles, here through top and right); values
   from outside the tile come from the reference grid G. The successive
   modulo keeps B x B cells; SMO's hyperplane (tt - ii) folds AB onto
   3B - 2. */
#include <stdio.h>

#ifndef B
#define B 10
#endif

/* G[tt + 1][ii + 2]: the stencil's values from the row below the tile
   and the two columns left of it, computed in main. */
static double G[B + 1][B + 2];
static double top[B], right[B][2];

static void tile(void)
{
  double AB[B][B];
  double acc;
  int tt, ii;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  if (B >= 1)
    for (int ii = 0; ii < B; ii++) {
      acc = G[0][ii];
      acc = acc + G[0][ii + 1];
      acc = acc + G[0][ii + 2];
      AB[0][ii] = acc / 3.0;
    }
  for (int tt = 1; tt < B; tt++) {
    acc = G[tt][0];
    acc = acc + G[tt][1];
    acc = acc + AB[tt - 1][0];
    AB[tt][0] = acc / 3.0;
    acc = G[tt][1];
    acc = acc + AB[tt - 1][0];
    acc = acc + AB[tt - 1][1];
    AB[tt][1] = acc / 3.0;
    for (int ii = 2; ii < B; ii++) {
      acc = AB[tt - 1][ii - 2];
      acc = acc + AB[tt - 1][ii - 1];
      acc = acc + AB[tt - 1][ii];
      AB[tt][ii] = acc / 3.0;
    }
  }
  for (int ii = 0; ii < B; ii++)
    top[ii] = AB[B - 1][ii];
  for (int tt = 0; tt < B; tt++) {
    right[tt][0] = AB[tt][B - 2];
    right[tt][1] = AB[tt][B - 1];
  }
#pragma endscop
}

int main(void)
{
  int tt, ii;
  for (ii = 0; ii < B + 2; ii++)
    G[0][ii] = (double)(ii % 5) / 5.0;
  for (tt = 1; tt <= B; tt++) {
    G[tt][0] = (double)(tt % 3) / 3.0;
    G[tt][1] = (double)(tt % 4) / 4.0;
  }
  for (tt = 1; tt <= B; tt++)
    for (ii = 2; ii < B + 2; ii++)
      G[tt][ii] = (G[tt - 1][ii - 2] + G[tt - 1][ii - 1] + G[tt - 1][ii]) / 3.0;
  tile();
  for (ii = 0; ii < B; ii++)
    printf("%.10e %.10e\n", top[ii], G[B][ii + 2]);
  for (tt = 0; tt < B; tt++)
    printf("%.10e %.10e\n", right[tt][0], right[tt][1]);
  return 0;
}
