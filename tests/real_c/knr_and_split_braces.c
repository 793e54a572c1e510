/* Outside the SCoP, C that polyc's parser alone cannot read: a K&R
   definition, and `#ifdef` branches that each open the loop's brace
   (the compiler sees one of them). Every byte outside the SCoP must
   come out unchanged. */
#include <stdio.h>

#define N 50

double A[N], B[N];

int twice(x)
int x;
{
  return 2 * x;
}

static void smooth(int n) {
  int i;
#pragma scop
  for (i = 1; i < n - 1; i++)
    B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
  for (i = 1; i < n - 1; i++)
    A[i] = B[i];
#pragma endscop
}

int main(void) {
  int i, t;
  for (i = 0; i < N; i++)
    A[i] = i % 9;
#ifdef LONG_RUN
  for (t = 0; t < 100; t++) {
#else
  for (t = 0; t < twice(3); t++) {
#endif
    smooth(N);
  }
  double sum = 0;
  for (i = 0; i < N; i++)
    sum += A[i] * (i + 1);
  printf("%.6f\n", sum);
  return 0;
}
