/* Yuki and Rajopadhye, Figure 3b: S1 produces B[i], S2 consumes it in
   the same iteration. The only data-flow vector, [0, 0, 1] in the 2d+1
   space, ends in the last constant (ordering) dimension: each value is
   dead as soon as S2 has read it, so B needs one scalar (Section 5.2).
   Written as two loops (Figure 3a), B would need N cells. */
#include <stdio.h>

#ifndef N
#define N 100
#endif

static double x[N], y[N];

static void fig3b(void)
{
  double B[N];
  int i;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  for (int i = 0; i < N; i++) {
    B[i] = x[i] * x[i] + 1.0;
    y[i] = B[i] * 0.5 + x[i];
  }
#pragma endscop
}

int main(void)
{
  int i;
  for (i = 0; i < N; i++)
    x[i] = (i % 13) * 0.25;
  fig3b();
  for (i = 0; i < N; i++)
    printf("%.10e\n", y[i]);
  return 0;
}
