/* expect: P0013 */
double A[100];
void f(double x) {
  int i;
#pragma scop
  for (i = 0; i < x; i++)
    A[i] = 1;
#pragma endscop
}
