/* A 2-D Gaussian blur (image processing), Bee+Cl@k's Figure 4 kernel 4:
   a vertical 3-tap filter into g_tmp through the partial sums g_acc1,
   then a horizontal one into the image through g_acc2. Bee+Cl@k
   (Figure 3, N = M = 50): g_acc1 and g_acc2 fold onto one cell each;
   g_tmp, written whole before it is read, keeps 48 x 50 = 2400 of its
   2500 cells (the rows it writes), which is optimal. */
#include <stdio.h>

#ifndef N
#define N 50
#endif
#ifndef M
#define M 50
#endif

static double in_image[N][M], gauss_image[N][M], Gauss[3], tot[4];

static void gauss(void)
{
  double g_tmp[N][M], g_acc1[N][M][4], g_acc2[N][M][4];
  int x, y, k;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  tot[0] = 0.0;
  for (int k = 0; k <= 2; k++)
    tot[k + 1] = tot[k] + Gauss[k];
  for (int x = 1; x < N - 1; x++)
    for (int y = 0; y < M; y++) {
      g_acc1[x][y][0] = 0.0;
      for (int k = 0; k <= 2; k++)
        g_acc1[x][y][k + 1] = g_acc1[x][y][k] + in_image[x + k - 1][y] * Gauss[k];
      g_tmp[x][y] = g_acc1[x][y][3] / tot[3];
    }
  for (int x = 1; x < N - 1; x++)
    for (int y = 1; y < M - 1; y++) {
      g_acc2[x][y][0] = 0.0;
      for (int k = 0; k <= 2; k++)
        g_acc2[x][y][k + 1] = g_acc2[x][y][k] + g_tmp[x][y + k - 1] * Gauss[k];
      gauss_image[x][y] = g_acc2[x][y][3] / tot[3];
    }
#pragma endscop
}

int main(void)
{
  int x, y;
  for (x = 0; x < N; x++)
    for (y = 0; y < M; y++)
      in_image[x][y] = (double)((x * 13 + y * 7) % 17);
  Gauss[0] = 1.0;
  Gauss[1] = 2.0;
  Gauss[2] = 1.0;
  gauss();
  for (x = 1; x < N - 1; x++)
    for (y = 1; y < M - 1; y++)
      printf("%.10e\n", gauss_image[x][y]);
  return 0;
}
