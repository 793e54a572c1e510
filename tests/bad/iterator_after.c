/* expect: P0009 */
double A[100];
int f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = 1;
#pragma endscop
  return i;
}
