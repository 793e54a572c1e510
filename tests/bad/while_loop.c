/* expect: P0001 */
double A[100];
void f(int n) {
  int i = 0;
#pragma scop
  while (i < n)
    A[i++] = 0;
#pragma endscop
}
