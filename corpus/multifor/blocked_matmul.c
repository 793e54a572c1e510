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
  multifor (i1 = 0, i2 = 0, i3 = n / 2, i4 = n / 2; i1 < n / 2, i2 < n / 2, i3 < n, i4 < n;
            i1++, i2++, i3++, i4++; 1, 1, 1, 1; 0, 0, 0, 0)
    multifor (j1 = 0, j2 = n / 2, j3 = 0, j4 = n / 2; j1 < n / 2, j2 < n, j3 < n / 2, j4 < n;
              j1++, j2++, j3++, j4++; 1, 1, 1, 1; 0, 0, 0, 0) {
      0 : c[i1][j1] = 0;
      1 : c[i2][j2] = 0;
      2 : c[i3][j3] = 0;
      3 : c[i4][j4] = 0;
      multifor (k1 = 0, k2 = 0, k3 = 0, k4 = 0; k1 < n, k2 < n, k3 < n, k4 < n;
                k1++, k2++, k3++, k4++; 1, 1, 1, 1; 0, 0, 0, 0) {
        0 : c[i1][j1] = c[i1][j1] + a[i1][k1] * b[k1][j1];
        1 : c[i2][j2] = c[i2][j2] + a[i2][k2] * b[k2][j2];
        2 : c[i3][j3] = c[i3][j3] + a[i3][k3] * b[k3][j3];
        3 : c[i4][j4] = c[i4][j4] + a[i4][k4] * b[k4][j4];
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
