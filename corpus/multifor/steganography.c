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
  multifor (i1 = 0, i2 = 0, i3 = 0, i4 = HW; i1 < HW, i2 < HW, i3 < HW, i4 < EW;
            i1++, i2++, i3++, i4++; 1, 1, 1, 1; 0, 0, 0, 0)
    multifor (j1 = 0, j2 = 0, j3 = HH, j4 = 0; j1 < HH, j2 < HH, j3 < EH, j4 < EH;
              j1++, j2++, j3++, j4++; 1, 1, 1, 1; 0, 0, 0, 0) {
      0 : hidden[i1][j1] = e[i1][j1] % 2;
      1 : plain[i2][j2] = e[i2][j2] - e[i2][j2] % 2;
      [2, 3] : plain[[i3, i4]][[j3, j4]] = e[[i3, i4]][[j3, j4]];
    }
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
