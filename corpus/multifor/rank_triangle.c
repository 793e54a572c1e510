/* The paper's non-linear mapping (section 5.1): a triangular nest
 * (row i has i iterations) run by a rectangular one of the same trip
 * count, its K-th iteration at the rectangle's K-th, found by inverting
 * its ranking polynomial i(i-1)/2 + j. Each nest folds its indices into
 * its own running hash, so each hash records its nest's order. */
#include <stdio.h>

#define N 33
#define M1 16
#define M2 33

static long tri[N][N], sq[M1][M2];

static void multifor_nests(long *h1, long *h2)
{
  int i, j, i2, j2;
  long a = 1, b = 2;
  multifor (i = 1, i2 = 0; i < N, i2 < M1; i++, i2++; rank, 1; 0, 0)
    multifor (j = 0, j2 = 0; j < i, j2 < M2; j++, j2++; rank, 1; 0, 0) {
      0 : a = (a * 31 + 100 * i + j) % 1000003;
      0 : tri[i][j] = a;
      1 : b = (b * 37 + 100 * i2 + j2) % 1000003;
      1 : sq[i2][j2] = b;
    }
  *h1 = a;
  *h2 = b;
}

static void reference_nests(long *h1, long *h2)
{
  long a = 1, b = 2;
  for (int i = 1; i < N; i++)
    for (int j = 0; j < i; j++)
      a = (a * 31 + 100 * i + j) % 1000003;
  for (int i2 = 0; i2 < M1; i2++)
    for (int j2 = 0; j2 < M2; j2++)
      b = (b * 37 + 100 * i2 + j2) % 1000003;
  *h1 = a;
  *h2 = b;
}

int main(void)
{
  long m1, m2, r1, r2;
  multifor_nests(&m1, &m2);
  reference_nests(&r1, &r2);
  int filled = 1;
  for (int i = 1; i < N; i++)
    for (int j = 0; j < i; j++)
      filled &= tri[i][j] != 0;
  printf("multifor %ld %ld\nreference %ld %ld\n", m1, m2, r1, r2);
  return m1 != r1 || m2 != r2 || !filled;
}
