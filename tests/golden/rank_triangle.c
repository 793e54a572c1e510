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
  /* polyc: multifor loop run by rank */
  {
    long polyc_rank = 0, polyc_ranks = 0, polyc_row_width, polyc_row;
    long polyc_rows = (N) - (1), polyc_first = 1;
    { int i = polyc_first; polyc_row_width = (i) - (0); }
    /* Rows of no iteration before the first one do not count. */
    for (; polyc_rows > 0 && polyc_row_width <= 0; polyc_rows--) { polyc_first++; polyc_row_width += 1; }
    if (polyc_rows > 0) polyc_ranks = (polyc_row_width * polyc_rows + 1 * polyc_rows * (polyc_rows - 1) / 2);
    for (int i2 = 0; i2 < M1; i2++) {
      for (int j2 = 0; j2 < M2; j2++) {
        if (polyc_rank < polyc_ranks) {
          long polyc_disc = (2 * polyc_row_width - 1) * (2 * polyc_row_width - 1) + 8 * 1 * polyc_rank, polyc_root = polyc_disc, polyc_next;
          if (polyc_root > 1)
            for (polyc_next = (polyc_root + 1) / 2; polyc_next < polyc_root; polyc_next = (polyc_root + polyc_disc / polyc_root) / 2)
              polyc_root = polyc_next;
          polyc_row = (polyc_root - (2 * polyc_row_width - 1)) / (2 * 1);
          if (polyc_row < 0) polyc_row = 0;
          if (polyc_row > polyc_rows - 1) polyc_row = polyc_rows - 1;
          while (polyc_row + 1 < polyc_rows && (polyc_row_width * (polyc_row + 1) + 1 * (polyc_row + 1) * ((polyc_row + 1) - 1) / 2) <= polyc_rank) polyc_row++;
          while (polyc_row > 0 && (polyc_row_width * polyc_row + 1 * polyc_row * (polyc_row - 1) / 2) > polyc_rank) polyc_row--;
          int i = polyc_first + polyc_row;
          int j = 0 + (polyc_rank - (polyc_row_width * polyc_row + 1 * polyc_row * (polyc_row - 1) / 2));
          a = (a * 31 + 100 * i + j) % 1000003;
          tri[i][j] = a;
        }
        b = (b * 37 + 100 * i2 + j2) % 1000003;
        sq[i2][j2] = b;
        polyc_rank++;
      }
    }
    /* What is left of the ranked nest. */
    for (; polyc_rank < polyc_ranks; polyc_rank++) {
      if (polyc_rank < polyc_ranks) {
        long polyc_disc = (2 * polyc_row_width - 1) * (2 * polyc_row_width - 1) + 8 * 1 * polyc_rank, polyc_root = polyc_disc, polyc_next;
        if (polyc_root > 1)
          for (polyc_next = (polyc_root + 1) / 2; polyc_next < polyc_root; polyc_next = (polyc_root + polyc_disc / polyc_root) / 2)
            polyc_root = polyc_next;
        polyc_row = (polyc_root - (2 * polyc_row_width - 1)) / (2 * 1);
        if (polyc_row < 0) polyc_row = 0;
        if (polyc_row > polyc_rows - 1) polyc_row = polyc_rows - 1;
        while (polyc_row + 1 < polyc_rows && (polyc_row_width * (polyc_row + 1) + 1 * (polyc_row + 1) * ((polyc_row + 1) - 1) / 2) <= polyc_rank) polyc_row++;
        while (polyc_row > 0 && (polyc_row_width * polyc_row + 1 * polyc_row * (polyc_row - 1) / 2) > polyc_rank) polyc_row--;
        int i = polyc_first + polyc_row;
        int j = 0 + (polyc_rank - (polyc_row_width * polyc_row + 1 * polyc_row * (polyc_row - 1) / 2));
        a = (a * 31 + 100 * i + j) % 1000003;
        tri[i][j] = a;
      }
    }
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
