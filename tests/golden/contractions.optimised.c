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
  /* polyc: tiled 32x32x256, tiled 32x32x32, tiled 32x32x128, Z[i][j] summed on packed panels, P[i][j] summed on packed panels, U[i][j] summed on packed panels, Ip[i][j] summed on packed panels, W[i][j] summed on packed panels, R[i][j] summed on packed panels, S[i][j] summed on packed panels, Fp[i][j] summed on packed panels, Q[i][j] summed on packed panels, L[i][j] summed on packed panels, parallel (OpenMP), SIMD, unroll-and-jam by 4; with too little work, loops without tiles, on threads where a region's work pays; the source as written if a subscript may leave its array; undo: polyc --schedule=identity */
#ifndef polyc_floord
#define polyc_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#endif
#ifndef polyc_ceild
#define polyc_ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#endif
#ifndef polyc_min
#define polyc_min(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef polyc_max
#define polyc_max(x, y) ((x) > (y) ? (x) : (y))
#endif
#ifndef POLYC_MIN_WORK
#define POLYC_MIN_WORK 1e7
#endif
#ifndef POLYC_MIN_DATA
#define POLYC_MIN_DATA 4194304.0
#endif
#ifndef POLYC_MIN_REGION_WORK
#define POLYC_MIN_REGION_WORK 1e6
#endif
#ifndef POLYC_THREADS
#ifdef _OPENMP
#define POLYC_THREADS \
  __extension__({ extern int omp_get_max_threads(void); omp_get_max_threads(); })
#else
#define POLYC_THREADS 1
#endif
#endif
#ifndef POLYC_VECTOR_BYTES
#ifdef __BIGGEST_ALIGNMENT__
#define POLYC_VECTOR_BYTES __BIGGEST_ALIGNMENT__
#else
#define POLYC_VECTOR_BYTES 16
#endif
#endif
#ifndef POLYC_PACK_ROWS
#define POLYC_PACK_ROWS 96
#endif
#ifndef POLYC_PACK_DEPTH
#define POLYC_PACK_DEPTH 256
#endif
#ifndef polyc_pack_steps
#define polyc_pack_steps(size, shared) \
  (POLYC_PACK_DEPTH * 8 / ((size) > 8 ? (size) : 8) / (shared) > 0 \
   ? POLYC_PACK_DEPTH * 8 / ((size) > 8 ? (size) : 8) / (shared) : 1)
#endif
#ifndef POLYC_TEAM
#ifdef _OPENMP
#define POLYC_TEAM \
  __extension__({ extern int omp_get_num_threads(void); omp_get_num_threads(); })
