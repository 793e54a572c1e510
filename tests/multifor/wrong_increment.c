int a[10], b[10];
void f(void)
{
  int i1, i2;
  multifor (i1 = 0, i2 = 0; i1 < 10, i2 < 10; i2++, i1++; 1, 1; 0, 0) {
    0 : a[i1] = 1;
    1 : b[i2] = 2;
  }
}
