/* Red-black Gauss-Seidel as four interleaved nests of grain 2: red
 * points (i + j even) in nests 0 and 1, black points in nests 2 and 3.
 * The black nests are placed one referential row later than the red
 * ones, so each black point runs after its four red neighbours and after
 * the red points that read its old value: one sweep computes exactly what
 * the red phase followed by the black phase computes. */
#include <stdio.h>

#define N 34
#define T 6

static double u[N][N], v[N][N];

static void multifor_sweeps(void)
{
  int i0, i1, i2, i3, j0, j1, j2, j3;
  for (int t = 0; t < T; t++) {
    /* polyc: loops regenerated in the source's order */
    if (N >= 3)
      for (int c3 = 0; c3 < N - 2; c3 += 2)
        u[1][c3 + 1] = 0.25 * (u[1][c3 + 2] + u[1][c3] + u[0][c3 + 1] + u[2][c3 + 1]);
    for (int i3 = 1; i3 < N - 2; i3++) {
      if (i3 % 2 == 0)
        for (int c3 = 0; c3 < N - 2; c3 += 2) {
          u[i3 + 1][c3 + 1] = 0.25 * (u[i3 + 1][c3 + 2] + u[i3 + 1][c3] + u[i3][c3 + 1] + u[i3 + 2][c3 + 1]);
          u[i3][c3 + 1] = 0.25 * (u[i3][c3 + 2] + u[i3][c3] + u[i3 - 1][c3 + 1] + u[i3 + 1][c3 + 1]);
        }
      if ((i3 + 1) % 2 == 0)
        for (int c3 = 1; c3 < N - 2; c3 += 2) {
          u[i3 + 1][c3 + 1] = 0.25 * (u[i3 + 1][c3 + 2] + u[i3 + 1][c3] + u[i3][c3 + 1] + u[i3 + 2][c3 + 1]);
          u[i3][c3 + 1] = 0.25 * (u[i3][c3 + 2] + u[i3][c3] + u[i3 - 1][c3 + 1] + u[i3 + 1][c3 + 1]);
        }
    }
    if ((N + 1) % 2 == 0 && N >= 3)
      for (int c3 = 1; c3 < N - 3; c3 += 2)
        u[N - 2][c3 + 1] = 0.25 * (u[N - 2][c3 + 2] + u[N - 2][c3] + u[N - 3][c3 + 1] + u[N - 1][c3 + 1]);
    if (N % 2 == 0 && N >= 4)
      for (int c3 = 0; c3 < N - 3; c3 += 2)
        u[N - 2][c3 + 1] = 0.25 * (u[N - 2][c3 + 2] + u[N - 2][c3] + u[N - 3][c3 + 1] + u[N - 1][c3 + 1]);
  }
}

static void reference_sweeps(void)
{
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        if ((i + j) % 2 == 0)
          v[i][j] = 0.25 * (v[i][j + 1] + v[i][j - 1] + v[i - 1][j] + v[i + 1][j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        if ((i + j) % 2 == 1)
          v[i][j] = 0.25 * (v[i][j + 1] + v[i][j - 1] + v[i - 1][j] + v[i + 1][j]);
  }
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u[i][j] = v[i][j] = (i == 0 || j == N - 1) ? 1.0 : (double)((i * 7 + j * 3) % 5) / 5.0;
  multifor_sweeps();
  reference_sweeps();
  double m = 0, r = 0;
  int differ = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      m += u[i][j] * (i + 1);
      r += v[i][j] * (i + 1);
      differ |= u[i][j] != v[i][j];
    }
  printf("multifor %.17g\nreference %.17g\n", m, r);
  return differ;
}
