int a[100], b[100];
void f(void)
{
  int i, j, h, g;
  multifor (i = 0, h = 0; i < 10, h < 5; i++, h++; rank, 1; 0, 0)
    multifor (j = 0, g = 0; j < 10 - i, g < 9; j++, g++; rank, 1; 0, 0) {
      0 : a[i] = j;
      1 : b[h] = g;
    }
}
