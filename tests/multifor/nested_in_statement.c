int a[10], b[10];
void f(void)
{
  int i1, i2, j1, j2;
  multifor (i1 = 0, i2 = 0; i1 < 10, i2 < 10; i1++, i2++; 1, 1; 0, 0) {
    0 : for (int k = 0; k < 2; k++)
      multifor (j1 = 0, j2 = 0; j1 < 3, j2 < 3; j1++, j2++; 1, 1; 0, 0) { 0 : a[j1] = k; 1 : b[j2] = k; }
    1 : b[i2] = 2;
  }
}
