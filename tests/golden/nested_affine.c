/* The paper's third nested header: the inner bound of the first nest is
 * affine in its outer index (a triangle), the second nest is a square
 * delayed by one outer iteration. */
#include <stdio.h>

static long multifor_order(void)
{
  int i1, i2, j1, j2;
  long h = 5;
  /* polyc: loops regenerated in the source's order */
  for (int j1 = 0; j1 <= 5; j1++)
    h = (h * 31 + 10 * 0 + j1) % 1000003;
  for (int i1 = 1; i1 <= 6; i1++) {
    for (int j1 = 0; j1 <= -i1 + 5; j1++) {
      h = (h * 31 + 10 * i1 + j1) % 1000003;
      h = (h * 37 + 10 * (i1 - 1) + j1) % 1000003;
    }
    for (int j2 = -i1 + 6; j2 <= 5; j2++)
      h = (h * 37 + 10 * (i1 - 1) + j2) % 1000003;
  }
  return h;
}

/* By hand: point (r, s) runs (i1, j1) = (r, s) when r < 6 and s < 6 - r,
 * then (i2, j2) = (r - 1, s) when 1 <= r < 7 and s < 6. */
static long reference_order(void)
{
  long h = 5;
  for (int r = 0; r < 7; r++)
    for (int s = 0; s < 6; s++) {
      if (r < 6 && s < 6 - r)
        h = (h * 31 + 10 * r + s) % 1000003;
      if (r >= 1)
        h = (h * 37 + 10 * (r - 1) + s) % 1000003;
    }
  return h;
}

int main(void)
{
  long m = multifor_order(), r = reference_order();
  printf("multifor %ld\nreference %ld\n", m, r);
  return m != r;
}
