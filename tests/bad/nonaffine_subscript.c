/* expect: P0002 */
double A[100], B[10][10];
void f(int n) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i * j] = B[i][j];
#pragma endscop
}