#else
#define POLYC_TEAM 1
#endif
#endif
  if ((NK <= 0) || (NI >= NJ && NI >= NK && NK >= 1) || (NK >= NI + 2 && NK >= 1 && NJ <= 0) || (NK == NI + 1 && NI >= 0 && NI >= NJ && NI <= 1) || (NK == NI + 1 && NI >= 2 && NJ <= 0)) {
    if ((double)sizeof(P[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(X[0][0]) * (double)polyc_max(polyc_max(NI - 1, polyc_max(NJ - 1, NK - 1)) - (0) + 1, 0) * (double)polyc_max(NK, 0) + (double)sizeof(Y[0][0]) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Q[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(T[0][0]) * (double)polyc_max(NK, 0) * (double)polyc_max(polyc_max(NI - 1, NK - 2) - (0) + 1, 0) + (double)sizeof(R[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(V[0][0]) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) + (double)sizeof(Fp[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Fx[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NK, 0) + (double)sizeof(Fy[0][0]) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Ip[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Ix[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NK, 0) + (double)sizeof(Iy[0][0]) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(L[0][0]) * (double)polyc_max(NJ, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(U[0][0]) * (double)polyc_max(NJ, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(W[0][0]) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Z[0][0]) * (double)polyc_max(NK - 2, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(S[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)sizeof(Out[0][0]) * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_DATA || (double)polyc_max(NI - 1, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ - 2, 0) + 2 * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) + (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK - 1, 0) + 2 * (double)polyc_max(NI, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)polyc_max(NJ, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) + (double)polyc_max(NK - 1, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK - 1, 0) + (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) + (double)polyc_max(NK - 2, 0) * (double)polyc_max(NK - 2, 0) * (double)polyc_max(NJ, 0) + 2 * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_WORK) {
      /* the products summed into Z[i][j], on packed panels of their factors */
      {
        const long polyc_m = NK - 2;
        const long polyc_n = NJ;
        const long polyc_k = NK - 2;
        const long polyc_lo = -NK + 3;
        const long polyc_hi = 0;
        const int polyc_last_first = (polyc_k - 1 < polyc_m - 1 + polyc_hi ? polyc_k - 1 : polyc_m - 1 + polyc_hi) - (0 > polyc_m - 1 + polyc_lo ? 0 : polyc_m - 1 + polyc_lo) > (polyc_k - 1 < polyc_hi ? polyc_k - 1 : polyc_hi) - (0 > polyc_lo ? 0 : polyc_lo);
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(Z[2][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(alpha * X[2][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Y[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Y[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Y[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(alpha * X[2][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Y[k][j];
                #pragma omp for schedule(dynamic, 1)
                for (long polyc_block = 0; polyc_block < (polyc_m + polyc_mb - 1) / polyc_mb; polyc_block++) {
                  const long polyc_ic = (polyc_last_first ? (polyc_m + polyc_mb - 1) / polyc_mb - 1 - polyc_block : polyc_block) * polyc_mb;
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  if (polyc_pc + polyc_kn - 1 - polyc_ic < polyc_lo || polyc_pc - (polyc_ic + polyc_rows - 1) > polyc_hi)
                    continue;
                  for (int i = polyc_ic + 2; i < polyc_ic + polyc_rows + 2; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      if (-NK + 1 <= k - i && k - i <= -2)
                        polyc_a[(i - polyc_ic - 2) / polyc_mr][(k - polyc_pc)][(i - polyc_ic - 2) % polyc_mr] = alpha * X[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const long polyc_diagonal = polyc_pc - (polyc_ic + polyc_ir);
                      const long polyc_first = polyc_lo - polyc_diagonal < 0 ? 0 : polyc_lo - polyc_diagonal > polyc_kn ? polyc_kn : polyc_lo - polyc_diagonal;
                      const long polyc_last = polyc_hi - polyc_diagonal + polyc_mr < 0 ? 0 : polyc_hi - polyc_diagonal + polyc_mr > polyc_kn ? polyc_kn : polyc_hi - polyc_diagonal + polyc_mr;
                      const long polyc_from = polyc_lo - polyc_diagonal + polyc_mr - 1 < polyc_first ? polyc_first : polyc_lo - polyc_diagonal + polyc_mr - 1 > polyc_last ? polyc_last : polyc_lo - polyc_diagonal + polyc_mr - 1;
                      const long polyc_to = polyc_hi - polyc_diagonal + 1 < polyc_from ? polyc_from : polyc_hi - polyc_diagonal + 1 > polyc_last ? polyc_last : polyc_hi - polyc_diagonal + 1;
                      if (polyc_first >= polyc_last)
                        continue;
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][polyc_first];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][polyc_first];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(Z[2][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&Z[polyc_ic + polyc_ir + polyc_r + polyc_mr + 2][polyc_jr], 1);
                          __builtin_prefetch(&Z[polyc_ic + polyc_ir + polyc_r + polyc_mr + 2][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = Z[polyc_ic + polyc_ir + polyc_r + 2][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? Z[polyc_ic + polyc_ir + polyc_r + 2][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = polyc_first; polyc_p < polyc_from; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          if (polyc_lo <= polyc_p + polyc_diagonal - polyc_r && polyc_p + polyc_diagonal - polyc_r <= polyc_hi) {
                            #pragma omp simd
                            for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                              polyc_c[polyc_r][polyc_l] -= polyc_ap[polyc_r] * polyc_bp[polyc_l];
                          }
                      for (long polyc_p = polyc_from; polyc_p < polyc_to; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] -= polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      for (long polyc_p = polyc_to; polyc_p < polyc_last; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          if (polyc_lo <= polyc_p + polyc_diagonal - polyc_r && polyc_p + polyc_diagonal - polyc_r <= polyc_hi) {
                            #pragma omp simd
                            for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                              polyc_c[polyc_r][polyc_l] -= polyc_ap[polyc_r] * polyc_bp[polyc_l];
                          }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            Z[polyc_ic + polyc_ir + polyc_r + 2][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) Z[polyc_ic + polyc_ir + polyc_r + 2][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(dynamic)
            for (int c1 = 0; c1 <= polyc_floord(NK - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_min(polyc_floord(NK - 3, 32), c1); c2++) {
                if (NK >= 32 * c1 + 2 && c1 >= c2 + 2)
                  for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                    {
                      const int i_end = polyc_min(32 * c1 + 31, NK - 1);
                      int i = 32 * c1;
                      for (; i <= i_end - 7; i += 8)
                        {
                          const int k_end = 32 * c2 + 31;
                          int k = 32 * c2;
                          for (; k <= k_end - 3; k += 4)
                            {
                              const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                              if (256 * c3 <= j_end) {
                                const __typeof__(X[i][k]) polyc_X = X[i][k];
                                const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                                const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                                const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                                const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                                const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                                const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                                const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                                const __typeof__(X[i][k + 1]) polyc_X_8 = X[i][k + 1];
                                const __typeof__(X[i + 1][k + 1]) polyc_X_9 = X[i + 1][k + 1];
                                const __typeof__(X[i + 2][k + 1]) polyc_X_10 = X[i + 2][k + 1];
                                const __typeof__(X[i + 3][k + 1]) polyc_X_11 = X[i + 3][k + 1];
                                const __typeof__(X[i + 4][k + 1]) polyc_X_12 = X[i + 4][k + 1];
                                const __typeof__(X[i + 5][k + 1]) polyc_X_13 = X[i + 5][k + 1];
                                const __typeof__(X[i + 6][k + 1]) polyc_X_14 = X[i + 6][k + 1];
                                const __typeof__(X[i + 7][k + 1]) polyc_X_15 = X[i + 7][k + 1];
                                const __typeof__(X[i][k + 2]) polyc_X_16 = X[i][k + 2];
                                const __typeof__(X[i + 1][k + 2]) polyc_X_17 = X[i + 1][k + 2];
                                const __typeof__(X[i + 2][k + 2]) polyc_X_18 = X[i + 2][k + 2];
                                const __typeof__(X[i + 3][k + 2]) polyc_X_19 = X[i + 3][k + 2];
                                const __typeof__(X[i + 4][k + 2]) polyc_X_20 = X[i + 4][k + 2];
                                const __typeof__(X[i + 5][k + 2]) polyc_X_21 = X[i + 5][k + 2];
                                const __typeof__(X[i + 6][k + 2]) polyc_X_22 = X[i + 6][k + 2];
                                const __typeof__(X[i + 7][k + 2]) polyc_X_23 = X[i + 7][k + 2];
                                const __typeof__(X[i][k + 3]) polyc_X_24 = X[i][k + 3];
                                const __typeof__(X[i + 1][k + 3]) polyc_X_25 = X[i + 1][k + 3];
                                const __typeof__(X[i + 2][k + 3]) polyc_X_26 = X[i + 2][k + 3];
                                const __typeof__(X[i + 3][k + 3]) polyc_X_27 = X[i + 3][k + 3];
                                const __typeof__(X[i + 4][k + 3]) polyc_X_28 = X[i + 4][k + 3];
                                const __typeof__(X[i + 5][k + 3]) polyc_X_29 = X[i + 5][k + 3];
                                const __typeof__(X[i + 6][k + 3]) polyc_X_30 = X[i + 6][k + 3];
                                const __typeof__(X[i + 7][k + 3]) polyc_X_31 = X[i + 7][k + 3];
                                #pragma omp simd
                                for (int j = 256 * c3; j <= j_end; j++) {
                                  __typeof__(Z[i][j]) polyc_Z = Z[i][j];
                                  __typeof__(Z[i + 1][j]) polyc_Z_1 = Z[i + 1][j];
                                  __typeof__(Z[i + 2][j]) polyc_Z_2 = Z[i + 2][j];
                                  __typeof__(Z[i + 3][j]) polyc_Z_3 = Z[i + 3][j];
                                  __typeof__(Z[i + 4][j]) polyc_Z_4 = Z[i + 4][j];
                                  __typeof__(Z[i + 5][j]) polyc_Z_5 = Z[i + 5][j];
                                  __typeof__(Z[i + 6][j]) polyc_Z_6 = Z[i + 6][j];
                                  __typeof__(Z[i + 7][j]) polyc_Z_7 = Z[i + 7][j];
                                  polyc_Z -= alpha * polyc_X * Y[k][j];
                                  polyc_Z_1 -= alpha * polyc_X_1 * Y[k][j];
                                  polyc_Z_2 -= alpha * polyc_X_2 * Y[k][j];
                                  polyc_Z_3 -= alpha * polyc_X_3 * Y[k][j];
                                  polyc_Z_4 -= alpha * polyc_X_4 * Y[k][j];
                                  polyc_Z_5 -= alpha * polyc_X_5 * Y[k][j];
                                  polyc_Z_6 -= alpha * polyc_X_6 * Y[k][j];
                                  polyc_Z_7 -= alpha * polyc_X_7 * Y[k][j];
                                  polyc_Z -= alpha * polyc_X_8 * Y[k + 1][j];
                                  polyc_Z_1 -= alpha * polyc_X_9 * Y[k + 1][j];
                                  polyc_Z_2 -= alpha * polyc_X_10 * Y[k + 1][j];
                                  polyc_Z_3 -= alpha * polyc_X_11 * Y[k + 1][j];
                                  polyc_Z_4 -= alpha * polyc_X_12 * Y[k + 1][j];
                                  polyc_Z_5 -= alpha * polyc_X_13 * Y[k + 1][j];
                                  polyc_Z_6 -= alpha * polyc_X_14 * Y[k + 1][j];
                                  polyc_Z_7 -= alpha * polyc_X_15 * Y[k + 1][j];
                                  polyc_Z -= alpha * polyc_X_16 * Y[k + 2][j];
                                  polyc_Z_1 -= alpha * polyc_X_17 * Y[k + 2][j];
                                  polyc_Z_2 -= alpha * polyc_X_18 * Y[k + 2][j];
                                  polyc_Z_3 -= alpha * polyc_X_19 * Y[k + 2][j];
                                  polyc_Z_4 -= alpha * polyc_X_20 * Y[k + 2][j];
                                  polyc_Z_5 -= alpha * polyc_X_21 * Y[k + 2][j];
                                  polyc_Z_6 -= alpha * polyc_X_22 * Y[k + 2][j];
                                  polyc_Z_7 -= alpha * polyc_X_23 * Y[k + 2][j];
                                  polyc_Z -= alpha * polyc_X_24 * Y[k + 3][j];
                                  polyc_Z_1 -= alpha * polyc_X_25 * Y[k + 3][j];
                                  polyc_Z_2 -= alpha * polyc_X_26 * Y[k + 3][j];
                                  polyc_Z_3 -= alpha * polyc_X_27 * Y[k + 3][j];
                                  polyc_Z_4 -= alpha * polyc_X_28 * Y[k + 3][j];
                                  polyc_Z_5 -= alpha * polyc_X_29 * Y[k + 3][j];
                                  polyc_Z_6 -= alpha * polyc_X_30 * Y[k + 3][j];
                                  polyc_Z_7 -= alpha * polyc_X_31 * Y[k + 3][j];
                                  Z[i][j] = polyc_Z;
                                  Z[i + 1][j] = polyc_Z_1;
                                  Z[i + 2][j] = polyc_Z_2;
                                  Z[i + 3][j] = polyc_Z_3;
                                  Z[i + 4][j] = polyc_Z_4;
                                  Z[i + 5][j] = polyc_Z_5;
                                  Z[i + 6][j] = polyc_Z_6;
                                  Z[i + 7][j] = polyc_Z_7;
                                }
                              }
                            }
                          for (; k <= k_end; k++)
                            {
                              const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                              if (256 * c3 <= j_end) {
                                const __typeof__(X[i][k]) polyc_X = X[i][k];
                                const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                                const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                                const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                                const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                                const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                                const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                                const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                                #pragma omp simd
                                for (int j = 256 * c3; j <= j_end; j++) {
                                  Z[i][j] -= alpha * polyc_X * Y[k][j];
                                  Z[i + 1][j] -= alpha * polyc_X_1 * Y[k][j];
                                  Z[i + 2][j] -= alpha * polyc_X_2 * Y[k][j];
                                  Z[i + 3][j] -= alpha * polyc_X_3 * Y[k][j];
                                  Z[i + 4][j] -= alpha * polyc_X_4 * Y[k][j];
                                  Z[i + 5][j] -= alpha * polyc_X_5 * Y[k][j];
                                  Z[i + 6][j] -= alpha * polyc_X_6 * Y[k][j];
                                  Z[i + 7][j] -= alpha * polyc_X_7 * Y[k][j];
                                }
                              }
                            }
                        }
                      for (; i <= i_end; i++)
                        {
                          const int k_end = 32 * c2 + 31;
                          int k = 32 * c2;
                          for (; k <= k_end - 3; k += 4)
                            {
                              const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                              if (256 * c3 <= j_end) {
                                const __typeof__(X[i][k]) polyc_X = X[i][k];
                                const __typeof__(X[i][k + 1]) polyc_X_1 = X[i][k + 1];
                                const __typeof__(X[i][k + 2]) polyc_X_2 = X[i][k + 2];
                                const __typeof__(X[i][k + 3]) polyc_X_3 = X[i][k + 3];
                                #pragma omp simd
                                for (int j = 256 * c3; j <= j_end; j++) {
                                  __typeof__(Z[i][j]) polyc_Z = Z[i][j];
                                  polyc_Z -= alpha * polyc_X * Y[k][j];
                                  polyc_Z -= alpha * polyc_X_1 * Y[k + 1][j];
                                  polyc_Z -= alpha * polyc_X_2 * Y[k + 2][j];
                                  polyc_Z -= alpha * polyc_X_3 * Y[k + 3][j];
                                  Z[i][j] = polyc_Z;
                                }
                              }
                            }
                          for (; k <= k_end; k++)
                            {
                              const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                              if (256 * c3 <= j_end) {
                                const __typeof__(X[i][k]) polyc_X = X[i][k];
                                #pragma omp simd
                                for (int j = 256 * c3; j <= j_end; j++)
                                  Z[i][j] -= alpha * polyc_X * Y[k][j];
                              }
                            }
                        }
                    }
                if (NK >= 32 * c1 + 2 && c2 >= c1 - 1)
                  for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                    for (int i = polyc_max(32 * c1, 32 * c2 + 2); i <= polyc_min(NK - 1, 32 * c1 + 31); i++)
                      {
                        const int k_end = polyc_min(i - 2, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(NJ - 1, 256 * c3 + 255);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i][k + 1]) polyc_X_1 = X[i][k + 1];
                              const __typeof__(X[i][k + 2]) polyc_X_2 = X[i][k + 2];
                              const __typeof__(X[i][k + 3]) polyc_X_3 = X[i][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Z[i][j]) polyc_Z = Z[i][j];
                                polyc_Z -= alpha * polyc_X * Y[k][j];
                                polyc_Z -= alpha * polyc_X_1 * Y[k + 1][j];
                                polyc_Z -= alpha * polyc_X_2 * Y[k + 2][j];
                                polyc_Z -= alpha * polyc_X_3 * Y[k + 3][j];
                                Z[i][j] = polyc_Z;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(NJ - 1, 256 * c3 + 255);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++)
                                Z[i][j] -= alpha * polyc_X * Y[k][j];
                            }
                          }
                      }
                if (32 * c1 == NK - 1)
                  for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                    {
                      const int k_end = polyc_min(NK - 3, 32 * c2 + 31);
                      int k = 32 * c2;
                      for (; k <= k_end - 3; k += 4)
                        {
                          const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                          if (256 * c3 <= j_end) {
                            const __typeof__(X[NK - 1][k]) polyc_X = X[NK - 1][k];
                            const __typeof__(X[NK - 1][k + 1]) polyc_X_1 = X[NK - 1][k + 1];
                            const __typeof__(X[NK - 1][k + 2]) polyc_X_2 = X[NK - 1][k + 2];
                            const __typeof__(X[NK - 1][k + 3]) polyc_X_3 = X[NK - 1][k + 3];
                            #pragma omp simd
                            for (int j = 256 * c3; j <= j_end; j++) {
                              __typeof__(Z[NK - 1][j]) polyc_Z = Z[NK - 1][j];
                              polyc_Z -= alpha * polyc_X * Y[k][j];
                              polyc_Z -= alpha * polyc_X_1 * Y[k + 1][j];
                              polyc_Z -= alpha * polyc_X_2 * Y[k + 2][j];
                              polyc_Z -= alpha * polyc_X_3 * Y[k + 3][j];
                              Z[NK - 1][j] = polyc_Z;
                            }
                          }
                        }
                      for (; k <= k_end; k++)
                        {
                          const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                          if (256 * c3 <= j_end) {
                            const __typeof__(X[NK - 1][k]) polyc_X = X[NK - 1][k];
                            #pragma omp simd
                            for (int j = 256 * c3; j <= j_end; j++)
                              Z[NK - 1][j] -= alpha * polyc_X * Y[k][j];
                          }
                        }
                    }
              }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into P[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI - 1;
        const long polyc_n = NJ - 2;
        const long polyc_k = NK;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(P[1][2])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(alpha * X[1][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Y[0][2]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Y[0][2]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Y[0][2])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(alpha * X[1][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 2; j <= NJ - 1; j++)
                    polyc_b[(j - 2) / polyc_nr][(k - polyc_pc)][(j - 2) % polyc_nr] = Y[k][j];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic + 1; i < polyc_ic + polyc_rows + 1; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      polyc_a[(i - polyc_ic - 1) / polyc_mr][(k - polyc_pc)][(i - polyc_ic - 1) % polyc_mr] = alpha * X[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(P[1][2]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&P[polyc_ic + polyc_ir + polyc_r + polyc_mr + 1][polyc_jr + 2], 1);
                          __builtin_prefetch(&P[polyc_ic + polyc_ir + polyc_r + polyc_mr + 1][polyc_jr + polyc_nr + 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = P[polyc_ic + polyc_ir + polyc_r + 1][polyc_jr + polyc_l + 2];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? P[polyc_ic + polyc_ir + polyc_r + 1][polyc_jr + polyc_l + 2] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            P[polyc_ic + polyc_ir + polyc_r + 1][polyc_jr + polyc_l + 2] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) P[polyc_ic + polyc_ir + polyc_r + 1][polyc_jr + polyc_l + 2] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                  {
                    const int i_end = polyc_min(32 * c1 + 31, NI - 1);
                    int i = polyc_max(32 * c1, 1);
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (polyc_max(256 * c3, 2) <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                              const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                              const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                              const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                              const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                              const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                              const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                              const __typeof__(X[i][k + 1]) polyc_X_8 = X[i][k + 1];
                              const __typeof__(X[i + 1][k + 1]) polyc_X_9 = X[i + 1][k + 1];
                              const __typeof__(X[i + 2][k + 1]) polyc_X_10 = X[i + 2][k + 1];
                              const __typeof__(X[i + 3][k + 1]) polyc_X_11 = X[i + 3][k + 1];
                              const __typeof__(X[i + 4][k + 1]) polyc_X_12 = X[i + 4][k + 1];
                              const __typeof__(X[i + 5][k + 1]) polyc_X_13 = X[i + 5][k + 1];
                              const __typeof__(X[i + 6][k + 1]) polyc_X_14 = X[i + 6][k + 1];
                              const __typeof__(X[i + 7][k + 1]) polyc_X_15 = X[i + 7][k + 1];
                              const __typeof__(X[i][k + 2]) polyc_X_16 = X[i][k + 2];
                              const __typeof__(X[i + 1][k + 2]) polyc_X_17 = X[i + 1][k + 2];
                              const __typeof__(X[i + 2][k + 2]) polyc_X_18 = X[i + 2][k + 2];
                              const __typeof__(X[i + 3][k + 2]) polyc_X_19 = X[i + 3][k + 2];
                              const __typeof__(X[i + 4][k + 2]) polyc_X_20 = X[i + 4][k + 2];
                              const __typeof__(X[i + 5][k + 2]) polyc_X_21 = X[i + 5][k + 2];
                              const __typeof__(X[i + 6][k + 2]) polyc_X_22 = X[i + 6][k + 2];
                              const __typeof__(X[i + 7][k + 2]) polyc_X_23 = X[i + 7][k + 2];
                              const __typeof__(X[i][k + 3]) polyc_X_24 = X[i][k + 3];
                              const __typeof__(X[i + 1][k + 3]) polyc_X_25 = X[i + 1][k + 3];
                              const __typeof__(X[i + 2][k + 3]) polyc_X_26 = X[i + 2][k + 3];
                              const __typeof__(X[i + 3][k + 3]) polyc_X_27 = X[i + 3][k + 3];
                              const __typeof__(X[i + 4][k + 3]) polyc_X_28 = X[i + 4][k + 3];
                              const __typeof__(X[i + 5][k + 3]) polyc_X_29 = X[i + 5][k + 3];
                              const __typeof__(X[i + 6][k + 3]) polyc_X_30 = X[i + 6][k + 3];
                              const __typeof__(X[i + 7][k + 3]) polyc_X_31 = X[i + 7][k + 3];
                              #pragma omp simd
                              for (int j = polyc_max(256 * c3, 2); j <= j_end; j++) {
                                __typeof__(P[i][j]) polyc_P = P[i][j];
                                __typeof__(P[i + 1][j]) polyc_P_1 = P[i + 1][j];
                                __typeof__(P[i + 2][j]) polyc_P_2 = P[i + 2][j];
                                __typeof__(P[i + 3][j]) polyc_P_3 = P[i + 3][j];
                                __typeof__(P[i + 4][j]) polyc_P_4 = P[i + 4][j];
                                __typeof__(P[i + 5][j]) polyc_P_5 = P[i + 5][j];
                                __typeof__(P[i + 6][j]) polyc_P_6 = P[i + 6][j];
                                __typeof__(P[i + 7][j]) polyc_P_7 = P[i + 7][j];
                                polyc_P += alpha * polyc_X * Y[k][j];
                                polyc_P_1 += alpha * polyc_X_1 * Y[k][j];
                                polyc_P_2 += alpha * polyc_X_2 * Y[k][j];
                                polyc_P_3 += alpha * polyc_X_3 * Y[k][j];
                                polyc_P_4 += alpha * polyc_X_4 * Y[k][j];
                                polyc_P_5 += alpha * polyc_X_5 * Y[k][j];
                                polyc_P_6 += alpha * polyc_X_6 * Y[k][j];
                                polyc_P_7 += alpha * polyc_X_7 * Y[k][j];
                                polyc_P += alpha * polyc_X_8 * Y[k + 1][j];
                                polyc_P_1 += alpha * polyc_X_9 * Y[k + 1][j];
                                polyc_P_2 += alpha * polyc_X_10 * Y[k + 1][j];
                                polyc_P_3 += alpha * polyc_X_11 * Y[k + 1][j];
                                polyc_P_4 += alpha * polyc_X_12 * Y[k + 1][j];
                                polyc_P_5 += alpha * polyc_X_13 * Y[k + 1][j];
                                polyc_P_6 += alpha * polyc_X_14 * Y[k + 1][j];
                                polyc_P_7 += alpha * polyc_X_15 * Y[k + 1][j];
                                polyc_P += alpha * polyc_X_16 * Y[k + 2][j];
                                polyc_P_1 += alpha * polyc_X_17 * Y[k + 2][j];
                                polyc_P_2 += alpha * polyc_X_18 * Y[k + 2][j];
                                polyc_P_3 += alpha * polyc_X_19 * Y[k + 2][j];
                                polyc_P_4 += alpha * polyc_X_20 * Y[k + 2][j];
                                polyc_P_5 += alpha * polyc_X_21 * Y[k + 2][j];
                                polyc_P_6 += alpha * polyc_X_22 * Y[k + 2][j];
                                polyc_P_7 += alpha * polyc_X_23 * Y[k + 2][j];
                                polyc_P += alpha * polyc_X_24 * Y[k + 3][j];
                                polyc_P_1 += alpha * polyc_X_25 * Y[k + 3][j];
                                polyc_P_2 += alpha * polyc_X_26 * Y[k + 3][j];
                                polyc_P_3 += alpha * polyc_X_27 * Y[k + 3][j];
                                polyc_P_4 += alpha * polyc_X_28 * Y[k + 3][j];
                                polyc_P_5 += alpha * polyc_X_29 * Y[k + 3][j];
                                polyc_P_6 += alpha * polyc_X_30 * Y[k + 3][j];
                                polyc_P_7 += alpha * polyc_X_31 * Y[k + 3][j];
                                P[i][j] = polyc_P;
                                P[i + 1][j] = polyc_P_1;
                                P[i + 2][j] = polyc_P_2;
                                P[i + 3][j] = polyc_P_3;
                                P[i + 4][j] = polyc_P_4;
                                P[i + 5][j] = polyc_P_5;
                                P[i + 6][j] = polyc_P_6;
                                P[i + 7][j] = polyc_P_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (polyc_max(256 * c3, 2) <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                              const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                              const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                              const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                              const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                              const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                              const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                              #pragma omp simd
                              for (int j = polyc_max(256 * c3, 2); j <= j_end; j++) {
                                P[i][j] += alpha * polyc_X * Y[k][j];
                                P[i + 1][j] += alpha * polyc_X_1 * Y[k][j];
                                P[i + 2][j] += alpha * polyc_X_2 * Y[k][j];
                                P[i + 3][j] += alpha * polyc_X_3 * Y[k][j];
                                P[i + 4][j] += alpha * polyc_X_4 * Y[k][j];
                                P[i + 5][j] += alpha * polyc_X_5 * Y[k][j];
                                P[i + 6][j] += alpha * polyc_X_6 * Y[k][j];
                                P[i + 7][j] += alpha * polyc_X_7 * Y[k][j];
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (polyc_max(256 * c3, 2) <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i][k + 1]) polyc_X_1 = X[i][k + 1];
                              const __typeof__(X[i][k + 2]) polyc_X_2 = X[i][k + 2];
                              const __typeof__(X[i][k + 3]) polyc_X_3 = X[i][k + 3];
                              #pragma omp simd
                              for (int j = polyc_max(256 * c3, 2); j <= j_end; j++) {
                                __typeof__(P[i][j]) polyc_P = P[i][j];
                                polyc_P += alpha * polyc_X * Y[k][j];
                                polyc_P += alpha * polyc_X_1 * Y[k + 1][j];
                                polyc_P += alpha * polyc_X_2 * Y[k + 2][j];
                                polyc_P += alpha * polyc_X_3 * Y[k + 3][j];
                                P[i][j] = polyc_P;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (polyc_max(256 * c3, 2) <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              #pragma omp simd
                              for (int j = polyc_max(256 * c3, 2); j <= j_end; j++)
                                P[i][j] += alpha * polyc_X * Y[k][j];
                            }
                          }
                      }
                  }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into U[i][j], on packed panels of their factors */
      {
        const long polyc_m = NJ;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        const long polyc_lo = 0;
        const long polyc_hi = NJ - 1;
        const int polyc_last_first = (polyc_n - 1 < polyc_m - 1 + polyc_hi ? polyc_n - 1 : polyc_m - 1 + polyc_hi) - (0 > polyc_m - 1 + polyc_lo ? 0 : polyc_m - 1 + polyc_lo) > (polyc_n - 1 < polyc_hi ? polyc_n - 1 : polyc_hi) - (0 > polyc_lo ? 0 : polyc_lo);
        enum { polyc_mr = 3, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(U[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(X[0][0]))), 2), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Y[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Y[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          void *polyc_b2_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(V[0][0] * alpha))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b2_memory = __builtin_malloc(sizeof(__typeof__(+(V[0][0] * alpha))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory && polyc_b2_memory) {
            __typeof__(+(Y[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            __typeof__(+(V[0][0] * alpha)) (*restrict polyc_b2)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b2_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b2[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(X[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              __typeof__(+(X[0][0])) polyc_a2[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                  {
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Y[k][j];
                    polyc_b2[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = V[j][k] * alpha;
                  }
                #pragma omp for schedule(dynamic, 1)
                for (long polyc_block = 0; polyc_block < (polyc_m + polyc_mb - 1) / polyc_mb; polyc_block++) {
                  const long polyc_ic = (polyc_last_first ? (polyc_m + polyc_mb - 1) / polyc_mb - 1 - polyc_block : polyc_block) * polyc_mb;
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                    {
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = X[i][k];
                      polyc_a2[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = X[i][k];
                    }
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a2[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const long polyc_diagonal = polyc_jr - (polyc_ic + polyc_ir);
                      if (polyc_diagonal + polyc_nr - 1 < polyc_lo || polyc_diagonal - (polyc_mr - 1) > polyc_hi)
                        continue;
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const __typeof__(polyc_a2[0][0][0]) *polyc_ap2 = polyc_a2[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b2[0][0][0]) *polyc_bp2 = polyc_b2[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n && polyc_diagonal - (polyc_mr - 1) >= polyc_lo && polyc_diagonal + polyc_nr - 1 <= polyc_hi;
                      __typeof__(U[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n && polyc_diagonal - polyc_mr - (polyc_mr - 1) >= polyc_lo && polyc_diagonal - polyc_mr + polyc_nr - 1 <= polyc_hi)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&U[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&U[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = U[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n && polyc_lo <= polyc_diagonal + polyc_l - polyc_r && polyc_diagonal + polyc_l - polyc_r <= polyc_hi ? U[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr, polyc_ap2 += polyc_mr, polyc_bp2 += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l] - polyc_ap2[polyc_r] * polyc_bp2[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            U[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n && polyc_lo <= polyc_diagonal + polyc_l - polyc_r && polyc_diagonal + polyc_l - polyc_r <= polyc_hi) U[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(dynamic)
            for (int c1 = 0; c1 <= polyc_floord(NJ - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = c1; c3 <= polyc_floord(NJ - 1, 32); c3++)
                  for (int i = 32 * c1; i <= polyc_min(32 * c1 + 31, NJ - 1); i++)
                    for (int k = 32 * c2; k <= polyc_min(NK - 1, 32 * c2 + 31); k++)
                      for (int j = polyc_max(i, 32 * c3); j <= polyc_min(32 * c3 + 31, NJ - 1); j++)
                        U[i][j] += X[i][k] * Y[k][j] - V[j][k] * alpha * X[i][k];
          }
          __builtin_free(polyc_b_memory);
          __builtin_free(polyc_b2_memory);
        }
      }
      /* the products summed into Ip[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(Ip[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(Ix[0][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Iy[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Iy[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Iy[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(Ix[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Iy[k][j];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = Ix[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(Ip[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&Ip[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&Ip[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = Ip[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? Ip[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            Ip[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) Ip[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                  {
                    const int i_end = polyc_min(32 * c1 + 31, NI - 1);
                    int i = 32 * c1;
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
                              const __typeof__(Ix[i + 1][k]) polyc_Ix_1 = Ix[i + 1][k];
                              const __typeof__(Ix[i + 2][k]) polyc_Ix_2 = Ix[i + 2][k];
                              const __typeof__(Ix[i + 3][k]) polyc_Ix_3 = Ix[i + 3][k];
                              const __typeof__(Ix[i + 4][k]) polyc_Ix_4 = Ix[i + 4][k];
                              const __typeof__(Ix[i + 5][k]) polyc_Ix_5 = Ix[i + 5][k];
                              const __typeof__(Ix[i + 6][k]) polyc_Ix_6 = Ix[i + 6][k];
                              const __typeof__(Ix[i + 7][k]) polyc_Ix_7 = Ix[i + 7][k];
                              const __typeof__(Ix[i][k + 1]) polyc_Ix_8 = Ix[i][k + 1];
                              const __typeof__(Ix[i + 1][k + 1]) polyc_Ix_9 = Ix[i + 1][k + 1];
                              const __typeof__(Ix[i + 2][k + 1]) polyc_Ix_10 = Ix[i + 2][k + 1];
                              const __typeof__(Ix[i + 3][k + 1]) polyc_Ix_11 = Ix[i + 3][k + 1];
                              const __typeof__(Ix[i + 4][k + 1]) polyc_Ix_12 = Ix[i + 4][k + 1];
                              const __typeof__(Ix[i + 5][k + 1]) polyc_Ix_13 = Ix[i + 5][k + 1];
                              const __typeof__(Ix[i + 6][k + 1]) polyc_Ix_14 = Ix[i + 6][k + 1];
                              const __typeof__(Ix[i + 7][k + 1]) polyc_Ix_15 = Ix[i + 7][k + 1];
                              const __typeof__(Ix[i][k + 2]) polyc_Ix_16 = Ix[i][k + 2];
                              const __typeof__(Ix[i + 1][k + 2]) polyc_Ix_17 = Ix[i + 1][k + 2];
                              const __typeof__(Ix[i + 2][k + 2]) polyc_Ix_18 = Ix[i + 2][k + 2];
                              const __typeof__(Ix[i + 3][k + 2]) polyc_Ix_19 = Ix[i + 3][k + 2];
                              const __typeof__(Ix[i + 4][k + 2]) polyc_Ix_20 = Ix[i + 4][k + 2];
                              const __typeof__(Ix[i + 5][k + 2]) polyc_Ix_21 = Ix[i + 5][k + 2];
                              const __typeof__(Ix[i + 6][k + 2]) polyc_Ix_22 = Ix[i + 6][k + 2];
                              const __typeof__(Ix[i + 7][k + 2]) polyc_Ix_23 = Ix[i + 7][k + 2];
                              const __typeof__(Ix[i][k + 3]) polyc_Ix_24 = Ix[i][k + 3];
                              const __typeof__(Ix[i + 1][k + 3]) polyc_Ix_25 = Ix[i + 1][k + 3];
                              const __typeof__(Ix[i + 2][k + 3]) polyc_Ix_26 = Ix[i + 2][k + 3];
                              const __typeof__(Ix[i + 3][k + 3]) polyc_Ix_27 = Ix[i + 3][k + 3];
                              const __typeof__(Ix[i + 4][k + 3]) polyc_Ix_28 = Ix[i + 4][k + 3];
                              const __typeof__(Ix[i + 5][k + 3]) polyc_Ix_29 = Ix[i + 5][k + 3];
                              const __typeof__(Ix[i + 6][k + 3]) polyc_Ix_30 = Ix[i + 6][k + 3];
                              const __typeof__(Ix[i + 7][k + 3]) polyc_Ix_31 = Ix[i + 7][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Ip[i][j]) polyc_Ip = Ip[i][j];
                                __typeof__(Ip[i + 1][j]) polyc_Ip_1 = Ip[i + 1][j];
                                __typeof__(Ip[i + 2][j]) polyc_Ip_2 = Ip[i + 2][j];
                                __typeof__(Ip[i + 3][j]) polyc_Ip_3 = Ip[i + 3][j];
                                __typeof__(Ip[i + 4][j]) polyc_Ip_4 = Ip[i + 4][j];
                                __typeof__(Ip[i + 5][j]) polyc_Ip_5 = Ip[i + 5][j];
                                __typeof__(Ip[i + 6][j]) polyc_Ip_6 = Ip[i + 6][j];
                                __typeof__(Ip[i + 7][j]) polyc_Ip_7 = Ip[i + 7][j];
                                polyc_Ip += polyc_Ix * Iy[k][j];
                                polyc_Ip_1 += polyc_Ix_1 * Iy[k][j];
                                polyc_Ip_2 += polyc_Ix_2 * Iy[k][j];
                                polyc_Ip_3 += polyc_Ix_3 * Iy[k][j];
                                polyc_Ip_4 += polyc_Ix_4 * Iy[k][j];
                                polyc_Ip_5 += polyc_Ix_5 * Iy[k][j];
                                polyc_Ip_6 += polyc_Ix_6 * Iy[k][j];
                                polyc_Ip_7 += polyc_Ix_7 * Iy[k][j];
                                polyc_Ip += polyc_Ix_8 * Iy[k + 1][j];
                                polyc_Ip_1 += polyc_Ix_9 * Iy[k + 1][j];
                                polyc_Ip_2 += polyc_Ix_10 * Iy[k + 1][j];
                                polyc_Ip_3 += polyc_Ix_11 * Iy[k + 1][j];
                                polyc_Ip_4 += polyc_Ix_12 * Iy[k + 1][j];
                                polyc_Ip_5 += polyc_Ix_13 * Iy[k + 1][j];
                                polyc_Ip_6 += polyc_Ix_14 * Iy[k + 1][j];
                                polyc_Ip_7 += polyc_Ix_15 * Iy[k + 1][j];
                                polyc_Ip += polyc_Ix_16 * Iy[k + 2][j];
                                polyc_Ip_1 += polyc_Ix_17 * Iy[k + 2][j];
                                polyc_Ip_2 += polyc_Ix_18 * Iy[k + 2][j];
                                polyc_Ip_3 += polyc_Ix_19 * Iy[k + 2][j];
                                polyc_Ip_4 += polyc_Ix_20 * Iy[k + 2][j];
                                polyc_Ip_5 += polyc_Ix_21 * Iy[k + 2][j];
                                polyc_Ip_6 += polyc_Ix_22 * Iy[k + 2][j];
                                polyc_Ip_7 += polyc_Ix_23 * Iy[k + 2][j];
                                polyc_Ip += polyc_Ix_24 * Iy[k + 3][j];
                                polyc_Ip_1 += polyc_Ix_25 * Iy[k + 3][j];
                                polyc_Ip_2 += polyc_Ix_26 * Iy[k + 3][j];
                                polyc_Ip_3 += polyc_Ix_27 * Iy[k + 3][j];
                                polyc_Ip_4 += polyc_Ix_28 * Iy[k + 3][j];
                                polyc_Ip_5 += polyc_Ix_29 * Iy[k + 3][j];
                                polyc_Ip_6 += polyc_Ix_30 * Iy[k + 3][j];
                                polyc_Ip_7 += polyc_Ix_31 * Iy[k + 3][j];
                                Ip[i][j] = polyc_Ip;
                                Ip[i + 1][j] = polyc_Ip_1;
                                Ip[i + 2][j] = polyc_Ip_2;
                                Ip[i + 3][j] = polyc_Ip_3;
                                Ip[i + 4][j] = polyc_Ip_4;
                                Ip[i + 5][j] = polyc_Ip_5;
                                Ip[i + 6][j] = polyc_Ip_6;
                                Ip[i + 7][j] = polyc_Ip_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
                              const __typeof__(Ix[i + 1][k]) polyc_Ix_1 = Ix[i + 1][k];
                              const __typeof__(Ix[i + 2][k]) polyc_Ix_2 = Ix[i + 2][k];
                              const __typeof__(Ix[i + 3][k]) polyc_Ix_3 = Ix[i + 3][k];
                              const __typeof__(Ix[i + 4][k]) polyc_Ix_4 = Ix[i + 4][k];
                              const __typeof__(Ix[i + 5][k]) polyc_Ix_5 = Ix[i + 5][k];
                              const __typeof__(Ix[i + 6][k]) polyc_Ix_6 = Ix[i + 6][k];
                              const __typeof__(Ix[i + 7][k]) polyc_Ix_7 = Ix[i + 7][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                Ip[i][j] += polyc_Ix * Iy[k][j];
                                Ip[i + 1][j] += polyc_Ix_1 * Iy[k][j];
                                Ip[i + 2][j] += polyc_Ix_2 * Iy[k][j];
                                Ip[i + 3][j] += polyc_Ix_3 * Iy[k][j];
                                Ip[i + 4][j] += polyc_Ix_4 * Iy[k][j];
                                Ip[i + 5][j] += polyc_Ix_5 * Iy[k][j];
                                Ip[i + 6][j] += polyc_Ix_6 * Iy[k][j];
                                Ip[i + 7][j] += polyc_Ix_7 * Iy[k][j];
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
                              const __typeof__(Ix[i][k + 1]) polyc_Ix_1 = Ix[i][k + 1];
                              const __typeof__(Ix[i][k + 2]) polyc_Ix_2 = Ix[i][k + 2];
                              const __typeof__(Ix[i][k + 3]) polyc_Ix_3 = Ix[i][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Ip[i][j]) polyc_Ip = Ip[i][j];
                                polyc_Ip += polyc_Ix * Iy[k][j];
                                polyc_Ip += polyc_Ix_1 * Iy[k + 1][j];
                                polyc_Ip += polyc_Ix_2 * Iy[k + 2][j];
                                polyc_Ip += polyc_Ix_3 * Iy[k + 3][j];
                                Ip[i][j] = polyc_Ip;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++)
                                Ip[i][j] += polyc_Ix * Iy[k][j];
                            }
                          }
                      }
                  }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into W[i][j], on packed panels of their factors */
      {
        const long polyc_m = NK - 1;
        const long polyc_n = NJ;
        const long polyc_k = NK - 1;
        const long polyc_lo = 0;
        const long polyc_hi = NK - 2;
        const int polyc_last_first = (polyc_k - 1 < polyc_m - 1 + polyc_hi ? polyc_k - 1 : polyc_m - 1 + polyc_hi) - (0 > polyc_m - 1 + polyc_lo ? 0 : polyc_m - 1 + polyc_lo) > (polyc_k - 1 < polyc_hi ? polyc_k - 1 : polyc_hi) - (0 > polyc_lo ? 0 : polyc_lo);
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(W[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(T[1][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(W[1][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(W[1][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(W[1][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(T[1][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc + 1; k < polyc_pc + polyc_kn + 1; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc - 1)][j % polyc_nr] = W[k][j];
                #pragma omp for schedule(dynamic, 1)
                for (long polyc_block = 0; polyc_block < (polyc_m + polyc_mb - 1) / polyc_mb; polyc_block++) {
                  const long polyc_ic = (polyc_last_first ? (polyc_m + polyc_mb - 1) / polyc_mb - 1 - polyc_block : polyc_block) * polyc_mb;
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  if (polyc_pc + polyc_kn - 1 - polyc_ic < polyc_lo || polyc_pc - (polyc_ic + polyc_rows - 1) > polyc_hi)
                    continue;
                  for (int k = polyc_pc + 1; k < polyc_pc + polyc_kn + 1; k++)
                    for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                      if (1 <= k - i && k - i <= NK - 1)
                        polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc - 1)][(i - polyc_ic) % polyc_mr] = T[k][i];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const long polyc_diagonal = polyc_pc - (polyc_ic + polyc_ir);
                      const long polyc_first = polyc_lo - polyc_diagonal < 0 ? 0 : polyc_lo - polyc_diagonal > polyc_kn ? polyc_kn : polyc_lo - polyc_diagonal;
                      const long polyc_last = polyc_hi - polyc_diagonal + polyc_mr < 0 ? 0 : polyc_hi - polyc_diagonal + polyc_mr > polyc_kn ? polyc_kn : polyc_hi - polyc_diagonal + polyc_mr;
                      const long polyc_from = polyc_lo - polyc_diagonal + polyc_mr - 1 < polyc_first ? polyc_first : polyc_lo - polyc_diagonal + polyc_mr - 1 > polyc_last ? polyc_last : polyc_lo - polyc_diagonal + polyc_mr - 1;
                      const long polyc_to = polyc_hi - polyc_diagonal + 1 < polyc_from ? polyc_from : polyc_hi - polyc_diagonal + 1 > polyc_last ? polyc_last : polyc_hi - polyc_diagonal + 1;
                      if (polyc_first >= polyc_last)
                        continue;
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][polyc_first];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][polyc_first];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(W[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&W[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&W[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = W[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? W[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = polyc_first; polyc_p < polyc_from; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          if (polyc_lo <= polyc_p + polyc_diagonal - polyc_r && polyc_p + polyc_diagonal - polyc_r <= polyc_hi) {
                            #pragma omp simd
                            for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                              polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                          }
                      for (long polyc_p = polyc_from; polyc_p < polyc_to; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      for (long polyc_p = polyc_to; polyc_p < polyc_last; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          if (polyc_lo <= polyc_p + polyc_diagonal - polyc_r && polyc_p + polyc_diagonal - polyc_r <= polyc_hi) {
                            #pragma omp simd
                            for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                              polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                          }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            W[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) W[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NJ - 1, 128); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++) {
                for (int c3 = 0; c3 < c2; c3++)
                  {
                    const int i_end = 32 * c3 + 31;
                    int i = 32 * c3;
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(32 * c2 + 31, NK - 1);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                            if (128 * c1 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k][i + 1]) polyc_T_1 = T[k][i + 1];
                              const __typeof__(T[k][i + 2]) polyc_T_2 = T[k][i + 2];
                              const __typeof__(T[k][i + 3]) polyc_T_3 = T[k][i + 3];
                              const __typeof__(T[k][i + 4]) polyc_T_4 = T[k][i + 4];
                              const __typeof__(T[k][i + 5]) polyc_T_5 = T[k][i + 5];
                              const __typeof__(T[k][i + 6]) polyc_T_6 = T[k][i + 6];
                              const __typeof__(T[k][i + 7]) polyc_T_7 = T[k][i + 7];
                              const __typeof__(T[k + 1][i]) polyc_T_8 = T[k + 1][i];
                              const __typeof__(T[k + 1][i + 1]) polyc_T_9 = T[k + 1][i + 1];
                              const __typeof__(T[k + 1][i + 2]) polyc_T_10 = T[k + 1][i + 2];
                              const __typeof__(T[k + 1][i + 3]) polyc_T_11 = T[k + 1][i + 3];
                              const __typeof__(T[k + 1][i + 4]) polyc_T_12 = T[k + 1][i + 4];
                              const __typeof__(T[k + 1][i + 5]) polyc_T_13 = T[k + 1][i + 5];
                              const __typeof__(T[k + 1][i + 6]) polyc_T_14 = T[k + 1][i + 6];
                              const __typeof__(T[k + 1][i + 7]) polyc_T_15 = T[k + 1][i + 7];
                              const __typeof__(T[k + 2][i]) polyc_T_16 = T[k + 2][i];
                              const __typeof__(T[k + 2][i + 1]) polyc_T_17 = T[k + 2][i + 1];
                              const __typeof__(T[k + 2][i + 2]) polyc_T_18 = T[k + 2][i + 2];
                              const __typeof__(T[k + 2][i + 3]) polyc_T_19 = T[k + 2][i + 3];
                              const __typeof__(T[k + 2][i + 4]) polyc_T_20 = T[k + 2][i + 4];
                              const __typeof__(T[k + 2][i + 5]) polyc_T_21 = T[k + 2][i + 5];
                              const __typeof__(T[k + 2][i + 6]) polyc_T_22 = T[k + 2][i + 6];
                              const __typeof__(T[k + 2][i + 7]) polyc_T_23 = T[k + 2][i + 7];
                              const __typeof__(T[k + 3][i]) polyc_T_24 = T[k + 3][i];
                              const __typeof__(T[k + 3][i + 1]) polyc_T_25 = T[k + 3][i + 1];
                              const __typeof__(T[k + 3][i + 2]) polyc_T_26 = T[k + 3][i + 2];
                              const __typeof__(T[k + 3][i + 3]) polyc_T_27 = T[k + 3][i + 3];
                              const __typeof__(T[k + 3][i + 4]) polyc_T_28 = T[k + 3][i + 4];
                              const __typeof__(T[k + 3][i + 5]) polyc_T_29 = T[k + 3][i + 5];
                              const __typeof__(T[k + 3][i + 6]) polyc_T_30 = T[k + 3][i + 6];
                              const __typeof__(T[k + 3][i + 7]) polyc_T_31 = T[k + 3][i + 7];
                              #pragma omp simd
                              for (int j = 128 * c1; j <= j_end; j++) {
                                __typeof__(W[i][j]) polyc_W = W[i][j];
                                __typeof__(W[i + 1][j]) polyc_W_1 = W[i + 1][j];
                                __typeof__(W[i + 2][j]) polyc_W_2 = W[i + 2][j];
                                __typeof__(W[i + 3][j]) polyc_W_3 = W[i + 3][j];
                                __typeof__(W[i + 4][j]) polyc_W_4 = W[i + 4][j];
                                __typeof__(W[i + 5][j]) polyc_W_5 = W[i + 5][j];
                                __typeof__(W[i + 6][j]) polyc_W_6 = W[i + 6][j];
                                __typeof__(W[i + 7][j]) polyc_W_7 = W[i + 7][j];
                                polyc_W += polyc_T * W[k][j];
                                polyc_W_1 += polyc_T_1 * W[k][j];
                                polyc_W_2 += polyc_T_2 * W[k][j];
                                polyc_W_3 += polyc_T_3 * W[k][j];
                                polyc_W_4 += polyc_T_4 * W[k][j];
                                polyc_W_5 += polyc_T_5 * W[k][j];
                                polyc_W_6 += polyc_T_6 * W[k][j];
                                polyc_W_7 += polyc_T_7 * W[k][j];
                                polyc_W += polyc_T_8 * W[k + 1][j];
                                polyc_W_1 += polyc_T_9 * W[k + 1][j];
                                polyc_W_2 += polyc_T_10 * W[k + 1][j];
                                polyc_W_3 += polyc_T_11 * W[k + 1][j];
                                polyc_W_4 += polyc_T_12 * W[k + 1][j];
                                polyc_W_5 += polyc_T_13 * W[k + 1][j];
                                polyc_W_6 += polyc_T_14 * W[k + 1][j];
                                polyc_W_7 += polyc_T_15 * W[k + 1][j];
                                polyc_W += polyc_T_16 * W[k + 2][j];
                                polyc_W_1 += polyc_T_17 * W[k + 2][j];
                                polyc_W_2 += polyc_T_18 * W[k + 2][j];
                                polyc_W_3 += polyc_T_19 * W[k + 2][j];
                                polyc_W_4 += polyc_T_20 * W[k + 2][j];
                                polyc_W_5 += polyc_T_21 * W[k + 2][j];
                                polyc_W_6 += polyc_T_22 * W[k + 2][j];
                                polyc_W_7 += polyc_T_23 * W[k + 2][j];
                                polyc_W += polyc_T_24 * W[k + 3][j];
                                polyc_W_1 += polyc_T_25 * W[k + 3][j];
                                polyc_W_2 += polyc_T_26 * W[k + 3][j];
                                polyc_W_3 += polyc_T_27 * W[k + 3][j];
                                polyc_W_4 += polyc_T_28 * W[k + 3][j];
                                polyc_W_5 += polyc_T_29 * W[k + 3][j];
                                polyc_W_6 += polyc_T_30 * W[k + 3][j];
                                polyc_W_7 += polyc_T_31 * W[k + 3][j];
                                W[i][j] = polyc_W;
                                W[i + 1][j] = polyc_W_1;
                                W[i + 2][j] = polyc_W_2;
                                W[i + 3][j] = polyc_W_3;
                                W[i + 4][j] = polyc_W_4;
                                W[i + 5][j] = polyc_W_5;
                                W[i + 6][j] = polyc_W_6;
                                W[i + 7][j] = polyc_W_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                            if (128 * c1 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k][i + 1]) polyc_T_1 = T[k][i + 1];
                              const __typeof__(T[k][i + 2]) polyc_T_2 = T[k][i + 2];
                              const __typeof__(T[k][i + 3]) polyc_T_3 = T[k][i + 3];
                              const __typeof__(T[k][i + 4]) polyc_T_4 = T[k][i + 4];
                              const __typeof__(T[k][i + 5]) polyc_T_5 = T[k][i + 5];
                              const __typeof__(T[k][i + 6]) polyc_T_6 = T[k][i + 6];
                              const __typeof__(T[k][i + 7]) polyc_T_7 = T[k][i + 7];
                              #pragma omp simd
                              for (int j = 128 * c1; j <= j_end; j++) {
                                W[i][j] += polyc_T * W[k][j];
                                W[i + 1][j] += polyc_T_1 * W[k][j];
                                W[i + 2][j] += polyc_T_2 * W[k][j];
                                W[i + 3][j] += polyc_T_3 * W[k][j];
                                W[i + 4][j] += polyc_T_4 * W[k][j];
                                W[i + 5][j] += polyc_T_5 * W[k][j];
                                W[i + 6][j] += polyc_T_6 * W[k][j];
                                W[i + 7][j] += polyc_T_7 * W[k][j];
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(32 * c2 + 31, NK - 1);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                            if (128 * c1 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k + 1][i]) polyc_T_1 = T[k + 1][i];
                              const __typeof__(T[k + 2][i]) polyc_T_2 = T[k + 2][i];
                              const __typeof__(T[k + 3][i]) polyc_T_3 = T[k + 3][i];
                              #pragma omp simd
                              for (int j = 128 * c1; j <= j_end; j++) {
                                __typeof__(W[i][j]) polyc_W = W[i][j];
                                polyc_W += polyc_T * W[k][j];
                                polyc_W += polyc_T_1 * W[k + 1][j];
                                polyc_W += polyc_T_2 * W[k + 2][j];
                                polyc_W += polyc_T_3 * W[k + 3][j];
                                W[i][j] = polyc_W;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                            if (128 * c1 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              #pragma omp simd
                              for (int j = 128 * c1; j <= j_end; j++)
                                W[i][j] += polyc_T * W[k][j];
                            }
                          }
                      }
                  }
                for (int i = 32 * c2; i <= polyc_min(32 * c2 + 30, NK - 2); i++)
                  {
                    const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                    int k = i + 1;
                    for (; k <= k_end - 3; k += 4)
                      {
                        const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                        if (128 * c1 <= j_end) {
                          const __typeof__(T[k][i]) polyc_T = T[k][i];
                          const __typeof__(T[k + 1][i]) polyc_T_1 = T[k + 1][i];
                          const __typeof__(T[k + 2][i]) polyc_T_2 = T[k + 2][i];
                          const __typeof__(T[k + 3][i]) polyc_T_3 = T[k + 3][i];
                          #pragma omp simd
                          for (int j = 128 * c1; j <= j_end; j++) {
                            W[i][j] += polyc_T * W[k][j];
                            W[i][j] += polyc_T_1 * W[k + 1][j];
                            W[i][j] += polyc_T_2 * W[k + 2][j];
                            W[i][j] += polyc_T_3 * W[k + 3][j];
                          }
                        }
                      }
                    for (; k <= k_end; k++)
                      {
                        const int j_end = polyc_min(128 * c1 + 127, NJ - 1);
                        if (128 * c1 <= j_end) {
                          const __typeof__(T[k][i]) polyc_T = T[k][i];
                          #pragma omp simd
                          for (int j = 128 * c1; j <= j_end; j++)
                            W[i][j] += polyc_T * W[k][j];
                        }
                      }
                  }
              }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      #pragma omp parallel for schedule(static)
      for (int i = 0; i < NI; i++)
        #pragma omp simd
        for (int j = 0; j < NJ; j++)
          S[i][j] = 0.0;
      #pragma omp parallel for schedule(static)
      for (int i = 0; i < NK; i++)
        #pragma omp simd
        for (int j = 0; j < NJ; j++)
          W[i][j] = alpha * W[i][j];
      /* the products summed into R[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI;
        const long polyc_n = NJ;
        const long polyc_k = NK - 1;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(R[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(X[0][1]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(V[0][1]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(V[0][1]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(V[0][1])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(X[0][1])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int j = 0; j <= NJ - 1; j++)
                  for (int k = polyc_pc + 1; k < polyc_pc + polyc_kn + 1; k++)
                    polyc_b[j / polyc_nr][(k - polyc_pc - 1)][j % polyc_nr] = V[j][k];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc + 1; k < polyc_pc + polyc_kn + 1; k++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc - 1)][(i - polyc_ic) % polyc_mr] = X[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(R[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&R[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&R[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = R[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? R[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] -= polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            R[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) R[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 32); c3++)
                  for (int i = 32 * c1; i <= polyc_min(32 * c1 + 31, NI - 1); i++)
                    for (int j = 32 * c3; j <= polyc_min(NJ - 1, 32 * c3 + 31); j++)
                      for (int k = polyc_max(32 * c2, 1); k <= polyc_min(32 * c2 + 31, NK - 1); k++)
                        R[i][j] -= X[i][k] * V[j][k];
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into S[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(S[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(X[0][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Y[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Y[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Y[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(X[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Y[k][j];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = X[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(S[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&S[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&S[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = S[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? S[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            S[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) S[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                  {
                    const int i_end = polyc_min(32 * c1 + 31, NI - 1);
                    int i = 32 * c1;
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                              const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                              const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                              const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                              const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                              const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                              const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                              const __typeof__(X[i][k + 1]) polyc_X_8 = X[i][k + 1];
                              const __typeof__(X[i + 1][k + 1]) polyc_X_9 = X[i + 1][k + 1];
                              const __typeof__(X[i + 2][k + 1]) polyc_X_10 = X[i + 2][k + 1];
                              const __typeof__(X[i + 3][k + 1]) polyc_X_11 = X[i + 3][k + 1];
                              const __typeof__(X[i + 4][k + 1]) polyc_X_12 = X[i + 4][k + 1];
                              const __typeof__(X[i + 5][k + 1]) polyc_X_13 = X[i + 5][k + 1];
                              const __typeof__(X[i + 6][k + 1]) polyc_X_14 = X[i + 6][k + 1];
                              const __typeof__(X[i + 7][k + 1]) polyc_X_15 = X[i + 7][k + 1];
                              const __typeof__(X[i][k + 2]) polyc_X_16 = X[i][k + 2];
                              const __typeof__(X[i + 1][k + 2]) polyc_X_17 = X[i + 1][k + 2];
                              const __typeof__(X[i + 2][k + 2]) polyc_X_18 = X[i + 2][k + 2];
                              const __typeof__(X[i + 3][k + 2]) polyc_X_19 = X[i + 3][k + 2];
                              const __typeof__(X[i + 4][k + 2]) polyc_X_20 = X[i + 4][k + 2];
                              const __typeof__(X[i + 5][k + 2]) polyc_X_21 = X[i + 5][k + 2];
                              const __typeof__(X[i + 6][k + 2]) polyc_X_22 = X[i + 6][k + 2];
                              const __typeof__(X[i + 7][k + 2]) polyc_X_23 = X[i + 7][k + 2];
                              const __typeof__(X[i][k + 3]) polyc_X_24 = X[i][k + 3];
                              const __typeof__(X[i + 1][k + 3]) polyc_X_25 = X[i + 1][k + 3];
                              const __typeof__(X[i + 2][k + 3]) polyc_X_26 = X[i + 2][k + 3];
                              const __typeof__(X[i + 3][k + 3]) polyc_X_27 = X[i + 3][k + 3];
                              const __typeof__(X[i + 4][k + 3]) polyc_X_28 = X[i + 4][k + 3];
                              const __typeof__(X[i + 5][k + 3]) polyc_X_29 = X[i + 5][k + 3];
                              const __typeof__(X[i + 6][k + 3]) polyc_X_30 = X[i + 6][k + 3];
                              const __typeof__(X[i + 7][k + 3]) polyc_X_31 = X[i + 7][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(S[i][j]) polyc_S = S[i][j];
                                __typeof__(S[i + 1][j]) polyc_S_1 = S[i + 1][j];
                                __typeof__(S[i + 2][j]) polyc_S_2 = S[i + 2][j];
                                __typeof__(S[i + 3][j]) polyc_S_3 = S[i + 3][j];
                                __typeof__(S[i + 4][j]) polyc_S_4 = S[i + 4][j];
                                __typeof__(S[i + 5][j]) polyc_S_5 = S[i + 5][j];
                                __typeof__(S[i + 6][j]) polyc_S_6 = S[i + 6][j];
                                __typeof__(S[i + 7][j]) polyc_S_7 = S[i + 7][j];
                                polyc_S += polyc_X * Y[k][j];
                                polyc_S_1 += polyc_X_1 * Y[k][j];
                                polyc_S_2 += polyc_X_2 * Y[k][j];
                                polyc_S_3 += polyc_X_3 * Y[k][j];
                                polyc_S_4 += polyc_X_4 * Y[k][j];
                                polyc_S_5 += polyc_X_5 * Y[k][j];
                                polyc_S_6 += polyc_X_6 * Y[k][j];
                                polyc_S_7 += polyc_X_7 * Y[k][j];
                                polyc_S += polyc_X_8 * Y[k + 1][j];
                                polyc_S_1 += polyc_X_9 * Y[k + 1][j];
                                polyc_S_2 += polyc_X_10 * Y[k + 1][j];
                                polyc_S_3 += polyc_X_11 * Y[k + 1][j];
                                polyc_S_4 += polyc_X_12 * Y[k + 1][j];
                                polyc_S_5 += polyc_X_13 * Y[k + 1][j];
                                polyc_S_6 += polyc_X_14 * Y[k + 1][j];
                                polyc_S_7 += polyc_X_15 * Y[k + 1][j];
                                polyc_S += polyc_X_16 * Y[k + 2][j];
                                polyc_S_1 += polyc_X_17 * Y[k + 2][j];
                                polyc_S_2 += polyc_X_18 * Y[k + 2][j];
                                polyc_S_3 += polyc_X_19 * Y[k + 2][j];
                                polyc_S_4 += polyc_X_20 * Y[k + 2][j];
                                polyc_S_5 += polyc_X_21 * Y[k + 2][j];
                                polyc_S_6 += polyc_X_22 * Y[k + 2][j];
                                polyc_S_7 += polyc_X_23 * Y[k + 2][j];
                                polyc_S += polyc_X_24 * Y[k + 3][j];
                                polyc_S_1 += polyc_X_25 * Y[k + 3][j];
                                polyc_S_2 += polyc_X_26 * Y[k + 3][j];
                                polyc_S_3 += polyc_X_27 * Y[k + 3][j];
                                polyc_S_4 += polyc_X_28 * Y[k + 3][j];
                                polyc_S_5 += polyc_X_29 * Y[k + 3][j];
                                polyc_S_6 += polyc_X_30 * Y[k + 3][j];
                                polyc_S_7 += polyc_X_31 * Y[k + 3][j];
                                S[i][j] = polyc_S;
                                S[i + 1][j] = polyc_S_1;
                                S[i + 2][j] = polyc_S_2;
                                S[i + 3][j] = polyc_S_3;
                                S[i + 4][j] = polyc_S_4;
                                S[i + 5][j] = polyc_S_5;
                                S[i + 6][j] = polyc_S_6;
                                S[i + 7][j] = polyc_S_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i + 1][k]) polyc_X_1 = X[i + 1][k];
                              const __typeof__(X[i + 2][k]) polyc_X_2 = X[i + 2][k];
                              const __typeof__(X[i + 3][k]) polyc_X_3 = X[i + 3][k];
                              const __typeof__(X[i + 4][k]) polyc_X_4 = X[i + 4][k];
                              const __typeof__(X[i + 5][k]) polyc_X_5 = X[i + 5][k];
                              const __typeof__(X[i + 6][k]) polyc_X_6 = X[i + 6][k];
                              const __typeof__(X[i + 7][k]) polyc_X_7 = X[i + 7][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                S[i][j] += polyc_X * Y[k][j];
                                S[i + 1][j] += polyc_X_1 * Y[k][j];
                                S[i + 2][j] += polyc_X_2 * Y[k][j];
                                S[i + 3][j] += polyc_X_3 * Y[k][j];
                                S[i + 4][j] += polyc_X_4 * Y[k][j];
                                S[i + 5][j] += polyc_X_5 * Y[k][j];
                                S[i + 6][j] += polyc_X_6 * Y[k][j];
                                S[i + 7][j] += polyc_X_7 * Y[k][j];
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              const __typeof__(X[i][k + 1]) polyc_X_1 = X[i][k + 1];
                              const __typeof__(X[i][k + 2]) polyc_X_2 = X[i][k + 2];
                              const __typeof__(X[i][k + 3]) polyc_X_3 = X[i][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(S[i][j]) polyc_S = S[i][j];
                                polyc_S += polyc_X * Y[k][j];
                                polyc_S += polyc_X_1 * Y[k + 1][j];
                                polyc_S += polyc_X_2 * Y[k + 2][j];
                                polyc_S += polyc_X_3 * Y[k + 3][j];
                                S[i][j] = polyc_S;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(X[i][k]) polyc_X = X[i][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++)
                                S[i][j] += polyc_X * Y[k][j];
                            }
                          }
                      }
                  }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into Fp[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(Fp[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(Fx[0][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Fy[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Fy[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Fy[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(Fx[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Fy[k][j];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = Fx[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(Fp[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&Fp[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&Fp[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = Fp[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? Fp[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            Fp[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) Fp[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                  {
                    const int i_end = polyc_min(32 * c1 + 31, NI - 1);
                    int i = 32 * c1;
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
                              const __typeof__(Fx[i + 1][k]) polyc_Fx_1 = Fx[i + 1][k];
                              const __typeof__(Fx[i + 2][k]) polyc_Fx_2 = Fx[i + 2][k];
                              const __typeof__(Fx[i + 3][k]) polyc_Fx_3 = Fx[i + 3][k];
                              const __typeof__(Fx[i + 4][k]) polyc_Fx_4 = Fx[i + 4][k];
                              const __typeof__(Fx[i + 5][k]) polyc_Fx_5 = Fx[i + 5][k];
                              const __typeof__(Fx[i + 6][k]) polyc_Fx_6 = Fx[i + 6][k];
                              const __typeof__(Fx[i + 7][k]) polyc_Fx_7 = Fx[i + 7][k];
                              const __typeof__(Fx[i][k + 1]) polyc_Fx_8 = Fx[i][k + 1];
                              const __typeof__(Fx[i + 1][k + 1]) polyc_Fx_9 = Fx[i + 1][k + 1];
                              const __typeof__(Fx[i + 2][k + 1]) polyc_Fx_10 = Fx[i + 2][k + 1];
                              const __typeof__(Fx[i + 3][k + 1]) polyc_Fx_11 = Fx[i + 3][k + 1];
                              const __typeof__(Fx[i + 4][k + 1]) polyc_Fx_12 = Fx[i + 4][k + 1];
                              const __typeof__(Fx[i + 5][k + 1]) polyc_Fx_13 = Fx[i + 5][k + 1];
                              const __typeof__(Fx[i + 6][k + 1]) polyc_Fx_14 = Fx[i + 6][k + 1];
                              const __typeof__(Fx[i + 7][k + 1]) polyc_Fx_15 = Fx[i + 7][k + 1];
                              const __typeof__(Fx[i][k + 2]) polyc_Fx_16 = Fx[i][k + 2];
                              const __typeof__(Fx[i + 1][k + 2]) polyc_Fx_17 = Fx[i + 1][k + 2];
                              const __typeof__(Fx[i + 2][k + 2]) polyc_Fx_18 = Fx[i + 2][k + 2];
                              const __typeof__(Fx[i + 3][k + 2]) polyc_Fx_19 = Fx[i + 3][k + 2];
                              const __typeof__(Fx[i + 4][k + 2]) polyc_Fx_20 = Fx[i + 4][k + 2];
                              const __typeof__(Fx[i + 5][k + 2]) polyc_Fx_21 = Fx[i + 5][k + 2];
                              const __typeof__(Fx[i + 6][k + 2]) polyc_Fx_22 = Fx[i + 6][k + 2];
                              const __typeof__(Fx[i + 7][k + 2]) polyc_Fx_23 = Fx[i + 7][k + 2];
                              const __typeof__(Fx[i][k + 3]) polyc_Fx_24 = Fx[i][k + 3];
                              const __typeof__(Fx[i + 1][k + 3]) polyc_Fx_25 = Fx[i + 1][k + 3];
                              const __typeof__(Fx[i + 2][k + 3]) polyc_Fx_26 = Fx[i + 2][k + 3];
                              const __typeof__(Fx[i + 3][k + 3]) polyc_Fx_27 = Fx[i + 3][k + 3];
                              const __typeof__(Fx[i + 4][k + 3]) polyc_Fx_28 = Fx[i + 4][k + 3];
                              const __typeof__(Fx[i + 5][k + 3]) polyc_Fx_29 = Fx[i + 5][k + 3];
                              const __typeof__(Fx[i + 6][k + 3]) polyc_Fx_30 = Fx[i + 6][k + 3];
                              const __typeof__(Fx[i + 7][k + 3]) polyc_Fx_31 = Fx[i + 7][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Fp[i][j]) polyc_Fp = Fp[i][j];
                                __typeof__(Fp[i + 1][j]) polyc_Fp_1 = Fp[i + 1][j];
                                __typeof__(Fp[i + 2][j]) polyc_Fp_2 = Fp[i + 2][j];
                                __typeof__(Fp[i + 3][j]) polyc_Fp_3 = Fp[i + 3][j];
                                __typeof__(Fp[i + 4][j]) polyc_Fp_4 = Fp[i + 4][j];
                                __typeof__(Fp[i + 5][j]) polyc_Fp_5 = Fp[i + 5][j];
                                __typeof__(Fp[i + 6][j]) polyc_Fp_6 = Fp[i + 6][j];
                                __typeof__(Fp[i + 7][j]) polyc_Fp_7 = Fp[i + 7][j];
                                polyc_Fp += polyc_Fx * Fy[k][j];
                                polyc_Fp_1 += polyc_Fx_1 * Fy[k][j];
                                polyc_Fp_2 += polyc_Fx_2 * Fy[k][j];
                                polyc_Fp_3 += polyc_Fx_3 * Fy[k][j];
                                polyc_Fp_4 += polyc_Fx_4 * Fy[k][j];
                                polyc_Fp_5 += polyc_Fx_5 * Fy[k][j];
                                polyc_Fp_6 += polyc_Fx_6 * Fy[k][j];
                                polyc_Fp_7 += polyc_Fx_7 * Fy[k][j];
                                polyc_Fp += polyc_Fx_8 * Fy[k + 1][j];
                                polyc_Fp_1 += polyc_Fx_9 * Fy[k + 1][j];
                                polyc_Fp_2 += polyc_Fx_10 * Fy[k + 1][j];
                                polyc_Fp_3 += polyc_Fx_11 * Fy[k + 1][j];
                                polyc_Fp_4 += polyc_Fx_12 * Fy[k + 1][j];
                                polyc_Fp_5 += polyc_Fx_13 * Fy[k + 1][j];
                                polyc_Fp_6 += polyc_Fx_14 * Fy[k + 1][j];
                                polyc_Fp_7 += polyc_Fx_15 * Fy[k + 1][j];
                                polyc_Fp += polyc_Fx_16 * Fy[k + 2][j];
                                polyc_Fp_1 += polyc_Fx_17 * Fy[k + 2][j];
                                polyc_Fp_2 += polyc_Fx_18 * Fy[k + 2][j];
                                polyc_Fp_3 += polyc_Fx_19 * Fy[k + 2][j];
                                polyc_Fp_4 += polyc_Fx_20 * Fy[k + 2][j];
                                polyc_Fp_5 += polyc_Fx_21 * Fy[k + 2][j];
                                polyc_Fp_6 += polyc_Fx_22 * Fy[k + 2][j];
                                polyc_Fp_7 += polyc_Fx_23 * Fy[k + 2][j];
                                polyc_Fp += polyc_Fx_24 * Fy[k + 3][j];
                                polyc_Fp_1 += polyc_Fx_25 * Fy[k + 3][j];
                                polyc_Fp_2 += polyc_Fx_26 * Fy[k + 3][j];
                                polyc_Fp_3 += polyc_Fx_27 * Fy[k + 3][j];
                                polyc_Fp_4 += polyc_Fx_28 * Fy[k + 3][j];
                                polyc_Fp_5 += polyc_Fx_29 * Fy[k + 3][j];
                                polyc_Fp_6 += polyc_Fx_30 * Fy[k + 3][j];
                                polyc_Fp_7 += polyc_Fx_31 * Fy[k + 3][j];
                                Fp[i][j] = polyc_Fp;
                                Fp[i + 1][j] = polyc_Fp_1;
                                Fp[i + 2][j] = polyc_Fp_2;
                                Fp[i + 3][j] = polyc_Fp_3;
                                Fp[i + 4][j] = polyc_Fp_4;
                                Fp[i + 5][j] = polyc_Fp_5;
                                Fp[i + 6][j] = polyc_Fp_6;
                                Fp[i + 7][j] = polyc_Fp_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
                              const __typeof__(Fx[i + 1][k]) polyc_Fx_1 = Fx[i + 1][k];
                              const __typeof__(Fx[i + 2][k]) polyc_Fx_2 = Fx[i + 2][k];
                              const __typeof__(Fx[i + 3][k]) polyc_Fx_3 = Fx[i + 3][k];
                              const __typeof__(Fx[i + 4][k]) polyc_Fx_4 = Fx[i + 4][k];
                              const __typeof__(Fx[i + 5][k]) polyc_Fx_5 = Fx[i + 5][k];
                              const __typeof__(Fx[i + 6][k]) polyc_Fx_6 = Fx[i + 6][k];
                              const __typeof__(Fx[i + 7][k]) polyc_Fx_7 = Fx[i + 7][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                Fp[i][j] += polyc_Fx * Fy[k][j];
                                Fp[i + 1][j] += polyc_Fx_1 * Fy[k][j];
                                Fp[i + 2][j] += polyc_Fx_2 * Fy[k][j];
                                Fp[i + 3][j] += polyc_Fx_3 * Fy[k][j];
                                Fp[i + 4][j] += polyc_Fx_4 * Fy[k][j];
                                Fp[i + 5][j] += polyc_Fx_5 * Fy[k][j];
                                Fp[i + 6][j] += polyc_Fx_6 * Fy[k][j];
                                Fp[i + 7][j] += polyc_Fx_7 * Fy[k][j];
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
                              const __typeof__(Fx[i][k + 1]) polyc_Fx_1 = Fx[i][k + 1];
                              const __typeof__(Fx[i][k + 2]) polyc_Fx_2 = Fx[i][k + 2];
                              const __typeof__(Fx[i][k + 3]) polyc_Fx_3 = Fx[i][k + 3];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Fp[i][j]) polyc_Fp = Fp[i][j];
                                polyc_Fp += polyc_Fx * Fy[k][j];
                                polyc_Fp += polyc_Fx_1 * Fy[k + 1][j];
                                polyc_Fp += polyc_Fx_2 * Fy[k + 2][j];
                                polyc_Fp += polyc_Fx_3 * Fy[k + 3][j];
                                Fp[i][j] = polyc_Fp;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++)
                                Fp[i][j] += polyc_Fx * Fy[k][j];
                            }
                          }
                      }
                  }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      /* the products summed into Q[i][j], on packed panels of their factors */
      {
        const long polyc_m = NI;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(Q[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(T[0][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(Y[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(Y[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(Y[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(T[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                  for (int j = 0; j <= NJ - 1; j++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = Y[k][j];
                #pragma omp for schedule(static)
                for (long polyc_ic = 0; polyc_ic < polyc_m; polyc_ic += polyc_mb) {
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                    for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = T[k][i];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n;
                      __typeof__(Q[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&Q[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&Q[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = Q[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n ? Q[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            Q[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n) Q[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(static)
            for (int c1 = 0; c1 <= polyc_floord(NI - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 256); c3++)
                  {
                    const int i_end = polyc_min(32 * c1 + 31, NI - 1);
                    int i = 32 * c1;
                    for (; i <= i_end - 7; i += 8)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k][i + 1]) polyc_T_1 = T[k][i + 1];
                              const __typeof__(T[k][i + 2]) polyc_T_2 = T[k][i + 2];
                              const __typeof__(T[k][i + 3]) polyc_T_3 = T[k][i + 3];
                              const __typeof__(T[k][i + 4]) polyc_T_4 = T[k][i + 4];
                              const __typeof__(T[k][i + 5]) polyc_T_5 = T[k][i + 5];
                              const __typeof__(T[k][i + 6]) polyc_T_6 = T[k][i + 6];
                              const __typeof__(T[k][i + 7]) polyc_T_7 = T[k][i + 7];
                              const __typeof__(T[k + 1][i]) polyc_T_8 = T[k + 1][i];
                              const __typeof__(T[k + 1][i + 1]) polyc_T_9 = T[k + 1][i + 1];
                              const __typeof__(T[k + 1][i + 2]) polyc_T_10 = T[k + 1][i + 2];
                              const __typeof__(T[k + 1][i + 3]) polyc_T_11 = T[k + 1][i + 3];
                              const __typeof__(T[k + 1][i + 4]) polyc_T_12 = T[k + 1][i + 4];
                              const __typeof__(T[k + 1][i + 5]) polyc_T_13 = T[k + 1][i + 5];
                              const __typeof__(T[k + 1][i + 6]) polyc_T_14 = T[k + 1][i + 6];
                              const __typeof__(T[k + 1][i + 7]) polyc_T_15 = T[k + 1][i + 7];
                              const __typeof__(T[k + 2][i]) polyc_T_16 = T[k + 2][i];
                              const __typeof__(T[k + 2][i + 1]) polyc_T_17 = T[k + 2][i + 1];
                              const __typeof__(T[k + 2][i + 2]) polyc_T_18 = T[k + 2][i + 2];
                              const __typeof__(T[k + 2][i + 3]) polyc_T_19 = T[k + 2][i + 3];
                              const __typeof__(T[k + 2][i + 4]) polyc_T_20 = T[k + 2][i + 4];
                              const __typeof__(T[k + 2][i + 5]) polyc_T_21 = T[k + 2][i + 5];
                              const __typeof__(T[k + 2][i + 6]) polyc_T_22 = T[k + 2][i + 6];
                              const __typeof__(T[k + 2][i + 7]) polyc_T_23 = T[k + 2][i + 7];
                              const __typeof__(T[k + 3][i]) polyc_T_24 = T[k + 3][i];
                              const __typeof__(T[k + 3][i + 1]) polyc_T_25 = T[k + 3][i + 1];
                              const __typeof__(T[k + 3][i + 2]) polyc_T_26 = T[k + 3][i + 2];
                              const __typeof__(T[k + 3][i + 3]) polyc_T_27 = T[k + 3][i + 3];
                              const __typeof__(T[k + 3][i + 4]) polyc_T_28 = T[k + 3][i + 4];
                              const __typeof__(T[k + 3][i + 5]) polyc_T_29 = T[k + 3][i + 5];
                              const __typeof__(T[k + 3][i + 6]) polyc_T_30 = T[k + 3][i + 6];
                              const __typeof__(T[k + 3][i + 7]) polyc_T_31 = T[k + 3][i + 7];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Q[i][j]) polyc_Q = Q[i][j];
                                __typeof__(Q[i + 1][j]) polyc_Q_1 = Q[i + 1][j];
                                __typeof__(Q[i + 2][j]) polyc_Q_2 = Q[i + 2][j];
                                __typeof__(Q[i + 3][j]) polyc_Q_3 = Q[i + 3][j];
                                __typeof__(Q[i + 4][j]) polyc_Q_4 = Q[i + 4][j];
                                __typeof__(Q[i + 5][j]) polyc_Q_5 = Q[i + 5][j];
                                __typeof__(Q[i + 6][j]) polyc_Q_6 = Q[i + 6][j];
                                __typeof__(Q[i + 7][j]) polyc_Q_7 = Q[i + 7][j];
                                polyc_Q = polyc_Q + Y[k][j] * polyc_T;
                                polyc_Q_1 = polyc_Q_1 + Y[k][j] * polyc_T_1;
                                polyc_Q_2 = polyc_Q_2 + Y[k][j] * polyc_T_2;
                                polyc_Q_3 = polyc_Q_3 + Y[k][j] * polyc_T_3;
                                polyc_Q_4 = polyc_Q_4 + Y[k][j] * polyc_T_4;
                                polyc_Q_5 = polyc_Q_5 + Y[k][j] * polyc_T_5;
                                polyc_Q_6 = polyc_Q_6 + Y[k][j] * polyc_T_6;
                                polyc_Q_7 = polyc_Q_7 + Y[k][j] * polyc_T_7;
                                polyc_Q = polyc_Q + Y[k + 1][j] * polyc_T_8;
                                polyc_Q_1 = polyc_Q_1 + Y[k + 1][j] * polyc_T_9;
                                polyc_Q_2 = polyc_Q_2 + Y[k + 1][j] * polyc_T_10;
                                polyc_Q_3 = polyc_Q_3 + Y[k + 1][j] * polyc_T_11;
                                polyc_Q_4 = polyc_Q_4 + Y[k + 1][j] * polyc_T_12;
                                polyc_Q_5 = polyc_Q_5 + Y[k + 1][j] * polyc_T_13;
                                polyc_Q_6 = polyc_Q_6 + Y[k + 1][j] * polyc_T_14;
                                polyc_Q_7 = polyc_Q_7 + Y[k + 1][j] * polyc_T_15;
                                polyc_Q = polyc_Q + Y[k + 2][j] * polyc_T_16;
                                polyc_Q_1 = polyc_Q_1 + Y[k + 2][j] * polyc_T_17;
                                polyc_Q_2 = polyc_Q_2 + Y[k + 2][j] * polyc_T_18;
                                polyc_Q_3 = polyc_Q_3 + Y[k + 2][j] * polyc_T_19;
                                polyc_Q_4 = polyc_Q_4 + Y[k + 2][j] * polyc_T_20;
                                polyc_Q_5 = polyc_Q_5 + Y[k + 2][j] * polyc_T_21;
                                polyc_Q_6 = polyc_Q_6 + Y[k + 2][j] * polyc_T_22;
                                polyc_Q_7 = polyc_Q_7 + Y[k + 2][j] * polyc_T_23;
                                polyc_Q = polyc_Q + Y[k + 3][j] * polyc_T_24;
                                polyc_Q_1 = polyc_Q_1 + Y[k + 3][j] * polyc_T_25;
                                polyc_Q_2 = polyc_Q_2 + Y[k + 3][j] * polyc_T_26;
                                polyc_Q_3 = polyc_Q_3 + Y[k + 3][j] * polyc_T_27;
                                polyc_Q_4 = polyc_Q_4 + Y[k + 3][j] * polyc_T_28;
                                polyc_Q_5 = polyc_Q_5 + Y[k + 3][j] * polyc_T_29;
                                polyc_Q_6 = polyc_Q_6 + Y[k + 3][j] * polyc_T_30;
                                polyc_Q_7 = polyc_Q_7 + Y[k + 3][j] * polyc_T_31;
                                Q[i][j] = polyc_Q;
                                Q[i + 1][j] = polyc_Q_1;
                                Q[i + 2][j] = polyc_Q_2;
                                Q[i + 3][j] = polyc_Q_3;
                                Q[i + 4][j] = polyc_Q_4;
                                Q[i + 5][j] = polyc_Q_5;
                                Q[i + 6][j] = polyc_Q_6;
                                Q[i + 7][j] = polyc_Q_7;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k][i + 1]) polyc_T_1 = T[k][i + 1];
                              const __typeof__(T[k][i + 2]) polyc_T_2 = T[k][i + 2];
                              const __typeof__(T[k][i + 3]) polyc_T_3 = T[k][i + 3];
                              const __typeof__(T[k][i + 4]) polyc_T_4 = T[k][i + 4];
                              const __typeof__(T[k][i + 5]) polyc_T_5 = T[k][i + 5];
                              const __typeof__(T[k][i + 6]) polyc_T_6 = T[k][i + 6];
                              const __typeof__(T[k][i + 7]) polyc_T_7 = T[k][i + 7];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                Q[i][j] = Q[i][j] + Y[k][j] * polyc_T;
                                Q[i + 1][j] = Q[i + 1][j] + Y[k][j] * polyc_T_1;
                                Q[i + 2][j] = Q[i + 2][j] + Y[k][j] * polyc_T_2;
                                Q[i + 3][j] = Q[i + 3][j] + Y[k][j] * polyc_T_3;
                                Q[i + 4][j] = Q[i + 4][j] + Y[k][j] * polyc_T_4;
                                Q[i + 5][j] = Q[i + 5][j] + Y[k][j] * polyc_T_5;
                                Q[i + 6][j] = Q[i + 6][j] + Y[k][j] * polyc_T_6;
                                Q[i + 7][j] = Q[i + 7][j] + Y[k][j] * polyc_T_7;
                              }
                            }
                          }
                      }
                    for (; i <= i_end; i++)
                      {
                        const int k_end = polyc_min(NK - 1, 32 * c2 + 31);
                        int k = 32 * c2;
                        for (; k <= k_end - 3; k += 4)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              const __typeof__(T[k + 1][i]) polyc_T_1 = T[k + 1][i];
                              const __typeof__(T[k + 2][i]) polyc_T_2 = T[k + 2][i];
                              const __typeof__(T[k + 3][i]) polyc_T_3 = T[k + 3][i];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++) {
                                __typeof__(Q[i][j]) polyc_Q = Q[i][j];
                                polyc_Q = polyc_Q + Y[k][j] * polyc_T;
                                polyc_Q = polyc_Q + Y[k + 1][j] * polyc_T_1;
                                polyc_Q = polyc_Q + Y[k + 2][j] * polyc_T_2;
                                polyc_Q = polyc_Q + Y[k + 3][j] * polyc_T_3;
                                Q[i][j] = polyc_Q;
                              }
                            }
                          }
                        for (; k <= k_end; k++)
                          {
                            const int j_end = polyc_min(256 * c3 + 255, NJ - 1);
                            if (256 * c3 <= j_end) {
                              const __typeof__(T[k][i]) polyc_T = T[k][i];
                              #pragma omp simd
                              for (int j = 256 * c3; j <= j_end; j++)
                                Q[i][j] = Q[i][j] + Y[k][j] * polyc_T;
                            }
                          }
                      }
                  }
          }
          __builtin_free(polyc_b_memory);
        }
      }
      #pragma omp parallel for schedule(static)
      for (int i = 0; i < NI; i++)
        #pragma omp simd
        for (int j = 0; j < NJ; j++)
          Out[i][j] = S[i][j] * 0.5 + P[i][j];
      /* the products summed into L[i][j], on packed panels of their factors */
      {
        const long polyc_m = NJ;
        const long polyc_n = NJ;
        const long polyc_k = NK;
        const long polyc_lo = -NJ + 1;
        const long polyc_hi = 0;
        const int polyc_last_first = (polyc_n - 1 < polyc_m - 1 + polyc_hi ? polyc_n - 1 : polyc_m - 1 + polyc_hi) - (0 > polyc_m - 1 + polyc_lo ? 0 : polyc_m - 1 + polyc_lo) > (polyc_n - 1 < polyc_hi ? polyc_n - 1 : polyc_hi) - (0 > polyc_lo ? 0 : polyc_lo);
        enum { polyc_mr = 6, polyc_nr = 2 * POLYC_VECTOR_BYTES / sizeof(__typeof__(L[0][0])), polyc_kc = polyc_pack_steps(sizeof(__typeof__(+(X[0][0]))), 1), polyc_mc = (POLYC_PACK_ROWS + polyc_mr - 1) / polyc_mr * polyc_mr };
        if (polyc_m > 0 && polyc_n > 0 && polyc_k > 0) {
          void *polyc_b_memory = 0;
          if ((__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) <= ((__SIZE_TYPE__)-1 - 64) / sizeof(__typeof__(+(V[0][0]))) / (__SIZE_TYPE__)polyc_kc / (__SIZE_TYPE__)polyc_nr)
            polyc_b_memory = __builtin_malloc(sizeof(__typeof__(+(V[0][0]))) * (__SIZE_TYPE__)((polyc_n + polyc_nr - 1) / polyc_nr) * (__SIZE_TYPE__)polyc_kc * (__SIZE_TYPE__)polyc_nr + 64);
          if (polyc_b_memory) {
            __typeof__(+(V[0][0])) (*restrict polyc_b)[polyc_kc][polyc_nr] = (void *)(((__UINTPTR_TYPE__)polyc_b_memory + 63) & ~(__UINTPTR_TYPE__)63);
            for (long polyc_x = polyc_n; polyc_x < (polyc_n + polyc_nr - 1) / polyc_nr * polyc_nr; polyc_x++)
              for (long polyc_p = 0; polyc_p < polyc_kc; polyc_p++)
                polyc_b[polyc_x / polyc_nr][polyc_p][polyc_x % polyc_nr] = 0;
            #pragma omp parallel
            {
              __typeof__(+(X[0][0])) polyc_a[polyc_mc / polyc_mr][polyc_kc][polyc_mr];
              const long polyc_blocks = ((polyc_m + polyc_mc - 1) / polyc_mc + POLYC_TEAM - 1) / POLYC_TEAM * POLYC_TEAM;
              const long polyc_mb = ((polyc_m + polyc_blocks - 1) / polyc_blocks + polyc_mr - 1) / polyc_mr * polyc_mr;
              for (long polyc_pc = 0; polyc_pc < polyc_k; polyc_pc += polyc_kc) {
                const long polyc_kn = polyc_k - polyc_pc < polyc_kc ? polyc_k - polyc_pc : polyc_kc;
                #pragma omp for schedule(static)
                for (int j = 0; j <= NJ - 1; j++)
                  for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                    polyc_b[j / polyc_nr][(k - polyc_pc)][j % polyc_nr] = V[j][k];
                #pragma omp for schedule(dynamic, 1)
                for (long polyc_block = 0; polyc_block < (polyc_m + polyc_mb - 1) / polyc_mb; polyc_block++) {
                  const long polyc_ic = (polyc_last_first ? (polyc_m + polyc_mb - 1) / polyc_mb - 1 - polyc_block : polyc_block) * polyc_mb;
                  const long polyc_rows = polyc_m - polyc_ic < polyc_mb ? polyc_m - polyc_ic : polyc_mb;
                  for (int i = polyc_ic; i < polyc_ic + polyc_rows; i++)
                    for (int k = polyc_pc; k < polyc_pc + polyc_kn; k++)
                      polyc_a[(i - polyc_ic) / polyc_mr][(k - polyc_pc)][(i - polyc_ic) % polyc_mr] = X[i][k];
                  for (long polyc_x = polyc_rows; polyc_x < (polyc_rows + polyc_mr - 1) / polyc_mr * polyc_mr; polyc_x++)
                    for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++)
                      polyc_a[polyc_x / polyc_mr][polyc_p][polyc_x % polyc_mr] = 0;
                  for (long polyc_jr = 0; polyc_jr < polyc_n; polyc_jr += polyc_nr)
                    for (long polyc_ir = 0; polyc_ir < polyc_rows; polyc_ir += polyc_mr) {
                      const long polyc_diagonal = polyc_jr - (polyc_ic + polyc_ir);
                      if (polyc_diagonal + polyc_nr - 1 < polyc_lo || polyc_diagonal - (polyc_mr - 1) > polyc_hi)
                        continue;
                      const __typeof__(polyc_a[0][0][0]) *polyc_ap = polyc_a[polyc_ir / polyc_mr][0];
                      const __typeof__(polyc_b[0][0][0]) *polyc_bp = polyc_b[polyc_jr / polyc_nr][0];
                      const int polyc_whole = polyc_ir + polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n && polyc_diagonal - (polyc_mr - 1) >= polyc_lo && polyc_diagonal + polyc_nr - 1 <= polyc_hi;
                      __typeof__(L[0][0]) polyc_c[polyc_mr][polyc_nr];
                      if (polyc_ir + 2 * polyc_mr <= polyc_rows && polyc_jr + polyc_nr <= polyc_n && polyc_diagonal - polyc_mr - (polyc_mr - 1) >= polyc_lo && polyc_diagonal - polyc_mr + polyc_nr - 1 <= polyc_hi)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++) {
                          __builtin_prefetch(&L[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr], 1);
                          __builtin_prefetch(&L[polyc_ic + polyc_ir + polyc_r + polyc_mr][polyc_jr + polyc_nr - 1], 1);
                        }
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = L[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] = polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n && polyc_lo <= polyc_diagonal + polyc_l - polyc_r && polyc_diagonal + polyc_l - polyc_r <= polyc_hi ? L[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] : 0;
                      for (long polyc_p = 0; polyc_p < polyc_kn; polyc_p++, polyc_ap += polyc_mr, polyc_bp += polyc_nr)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            polyc_c[polyc_r][polyc_l] += polyc_ap[polyc_r] * polyc_bp[polyc_l];
                      if (polyc_whole)
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            L[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                      else
                        for (int polyc_r = 0; polyc_r < polyc_mr; polyc_r++)
                          #pragma omp simd
                          for (int polyc_l = 0; polyc_l < polyc_nr; polyc_l++)
                            if (polyc_ir + polyc_r < polyc_rows && polyc_jr + polyc_l < polyc_n && polyc_lo <= polyc_diagonal + polyc_l - polyc_r && polyc_diagonal + polyc_l - polyc_r <= polyc_hi) L[polyc_ic + polyc_ir + polyc_r][polyc_jr + polyc_l] = polyc_c[polyc_r][polyc_l];
                    }
                }
              }
            }
          } else {
            #pragma omp parallel for schedule(dynamic)
            for (int c1 = 0; c1 <= polyc_floord(NJ - 1, 32); c1++)
              for (int c2 = 0; c2 <= polyc_floord(NK - 1, 32); c2++)
                for (int c3 = 0; c3 <= c1; c3++)
                  for (int i = 32 * c1; i <= polyc_min(NJ - 1, 32 * c1 + 31); i++)
                    for (int j = 32 * c3; j <= polyc_min(i, 32 * c3 + 31); j++)
                      for (int k = 32 * c2; k <= polyc_min(32 * c2 + 31, NK - 1); k++)
                        L[i][j] += X[i][k] * V[j][k];
          }
          __builtin_free(polyc_b_memory);
        }
      }
    } else {
      if ((double)polyc_max(NI - 1, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ - 2, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 1; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (2 < NJ) {
              const __typeof__(X[i][k]) polyc_X = X[i][k];
              #pragma omp simd
              for (int j = 2; j < NJ; j++)
                P[i][j] += alpha * polyc_X * Y[k][j];
            }
      } else {
        for (int i = 1; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (2 < NJ) {
              const __typeof__(X[i][k]) polyc_X = X[i][k];
              #pragma omp simd
              for (int j = 2; j < NJ; j++)
                P[i][j] += alpha * polyc_X * Y[k][j];
            }
      }
      if ((double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 0; i < NI; i++)
          {
            const int k_end = NK - 1;
            int k = 0;
            for (; k <= k_end - 3; k += 4)
              if (0 < NJ) {
                const __typeof__(T[k][i]) polyc_T = T[k][i];
                const __typeof__(T[k + 1][i]) polyc_T_1 = T[k + 1][i];
                const __typeof__(T[k + 2][i]) polyc_T_2 = T[k + 2][i];
                const __typeof__(T[k + 3][i]) polyc_T_3 = T[k + 3][i];
                #pragma omp simd
                for (int j = 0; j < NJ; j++) {
                  __typeof__(Q[i][j]) polyc_Q = Q[i][j];
                  polyc_Q = polyc_Q + Y[k][j] * polyc_T;
                  polyc_Q = polyc_Q + Y[k + 1][j] * polyc_T_1;
                  polyc_Q = polyc_Q + Y[k + 2][j] * polyc_T_2;
                  polyc_Q = polyc_Q + Y[k + 3][j] * polyc_T_3;
                  Q[i][j] = polyc_Q;
                }
              }
            for (; k <= k_end; k++)
              if (0 < NJ) {
                const __typeof__(T[k][i]) polyc_T = T[k][i];
                #pragma omp simd
                for (int j = 0; j < NJ; j++)
                  Q[i][j] = Q[i][j] + Y[k][j] * polyc_T;
              }
          }
      } else {
        for (int i = 0; i < NI; i++)
          {
            const int k_end = NK - 1;
            int k = 0;
            for (; k <= k_end - 3; k += 4)
              if (0 < NJ) {
                const __typeof__(T[k][i]) polyc_T = T[k][i];
                const __typeof__(T[k + 1][i]) polyc_T_1 = T[k + 1][i];
                const __typeof__(T[k + 2][i]) polyc_T_2 = T[k + 2][i];
                const __typeof__(T[k + 3][i]) polyc_T_3 = T[k + 3][i];
                #pragma omp simd
                for (int j = 0; j < NJ; j++) {
                  __typeof__(Q[i][j]) polyc_Q = Q[i][j];
                  polyc_Q = polyc_Q + Y[k][j] * polyc_T;
                  polyc_Q = polyc_Q + Y[k + 1][j] * polyc_T_1;
                  polyc_Q = polyc_Q + Y[k + 2][j] * polyc_T_2;
                  polyc_Q = polyc_Q + Y[k + 3][j] * polyc_T_3;
                  Q[i][j] = polyc_Q;
                }
              }
            for (; k <= k_end; k++)
              if (0 < NJ) {
                const __typeof__(T[k][i]) polyc_T = T[k][i];
                #pragma omp simd
                for (int j = 0; j < NJ; j++)
                  Q[i][j] = Q[i][j] + Y[k][j] * polyc_T;
              }
          }
      }
      if ((double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK - 1, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 0; i < NI; i++)
          for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 4); c3++)
            if (4 * c3 + 3 < NJ) {
              if (1 < NK) {
                __typeof__(R[i][4 * c3]) polyc_R = R[i][4 * c3];
                __typeof__(R[i][4 * c3 + 1]) polyc_R_1 = R[i][4 * c3 + 1];
                __typeof__(R[i][4 * c3 + 2]) polyc_R_2 = R[i][4 * c3 + 2];
                __typeof__(R[i][4 * c3 + 3]) polyc_R_3 = R[i][4 * c3 + 3];
                for (int k = 1; k < NK; k++) {
                  polyc_R -= X[i][k] * V[4 * c3][k];
                  polyc_R_1 -= X[i][k] * V[4 * c3 + 1][k];
                  polyc_R_2 -= X[i][k] * V[4 * c3 + 2][k];
                  polyc_R_3 -= X[i][k] * V[4 * c3 + 3][k];
                }
                R[i][4 * c3] = polyc_R;
                R[i][4 * c3 + 1] = polyc_R_1;
                R[i][4 * c3 + 2] = polyc_R_2;
                R[i][4 * c3 + 3] = polyc_R_3;
              }
            } else {
              for (int k = 1; k < NK; k++)
                for (int j = 4 * c3; j <= polyc_min(4 * c3 + 3, NJ - 1); j++)
                  R[i][j] -= X[i][k] * V[j][k];
            }
      } else {
        for (int i = 0; i < NI; i++)
          for (int c3 = 0; c3 <= polyc_floord(NJ - 1, 4); c3++)
            if (4 * c3 + 3 < NJ) {
              if (1 < NK) {
                __typeof__(R[i][4 * c3]) polyc_R = R[i][4 * c3];
                __typeof__(R[i][4 * c3 + 1]) polyc_R_1 = R[i][4 * c3 + 1];
                __typeof__(R[i][4 * c3 + 2]) polyc_R_2 = R[i][4 * c3 + 2];
                __typeof__(R[i][4 * c3 + 3]) polyc_R_3 = R[i][4 * c3 + 3];
                for (int k = 1; k < NK; k++) {
                  polyc_R -= X[i][k] * V[4 * c3][k];
                  polyc_R_1 -= X[i][k] * V[4 * c3 + 1][k];
                  polyc_R_2 -= X[i][k] * V[4 * c3 + 2][k];
                  polyc_R_3 -= X[i][k] * V[4 * c3 + 3][k];
                }
                R[i][4 * c3] = polyc_R;
                R[i][4 * c3 + 1] = polyc_R_1;
                R[i][4 * c3 + 2] = polyc_R_2;
                R[i][4 * c3 + 3] = polyc_R_3;
              }
            } else {
              for (int k = 1; k < NK; k++)
                for (int j = 4 * c3; j <= polyc_min(4 * c3 + 3, NJ - 1); j++)
                  R[i][j] -= X[i][k] * V[j][k];
            }
      }
      if ((double)polyc_max(NI, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 0; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (0 < NJ) {
              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Fp[i][j] += polyc_Fx * Fy[k][j];
            }
      } else {
        for (int i = 0; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (0 < NJ) {
              const __typeof__(Fx[i][k]) polyc_Fx = Fx[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Fp[i][j] += polyc_Fx * Fy[k][j];
            }
      }
      if ((double)polyc_max(NI, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 0; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (0 < NJ) {
              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Ip[i][j] += polyc_Ix * Iy[k][j];
            }
      } else {
        for (int i = 0; i < NI; i++)
          for (int k = 0; k < NK; k++)
            if (0 < NJ) {
              const __typeof__(Ix[i][k]) polyc_Ix = Ix[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Ip[i][j] += polyc_Ix * Iy[k][j];
            }
      }
      if ((double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(dynamic)
        for (int i = 0; i < NJ; i++)
          for (int k = 0; k < NK; k++)
            for (int j = 0; j <= i; j++)
              L[i][j] += X[i][k] * V[j][k];
      } else {
        for (int i = 0; i < NJ; i++)
          for (int k = 0; k < NK; k++)
            for (int j = 0; j <= i; j++)
              L[i][j] += X[i][k] * V[j][k];
      }
      if ((double)polyc_max(NJ, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(dynamic)
        for (int i = 0; i < NJ; i++)
          for (int c3 = polyc_ceild(i - 3, 4); c3 <= polyc_floord(NJ - 1, 4); c3++)
            for (int k = 0; k < NK; k++)
              for (int j = polyc_max(4 * c3, i); j <= polyc_min(4 * c3 + 3, NJ - 1); j++)
                U[i][j] += X[i][k] * Y[k][j] - V[j][k] * alpha * X[i][k];
      } else {
        for (int i = 0; i < NJ; i++)
          for (int c3 = polyc_ceild(i - 3, 4); c3 <= polyc_floord(NJ - 1, 4); c3++)
            for (int k = 0; k < NK; k++)
              for (int j = polyc_max(4 * c3, i); j <= polyc_min(4 * c3 + 3, NJ - 1); j++)
                U[i][j] += X[i][k] * Y[k][j] - V[j][k] * alpha * X[i][k];
      }
      for (int i = 0; i < NK; i++)
        if ((double)polyc_max(NJ, 0) * (double)polyc_max(NK - 1, 0) + (double)polyc_max(NJ, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
          #pragma omp parallel for schedule(static)
          for (int j = 0; j < NJ; j++) {
            for (int k = i + 1; k < NK; k++)
              W[i][j] += T[k][i] * W[k][j];
            W[i][j] = alpha * W[i][j];
          }
        } else {
          for (int j = 0; j < NJ; j++) {
            for (int k = i + 1; k < NK; k++)
              W[i][j] += T[k][i] * W[k][j];
            W[i][j] = alpha * W[i][j];
          }
        }
      if ((double)polyc_max(NK - 2, 0) * (double)polyc_max(NK - 2, 0) * (double)polyc_max(NJ, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(dynamic)
        for (int i = 2; i < NK; i++)
          for (int k = 0; k < i - 1; k++)
            if (0 < NJ) {
              const __typeof__(X[i][k]) polyc_X = X[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Z[i][j] -= alpha * polyc_X * Y[k][j];
            }
      } else {
        for (int i = 2; i < NK; i++)
          for (int k = 0; k < i - 1; k++)
            if (0 < NJ) {
              const __typeof__(X[i][k]) polyc_X = X[i][k];
              #pragma omp simd
              for (int j = 0; j < NJ; j++)
                Z[i][j] -= alpha * polyc_X * Y[k][j];
            }
      }
      if (2 * (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) + (double)polyc_max(NI, 0) * (double)polyc_max(NJ, 0) * (double)polyc_max(NK, 0) >= POLYC_MIN_REGION_WORK && POLYC_THREADS > 1) {
        #pragma omp parallel for schedule(static)
        for (int i = 0; i < NI; i++)
          for (int j = 0; j < NJ; j++) {
            S[i][j] = 0.0;
            for (int k = 0; k < NK; k++)
              S[i][j] += X[i][k] * Y[k][j];
            Out[i][j] = S[i][j] * 0.5 + P[i][j];
          }
      } else {
        for (int i = 0; i < NI; i++)
          for (int j = 0; j < NJ; j++) {
            S[i][j] = 0.0;
            for (int k = 0; k < NK; k++)
              S[i][j] += X[i][k] * Y[k][j];
            Out[i][j] = S[i][j] * 0.5 + P[i][j];
          }
      }
    }
  } else {
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
