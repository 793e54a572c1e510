/* expect: P0007 */
double A[100];
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i *= 2)
    A[i] = 1;
#pragma endscop
}
