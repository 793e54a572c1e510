/* `weight` is only declared here (defined in another file): polyc cannot
   see that it is pure until the user says so, with --pure=weight. */
double weight(double x);

void scale(int n, double A[n], double B[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = weight(A[i]);
#pragma endscop
}
