/* contractions: matrix products in the forms polyc computes on packed
   panels (a row factor over i and k, a column factor over k and j), with
   extents that leave partial register blocks, loops that start past 0,
   transposed and swapped factors, subtraction, float and int elements;
   triangles (syrk's shape, and syr2k's, two products summed); sums whose
   bounds depend on the row (trmm's shape, whose column factor reads rows
   of the target written later, and symm's); and one product whose nest
   also initialises and consumes its sums */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>

/* Benchmark timing hook (benches/runtime.rs): compiled with
   -DPOLYC_BENCH_TIME, main prints the kernel's wall time to stderr. */
#ifdef POLYC_BENCH_TIME
#include <time.h>
static struct timespec polyc_bench_t0, polyc_bench_t1;
#define POLYC_BENCH_START() clock_gettime(CLOCK_MONOTONIC, &polyc_bench_t0)
#define POLYC_BENCH_STOP()                                                   \
  (clock_gettime(CLOCK_MONOTONIC, &polyc_bench_t1),                          \
   fprintf(stderr, "polyc-bench-time: %.9f\n",                               \
           (double)(polyc_bench_t1.tv_sec - polyc_bench_t0.tv_sec)           \
               + 1e-9 * (double)(polyc_bench_t1.tv_nsec - polyc_bench_t0.tv_nsec)))
#else
#define POLYC_BENCH_START() ((void)0)
#define POLYC_BENCH_STOP() ((void)0)
#endif

#ifndef NI
#define NI 37
#endif
#ifndef NJ
#define NJ 29
#endif
#ifndef NK
#define NK 23
#endif
/* polyc-bench: -DNI=1000 -DNJ=1100 -DNK=1200 */

static double X[NI][NK];
static double Y[NK][NJ];
static double T[NK][NI];
static double V[NJ][NK];
static double P[NI][NJ];
static double Q[NI][NJ];
static double R[NI][NJ];
static double S[NI][NJ];
static double Out[NI][NJ];
static double L[NI][NJ];
static double U[NI][NJ];
static double W[NK][NJ];
static double Z[NI][NJ];
static float Fx[NI][NK];
static float Fy[NK][NJ];
static float Fp[NI][NJ];
static int Ix[NI][NK];
static int Iy[NK][NJ];
static int Ip[NI][NJ];

/* Print an output array: every element if the program's total output is
   small, otherwise the sum of all elements and every 97th element. */
static void print_array(const char *name, const double *a, long n, int all)
{
  long i;
  double s = 0.0;
  if (all) {
    printf("%s\n", name);
    for (i = 0; i < n; i++)
      printf("%.10e\n", a[i]);
    return;
  }
  for (i = 0; i < n; i++)
    s += a[i];
  printf("%s sum %.10e\n", name, s);
  for (i = 0; i < n; i += 97)
    printf("%.10e\n", a[i]);
}

static void init(void)
{
  int i, j, k;
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++) {
      X[i][k] = (double)((i * (k + 2) + 3) % 19) / 19.0;
      T[k][i] = (double)((i + 3 * k + 1) % 23) / 23.0;
      Fx[i][k] = (float)((i + k) % 7) / 7.0f;
      Ix[i][k] = (i * 3 + k) % 11 - 5;
    }
  for (k = 0; k < NK; k++)
    for (j = 0; j < NJ; j++) {
      Y[k][j] = (double)((k * (j + 1) + 2) % 13) / 13.0;
      W[k][j] = (double)((3 * k + j + 1) % 10) / 10.0;
      V[j][k] = (double)((2 * j + k + 5) % 17) / 17.0;
      Fy[k][j] = (float)((k * j + 1) % 5) / 5.0f;
      Iy[k][j] = (k + 2 * j) % 7 - 3;
    }
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      P[i][j] = (double)((i + j) % 9) / 9.0;
      Q[i][j] = (double)((i * j) % 5) / 5.0;
      R[i][j] = 1.0;
      Fp[i][j] = 0.5f;
      Ip[i][j] = i - j;
      L[i][j] = (double)(i % 4) / 4.0;
      U[i][j] = (double)(j % 3) / 3.0;
      Z[i][j] = (double)((i + 2 * j) % 6) / 6.0;
    }
}

static void kernel_contractions(double alpha)
{
  int i, j, k;
#pragma scop
  /* the first row and two columns stay as they are */
  for (i = 1; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 2; j < NJ; j++)
        P[i][j] += alpha * X[i][k] * Y[k][j];
  /* the column factor first, the row factor transposed */
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        Q[i][j] = Q[i][j] + Y[k][j] * T[k][i];
  /* subtracted, the column factor transposed */
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 1; k < NK; k++)
        R[i][j] -= X[i][k] * V[j][k];
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        Fp[i][j] += Fx[i][k] * Fy[k][j];
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        Ip[i][j] += Ix[i][k] * Iy[k][j];
  /* the lower triangle, the column factor transposed */
  for (i = 0; i < NJ; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j <= i; j++)
        L[i][j] += X[i][k] * V[j][k];
  /* the upper triangle, two products, the second subtracted */
  for (i = 0; i < NJ; i++)
    for (j = i; j < NJ; j++)
      for (k = 0; k < NK; k++)
        U[i][j] += X[i][k] * Y[k][j] - V[j][k] * alpha * X[i][k];
  /* the sum above the row; the column factor reads rows of the target
     that are written only later; each element is then scaled */
  for (i = 0; i < NK; i++)
    for (j = 0; j < NJ; j++) {
      for (k = i + 1; k < NK; k++)
        W[i][j] += T[k][i] * W[k][j];
      W[i][j] = alpha * W[i][j];
    }
  /* the sum below the row, two steps short of it */
  for (i = 0; i < NK; i++)
    for (k = 0; k < i - 1; k++)
      for (j = 0; j < NJ; j++)
        Z[i][j] -= alpha * X[i][k] * Y[k][j];
  /* each sum starts at 0 and is read right after it is complete */
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      S[i][j] = 0.0;
      for (k = 0; k < NK; k++)
        S[i][j] += X[i][k] * Y[k][j];
      Out[i][j] = S[i][j] * 0.5 + P[i][j];
    }
#pragma endscop
}

int main(void)
{
  long total = 11L * NI * NJ;
  int i, j;
  static double F[NI][NJ], I[NI][NJ];
  init();
  POLYC_BENCH_START();
  kernel_contractions(1.5);
  POLYC_BENCH_STOP();
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++) {
      F[i][j] = Fp[i][j];
      I[i][j] = Ip[i][j];
    }
  print_array("P", &P[0][0], (long)NI * NJ, total <= 4000);
  print_array("Q", &Q[0][0], (long)NI * NJ, total <= 4000);
  print_array("R", &R[0][0], (long)NI * NJ, total <= 4000);
  print_array("Fp", &F[0][0], (long)NI * NJ, total <= 4000);
  print_array("Ip", &I[0][0], (long)NI * NJ, total <= 4000);
  print_array("L", &L[0][0], (long)NI * NJ, total <= 4000);
  print_array("U", &U[0][0], (long)NI * NJ, total <= 4000);
  print_array("W", &W[0][0], (long)NK * NJ, total <= 4000);
  print_array("Z", &Z[0][0], (long)NI * NJ, total <= 4000);
  print_array("S", &S[0][0], (long)NI * NJ, total <= 4000);
  print_array("Out", &Out[0][0], (long)NI * NJ, total <= 4000);
  return 0;
}
