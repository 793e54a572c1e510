/* The paper's first header: the second loop starts at the third
 * referential iteration (offset 2), with its own index value (i2 = 10).
 * Both loops fold their index into one running hash, so the hash
 * records the order in which the bodies ran. */
#include <stdio.h>

static long multifor_order(void)
{
  int i1, i2;
  long h = 7;
  /* polyc: loops regenerated in the source's order */
  for (int i1 = 0; i1 <= 1; i1++)
    h = (h * 31 + i1) % 1000003;
  for (int i1 = 2; i1 <= 6; i1++) {
    h = (h * 31 + i1) % 1000003;
    h = (h * 37 + (i1 + 8)) % 1000003;
  }
  for (int i1 = 7; i1 <= 9; i1++)
    h = (h * 31 + i1) % 1000003;
  return h;
}

/* The same order by hand: referential iteration r runs loop 0 where
 * 0 <= r < 10 (i1 = r) and then loop 1 where 2 <= r < 7 (i2 = r + 8). */
static long reference_order(void)
{
  long h = 7;
  for (int r = 0; r < 10; r++) {
    if (r < 10)
      h = (h * 31 + r) % 1000003;
    if (r >= 2 && r < 7)
      h = (h * 37 + (r + 8)) % 1000003;
  }
  return h;
}

int main(void)
{
  long m = multifor_order(), r = reference_order();
  printf("multifor %ld\nreference %ld\n", m, r);
  return m != r;
}
