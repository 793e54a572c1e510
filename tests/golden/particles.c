/* particles: damped 2-D oscillators, struct-of-arrays updated through a pointer, explicit Euler */
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

#ifndef TSTEPS
#define TSTEPS 100
#endif
#ifndef NPART
#define NPART 1000
#endif
/* polyc-bench: -DTSTEPS=1000 -DNPART=1000000 */

struct particles {
  double x[NPART];
  double y[NPART];
  double vx[NPART];
  double vy[NPART];
};

static struct particles swarm;

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

static void init(struct particles *p)
{
  for (int i = 0; i < NPART; i++) {
    p->x[i] = (double)(i % 21 - 10) / 10.0;
    p->y[i] = (double)((i * 7) % 17 - 8) / 8.0;
    p->vx[i] = (double)((i * 3) % 5 - 2) / 4.0;
    p->vy[i] = 0.0;
  }
}

static void kernel_particles(struct particles *p, double dt)
{
#pragma scop
  /* polyc: loops regenerated in the source's order */
  {
    double ax;
    double ay;
  for (int t = 0; t < TSTEPS; t++)
    for (int i = 0; i < NPART; i++) {
      ax = -p->x[i] - 0.1 * p->vx[i];
      ay = -p->y[i] - 0.1 * p->vy[i];
      p->vx[i] += dt * ax;
      p->vy[i] += dt * ay;
      p->x[i] += dt * p->vx[i];
      p->y[i] += dt * p->vy[i];
    }
  }
#pragma endscop
}

int main(void)
{
  long total = 4L * NPART;
  init(&swarm);
  POLYC_BENCH_START();
  kernel_particles(&swarm, 0.01);
  POLYC_BENCH_STOP();
  print_array("x", swarm.x, NPART, total <= 4000);
  print_array("y", swarm.y, NPART, total <= 4000);
  print_array("vx", swarm.vx, NPART, total <= 4000);
  print_array("vy", swarm.vy, NPART, total <= 4000);
  return 0;
}
