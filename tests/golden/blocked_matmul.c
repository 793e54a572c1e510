/* The matrix product as four simultaneous block products (the paper's
 * Figure 8, MapReduce style): A split into row halves, B into column
 * halves, each loop nest computes one quarter of C. No dependence links
 * the four nests, so `--parallel` runs them in parallel sections. */
#include <stdio.h>

#define n 48

static double a[n][n], b[n][n], c[n][n], d[n][n];

static void multifor_product(void)
{
  int i1, i2, i3, i4, j1, j2, j3, j4, k1, k2, k3, k4;
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_floord
#define polyc_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#endif
#ifndef polyc_ceild
#define polyc_ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#endif
  for (int i1 = 0; i1 <= polyc_floord(n - 2, 2); i1++) {
    for (int j1 = 0; j1 <= polyc_floord(n - 2, 2); j1++) {
      c[i1][j1] = 0;
      for (int c8 = polyc_ceild(2 * j1 + n - 1, 2); c8 <= polyc_floord(2 * j1 + n, 2); c8++)
        c[i1][c8] = 0;
      for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n, 2); c7++)
        c[c7][j1] = 0;
      for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n, 2); c7++)
        c[c7][-i1 + j1 + c7] = 0;
      for (int k1 = 0; k1 < n; k1++) {
        c[i1][j1] = c[i1][j1] + a[i1][k1] * b[k1][j1];
        for (int c8 = polyc_ceild(2 * j1 + n - 1, 2); c8 <= polyc_floord(2 * j1 + n, 2); c8++)
          c[i1][c8] = c[i1][c8] + a[i1][k1] * b[k1][c8];
        for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n, 2); c7++)
          c[c7][j1] = c[c7][j1] + a[c7][k1] * b[k1][j1];
        for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n, 2); c7++)
          c[c7][-i1 + j1 + c7] = c[c7][-i1 + j1 + c7] + a[c7][k1] * b[k1][-i1 + j1 + c7];
      }
    }
    for (int c3 = polyc_ceild(n - 1, 2); c3 <= polyc_floord(n - 1, 2); c3++) {
      c[i1][n - 1] = 0;
      for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n - 1, 2); c7++)
        c[c7][n - 1] = 0;
      for (int k2 = 0; k2 < n; k2++) {
        c[i1][n - 1] = c[i1][n - 1] + a[i1][k2] * b[k2][n - 1];
        for (int c7 = polyc_ceild(2 * i1 + n - 1, 2); c7 <= polyc_floord(2 * i1 + n - 1, 2); c7++)
          c[c7][n - 1] = c[c7][n - 1] + a[c7][k2] * b[k2][n - 1];
      }
    }
  }
  if (n >= 1)
    for (int c1 = polyc_ceild(n - 1, 2); c1 <= polyc_floord(n - 1, 2); c1++) {
      for (int j3 = 0; j3 <= polyc_floord(n - 3, 2); j3++) {
        c[n - 1][j3] = 0;
        for (int c8 = polyc_ceild(2 * j3 + n - 1, 2); c8 <= polyc_floord(2 * j3 + n - 1, 2); c8++)
          c[n - 1][c8] = 0;
        for (int k3 = 0; k3 < n; k3++) {
          c[n - 1][j3] = c[n - 1][j3] + a[n - 1][k3] * b[k3][j3];
          for (int c8 = polyc_ceild(2 * j3 + n - 1, 2); c8 <= polyc_floord(2 * j3 + n - 1, 2); c8++)
            c[n - 1][c8] = c[n - 1][c8] + a[n - 1][k3] * b[k3][c8];
        }
      }
      for (int c3 = polyc_ceild(n - 1, 2); c3 <= polyc_floord(n - 1, 2); c3++) {
        c[n - 1][n - 1] = 0;
        for (int k4 = 0; k4 < n; k4++)
          c[n - 1][n - 1] = c[n - 1][n - 1] + a[n - 1][k4] * b[k4][n - 1];
      }
    }
}

static void reference_product(void)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      d[i][j] = 0;
      for (int k = 0; k < n; k++)
        d[i][j] = d[i][j] + a[i][k] * b[k][j];
    }
}

int main(void)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      a[i][j] = (double)((i * 13 + j * 7) % 17) / 17.0;
      b[i][j] = (double)((i * 5 + j * 11) % 19) / 19.0;
    }
  multifor_product();
  reference_product();
  double m = 0, r = 0;
  int differ = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      m += c[i][j] * (j + 1);
      r += d[i][j] * (j + 1);
      differ |= c[i][j] != d[i][j];
    }
  printf("multifor %.17g\nreference %.17g\n", m, r);
  return differ;
}
