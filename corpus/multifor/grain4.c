/* The paper's second header: grains 1 and 4. Where both loops run, four
 * i1 iterations run per i2 iteration; past i1's end only i2 runs, every
 * fourth referential point, so that part is compressed by 4. */
#include <stdio.h>

static long multifor_order(void)
{
  int i1, i2;
  long h = 3;
  multifor (i1 = 0, i2 = 10; i1 < 10, i2 < 15; i1++, i2++; 1, 4; 0, 0) {
    0 : h = (h * 31 + i1) % 1000003;
    1 : h = (h * 37 + i2) % 1000003;
  }
  return h;
}

/* By hand: referential point r runs i1 = r (r < 10), then i2 = 10 + r/4
 * when r is a multiple of 4 below 20. */
static long reference_order(void)
{
  long h = 3;
  for (int r = 0; r < 20; r++) {
    if (r < 10)
      h = (h * 31 + r) % 1000003;
    if (r % 4 == 0)
      h = (h * 37 + (10 + r / 4)) % 1000003;
  }
  return h;
}

int main(void)
{
  long m = multifor_order(), r = reference_order();
  printf("multifor %ld\nreference %ld\n", m, r);
  return m != r;
}
