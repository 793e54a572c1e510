/* Rank mappings of several shapes (tests/multifor.rs): each function
 * runs a 2-deep nest by rank inside another and checks both orders. */
#include <stdio.h>

static int n = 3;

static int shape0(void)
{
  int i, j, h, g;
  long a = 1, b = 2, ra = 1, rb = 2;
  multifor (i = 0, h = 0; i < 6, h < 5; i++, h++; rank, 1; 0, 0)
    multifor (j = 0, g = 0; j <= i, g < 7; j++, g++; rank, 1; 0, 0) {
      0 : a = (a * 31 + 100 * i + j + 1000) % 1000003;
      1 : b = (b * 37 + 100 * h + g) % 1000003;
    }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j <= i; j++)
      ra = (ra * 31 + 100 * i + j + 1000) % 1000003;
  for (int h = 0; h < 5; h++)
    for (int g = 0; g < 7; g++)
      rb = (rb * 37 + 100 * h + g) % 1000003;
  printf("shape 0: multifor %ld %ld, reference %ld %ld\n", a, b, ra, rb);
  return a != ra || b != rb;
}

static int shape1(void)
{
  int i, j, h, g;
  long a = 1, b = 2, ra = 1, rb = 2;
  multifor (i = 2, h = 0; i < 10, h < 3; i++, h++; rank, 1; 0, 0)
    multifor (j = i, g = 0; j <= 2 * i, g < 4; j++, g++; rank, 1; 0, 0) {
      0 : a = (a * 31 + 100 * i + j + 1000) % 1000003;
      1 : b = (b * 37 + 100 * h + g) % 1000003;
    }
  for (int i = 2; i < 10; i++)
    for (int j = i; j <= 2 * i; j++)
      ra = (ra * 31 + 100 * i + j + 1000) % 1000003;
  for (int h = 0; h < 3; h++)
    for (int g = 0; g < 4; g++)
      rb = (rb * 37 + 100 * h + g) % 1000003;
  printf("shape 1: multifor %ld %ld, reference %ld %ld\n", a, b, ra, rb);
  return a != ra || b != rb;
}

static int shape2(void)
{
  int i, j, h, g;
  long a = 1, b = 2, ra = 1, rb = 2;
  multifor (h = 0, i = 0; h < 7, i <= 6; h++, i++; 1, rank; 0, 0)
    multifor (g = 0, j = 0; g < 7, j < 2 * i + 1; g++, j++; 1, rank; 0, 0) {
      1 : a = (a * 31 + 100 * i + j + 1000) % 1000003;
      0 : b = (b * 37 + 100 * h + g) % 1000003;
    }
  for (int i = 0; i <= 6; i++)
    for (int j = 0; j < 2 * i + 1; j++)
      ra = (ra * 31 + 100 * i + j + 1000) % 1000003;
  for (int h = 0; h < 7; h++)
    for (int g = 0; g < 7; g++)
      rb = (rb * 37 + 100 * h + g) % 1000003;
  printf("shape 2: multifor %ld %ld, reference %ld %ld\n", a, b, ra, rb);
  return a != ra || b != rb;
}

static int shape3(void)
{
  int i, j, h, g;
  long a = 1, b = 2, ra = 1, rb = 2;
  multifor (h = 0, i = 0; h < 2, i < 4; h++, i++; 1, rank; 0, 0)
    multifor (g = 0, j = 0; g < 10, j < 5; g++, j++; 1, rank; 0, 0) {
      1 : a = (a * 31 + 100 * i + j + 1000) % 1000003;
      0 : b = (b * 37 + 100 * h + g) % 1000003;
    }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      ra = (ra * 31 + 100 * i + j + 1000) % 1000003;
  for (int h = 0; h < 2; h++)
    for (int g = 0; g < 10; g++)
      rb = (rb * 37 + 100 * h + g) % 1000003;
  printf("shape 3: multifor %ld %ld, reference %ld %ld\n", a, b, ra, rb);
  return a != ra || b != rb;
}

static int shape4(void)
{
  int i, j, h, g;
  long a = 1, b = 2, ra = 1, rb = 2;
  multifor (i = -3, h = 0; i < 5, h < 3; i++, h++; rank, 1; 0, 0)
    multifor (j = 0, g = 0; j < i, g < n; j++, g++; rank, 1; 0, 0) {
      0 : a = (a * 31 + 100 * i + j + 1000) % 1000003;
      1 : b = (b * 37 + 100 * h + g) % 1000003;
    }
  for (int i = -3; i < 5; i++)
    for (int j = 0; j < i; j++)
      ra = (ra * 31 + 100 * i + j + 1000) % 1000003;
  for (int h = 0; h < 3; h++)
    for (int g = 0; g < n; g++)
      rb = (rb * 37 + 100 * h + g) % 1000003;
  printf("shape 4: multifor %ld %ld, reference %ld %ld\n", a, b, ra, rb);
  return a != ra || b != rb;
}

int main(void)
{
  return shape0() | shape1() | shape2() | shape3() | shape4();
}
