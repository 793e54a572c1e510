/* Recursive filters whose state lives in scalars, in the shapes a copy
   per row or per column must respect: a state reset for every column and
   carried down it (and read after the SCoP, a global); a state reset for
   every row, walked backwards; a state that one row hands on to the next
   (no copy per row can hold it); a state reset on even rows only; and a
   state reset before a row whose first step reads it twice. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>

#ifndef R
#define R 9
#endif
#ifndef C
#define C 11
#endif

static double img[R][C];
static double down[R][C];
static double back[R][C];
static double chained[R][C];
static double evens[R][C];
static double twice[R][C];
static double state_after;

static void filters(int r, int c)
{
  double prev, carry, mixed, held;
#pragma scop
  for (int j = 0; j < c; j++) {
    state_after = 0.5;
    prev = 0.0;
    for (int i = 0; i < r; i++) {
      down[i][j] = 0.3 * img[i][j] + 0.6 * state_after - 0.1 * prev;
      prev = state_after;
      state_after = down[i][j];
    }
  }
  for (int i = 0; i < r; i++) {
    prev = 1.0;
    for (int j = c - 1; j >= 0; j--) {
      back[i][j] = 0.5 * img[i][j] + 0.5 * prev;
      prev = back[i][j];
    }
  }
  carry = 0.0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++) {
      chained[i][j] = 0.25 * img[i][j] + 0.75 * carry;
      carry = chained[i][j];
    }
  mixed = 2.0;
  for (int i = 0; i < r; i++) {
    if (i % 2 == 0)
      mixed = 0.0;
    for (int j = 0; j < c; j++) {
      evens[i][j] = img[i][j] + 0.5 * mixed;
      mixed = evens[i][j];
    }
  }
  for (int i = 0; i < r; i++) {
    held = img[i][0];
    for (int j = 1; j < c; j++) {
      twice[i][j] = held * held - 0.5 * img[i][j];
      held = 0.5 * held + twice[i][j];
    }
  }
#pragma endscop
}

static void print(const char *name, double a[R][C])
{
  printf("%s\n", name);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      printf("%.17g\n", a[i][j]);
}

int main(void)
{
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      img[i][j] = (double)((i * 5 + j * 3) % 7) / 7.0 - 0.4;
  filters(R, C);
  print("down", down);
  print("back", back);
  print("chained", chained);
  print("evens", evens);
  print("twice", twice);
  printf("state_after %.17g\n", state_after);
  return 0;
}
