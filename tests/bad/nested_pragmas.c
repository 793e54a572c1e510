/* expect: P0008 */
double A[100];
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
#pragma scop
    A[i] = 1;
#pragma endscop
  }
#pragma endscop
}
