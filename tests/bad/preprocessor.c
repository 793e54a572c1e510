/* expect: P0010 */
double A[100];
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
#ifdef X
    A[i] = 1;
#endif
  }
#pragma endscop
}
