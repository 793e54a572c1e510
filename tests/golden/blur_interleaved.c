/* A two-stage blur with the stages interleaved row by row (SMO, Fig. 4b):
   the horizontal blur of row y is read by the vertical blur of rows y,
   y + 1 and y + 2. blurx is a temporary: the successive modulo keeps 3
   rows (3N cells), SMO's hyperplane (-1, 2) folds it onto 2N + 1. */
#include <stdio.h>

#ifndef N
#define N 64
#endif
#ifndef M
#define M 80
#endif

static double in[M][N + 2], out[M][N];

static void blur(void)
{
  double blurx[M][N];
  int y, x;
#pragma scop
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int y = 0; y <= polyc_min(1, M - 1); y++)
    for (int x = 0; x < N; x++)
      blurx[y][x] = (in[y][x] + in[y][x + 1] + in[y][x + 2]) / 3.0;
  for (int y = 2; y < M; y++)
    for (int x = 0; x < N; x++) {
      blurx[y][x] = (in[y][x] + in[y][x + 1] + in[y][x + 2]) / 3.0;
      out[y - 2][x] = (blurx[y - 2][x] + blurx[y - 1][x] + blurx[y][x]) / 3.0;
    }
#pragma endscop
}

int main(void)
{
  int y, x;
  for (y = 0; y < M; y++)
    for (x = 0; x < N + 2; x++)
      in[y][x] = (double)((y * 7 + x * 3) % 11) / 11.0;
  blur();
  for (y = 0; y < M - 2; y += 7)
    for (x = 0; x < N; x += 5)
      printf("%.10e\n", out[y][x]);
  return 0;
}
