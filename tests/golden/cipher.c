/* A product cipher of two stages pipelined over the blocks (offset 1):
 * at each referential iteration, stage 1 encrypts block i while stage 2
 * encrypts block i - 1, which stage 1 finished one iteration earlier.
 * Stage 2 reads what stage 1 wrote, so `--parallel` keeps the two loops
 * interleaved (and says so). The multifor sits in a `#pragma scop`
 * region: lowered, it is a SCoP like any other. */
#include <stdio.h>

#define K 500

static long msg[K], c[K], ref_c[K];

static void multifor_encrypt(void)
{
  int i1, i2;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  if (K >= 1)
    c[0] = (msg[0] * 7919 + 104729) % 65521;
  for (int i1 = 1; i1 < K; i1++) {
    c[i1] = (msg[i1] * 7919 + 104729) % 65521;
    c[i1 - 1] = (c[i1 - 1] * 6007 + 15485863) % 65519;
  }
  if (K >= 1)
    c[K - 1] = (c[K - 1] * 6007 + 15485863) % 65519;
#pragma endscop
}

static void reference_encrypt(void)
{
  for (int i = 0; i < K; i++) {
    ref_c[i] = (msg[i] * 7919 + 104729) % 65521;
    ref_c[i] = (ref_c[i] * 6007 + 15485863) % 65519;
  }
}

int main(void)
{
  for (int i = 0; i < K; i++)
    msg[i] = (i * 2654435761L) % 4093;
  multifor_encrypt();
  reference_encrypt();
  long m = 0, r = 0;
  int differ = 0;
  for (int i = 0; i < K; i++) {
    m = (m * 31 + c[i]) % 1000000007;
    r = (r * 31 + ref_c[i]) % 1000000007;
    differ |= c[i] != ref_c[i];
  }
  printf("multifor %ld\nreference %ld\n", m, r);
  return differ;
}
