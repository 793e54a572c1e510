/* Sobel edge detection overlapped with reading the image (the paper's
 * Figure 2): the second nest starts three referential iterations late in
 * each dimension, so every pixel it needs has been read by then. Reading
 * is simulated by a formula. */
#include <stdio.h>
#include <stdlib.h>

#define K 40
#define N 52

static int a[K][N], sbl[K][N], ref_a[K][N], ref_sbl[K][N];

static void multifor_sobel(void)
{
  int i1, i2, j1, j2;
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
  for (int i1 = 0; i1 <= polyc_min(2, K - 1); i1++)
    for (int j1 = 0; j1 < N; j1++)
      a[i1][j1] = (i1 * 37 + j1 * 11 + (i1 * j1) % 7) % 256;
  for (int i1 = 3; i1 < K; i1++) {
    for (int j1 = 0; j1 <= polyc_min(2, N - 1); j1++)
      a[i1][j1] = (i1 * 37 + j1 * 11 + (i1 * j1) % 7) % 256;
    for (int j1 = 3; j1 < N; j1++) {
      a[i1][j1] = (i1 * 37 + j1 * 11 + (i1 * j1) % 7) % 256;
      sbl[i1 - 2][j1 - 2] = abs(a[i1 - 3][j1 - 1] + 2 * a[i1 - 2][j1 - 1] + a[i1 - 1][j1 - 1]
                            - a[i1 - 3][j1 - 3] - 2 * a[i1 - 2][j1 - 3] - a[i1 - 1][j1 - 3])
                        + abs(a[i1 - 1][j1 - 3] + 2 * a[i1 - 1][j1 - 2] + a[i1 - 1][j1 - 1]
                              - a[i1 - 3][j1 - 3] - 2 * a[i1 - 3][j1 - 2] - a[i1 - 3][j1 - 1]);
    }
    if (N >= 3)
      sbl[i1 - 2][N - 2] = abs(a[i1 - 3][N - 1] + 2 * a[i1 - 2][N - 1] + a[i1 - 1][N - 1]
                            - a[i1 - 3][N - 3] - 2 * a[i1 - 2][N - 3] - a[i1 - 1][N - 3])
                        + abs(a[i1 - 1][N - 3] + 2 * a[i1 - 1][N - 2] + a[i1 - 1][N - 1]
                              - a[i1 - 3][N - 3] - 2 * a[i1 - 3][N - 2] - a[i1 - 3][N - 1]);
  }
  if (K >= 3)
    for (int c3 = 3; c3 <= N; c3++)
      sbl[K - 2][c3 - 2] = abs(a[K - 3][c3 - 1] + 2 * a[K - 2][c3 - 1] + a[K - 1][c3 - 1]
                            - a[K - 3][c3 - 3] - 2 * a[K - 2][c3 - 3] - a[K - 1][c3 - 3])
                        + abs(a[K - 1][c3 - 3] + 2 * a[K - 1][c3 - 2] + a[K - 1][c3 - 1]
                              - a[K - 3][c3 - 3] - 2 * a[K - 3][c3 - 2] - a[K - 3][c3 - 1]);
}

static void reference_sobel(void)
{
  for (int i = 0; i < K; i++)
    for (int j = 0; j < N; j++)
      ref_a[i][j] = (i * 37 + j * 11 + (i * j) % 7) % 256;
  for (int i = 1; i < K - 1; i++)
    for (int j = 1; j < N - 1; j++)
      ref_sbl[i][j] = abs(ref_a[i - 1][j + 1] + 2 * ref_a[i][j + 1] + ref_a[i + 1][j + 1]
                          - ref_a[i - 1][j - 1] - 2 * ref_a[i][j - 1] - ref_a[i + 1][j - 1])
                      + abs(ref_a[i + 1][j - 1] + 2 * ref_a[i + 1][j] + ref_a[i + 1][j + 1]
                            - ref_a[i - 1][j - 1] - 2 * ref_a[i - 1][j] - ref_a[i - 1][j + 1]);
}

int main(void)
{
  multifor_sobel();
  reference_sobel();
  long m = 0, r = 0;
  int differ = 0;
  for (int i = 0; i < K; i++)
    for (int j = 0; j < N; j++) {
      m = (m * 131 + sbl[i][j]) % 1000000007;
      r = (r * 131 + ref_sbl[i][j]) % 1000000007;
      differ |= sbl[i][j] != ref_sbl[i][j] || a[i][j] != ref_a[i][j];
    }
  printf("multifor %ld\nreference %ld\n", m, r);
  return differ;
}
