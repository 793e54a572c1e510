/* expect: P0003 */
double A[100];
int m;
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < m; i++) {
    A[i] = 0;
    m = m - 1;
  }
#pragma endscop
}
