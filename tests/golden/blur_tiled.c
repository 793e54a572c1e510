/* The two-stage blur run tile by tile (SMO, Fig. 5). blur_tile computes
   one B x B tile: its horizontal blur column by column, each column read
   at once by the vertical blur. The two last rows of the tile's blurx
   are its live-out data: the tile above reads them (through `carry`).
   blurx is the tile's temporary: the successive modulo keeps all B x B
   cells, SMO's hyperplane (y - 2x) folds it onto 3B - 2. */
#include <stdio.h>

#ifndef B
#define B 8
#endif
#ifndef NT
#define NT 6
#endif
#define N (NT * B)

static double in[N + 2][N], out[N][N];

/* The tile's part of `in` (rows x .. x + 2 of each column y), its part
   of `out`, and for each column the two last values of the tile below. */
static void blur_tile(double tin[B + 2][B], double tout[B][B], double carry[B][2], int first)
{
  double blurx[B][B];
  int x, y;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  if (first == 0)
    for (int x = 0; x < B; x++) {
      for (int y = 0; y < B; y++)
        blurx[x][y] = (tin[x][y] + tin[x + 1][y] + tin[x + 2][y]) / 3.0;
      tout[x][0] = (carry[x][0] + carry[x][1] + blurx[x][0]) / 3.0;
      tout[x][1] = (carry[x][1] + blurx[x][0] + blurx[x][1]) / 3.0;
      for (int y = 2; y < B; y++)
        tout[x][y] = (blurx[x][y - 2] + blurx[x][y - 1] + blurx[x][y]) / 3.0;
    }
  if (first <= -1)
    for (int x = 0; x < B; x++) {
      for (int y = 0; y < B; y++)
        blurx[x][y] = (tin[x][y] + tin[x + 1][y] + tin[x + 2][y]) / 3.0;
      for (int y = 2; y < B; y++)
        tout[x][y] = (blurx[x][y - 2] + blurx[x][y - 1] + blurx[x][y]) / 3.0;
    }
  if (first >= 1)
    for (int x = 0; x < B; x++) {
      for (int y = 0; y < B; y++)
        blurx[x][y] = (tin[x][y] + tin[x + 1][y] + tin[x + 2][y]) / 3.0;
      for (int y = 2; y < B; y++)
        tout[x][y] = (blurx[x][y - 2] + blurx[x][y - 1] + blurx[x][y]) / 3.0;
    }
  for (int x = 0; x < B; x++) {
    carry[x][0] = blurx[x][B - 2];
    carry[x][1] = blurx[x][B - 1];
  }
#pragma endscop
}

int main(void)
{
  static double tin[B + 2][B], tout[B][B], carry[NT][B][2];
  int ty, tx, x, y;
  for (x = 0; x < N + 2; x++)
    for (y = 0; y < N; y++)
      in[x][y] = (double)((x * 5 + y * 3) % 13) / 13.0;
  for (ty = 0; ty < NT; ty++)
    for (tx = 0; tx < NT; tx++) {
      for (x = 0; x < B + 2; x++)
        for (y = 0; y < B; y++)
          tin[x][y] = in[tx * B + x][ty * B + y];
      blur_tile(tin, tout, carry[tx], ty == 0);
      /* out[X][Y] blurs rows Y - 2 .. Y of the horizontal blur. */
      for (x = 0; x < B; x++)
        for (y = ty == 0 ? 2 : 0; y < B; y++)
          out[tx * B + x][ty * B + y] = tout[x][y];
    }
  for (x = 0; x < N; x += 3)
    for (y = 2; y < N; y += 5)
      printf("%.10e\n", out[x][y]);
  return 0;
}
