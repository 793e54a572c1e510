/* expect: P0005 */
double A[100];
void f(int n) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    i = i + 1;
#pragma endscop
}
