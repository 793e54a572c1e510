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
  /* polyc: loops regenerated in the source's order */
  if (M >= 1) {
    if (N >= 1)
      for (int j = 0; j < M; j++) {
        H[0][j] = 0.0;
        dir[0][j] = (int)H[0][j] % 5;
      }
    for (int i = 1; i < N; i++) {
      H[i][0] = 0.0;
      dir[i][0] = (int)H[i][0] % 5;
      for (int j = 1; j < M; j++) {
        H[i][j] = fmax(0.0, fmax(H[i - 1][j - 1] + (a[i] == b[j] ? 3.0 : -3.0), fmax(H[i - 1][j], H[i][j - 1]) - 2.0));
        dir[i][j] = (int)H[i][j] % 5;
      }
    }
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
