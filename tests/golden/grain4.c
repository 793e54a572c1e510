/* The paper's second header: grains 1 and 4. Where both loops run, four
 * i1 iterations run per i2 iteration; past i1's end only i2 runs, every
 * fourth referential point, so that part is compressed by 4. */
#include <stdio.h>

static long multifor_order(void)
{
  int i1, i2;
  long h = 3;
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_floord
#define polyc_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#endif
#ifndef polyc_ceild
#define polyc_ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#endif
  for (int i1 = 0; i1 <= 9; i1++) {
    h = (h * 31 + i1) % 1000003;
    for (int c3 = polyc_ceild(i1 + 40, 4); c3 <= polyc_floord(i1 + 40, 4); c3++)
      h = (h * 37 + c3) % 1000003;
  }
  for (int c1 = 12; c1 <= 16; c1 += 4)
    for (int c3 = polyc_ceild(c1 + 40, 4); c3 <= polyc_floord(c1 + 40, 4); c3++)
      h = (h * 37 + c3) % 1000003;
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
