int main(void) {
  int i = ;
  for (i = 0; i < 10 i++) {
}
