/* nbody_forces: softened gravitational forces on every body of an array of structs */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

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

#ifndef NPART
#define NPART 400
#endif
/* polyc-bench: -DNPART=12000 */

struct body {
  double x, y, m;
};

static struct body bodies[NPART];
static double fx[NPART];
static double fy[NPART];

/* Print an output array: every element if the program's total output is
   small, otherwise the sum of all elements and every 97th element. */
static void print_array(const char *name, const double *a, long n, int all)
{
  double s = 0.0;
  if (all) {
    printf("%s\n", name);
    for (long i = 0; i < n; i++)
      printf("%.10e\n", a[i]);
    return;
  }
  for (long i = 0; i < n; i++)
    s += a[i];
  printf("%s sum %.10e\n", name, s);
  for (long i = 0; i < n; i += 97)
    printf("%.10e\n", a[i]);
}

static void init(void)
{
  for (int i = 0; i < NPART; i++) {
    bodies[i].x = (double)((i * 37) % 101) / 10.0;
    bodies[i].y = (double)((i * 53) % 97) / 10.0;
    bodies[i].m = 1.0 + (double)(i % 4) / 4.0;
  }
}

static void kernel_nbody_forces(void)
{
  const double eps2 = 0.01;
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double fxi;
    double fyi;
    double dx;
    double dy;
    double r2;
    double s;
  for (int i = 0; i < NPART; i++) {
    fxi = 0.0;
    fyi = 0.0;
    for (int j = 0; j < NPART; j++) {
      dx = bodies[j].x - bodies[i].x;
      dy = bodies[j].y - bodies[i].y;
      r2 = dx * dx + dy * dy + eps2;
      s = bodies[j].m / (r2 * sqrt(r2));
      fxi += dx * s;
      fyi += dy * s;
    }
    fx[i] = fxi;
    fy[i] = fyi;
  }
  }
#pragma endscop
}

int main(void)
{
  long total = 2L * NPART;
  init();
  POLYC_BENCH_START();
  kernel_nbody_forces();
  POLYC_BENCH_STOP();
  print_array("fx", fx, NPART, total <= 4000);
  print_array("fy", fy, NPART, total <= 4000);
  return 0;
}
