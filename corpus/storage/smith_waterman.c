/* Smith-Waterman-like local alignment (Yuki and Rajopadhye, Section 7.1
   and Figure 5): H[i][j] reads H[i - 1][j], H[i][j - 1] and
   H[i - 1][j - 1]. The shortest QUOV for tiled execution is [1, 1]: H
   folds onto one cell per diagonal i - j, N + M - 1 cells, O(N + M); a row or a column alone (O(M) or O(N)) would stop the
   (i, j) band from being tiled. The traceback directions are the output. */
#include <math.h>
#include <stdio.h>

#ifndef N
#define N 50
#endif
#ifndef M
#define M 70
#endif

static int a[N], b[M], dir[N][M];

static void smith_waterman(void)
{
  double H[N][M];
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      if (i == 0 || j == 0)
        H[i][j] = 0.0;
      else
        H[i][j] = fmax(0.0, fmax(H[i - 1][j - 1] + (a[i] == b[j] ? 3.0 : -3.0), fmax(H[i - 1][j], H[i][j - 1]) - 2.0));
      dir[i][j] = (int)H[i][j] % 5;
    }
#pragma endscop
}

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    a[i] = (i * 7 + 3) % 4;
  for (j = 0; j < M; j++)
    b[j] = (j * 5 + 1) % 4;
  smith_waterman();
  for (i = 0; i < N; i++) {
    long row = 0;
    for (j = 0; j < M; j++)
      row = (row * 31 + dir[i][j]) % 1000003;
    printf("%ld\n", row);
  }
  return 0;
}
