/* Steganography decoding with four simultaneous nests (the paper's
 * Figure 9): nest 0 extracts the hidden image from the low bits of the
 * enclosing one, nest 1 clears those bits where the hidden image lies,
 * nests 2 and 3 copy the rest of the enclosing image (their union is not
 * convex, hence two nests, written once with a prefix list and bracketed
 * index lists). */
#include <stdio.h>

#define EW 40
#define EH 30
#define HW 24
#define HH 18

static int e[EW][EH], hidden[EW][EH], plain[EW][EH], ref_hidden[EW][EH], ref_plain[EW][EH];

static void multifor_decode(void)
{
  int i1, i2, i3, i4, j1, j2, j3, j4;
  /* polyc: loops regenerated in the source's order */
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef polyc_max
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#endif
  for (int i1 = 0; i1 <= polyc_min(-HW + EW - 1, HW - 1); i1++) {
    for (int j1 = 0; j1 <= polyc_min(-HH + EH - 1, HH - 1); j1++) {
      hidden[i1][j1] = e[i1][j1] % 2;
      plain[i1][j1] = e[i1][j1] - e[i1][j1] % 2;
      plain[i1][j1 + HH] = e[i1][j1 + HH];
      plain[i1 + HW][j1] = e[i1 + HW][j1];
    }
    for (int j1 = polyc_max(-HH + EH, 0); j1 <= polyc_min(EH - 1, HH - 1); j1++) {
      hidden[i1][j1] = e[i1][j1] % 2;
      plain[i1][j1] = e[i1][j1] - e[i1][j1] % 2;
      plain[i1 + HW][j1] = e[i1 + HW][j1];
    }
    for (int j1 = polyc_max(EH, 0); j1 < HH; j1++) {
      hidden[i1][j1] = e[i1][j1] % 2;
      plain[i1][j1] = e[i1][j1] - e[i1][j1] % 2;
    }
    for (int j4 = polyc_max(0, HH); j4 <= polyc_min(-HH + EH - 1, EH - 1); j4++) {
      plain[i1][j4 + HH] = e[i1][j4 + HH];
      plain[i1 + HW][j4] = e[i1 + HW][j4];
    }
    for (int c3 = polyc_max(EH, 0); c3 < -HH + EH; c3++)
      plain[i1][c3 + HH] = e[i1][c3 + HH];
    for (int j4 = polyc_max(HH, -HH + EH); j4 < EH; j4++)
      plain[i1 + HW][j4] = e[i1 + HW][j4];
  }
  for (int i1 = polyc_max(0, -HW + EW); i1 < HW; i1++) {
    for (int j1 = 0; j1 <= polyc_min(-HH + EH - 1, HH - 1); j1++) {
      hidden[i1][j1] = e[i1][j1] % 2;
      plain[i1][j1] = e[i1][j1] - e[i1][j1] % 2;
      plain[i1][j1 + HH] = e[i1][j1 + HH];
    }
    for (int j1 = polyc_max(0, -HH + EH); j1 < HH; j1++) {
      hidden[i1][j1] = e[i1][j1] % 2;
      plain[i1][j1] = e[i1][j1] - e[i1][j1] % 2;
    }
    for (int c3 = polyc_max(HH, 0); c3 < -HH + EH; c3++)
      plain[i1][c3 + HH] = e[i1][c3 + HH];
  }
  for (int c1 = polyc_max(HW, 0); c1 < -HW + EW; c1++)
    for (int j4 = 0; j4 < EH; j4++)
      plain[c1 + HW][j4] = e[c1 + HW][j4];
}

static void reference_decode(void)
{
  for (int i = 0; i < EW; i++)
    for (int j = 0; j < EH; j++)
      if (i < HW && j < HH) {
        ref_hidden[i][j] = e[i][j] % 2;
        ref_plain[i][j] = e[i][j] - e[i][j] % 2;
      } else {
        ref_plain[i][j] = e[i][j];
      }
}

int main(void)
{
  for (int i = 0; i < EW; i++)
    for (int j = 0; j < EH; j++)
      e[i][j] = (i * 29 + j * 17 + i * j) % 256;
  multifor_decode();
  reference_decode();
  long m = 0, r = 0;
  int differ = 0;
  for (int i = 0; i < EW; i++)
    for (int j = 0; j < EH; j++) {
      m = (m * 257 + hidden[i][j] * 1000 + plain[i][j]) % 1000000007;
      r = (r * 257 + ref_hidden[i][j] * 1000 + ref_plain[i][j]) % 1000000007;
      differ |= hidden[i][j] != ref_hidden[i][j] || plain[i][j] != ref_plain[i][j];
    }
  printf("multifor %ld\nreference %ld\n", m, r);
  return differ;
}
