/* expect: P0004 */
double A[100];
double g(double);
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = g(A[i]);
#pragma endscop
}
