/* expect: P0012 */
void f(void) {
#pragma scop
#pragma endscop
}
